"""even2022 checks: predictions P1-P15 of the digest (§7), the erratum checks (E*), the
concentration results of Appendix E, Corollary 2's agent count (C2) and Figure 1 (A1)."""

from pflbounds.checking.registry import register
from pflbounds.papers.even2022.checks import (
    afa,
    afo,
    baselines,
    concentration,
    corollary,
    estimated,
    figure1,
    lower,
    sgd,
    speedup,
)

ALL = [*afo.CHECKS, *afa.CHECKS, *lower.CHECKS, *estimated.CHECKS, *sgd.CHECKS, *corollary.CHECKS,
       *concentration.CHECKS, *baselines.CHECKS, *speedup.CHECKS, *figure1.CHECKS]
for _c in ALL:
    register(_c)
