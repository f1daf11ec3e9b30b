"""philippenko2025: Philippenko, Le Bars, Scaman & Massoulie (2025), adaptive collaboration."""

from pflbounds.papers.philippenko2025.paper import P

P.register(
    "Adaptive collaboration for online personalized distributed learning with heterogeneous "
    "clients",
    "C. Philippenko, B. Le Bars, K. Scaman, L. Massoulie. 2025 (Inria Paris / Univ. Lille).",
    digest="002_adaptive_collab_digest.md",
)

from pflbounds.papers.philippenko2025 import complexity, methods, theory  # noqa: E402,F401
