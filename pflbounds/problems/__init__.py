"""Synthetic instances with exact optima and certified constants.

Names load lazily (:mod:`pflbounds.lazy`): importing one submodule does not import the others.
"""

from typing import TYPE_CHECKING

from pflbounds.lazy import lazy_exports

if TYPE_CHECKING:
    from pflbounds.problems.agent_ops import AgentOperator, as_dense
    from pflbounds.problems.clusters import (
        closeness_counts,
        cluster_centres,
        cluster_weights,
        clustered,
        global_weights,
        interpolated_operator,
        interpolated_weights,
        is_doubly_stochastic,
        is_row_stochastic,
        regular_graph_weights,
        sinkhorn,
        spectral_radius,
        star_bias_matrix,
        threshold_weights,
    )
    from pflbounds.problems.gaussian_means import GaussianMeans, estimated_weights
    from pflbounds.problems.hard_instance import HardInstanceA, check_bias_matrix
    from pflbounds.problems.logistic import LogisticFamily, Reference
    from pflbounds.problems.pairwise_constraints import PairwiseConstraintSet
    from pflbounds.problems.quadratic import QuadraticFamily
    from pflbounds.problems.regression import LinearRegressionFamily, least_squares_reference

EXPORTS = {
    "AgentOperator": "agent_ops",
    "GaussianMeans": "gaussian_means",
    "HardInstanceA": "hard_instance",
    "LinearRegressionFamily": "regression",
    "LogisticFamily": "logistic",
    "PairwiseConstraintSet": "pairwise_constraints",
    "QuadraticFamily": "quadratic",
    "Reference": "logistic",
    "as_dense": "agent_ops",
    "check_bias_matrix": "hard_instance",
    "closeness_counts": "clusters",
    "cluster_centres": "clusters",
    "cluster_weights": "clusters",
    "clustered": "clusters",
    "estimated_weights": "gaussian_means",
    "global_weights": "clusters",
    "interpolated_operator": "clusters",
    "interpolated_weights": "clusters",
    "is_doubly_stochastic": "clusters",
    "is_row_stochastic": "clusters",
    "least_squares_reference": "regression",
    "regular_graph_weights": "clusters",
    "sinkhorn": "clusters",
    "spectral_radius": "clusters",
    "star_bias_matrix": "clusters",
    "threshold_weights": "clusters",
}
"""Each exported name and the submodule that defines it."""

__getattr__ = lazy_exports(__name__, EXPORTS)

__all__ = [
    "AgentOperator",
    "GaussianMeans",
    "HardInstanceA",
    "LinearRegressionFamily",
    "LogisticFamily",
    "PairwiseConstraintSet",
    "QuadraticFamily",
    "Reference",
    "as_dense",
    "check_bias_matrix",
    "closeness_counts",
    "cluster_centres",
    "cluster_weights",
    "clustered",
    "estimated_weights",
    "global_weights",
    "interpolated_operator",
    "interpolated_weights",
    "is_doubly_stochastic",
    "is_row_stochastic",
    "least_squares_reference",
    "regular_graph_weights",
    "sinkhorn",
    "spectral_radius",
    "star_bias_matrix",
    "threshold_weights",
]
