"""erickson2025 checks: the deterministic predictions of digest §7 (P2, P6 part, P12's
admissible s) and the dimension erratum (E_dimension)."""

from pflbounds.checking.registry import register
from pflbounds.papers.erickson2025.checks import deterministic, lemmas, montecarlo, surrogate

ALL = [*deterministic.CHECKS, *lemmas.CHECKS, *montecarlo.CHECKS, *surrogate.CHECKS]
for _c in ALL:
    register(_c)
