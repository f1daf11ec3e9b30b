"""The pairwise constraint set K(r) and its exact projection (cvxpy + Clarabel)."""

from __future__ import annotations

import numpy as np
import pytest

from pflbounds.algorithms.protocols import ProjectionOracle
from pflbounds.problems.pairwise_constraints import (
    PairwiseConstraintSet,
    max_violation,
    pair_index,
    quadratic_optimum,
    radii,
)
from pflbounds.problems.pairwise_dual import dual_project


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


def _spd(rng: np.random.Generator, n: int, d: int) -> np.ndarray:
    A = rng.standard_normal((n, d, d))
    return np.einsum("nij,nkj->nik", A, A) / d + 0.1 * np.eye(d)


def test_quadratic_optimum_limits_local_and_consensus():
    rng = np.random.default_rng(5)
    n, d = 4, 3
    H, b, w = _spd(rng, n, d), rng.standard_normal((n, d)), rng.uniform(0.5, 2.0, n)
    m = n * (n - 1) // 2
    far = quadratic_optimum(H, b, np.full(m, 1e3), w)
    np.testing.assert_allclose(far.theta, np.linalg.solve(H, b[..., None])[..., 0], atol=1e-7)
    one = quadratic_optimum(H, b, np.zeros(m), w)
    cons = np.linalg.solve((w[:, None, None] * H).sum(0), (w[:, None] * b).sum(0))
    np.testing.assert_allclose(one.theta, np.broadcast_to(cons, (n, d)), atol=1e-6)
    assert one.status == "optimal" and far.violation <= 1e-8


def test_quadratic_optimum_is_a_fixed_point_of_the_projected_step():
    # optimality over a convex set: theta = Pi_K(theta - eta grad F(theta)); the projection
    # by the certified dual method, so the residual is bounded independently of Clarabel
    rng = np.random.default_rng(6)
    n, d = 6, 4
    H, b, w = _spd(rng, n, d), 3 * rng.standard_normal((n, d)), rng.uniform(0.5, 2.0, n)
    loc = np.linalg.solve(H, b[..., None])[..., 0]
    i, j = pair_index(n)
    r = 0.3 * np.linalg.norm(loc[i] - loc[j], axis=1)
    opt = quadratic_optimum(H, b, r, w)
    assert max_violation(opt.theta, r) <= 1e-12  # shrunk: exactly feasible
    grad = w[:, None] * (np.einsum("nij,nj->ni", H, opt.theta) - b)
    eta = 1.0 / float((w * np.linalg.eigvalsh(H)[:, -1]).max())
    P = dual_project(opt.theta - eta * grad, r, gap_tol=1e-15)
    residual = np.linalg.norm(P.theta - opt.theta) / eta
    assert residual <= 1e-5 * np.linalg.norm(grad)
    assert residual > 0 or np.linalg.norm(grad) == 0
    # the constraints bind: the unconstrained optimum is infeasible and worse per the value
    assert max_violation(loc, r) > 0.1
    vals = [(w * (0.5 * np.einsum("ni,nij,nj->n", x, H, x) - (b * x).sum(-1))).sum()
            for x in (opt.theta, np.broadcast_to(loc.mean(0), (n, d)))]
    assert opt.value == pytest.approx(vals[0]) and vals[0] < vals[1]


def test_quadratic_optimum_rejects_bad_inputs():
    H = np.broadcast_to(np.eye(2), (3, 2, 2))
    with pytest.raises(ValueError, match="3 nonnegative radii"):
        quadratic_optimum(H, np.zeros((3, 2)), np.ones(2))
    with pytest.raises(ValueError, match="positive definite"):
        quadratic_optimum(-H, np.zeros((3, 2)), np.ones(3))
    with pytest.raises(ValueError, match="3 positive numbers"):
        quadratic_optimum(H, np.zeros((3, 2)), np.ones(3), np.array([1.0, 0.0, 1.0]))
    with pytest.raises(ValueError, match=r"H must be \(n, d, d\)"):
        quadratic_optimum(H[:, :1], np.zeros((3, 2)), np.ones(3))


def test_supernodal_solves_agree_with_the_default_factorisation_and_repeat_bit_for_bit(
        monkeypatch):
    """The exact projection and the constrained optimum by faer's supernodal LDL^T (one
    thread) give the default QDLDL's points to solver accuracy, and the same bits twice;
    where faer stops short of the tolerance (this instance's optimum), QDLDL solves again and
    its status is the one returned."""
    from pflbounds.problems import conic

    rng = np.random.default_rng(8)
    n, d = 7, 4
    r = rng.uniform(0.05, 0.6, n * (n - 1) // 2)
    Z, H, b = rng.standard_normal((n, d)), _spd(rng, n, d), 3.0 * rng.standard_normal((n, d))
    S = PairwiseConstraintSet(n, d, r)
    calls: list[dict] = []
    solve = conic.solve_clarabel

    def spy(prob, **options):
        calls.append(options)
        return solve(prob, **options)

    monkeypatch.setattr(conic, "solve_clarabel", spy)
    proj, opt = S.project_exact(Z), quadratic_optimum(H, b, r)
    assert proj.status == ("optimal",) and opt.status == "optimal"
    first = [c.get("direct_solve_method", "qdldl") for c in calls]
    assert first == ["faer", "faer", "qdldl"]  # the optimum's faer solve fell short
    assert np.array_equal(S.project_exact(Z).theta, proj.theta)
    assert np.array_equal(quadratic_optimum(H, b, r).theta, opt.theta)
    assert np.any(max_violation(Z, r) > 1e-3)  # the projection moves Z
    monkeypatch.setattr(conic, "SUPERNODAL", {})  # Clarabel's default factorisation only
    np.testing.assert_allclose(S.project_exact(Z).theta, proj.theta, atol=1e-7)
    np.testing.assert_allclose(quadratic_optimum(H, b, r).theta, opt.theta, atol=1e-9)
