import numpy as np
import pytest
import scipy.sparse as sp

from pflbounds.problems import QuadraticFamily, sinkhorn


def _family(per_agent: bool = False, seed: int = 0) -> QuadraticFamily:
    rng = np.random.default_rng(seed)
    h = np.array([0.5, 1.0, 3.0])
    m = rng.standard_normal((5, 3))
    s = rng.random((5, 3)) if per_agent else np.array([0.1, 0.2, 0.3])
    return QuadraticFamily(h=h, m=m, s=s)


def test_constants_are_exact():
    P = _family(per_agent=True)
    assert P.N == 5 and P.d == 3
    assert P.mu == 0.5 and P.L == 3.0 and P.kappa == 6.0
    assert P.sigma2 == pytest.approx(P.s.sum(axis=1).max(), rel=1e-15)
    Q = _family()
    assert Q.sigma2 == pytest.approx(0.6, rel=1e-15)
    assert np.array_equal(Q.x_star, Q.m)


@pytest.mark.parametrize(
    "kwargs, msg",
    [
        ({"h": [1.0, 0.0], "m": np.zeros((2, 2)), "s": 1.0}, "h must be > 0"),
        ({"h": [1.0, 2.0], "m": np.zeros((2, 3)), "s": 1.0}, "m must have shape"),
        ({"h": [1.0, 2.0], "m": np.zeros((2, 2)), "s": [1.0, -1.0]}, "s must be >= 0"),
        ({"h": [1.0, 2.0], "m": np.zeros((2, 2)), "s": np.ones((3, 2))}, "s must have shape"),
        ({"h": [[1.0]], "m": np.zeros((2, 1)), "s": 1.0}, "h must be a non-empty vector"),
        ({"h": [1.0], "m": np.full((2, 1), np.nan), "s": 1.0}, "m must be finite"),
    ],
)
def test_validation(kwargs, msg):
    with pytest.raises(ValueError, match=msg):
        QuadraticFamily(**kwargs)


def test_random_constructor_constants():
    rng = np.random.default_rng(1)
    P = QuadraticFamily.random(7, 4, kappa=10.0, sigma2=2.0, spread=1.5, rng=rng)
    assert P.mu == 1.0 and P.L == pytest.approx(10.0, rel=1e-15)
    assert P.sigma2 == pytest.approx(2.0, rel=1e-15)
    with pytest.raises(ValueError, match="kappa"):
        QuadraticFamily.random(3, 1, kappa=2.0, sigma2=1.0, spread=1.0, rng=rng)


def test_excess_and_gradient():
    P = _family()
    X = np.random.default_rng(2).standard_normal((4, 5, 3))
    E = X - P.m
    assert np.allclose(P.excess(X), 0.5 * (E**2 * P.h).sum(-1), rtol=1e-14)
    assert P.excess(X).shape == (4, 5)
    assert np.allclose(P.exact_grad(X), E * P.h)
    # exact excess along the gradient: f(x) = 1/2 g^T H^{-1} g
    g = P.exact_grad(X)
    assert np.allclose(P.excess(X), 0.5 * (g**2 / P.h).sum(-1))


def test_stochastic_gradient_moments():
    P = _family(per_agent=True)
    rng = np.random.default_rng(3)
    X = np.broadcast_to(np.ones(3), (40_000, 5, 3)).copy()
    n = P.grad(X, rng) - P.exact_grad(X)
    se = np.sqrt(P.s / 40_000)
    assert np.all(np.abs(n.mean(0)) < 4.5 * se)
    assert np.allclose(n.var(0), P.s, rtol=0.05)
    assert ((n**2).sum(-1).mean(0)) == pytest.approx(P.sigma2_agents, rel=0.03)


def test_seed_reproducibility_bitwise():
    P = _family()
    X = np.zeros((3, 5, 3))
    a = P.grad(X, np.random.default_rng(11))
    b = P.grad(X, np.random.default_rng(11))
    assert np.array_equal(a, b)


def test_bias_matrix_is_uniform_gradient_gap_and_lemma4():
    P = _family()
    b = P.bias_matrix()
    x = np.random.default_rng(4).standard_normal(3)
    G = P.exact_grad(np.broadcast_to(x, (5, 3)))
    gap = np.linalg.norm(G[:, None, :] - G[None, :, :], axis=-1)
    assert np.allclose(b, gap, atol=1e-12)
    c = P.cross_gap()
    explicit = np.array([[P.excess(np.broadcast_to(P.m[j], (5, 3)))[i] for j in range(5)]
                         for i in range(5)])
    assert np.allclose(c, explicit, atol=1e-13)
    # Lemma 4: f_i(x_j^*) - f_i^* <= b_ij^2 / (2 mu), equality impossible here (kappa > 1)
    assert np.all(c <= b**2 / (2 * P.mu) + 1e-12)
    assert np.all(np.diag(b) == 0) and np.all(np.diag(c) == 0)


@pytest.mark.parametrize("kind", ["dense", "sparse", "batched"])
def test_mixed_grad_matches_pairwise_sum(kind):
    P = _family(per_agent=True)
    rng = np.random.default_rng(5)
    Lam = sinkhorn(rng.random((5, 5)))
    Lam[0, 3] = 0.0  # a zero entry: row-stochastic but not doubly, with sparsity
    Lam /= Lam.sum(1, keepdims=True)
    R = 3
    X = rng.standard_normal((R, 5, 3))
    noise = P.sample_noise(R, rng)
    # explicit: sum_j lam_ij (H (x_i - m_j) + n_j)
    ref = np.einsum("ij,rijc->ric", Lam, (X[:, :, None, :] - P.m[None, None]) * P.h
                    + noise[:, None, :, :])
    if kind == "dense":
        L = Lam
    elif kind == "sparse":
        L = sp.csr_matrix(Lam)
    else:
        L = np.broadcast_to(Lam, (R, 5, 5)).copy()
    assert np.allclose(P.mixed_grad(X, L, noise), ref, atol=1e-13)
