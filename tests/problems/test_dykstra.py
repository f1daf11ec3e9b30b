"""Dykstra over round-robin matchings, the dual (FISTA) projection, the shrink, the
certificate, the controlled-delta projection and the gradient mapping, against the exact
cvxpy projection."""

from __future__ import annotations

import numpy as np
import pytest

from pflbounds.problems.dykstra import (
    dykstra_project,
    project_pairs,
    round_robin_matchings,
    shrink_to_feasible,
)
from pflbounds.problems.inexact_projection import (
    Projector,
    controlled_delta,
    gradient_mapping,
    inexactness,
)
from pflbounds.problems.pairwise_constraints import PairwiseConstraintSet, pair_index
from pflbounds.problems.pairwise_dual import dual_project


@pytest.mark.parametrize("n", [2, 3, 4, 5, 8, 9])
def test_round_robin_matchings_cover_every_pair_once_and_are_disjoint(n):
    rounds = round_robin_matchings(n)
    assert len(rounds) == (n - 1 if n % 2 == 0 else n)
    allp = np.sort(np.concatenate(rounds))
    np.testing.assert_array_equal(allp, np.arange(n * (n - 1) // 2))
    i, j = pair_index(n)
    for g in rounds:
        clients = np.concatenate([i[g], j[g]])
        assert clients.size == np.unique(clients).size  # disjoint pairs


def test_pair_projection_closed_form():
    a, b = np.array([[0.0, 0.0]]), np.array([[4.0, 0.0]])
    a2, b2 = project_pairs(a, b, np.array([2.0]))
    np.testing.assert_allclose(a2, [[1.0, 0.0]])
    np.testing.assert_allclose(b2, [[3.0, 0.0]])
    a3, b3 = project_pairs(a, b, np.array([5.0]))  # already feasible: unchanged
    np.testing.assert_array_equal(a3, a)
    np.testing.assert_array_equal(b3, b)


def _instance(seed=0, n=5, d=3, R=4, ball=None):
    rng = np.random.default_rng(seed)
    r = rng.uniform(0.3, 1.0, n * (n - 1) // 2)
    return PairwiseConstraintSet(n, d, r, ball=ball), 2.0 * rng.standard_normal((R, n, d))


@pytest.mark.parametrize("ball", [None, 1.5])
def test_dykstra_matches_the_exact_projection_within_its_certificate(ball):
    cset, Z = _instance(ball=ball)
    D = dykstra_project(Z, cset.r, ball, tol=1e-12)
    P = cset.project_exact(Z)
    assert np.all(cset.violation(D.theta) <= 1e-12)  # shrunk: feasible
    assert np.all(D.gap >= -1e-10)
    dist = np.sqrt(((D.theta - P.theta) ** 2).sum(axis=(1, 2)))
    # the certificate bounds the distance to the exact projection (cvxpy is itself ~1e-6)
    assert np.all(dist <= D.distance_bound + 1e-5)
    assert np.all(D.distance_bound < 1e-4)


def test_dual_projection_matches_dykstra_and_is_certified():
    cset, Z = _instance(seed=1, n=6)
    A = dual_project(Z, cset.r, gap_tol=1e-14)
    B = dykstra_project(Z, cset.r, tol=1e-12)
    assert np.all(cset.violation(A.theta) <= 1e-12)
    bound = A.distance_bound + B.distance_bound
    assert np.all(np.sqrt(((A.theta - B.theta) ** 2).sum(axis=(1, 2))) <= bound + 1e-12)
    assert np.all(A.distance_bound < 1e-5)
    # warm start from the increments gives the same projection of a nearby point
    Z2 = Z + 1e-3
    W = dual_project(Z2, cset.r, warm=A)
    C = dual_project(Z2, cset.r)
    np.testing.assert_allclose(W.theta, C.theta, atol=1e-5)


def test_feasible_input_is_its_own_projection():
    cset, _ = _instance()
    Z = np.zeros((2, cset.n, cset.d)) + 0.3  # consensus: feasible
    np.testing.assert_array_equal(dykstra_project(Z, cset.r).theta, Z)
    np.testing.assert_array_equal(shrink_to_feasible(Z, cset.r), Z)


def test_shrink_restores_feasibility_and_keeps_the_mean():
    cset, Z = _instance(seed=2, ball=1.0)
    S = shrink_to_feasible(Z, cset.r, 1.0)
    assert np.all(cset.violation(S) <= 1e-12)
    S2 = shrink_to_feasible(Z, cset.r)
    np.testing.assert_allclose(S2.mean(axis=1), Z.mean(axis=1), atol=1e-12)


def test_controlled_delta_projection_has_exactly_the_requested_inexactness():
    cset, Z = _instance(seed=3)
    exact = dual_project(Z, cset.r, gap_tol=1e-15).theta
    centre = np.broadcast_to(Z.mean(axis=1, keepdims=True), Z.shape)
    eta = 0.3
    for delta in (1e-6, 1e-3):
        u = controlled_delta(Z, exact, centre, eta, delta)
        assert np.all(cset.violation(u) <= 1e-12)
        np.testing.assert_allclose(inexactness(u, Z, exact, eta), delta, rtol=1e-6)
        # Lemma A.2 (5): ||u - Pi(z)||^2 <= 2 eta delta
        assert np.all(((u - exact) ** 2).sum(axis=(1, 2)) <= 2 * eta * delta * (1 + 1e-9))
    # one delta per replica: each replica gets its own
    deltas = np.geomspace(1e-6, 1e-3, Z.shape[0])
    u = controlled_delta(Z, exact, centre, eta, deltas)
    np.testing.assert_allclose(inexactness(u, Z, exact, eta), deltas, rtol=1e-6)


def test_gradient_mapping_is_zero_at_a_constrained_minimiser_and_projector_errors():
    cset, Z = _instance(seed=4, R=1)
    proj = Projector(cset, "dual", 1e-15)
    target = Z[0]
    best = proj(target[None])  # argmin_K ||theta - target||^2/2
    G = gradient_mapping(best, best - target[None], 0.5, proj)
    assert float(np.abs(G).max()) < 1e-5
    G0 = gradient_mapping(np.zeros_like(best), -target[None], 0.5, proj)
    assert float(np.abs(G0).max()) > 0.1
    with pytest.raises(ValueError, match="projection method"):
        Projector(cset, "newton")
    with pytest.raises(ValueError, match="no ball"):
        Projector(PairwiseConstraintSet(3, 2, np.ones(3), ball=1.0), "dual")
    with pytest.raises(ValueError, match="radii"):
        dykstra_project(np.zeros((3, 2)), np.ones(2))


@pytest.mark.parametrize(("n", "R", "d"), [(2, 1, 1), (5, 3, 1), (9, 4, 7), (30, 2, 50)])
def test_assembled_increments_are_the_incidence_transpose_times_p(n, R, d):
    """E^T p with E the pairs' incidence matrix (+1 on i, -1 on j): exact on integers (any
    order of summation), and to rounding on real numbers."""
    from pflbounds.problems.dykstra import assemble_increments, pair_index

    i, j = pair_index(n)
    E = np.zeros((i.size, n))
    E[np.arange(i.size), i], E[np.arange(i.size), j] = 1.0, -1.0
    rng = np.random.default_rng(n)
    ints = rng.integers(-1000, 1000, (R, i.size, d)).astype(float)
    assert np.array_equal(assemble_increments(ints, n), np.einsum("mn,rmd->rnd", E, ints))
    p = rng.standard_normal((R, i.size, d))
    np.testing.assert_allclose(assemble_increments(p, n), np.einsum("mn,rmd->rnd", E, p),
                               rtol=0, atol=1e-13)


def test_projector_check_every_changes_when_the_dual_gap_is_tested_not_the_answer():
    rng = np.random.default_rng(12)
    n, d = 5, 3
    r = rng.uniform(0.2, 1.0, n * (n - 1) // 2)
    cset = PairwiseConstraintSet(n, d, r)
    Z = 2 * rng.standard_normal((2, n, d))
    often, rarely = (Projector(cset, "dual", 1e-12, check_every=c) for c in (1, 25))
    a, b = often(Z), rarely(Z)
    assert often._warm.sweeps <= rarely._warm.sweeps and rarely._warm.sweeps % 25 == 0
    assert np.all(often.gap <= 1e-12 * (1 + 0.5 * (Z * Z).sum(axis=(1, 2))))
    np.testing.assert_allclose(a, b, atol=1e-5)
    with pytest.raises(ValueError, match="check_every must be >= 1, got 0"):
        Projector(cset, "dual", check_every=0)
