"""Synthetic instances with exact optima and certified constants."""

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
