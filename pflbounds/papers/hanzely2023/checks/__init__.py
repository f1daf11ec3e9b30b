"""hanzely2023 checks: predictions P1-P12 of the digest (§7), the erratum checks (E_*) and
the synthetic experiments of Section 5 (S51, S52)."""

from pflbounds.checking.registry import register
from pflbounds.papers.hanzely2023.checks import (
    acd,
    asvrcd,
    constants,
    experiments,
    lsgd,
    maps,
    nonconvex,
    table3,
)

ALL = [*constants.CHECKS, *table3.CHECKS, *acd.CHECKS, *lsgd.CHECKS, *asvrcd.CHECKS,
       *nonconvex.CHECKS, *maps.CHECKS,
       *experiments.CHECKS]
for _c in ALL:
    register(_c)
