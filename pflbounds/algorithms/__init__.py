"""Numerical methods shared across papers, vectorised over replicas and agents."""

from pflbounds.algorithms.collaborative import (
    run_afa,
    run_afa_estimated,
    run_afa_lifted,
    run_afo,
    run_global_model,
    run_interpolated,
    run_local_sgd,
    stable_afa_step,
)
from pflbounds.algorithms.driver import COUNTERS, Costs, Run, first_reach, iterate
from pflbounds.algorithms.protocols import (
    BlockGradientOracle,
    GradientOracle,
    LossOracle,
    MixtureProblem,
    ProjectionOracle,
    SharedSampleOracle,
    StochasticProblem,
)
from pflbounds.algorithms.trace import LiftedTrace, Trace, record_points

__all__ = [
    "COUNTERS",
    "BlockGradientOracle",
    "Costs",
    "GradientOracle",
    "LiftedTrace",
    "LossOracle",
    "MixtureProblem",
    "ProjectionOracle",
    "Run",
    "SharedSampleOracle",
    "StochasticProblem",
    "Trace",
    "first_reach",
    "iterate",
    "record_points",
    "run_afa",
    "run_afa_estimated",
    "run_afa_lifted",
    "run_afo",
    "run_global_model",
    "run_interpolated",
    "run_local_sgd",
    "stable_afa_step",
]
