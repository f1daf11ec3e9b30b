"""hanzely2023: Hanzely, Zhao & Kolar (2023), the unified personalized FL framework.

Importing the package registers the paper and declares its layout (``MANIFEST``). A full load
(every command but ``eval`` and ``solve``) imports what the manifest names; ``eval`` and
``solve`` import only the theory module that declares their result (the loader finds it in an
index generated from the manifest).
"""

from pflbounds.papers.hanzely2023.paper import P
from pflbounds.symbolic.manifest import Manifest

P.register(
    "Personalized Federated Learning: A Unified Framework and Universal Optimization Techniques",
    "F. Hanzely, B. Zhao, M. Kolar. Transactions on Machine Learning Research, 2023 "
    "(arXiv:2102.09743).",
    digest="004_hanzely_digest.md",
)

MANIFEST = Manifest(
    theory=("objectives", "lsgd", "nonconvex", "lower", "acd", "asvrcd", "facts", "table3"),
    checks=("objectives", "lsgd", "nonconvex", "lower", "acd", "asvrcd", "facts", "table3"),
    experiments=("section5",),
    instances=True,
    complexity=True,
    audit=True,
)
