"""Closed-form expectations for linear dynamics with Gaussian noise (no Monte Carlo)."""

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
]
