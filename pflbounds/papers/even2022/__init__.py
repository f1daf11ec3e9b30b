"""even2022: Even, Massoulie & Scaman (2022), sample optimality in personalized FL."""

from pflbounds.papers.even2022.paper import P

P.register(
    "On Sample Optimality in Personalized Collaborative and Federated Learning",
    "M. Even, L. Massoulie, K. Scaman. NeurIPS 2022 (HAL hal-03902927).",
    digest="000_even2022_digest.md",
)

from pflbounds.papers.even2022 import complexity, methods, theory  # noqa: E402,F401  (registers)
