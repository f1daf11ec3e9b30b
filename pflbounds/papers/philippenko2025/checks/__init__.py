"""philippenko2025 checks: predictions P1-P20 of the digest (§6) and the erratum checks (E*)."""

from pflbounds.checking.registry import register
from pflbounds.papers.philippenko2025.checks import (
    clusters,
    descent,
    estimated,
    nonconvex,
    rates,
    weights,
)

ALL = [*weights.CHECKS, *descent.CHECKS, *clusters.CHECKS, *rates.CHECKS, *estimated.CHECKS,
       *nonconvex.CHECKS]
for _c in ALL:
    register(_c)
