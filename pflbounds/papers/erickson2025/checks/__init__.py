"""erickson2025 checks: the predictions P1-P13 of digest §7 and the erratum checks.

Deterministic: P2, P6, P7, P8, P8_ridge, P9, P10, P11, P12 and the errata E_dimension,
E_reading_A, E_inexact_definition, P9_lp, P11_printed. Monte Carlo (Karula runs): P1,
P1_printed, P3, P3_plain, P4, P4_linear, P4_rescaled, P5, P5_linear, P5_dykstra, P13."""

from pflbounds.checking.registry import register
from pflbounds.papers.erickson2025.checks import (
    deterministic,
    dykstra_loop,
    empirical_ridge,
    experiments,
    lemmas,
    lyapunov_search,
    montecarlo,
    readings,
    surrogate,
)

ALL = [*deterministic.CHECKS, *lemmas.CHECKS, *readings.CHECKS, *montecarlo.CHECKS,
       *surrogate.CHECKS, *lyapunov_search.CHECKS, *dykstra_loop.CHECKS,
       *empirical_ridge.CHECKS, *experiments.CHECKS]
for _c in ALL:
    register(_c)
