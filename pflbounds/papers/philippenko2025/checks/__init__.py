"""philippenko2025 checks: predictions P1-P20 of the digest (§6), the erratum checks (E*) and
Figure 2 of Appendix A regenerated (F2)."""

from pflbounds.checking.registry import register
from pflbounds.papers.philippenko2025.checks import (
    clusters,
    descent,
    estimated,
    figure2,
    nonconvex,
    rates,
    weights,
)

ALL = [*weights.CHECKS, *descent.CHECKS, *clusters.CHECKS, *rates.CHECKS, *estimated.CHECKS,
       *nonconvex.CHECKS, *figure2.CHECKS]
for _c in ALL:
    register(_c)
