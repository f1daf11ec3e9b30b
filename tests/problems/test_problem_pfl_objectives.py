"""PFL objectives in the (w, beta) form: gradients, optima and certified constants.

Checked against independent constructions: finite differences, a Hessian assembled entry by
entry from its definition, per-component averages, and logistic Hessians at random points.
"""

from __future__ import annotations

import numpy as np
import pytest

from pflbounds.problems.pfl_objectives import (
    KINDS,
    LogisticLosses,
    PFLObjective,
    QuadraticLosses,
    structure,
)

M, D, NS = 4, 3, 12
PARAMS = {"global": {}, "local": {}, "multitask": {"lam": 0.3, "Lam": 4.0},
          "mixture": {"lam": 1.0}, "interpolation": {"Lam": 2.0, "alpha": [0.1, 0.2, 0.3, 0.4]},
          "sharing": {"d_w": 1}}


@pytest.fixture(scope="module")
def quad():
    return QuadraticLosses.random(M, D, NS, 0.2, 2.0, np.random.default_rng(1))


def _fd_grad(o: PFLObjective, x: np.ndarray, h: float = 1e-6) -> np.ndarray:
    E = np.eye(o.N)
    return np.array([(o.value(*o.split(x + h * E[i])) - o.value(*o.split(x - h * E[i])))
                     / (2 * h) for i in range(o.N)]).T


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("rescale", [True, False])
def test_gradients_optimum_and_hessian(quad, kind, rescale):
    o = PFLObjective(quad, structure(kind, M, D, rescale=rescale, **PARAMS[kind]))
    rng = np.random.default_rng(2)
    w, beta = rng.standard_normal((2, o.d0)), rng.standard_normal((2, M, o.d1))
    x = o.join(w, beta)
    g = o.join(*o.grad_F(w, beta))
    assert np.abs(_fd_grad(o, x) - g).max() < 1e-6
    # F is quadratic: grad F(x) = H (x - x*) exactly, and grad F(x*) = 0
    assert np.abs((x - o.optimum["x"]) @ o.hessian - g).max() < 1e-12
    assert o.optimum["grad_norm"] < 1e-12
    # components average to the client function
    comp = np.mean([np.concatenate(o.client_grads(w, beta, np.full(2, j)), -1)
                    for j in range(NS)], axis=0)
    assert np.abs(comp - np.concatenate(o.client_grads(w, beta), -1)).max() < 1e-12
    # per-client indices (R, M) pick each client's own component
    idx = np.array([[0, 1, 2, 3], [4, 5, 6, 7]])
    g = np.concatenate(o.client_grads(w, beta, idx), -1)
    g1 = np.concatenate(o.client_grads(w, beta, np.array([1, 1])), -1)
    assert np.allclose(g[0, 1], g1[0, 1]) and not np.allclose(g[0, 0], g1[0, 0])


def _hessian_by_definition(o: PFLObjective) -> np.ndarray:
    """Hessian of F from finite differences of its exact gradient."""
    h, E = 1e-5, np.eye(o.N)
    cols = [(o.join(*o.grad_F(*o.split((h * E[i])[None])))
             - o.join(*o.grad_F(*o.split((-h * E[i])[None]))))[0] / (2 * h) for i in range(o.N)]
    return np.array(cols)


@pytest.mark.parametrize("kind", ["multitask", "interpolation", "sharing"])
def test_certified_constants_of_quadratics_are_exact(quad, kind):
    o = PFLObjective(quad, structure(kind, M, D, **PARAMS[kind]))
    H = _hessian_by_definition(o)
    assert np.linalg.eigvalsh(H)[0] == pytest.approx(o.constants["mu"], rel=1e-8)
    # L^w: client m's ww-block is M times F's ww-contribution of that client alone
    d0 = o.d0
    blocks = []
    for m in range(M):
        only = np.zeros(M)
        only[m] = 1.0
        e = np.eye(d0)
        cols = [o.client_grads(e[i][None] * 1.0, np.zeros((1, M, o.d1)))[0][0, m]
                - o.client_grads(np.zeros((1, d0)), np.zeros((1, M, o.d1)))[0][0, m]
                for i in range(d0)]
        blocks.append(np.linalg.eigvalsh(np.array(cols))[-1])
    assert max(blocks) == pytest.approx(o.constants["Lw"], rel=1e-10)
    assert o.certified == "exact"
    base = o.base_constants
    assert base["mup"] == pytest.approx(0.2) and base["Lp"] == pytest.approx(2.0)
    assert base["Lcp"] == pytest.approx(float((quad.a**2).sum(-1).max()))


def test_component_constants_bound_every_component(quad):
    o = PFLObjective(quad, structure("mixture", M, D, lam=1.0))
    rng = np.random.default_rng(3)
    for _ in range(20):  # the Lipschitz constant of each component gradient, in w and beta
        j = rng.integers(NS, size=1)
        w, beta = rng.standard_normal((1, o.d0)), rng.standard_normal((1, M, o.d1))
        dw, db = rng.standard_normal((1, o.d0)), rng.standard_normal((1, M, o.d1))
        g0w, g0b = o.client_grads(w, beta, j)
        g1w, _ = o.client_grads(w + dw, beta, j)
        _, g1b = o.client_grads(w, beta + db, j)
        assert (np.linalg.norm(g1w - g0w, axis=-1) <= o.constants["Lcw"]
                * np.linalg.norm(dw) * (1 + 1e-12)).all()
        assert (np.linalg.norm(g1b - g0b, axis=-1) <= M * o.constants["Lcb"]
                * np.linalg.norm(db, axis=-1) * (1 + 1e-12)).all()


def test_logistic_constants_are_bounds_and_newton_is_accurate():
    rng = np.random.default_rng(4)
    a = rng.standard_normal((M, 30, D))
    y = (rng.random((M, 30)) < 0.5).astype(float)
    o = PFLObjective(LogisticLosses(a, y, 0.05), structure("multitask", M, D, lam=0.5,
                                                                 Lam=2.0))
    assert o.certified == "bound"
    assert o.optimum["grad_norm"] < 1e-10
    x0 = rng.standard_normal(o.N)
    assert np.abs(_fd_grad(o, x0[None])[0] - o.join(*o.grad_F(*o.split(x0[None])))[0]).max() \
        < 1e-6
    for _ in range(5):  # the exact Hessian at random points lies within the certified bounds
        x = 3 * rng.standard_normal(o.N)
        h, E = 1e-5, np.eye(o.N)
        H = np.array([(o.join(*o.grad_F(*o.split((x + h * E[i])[None])))
                       - o.join(*o.grad_F(*o.split((x - h * E[i])[None]))))[0] / (2 * h)
                      for i in range(o.N)])
        assert np.linalg.eigvalsh(H)[0] >= o.constants["mu"] * (1 - 1e-6)
        assert np.linalg.eigvalsh(M * H[: o.d0, : o.d0])[-1] <= M * o.constants["Lw"] * (1 + 1e-6)
    assert o.constants["mu"] <= np.linalg.eigvalsh(o.hessian)[0] + 1e-15


def test_isotropic_generator_and_bad_inputs():
    q = QuadraticLosses.random(3, 2, 5, 0.5, 0.5, np.random.default_rng(0), isotropic=True)
    assert np.allclose(q.A, 0.5 * np.eye(2))
    with pytest.raises(ValueError, match="n >= d"):
        QuadraticLosses.random(3, 4, 2, 0.5, 1.0, np.random.default_rng(0))
    with pytest.raises(ValueError, match="unknown objective kind 'mixed'"):
        structure("mixed", 3, 2)
    with pytest.raises(ValueError, match="alpha must lie in"):
        structure("interpolation", 3, 2, alpha=1.5)
    with pytest.raises(ValueError, match="ridge r > 0"):
        LogisticLosses(np.ones((2, 3, 2)), np.zeros((2, 3)), 0.0)
    with pytest.raises(ValueError, match="coupling built for"):
        PFLObjective(q, structure("mixture", 4, 2))
