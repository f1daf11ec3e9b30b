"""even2022: Even, Massoulie & Scaman (2022), sample optimality in personalized FL.

Importing the package registers the paper and declares its layout (``MANIFEST``). A full load
(every command but ``eval`` and ``solve``) imports what the manifest names; ``eval`` and
``solve`` import only the theory module that declares their result (the loader finds it in an
index generated from the manifest), so a cold start builds one module's formulas, not the
paper's 30.
"""

from pflbounds.papers.even2022.paper import P
from pflbounds.symbolic.manifest import Manifest

P.register(
    "On Sample Optimality in Personalized Collaborative and Federated Learning",
    "M. Even, L. Massoulie, K. Scaman. NeurIPS 2022 (HAL hal-03902927).",
    digest="000_even2022_digest.md",
)

MANIFEST = Manifest(
    theory=("afa", "oracle_weights", "sgd", "afo", "baselines", "estimated", "concentration",
            "lower_bound", "speedup"),
    checks=("afa", "oracle_weights", "sgd", "afo", "baselines", "estimated", "concentration",
            "lower_bound", "speedup"),
    experiments=("figure1",),
    instances=True,
    complexity=True,
    audit=True,
)
