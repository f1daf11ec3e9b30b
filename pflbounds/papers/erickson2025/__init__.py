"""erickson2025: Erickson & Johansson (2025), Karula: personalized FL under model
dissimilarity constraints.

Importing the package registers the paper and declares its layout (``MANIFEST``). A full load
imports what the manifest names; ``eval`` and ``solve`` import only the theory or experiment
module that declares their result (the loader finds it in an index generated from the
manifest).
"""

from pflbounds.papers.erickson2025.paper import P
from pflbounds.symbolic.manifest import Manifest

P.register(
    "Personalized Federated Learning under Model Dissimilarity Constraints",
    "S. Erickson, M. Johansson. arXiv 2505.07575 v2 (2025).",
    digest="001_karula_digest.md",
)

MANIFEST = Manifest(
    theory=("dissimilarity", "lemmas", "general_step", "convergence", "corollaries",
            "participation"),
    checks=("dissimilarity", "lemmas", "general_step", "convergence", "corollaries",
            "participation"),
    experiments=("table1", "figure1", "digits"),
    instances=True,
    audit=True,
)
