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
from pflbounds.algorithms.protocols import MixtureProblem, StochasticProblem
from pflbounds.algorithms.trace import LiftedTrace, Trace, record_points

__all__ = [
    "LiftedTrace",
    "MixtureProblem",
    "StochasticProblem",
    "Trace",
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
