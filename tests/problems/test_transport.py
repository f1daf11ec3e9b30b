"""Exact W1 of empirical measures, W1 plans (HiGHS LP, monotone 1-D) and the LOT embedding."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.spatial.distance import cdist

from pflbounds.problems.transport import (
    embedding_distance,
    lot_map,
    lp_plan,
    monotone_plan,
    w1_exact,
)


def test_w1_of_translates_and_of_1d_sorted_samples():
    rng = np.random.default_rng(0)
    A = rng.standard_normal((7, 3))
    shift = np.array([0.3, -1.0, 2.0])
    assert w1_exact(A, A + shift) == pytest.approx(np.linalg.norm(shift), rel=1e-12)
    a, b = rng.standard_normal(9), rng.standard_normal(9)
    assert w1_exact(a, b) == pytest.approx(np.abs(np.sort(a) - np.sort(b)).mean(), rel=1e-12)


def test_assignment_and_lp_agree_and_unequal_sizes_use_the_lp():
    rng = np.random.default_rng(1)
    A, B = rng.standard_normal((6, 2)), rng.standard_normal((6, 2))
    plan = lp_plan(A, B)
    np.testing.assert_allclose(plan.sum(axis=1), 1 / 6, atol=1e-12)
    assert (plan * cdist(A, B)).sum() == pytest.approx(w1_exact(A, B), rel=1e-9)
    # two points against one: W1 is the mean distance to it
    assert w1_exact(np.array([[0.0], [2.0]]), np.array([[1.0]])) == pytest.approx(1.0)
    assert w1_exact(np.array([[0.0], [2.0], [4.0]]), np.array([[0.0], [4.0]])) == \
        pytest.approx(2 / 3, rel=1e-9)


def test_monotone_plan_and_embedding_readings():
    ref, a = np.array([2.0, 0.0, 1.0]), np.array([5.0, 3.0, 4.0])
    plan = monotone_plan(ref, a)
    np.testing.assert_allclose(lot_map(plan, a).ravel(), [5.0, 3.0, 4.0])
    Mi, Mj = np.array([[0.0, 0.0], [1.0, 1.0]]), np.array([[3.0, 4.0], [1.0, 1.0]])
    assert embedding_distance(Mi, Mj, "w1") == pytest.approx(2.5)
    assert embedding_distance(Mi, Mj, "literal") == pytest.approx(7 / np.sqrt(2))
    with pytest.raises(ValueError, match="reading"):
        embedding_distance(Mi, Mj, "l2")
    with pytest.raises(ValueError, match="equal sizes"):
        monotone_plan(ref, a[:2])
