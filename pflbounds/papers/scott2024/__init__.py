"""scott2024: Scott, Zakerinia & Lampert (2024), PeFLL: personalized federated learning by
learning to learn (hypernetworks, convergence and PAC-Bayes generalization)."""

from pflbounds.papers.scott2024.paper import P

P.register(
    "PeFLL: Personalized Federated Learning by Learning to Learn",
    "J. Scott, H. Zakerinia, C. H. Lampert. ICLR 2024 (arXiv 2306.05515).",
    digest="003_pefll_digest.md",
)

# the listing order: Lemmas C.1-C.5, Theorem 3.1, Theorem B.1, Theorem 3.2, communication
from pflbounds.papers.scott2024.theory import lemmas  # noqa: E402,F401,I001  (registers)
from pflbounds.papers.scott2024.theory import convergence  # noqa: E402,F401,I001
from pflbounds.papers.scott2024.theory import pac_bayes  # noqa: E402,F401,I001
from pflbounds.papers.scott2024.theory import generalization  # noqa: E402,F401,I001
from pflbounds.papers.scott2024.theory import communication_costs  # noqa: E402,F401,I001
from pflbounds.papers.scott2024 import experiments  # noqa: E402,F401,I001
