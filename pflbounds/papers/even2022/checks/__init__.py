"""even2022 checks: predictions P1-P15 of the digest (§7), the erratum checks (E*), the
concentration results of Appendix E, Corollary 2's agent count (C2)."""

from pflbounds.checking.registry import register
from pflbounds.papers.even2022.checks import (
    afa,
    afo,
    baselines,
    concentration,
    corollary,
    estimated,
    lower,
    sgd,
    speedup,
)

ALL = [*afo.CHECKS, *afa.CHECKS, *lower.CHECKS, *estimated.CHECKS, *sgd.CHECKS, *corollary.CHECKS,
       *concentration.CHECKS, *baselines.CHECKS, *speedup.CHECKS]
for _c in ALL:
    register(_c)
