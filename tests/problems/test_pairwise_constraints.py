"""The pairwise constraint set K(r) and its exact projection (cvxpy + Clarabel)."""

from __future__ import annotations

import numpy as np
import pytest

from pflbounds.algorithms.protocols import ProjectionOracle
from pflbounds.problems.pairwise_constraints import (
    PairwiseConstraintSet,
    max_violation,
    pair_index,
    radii,
)


def test_radii_and_pairs():
    D = np.array([[0, 1, 4], [1, 0, 9], [4, 9, 0]], dtype=float)
    i, j = pair_index(3)
    assert list(zip(i, j, strict=True)) == [(0, 1), (0, 2), (1, 2)]
    np.testing.assert_allclose(radii(4.0, D), [2.0, 4.0, 6.0])
    with pytest.raises(ValueError, match="square"):
        radii(1.0, np.ones((2, 3)))


def test_two_clients_closed_form():
    # two points at distance 4 and radius 2: each moves 1 towards the other
    cset = PairwiseConstraintSet(2, 2, np.array([2.0]))
    Z = np.array([[[0.0, 0.0], [4.0, 0.0]]])
    P = cset.project_exact(Z)
    np.testing.assert_allclose(P.theta[0], [[1.0, 0.0], [3.0, 0.0]], atol=1e-7)
    assert P.violation[0] <= 1e-8 and P.status == ("optimal",)
    assert isinstance(cset, ProjectionOracle)


def test_projection_is_optimal_against_random_feasible_points():
    rng = np.random.default_rng(3)
    n, d = 5, 3
    r = rng.uniform(0.2, 1.0, n * (n - 1) // 2)
    cset = PairwiseConstraintSet(n, d, r, ball=2.0)
    Z = 2 * rng.standard_normal((3, n, d))
    P = cset.project_exact(Z)
    assert np.all(P.violation <= 1e-7)
    # obtuse-angle characterisation: <Z - P, y - P> <= 0 for feasible y (consensus points)
    for k in range(3):
        for _ in range(20):
            c = rng.standard_normal(d)
            y = np.tile(c / max(1.0, np.linalg.norm(c) / 2.0), (n, 1))
            assert np.sum((Z[k] - P.theta[k]) * (y - P.theta[k])) <= 1e-6


def test_feasible_input_is_returned_exactly():
    cset = PairwiseConstraintSet(3, 1, np.array([1.0, 10.0, 10.0]))
    Z = np.array([[0.5], [-0.5], [0.0]])  # on the boundary of the first constraint
    P = cset.project_exact(Z)
    assert np.array_equal(P.theta, Z) and P.status == ("feasible input",)
    assert max_violation(np.array([[0.0], [2.0], [0.0]]), cset.r) == pytest.approx(1.0)
