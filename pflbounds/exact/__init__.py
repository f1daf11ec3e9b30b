"""Closed-form expectations for linear dynamics with Gaussian noise (no Monte Carlo), and the
exact propagator of mean and covariance for randomly drawn linear dynamics."""

from pflbounds.exact.linear_gaussian import (
    afa_bias_floor,
    afa_expected_excess,
    afa_lifted_floor,
    afo_expected_excess,
    afo_limit,
    as_quadratic_family,
    f_Lambda_gap,
    geometric_sum,
    local_sgd_expected_excess,
)
from pflbounds.exact.propagator import LinearDraws, Propagation, Schedule, propagate
from pflbounds.exact.propagator_afa_afo import (
    afa_draws,
    afa_excess_by_propagation,
    afo_draws,
    afo_excess_by_propagation,
    agent_excess_metrics,
    coordinate_blocks,
)
from pflbounds.exact.propagator_blocks import (
    block_coordinate_draws,
    pfl_client_index,
    pfl_client_metrics,
    pfl_quadratic,
)
from pflbounds.exact.propagator_layout import StateLayout
from pflbounds.exact.propagator_metrics import QuadraticMetrics

__all__ = [
    "afa_bias_floor",
    "afa_expected_excess",
    "afa_lifted_floor",
    "afo_expected_excess",
    "afo_limit",
    "as_quadratic_family",
    "f_Lambda_gap",
    "geometric_sum",
    "local_sgd_expected_excess",
    "LinearDraws",
    "Propagation",
    "Schedule",
    "propagate",
    "QuadraticMetrics",
    "StateLayout",
    "afa_draws",
    "afo_draws",
    "afa_excess_by_propagation",
    "afo_excess_by_propagation",
    "agent_excess_metrics",
    "coordinate_blocks",
    "block_coordinate_draws",
    "pfl_client_index",
    "pfl_client_metrics",
    "pfl_quadratic",
]
