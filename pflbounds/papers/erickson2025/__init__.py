"""erickson2025: Erickson & Johansson (2025), Karula: personalized FL under model
dissimilarity constraints."""

from pflbounds.papers.erickson2025.paper import P

P.register(
    "Personalized Federated Learning under Model Dissimilarity Constraints",
    "S. Erickson, M. Johansson. arXiv 2505.07575 v2 (2025).",
    digest="001_karula_digest.md",
)

from pflbounds.papers.erickson2025 import theory  # noqa: E402,F401  (registers)
