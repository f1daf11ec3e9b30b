"""Numerical methods shared across papers, vectorised over replicas and agents.

Names load lazily (:mod:`pflbounds.lazy`): importing one submodule does not import the others.
"""

from typing import TYPE_CHECKING

from pflbounds.lazy import lazy_exports

if TYPE_CHECKING:
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

EXPORTS = {
    "AdaptiveTrace": "adaptive_afo",
    "BlockGradientOracle": "protocols",
    "COUNTERS": "driver",
    "Costs": "driver",
    "Criterion": "similarity_weights",
    "GradientOracle": "protocols",
    "LiftedTrace": "trace",
    "LossOracle": "protocols",
    "MixtureProblem": "protocols",
    "ProjectionOracle": "protocols",
    "Run": "driver",
    "SharedSampleOracle": "protocols",
    "StochasticProblem": "protocols",
    "Trace": "trace",
    "afo_update": "collaborative",
    "collaboration_weights": "similarity_weights",
    "estimated_rule": "similarity_weights",
    "first_reach": "driver",
    "fixed_rule": "similarity_weights",
    "iterate": "driver",
    "record_points": "trace",
    "run_afa": "collaborative",
    "run_afa_estimated": "collaborative",
    "run_afa_lifted": "collaborative",
    "run_afo": "collaborative",
    "run_afo_adaptive": "adaptive_afo",
    "run_global_model": "collaborative",
    "run_interpolated": "collaborative",
    "run_local_sgd": "collaborative",
    "similarity_ratios": "similarity_weights",
    "stable_afa_step": "collaborative",
    "true_gradient_rule": "similarity_weights",
}
"""Each exported name and the submodule that defines it."""

__getattr__ = lazy_exports(__name__, EXPORTS)

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
