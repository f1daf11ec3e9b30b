"""Numerical methods shared across papers, vectorised over replicas and agents.

Names load lazily (:mod:`pflbounds.lazy`): importing one submodule does not import the others.
"""

from pflbounds.lazy import lazy_exports

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

__all__ = sorted(EXPORTS)
