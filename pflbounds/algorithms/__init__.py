"""Numerical methods shared across papers, vectorised over replicas and agents."""

from pflbounds.algorithms.adaptive_afo import AdaptiveTrace, run_afo_adaptive
from pflbounds.algorithms.collaborative import (
    afo_update,
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
from pflbounds.algorithms.similarity_weights import (
    Criterion,
    collaboration_weights,
    estimated_rule,
    fixed_rule,
    similarity_ratios,
    true_gradient_rule,
)
from pflbounds.algorithms.trace import LiftedTrace, Trace, record_points

__all__ = [
    "COUNTERS",
    "AdaptiveTrace",
    "Criterion",
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
    "afo_update",
    "collaboration_weights",
    "estimated_rule",
    "first_reach",
    "fixed_rule",
    "iterate",
    "record_points",
    "run_afa",
    "run_afa_estimated",
    "run_afa_lifted",
    "run_afo",
    "run_afo_adaptive",
    "run_global_model",
    "run_interpolated",
    "run_local_sgd",
    "similarity_ratios",
    "stable_afa_step",
    "true_gradient_rule",
]
