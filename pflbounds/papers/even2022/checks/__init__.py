"""even2022 checks: predictions P1-P15 of the digest (§7) and the erratum checks (E*)."""

from pflbounds.checking.registry import register
from pflbounds.papers.even2022.checks import afa, afo, corollary, estimated, lower, sgd

ALL = [*afo.CHECKS, *afa.CHECKS, *lower.CHECKS, *estimated.CHECKS, *sgd.CHECKS, *corollary.CHECKS]
for _c in ALL:
    register(_c)
