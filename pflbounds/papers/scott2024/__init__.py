"""scott2024: Scott, Zakerinia & Lampert (2024), PeFLL: personalized federated learning by
learning to learn (hypernetworks, convergence and PAC-Bayes generalization)."""

from pflbounds.papers.scott2024.paper import P

P.register(
    "PeFLL: Personalized Federated Learning by Learning to Learn",
    "J. Scott, H. Zakerinia, C. H. Lampert. ICLR 2024 (arXiv 2306.05515).",
    digest="003_pefll_digest.md",
)

from pflbounds.papers.scott2024 import theory  # noqa: E402,F401  (registers)
