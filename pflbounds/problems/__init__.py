"""Synthetic instances with exact optima and certified constants.

Names load lazily (:mod:`pflbounds.lazy`): importing one submodule does not import the others.
"""

from pflbounds.lazy import lazy_exports

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

__all__ = sorted(EXPORTS)
