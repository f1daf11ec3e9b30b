"""philippenko2025: Philippenko, Le Bars, Scaman & Massoulie (2025), adaptive collaboration.

Importing the package registers the paper and declares its layout (``MANIFEST``). A full load
(every command but ``eval`` and ``solve``) imports what the manifest names; ``eval`` and
``solve`` import only the theory module that declares their result (the loader finds it in an
index generated from the manifest).
"""

from pflbounds.papers.philippenko2025.paper import P
from pflbounds.symbolic.manifest import Manifest

P.register(
    "Adaptive collaboration for online personalized distributed learning with heterogeneous "
    "clients",
    "C. Philippenko, B. Le Bars, K. Scaman, L. Massoulie. arXiv 2507.06844 v1 (2025).",
    digest="002_adaptive_collab_digest.md",
)

MANIFEST = Manifest(
    theory=("weights", "sufficient_cluster", "step_ratio", "heterogeneity", "descent",
            "effective_cluster", "rates", "sample_complexity", "nonconvex"),
    checks=("weights", "sufficient_cluster", "step_ratio", "heterogeneity", "descent",
            "effective_cluster", "rates", "sample_complexity", "nonconvex"),
    experiments=("figure2",),
    instances=True,
    complexity=True,
    audit=True,
)
