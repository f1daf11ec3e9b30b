"""Per-client quadratics under pairwise constraints: the linear form, the constrained optimum,
the random family with active constraints, and the certified gradient mapping."""

from __future__ import annotations

import numpy as np
import pytest

from pflbounds.problems.client_quadratics import (
    ClientQuadratics,
    random_constrained,
    random_spd,
)
from pflbounds.problems.inexact_projection import (
    Projector,
    certified_gradient_mapping_sq,
    gradient_mapping,
)
from pflbounds.problems.pairwise_constraints import pair_index


def _clients(scale: float = 0.5, seed: int = 0) -> ClientQuadratics:
    rng = np.random.default_rng(seed)
    A = random_spd(4, 3, 0.5, 2.0, rng)
    m = 2.0 * rng.standard_normal((4, 3))
    i, j = pair_index(4)
    return ClientQuadratics(A, m, 0.0, scale=scale, r=0.4 * np.linalg.norm(m[i] - m[j], axis=1))


@pytest.mark.parametrize("scale", [0.5, 1.0])
def test_the_linear_form_has_the_gradients_of_the_centred_form(scale):
    q = _clients(scale)
    X = np.random.default_rng(1).standard_normal((2, 4, 3))
    assert np.allclose(q.client_grads(X), q.exact_grad(X), atol=1e-12)
    assert np.allclose(q.mean_grad(X), q.exact_grad(X) / q.N, atol=1e-12)
    # f differs from the mean excess by a constant (the R_k(0) - R_k^* of each client)
    gap = q.mean_objective(X) - q.excess(X).mean(-1)
    assert np.allclose(gap, gap[0], atol=1e-12)
    assert np.allclose(q.client_grads(q.m), 0.0, atol=1e-12)  # m_k is client k's optimum


def test_mean_grad_is_the_derivative_of_mean_objective():
    q = _clients()
    X = np.random.default_rng(2).standard_normal((4, 3))
    h, fd = 1e-6, np.zeros_like(X)
    for idx in np.ndindex(X.shape):
        e = np.zeros_like(X)
        e[idx] = h
        fd[idx] = (q.mean_objective(X + e) - q.mean_objective(X - e)) / (2 * h)
    assert np.allclose(q.mean_grad(X), fd, atol=1e-7)


def test_constrained_optimum_is_feasible_stationary_and_below_feasible_points():
    q = _clients()
    x, f_star, raw_violation = q.constrained_optimum
    assert raw_violation < 1e-7
    assert float(q.cset.violation(x)) <= q.cset.feasible_tol
    assert f_star == pytest.approx(float(q.mean_objective(x)), abs=0)
    # the own optima are infeasible (radii below their distances), so constraints are active
    assert float(q.cset.violation(q.m)) > 0.1
    assert f_star > float(q.mean_objective(q.m)) + 1e-3  # the active constraints cost
    start = q.consensus_start()
    assert float(q.cset.violation(start)) == 0.0
    assert f_star < float(q.mean_objective(start))
    proj = Projector(q.cset, "dual", 1e-14)
    rng = np.random.default_rng(3)
    others = proj(x + 0.3 * rng.standard_normal((20, 4, 3)))
    assert np.all(q.mean_objective(others) >= f_star - 1e-9)
    G = gradient_mapping(x[None], q.mean_grad(x)[None], 0.5 / q.beta, proj)
    assert float(np.abs(G).max()) < 1e-5  # stationary: G_eta(theta*) = 0


def test_clients_without_radii_have_no_constraint_set():
    q = ClientQuadratics(random_spd(3, 2, 1.0, 2.0, np.random.default_rng(0)),
                         np.zeros((3, 2)), 0.0)
    with pytest.raises(ValueError, match="no pairwise constraints"):
        _ = q.cset


@pytest.mark.parametrize("r", [np.ones(2), -np.ones(3)])
def test_radii_must_be_one_nonnegative_value_per_pair(r):
    with pytest.raises(ValueError, match="radii"):
        ClientQuadratics(random_spd(3, 2, 1.0, 2.0, np.random.default_rng(0)),
                         np.zeros((3, 2)), 0.0, r=r)


def test_random_constrained_draws_active_constraints_with_smoothness_L():
    rng = np.random.default_rng(4)
    q = random_constrained(rng, 5, 3, cond=8.0, rho=0.5, L=2.5)
    assert q.beta == 2.5
    ev = np.linalg.eigvalsh(q.A)
    assert ev.min() >= 2.5 / 8.0 - 1e-12 and ev.max() == pytest.approx(2.5, abs=1e-12)
    i, j = pair_index(5)
    assert np.allclose(q.r, 0.5 * np.linalg.norm(q.m[i] - q.m[j], axis=1))
    x = q.constrained_optimum[0]
    active = np.linalg.norm(x[i] - x[j], axis=1) >= q.r - 1e-6
    assert active.any()


def test_certified_gradient_mapping_brackets_the_exact_one():
    q = _clients(seed=5)
    rng = np.random.default_rng(6)
    theta = Projector(q.cset, "dual", 1e-14)(q.consensus_start()
                                              + rng.standard_normal((3, 4, 3)))
    eta = 0.375 / q.beta
    grad = q.mean_grad(theta)
    G = gradient_mapping(theta, grad, eta, Projector(q.cset, "exact"))
    exact = (G * G).sum(axis=(-2, -1))
    lo, hi = certified_gradient_mapping_sq(theta, grad, eta, Projector(q.cset, "dual", 1e-4))
    assert np.all(hi >= lo) and np.any(hi > lo)  # a loose projection: a proper interval
    assert np.all(lo <= exact * (1 + 1e-7) + 1e-12) and np.all(exact <= hi * (1 + 1e-7) + 1e-12)
    lo_x, hi_x = certified_gradient_mapping_sq(theta, grad, eta, Projector(q.cset, "exact"))
    assert np.array_equal(lo_x, hi_x) and np.allclose(lo_x, exact, rtol=1e-12)
