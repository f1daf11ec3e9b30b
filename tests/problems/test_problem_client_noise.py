"""Per-client problems with additive or multiplicative gradient noise: gradients, mixing,
constants, noise variance, and the adaptive All-for-one runner on each."""

from __future__ import annotations

import numpy as np
import pytest

from pflbounds.algorithms.adaptive_afo import run_afo_adaptive
from pflbounds.algorithms.similarity_weights import Criterion, true_gradient_rule
from pflbounds.problems.client_quadratics import ClientQuadratics, random_spd
from pflbounds.problems.cosine_clusters import CosineClusters
from pflbounds.problems.least_squares_stream import LeastSquaresStream


def _fd(problem, X, h=1e-6):
    """Central finite differences of sum_k R_k(theta_k)."""
    g = np.zeros_like(X)
    for idx in np.ndindex(X.shape):
        e = np.zeros_like(X)
        e[idx] = h
        g[idx] = (problem.excess(X + e).sum() - problem.excess(X - e).sum()) / (2 * h)
    return g


def _problems():
    rng = np.random.default_rng(0)
    A = random_spd(4, 3, 0.5, 2.0, rng)
    return [ClientQuadratics(A, rng.standard_normal((4, 3)), 0.3, scale=0.5),
            ClientQuadratics(A, rng.standard_normal((4, 3)), 0.3, scale=1.0),
            CosineClusters(rng.standard_normal((4, 3)), 2.0, 0.3),
            LeastSquaresStream(rng.standard_normal((4, 3)), batch=2)]


@pytest.mark.parametrize("k", range(4))
def test_exact_gradient_is_the_derivative_of_the_excess(k):
    p = _problems()[k]
    X = np.random.default_rng(1).standard_normal((1, 4, 3))
    assert np.allclose(p.exact_grad(X), _fd(p, X), atol=1e-6)


@pytest.mark.parametrize("k", range(4))
def test_mixed_gradient_equals_the_explicit_sum(k):
    p = _problems()[k]
    rng = np.random.default_rng(2)
    X = rng.standard_normal((2, 4, 3))
    Lam = rng.uniform(0, 1, (4, 4))
    noise = p.sample_noise(2, rng)
    out = p.mixed_grad(X, Lam, noise)
    for r in range(2):
        for i in range(4):
            want = 0
            for j in range(4):
                Xi = np.array(X[r:r + 1])
                Xi[0, j] = X[r, i]  # client j's loss evaluated at theta_i
                if isinstance(p, LeastSquaresStream):
                    Z = noise[r, j]
                    g = 2 / p.batch * Z.T @ (Z @ (X[r, i] - p.optima[j]))
                else:
                    g = p.exact_grad(Xi)[0, j] + noise[r, j]
                want = want + Lam[i, j] * g
            assert np.allclose(out[r, i], want, atol=1e-12)


def test_unbiased_gradient_and_lsr_noise_variance():
    p = LeastSquaresStream(np.array([[1.0, -1.0], [0.5, 2.0]]), batch=2)
    X = np.zeros((200000, 2, 2))
    G = p.grad(X, np.random.default_rng(3))
    assert np.allclose(G.mean(0), p.exact_grad(X[0]), atol=0.03)
    var = ((G - p.exact_grad(X[0])) ** 2).sum(-1).mean(0)
    assert np.allclose(var, p.noise_variance(X[0]), rtol=0.03)


def test_assumption3_holds_with_the_heterogeneity_constants():
    rng = np.random.default_rng(4)
    for scale in (0.5, 1.0):
        A = random_spd(4, 3, 0.5, 3.0, rng)
        m = rng.standard_normal((4, 3))
        m[1] = m[0]  # a pair sharing its optimum gets the tight c
        p = ClientQuadratics(A, m, 0.1, scale=scale)
        b, c = p.heterogeneity()
        theta = rng.standard_normal((500, 3)) * 5
        X = np.broadcast_to(theta[:, None, None, :], (500, 4, 4, 3))
        CG = p.exact_grad(X)  # [s, i, k] = grad R_k(theta_s)
        gi = np.einsum("siid->sid", CG)
        lhs = ((gi[:, :, None] - CG) ** 2).sum(-1)
        rhs = b**2 + c * (gi**2).sum(-1)[:, :, None]
        assert np.all(lhs <= rhs * (1 + 1e-9) + 1e-12)
        assert b[0, 1] == 0 and c[0, 1] > 0
    assert p.mu == pytest.approx(2 * 0.5) and p.beta == pytest.approx(2 * 3.0)


@pytest.mark.parametrize("k", range(4))
def test_adaptive_all_for_one_runs_on_every_testbed(k):
    p = _problems()[k]
    rule = true_gradient_rule(p, Criterion.binary(0.5), 0.3)
    tr = run_afo_adaptive(p, rule, 0.05, 20, np.zeros(3), 3, np.random.default_rng(5))
    assert np.all(np.isfinite(tr.excess)) and tr.excess[:, -1].mean() < tr.excess[:, 0].mean()


def test_bad_problem_inputs_are_refused():
    rng = np.random.default_rng(6)
    A = random_spd(3, 2, 0.5, 2.0, rng)
    with pytest.raises(ValueError, match="positive definite"):
        ClientQuadratics(-A, np.zeros((3, 2)), 1.0)
    with pytest.raises(ValueError, match="symmetric"):
        ClientQuadratics(A[:2], np.zeros((3, 2)), 1.0)
    with pytest.raises(ValueError, match=">= 0"):
        ClientQuadratics(A, np.zeros((3, 2)), [1.0, -0.1, 1.0])
    with pytest.raises(ValueError, match="batch must be >= 1"):
        LeastSquaresStream(np.zeros((3, 2)), batch=0)


def test_additive_noise_has_the_stated_per_client_variance():
    s2 = np.array([0.5, 2.0, 8.0])
    p = CosineClusters(np.zeros((3, 4)), 2.0, s2)
    n = p.sample_noise(100000, np.random.default_rng(7))
    assert np.allclose((n**2).sum(-1).mean(0), s2, rtol=0.02)
    assert p.beta == 3.0


def test_random_spd_spectrum_attains_its_ends():
    A = random_spd(5, 4, 0.25, 3.0, np.random.default_rng(8))
    ev = np.linalg.eigvalsh(A)
    assert np.allclose(ev[:, 0], 0.25) and np.allclose(ev[:, -1], 3.0)
