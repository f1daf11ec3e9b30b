"""hanzely2023: Hanzely, Zhao & Kolar (2023), the unified personalized FL framework."""

from pflbounds.papers.hanzely2023.paper import P

P.register(
    "Personalized Federated Learning: A Unified Framework and Universal Optimization Techniques",
    "F. Hanzely, B. Zhao, M. Kolar. Transactions on Machine Learning Research, 2023 "
    "(arXiv:2102.09743).",
    digest="004_hanzely_digest.md",
)

from pflbounds.papers.hanzely2023 import complexity, methods, theory  # noqa: E402,F401  (registers)
