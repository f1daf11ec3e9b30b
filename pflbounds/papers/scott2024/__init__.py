"""scott2024: Scott, Zakerinia & Lampert (2024), PeFLL: personalized federated learning by
learning to learn (hypernetworks, convergence and PAC-Bayes generalization).

Importing the package registers the paper and declares its layout (``MANIFEST``). A full load
imports what the manifest names; ``eval`` and ``solve`` import only the module that declares
their result (the loader finds it in an index generated from the manifest).
"""

from pflbounds.papers.scott2024.paper import P
from pflbounds.symbolic.manifest import Manifest

P.register(
    "PeFLL: Personalized Federated Learning by Learning to Learn",
    "J. Scott, H. Zakerinia, C. H. Lampert. ICLR 2024 (arXiv 2306.05515).",
    digest="003_pefll_digest.md",
)

MANIFEST = Manifest(
    theory=("lemmas", "convergence", "pac_bayes", "generalization", "communication_costs"),
    checks=("lemmas", "convergence", "pac_bayes", "generalization", "communication_costs"),
    experiments=("benchmarks", "new_clients", "ablations", "descriptor_geometry"),
    instances=True,
    complexity=False,
    audit=True,
)
