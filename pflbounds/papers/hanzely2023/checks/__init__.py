"""hanzely2023 checks: predictions P1-P12 of the digest (§7) and the erratum checks (E_*)."""

from pflbounds.checking.registry import register
from pflbounds.papers.hanzely2023.checks import (
    acd,
    asvrcd,
    constants,
    lsgd,
    maps,
    nonconvex,
    table3,
)

ALL = [*constants.CHECKS, *table3.CHECKS, *acd.CHECKS, *lsgd.CHECKS, *asvrcd.CHECKS,
       *nonconvex.CHECKS, *maps.CHECKS]
for _c in ALL:
    register(_c)
