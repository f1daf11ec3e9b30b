import numpy as np
import pytest
import scipy.sparse as sp

from pflbounds.problems import LogisticFamily


@pytest.fixture(scope="module")
def fam() -> LogisticFamily:
    rng = np.random.default_rng(0)
    return LogisticFamily.random(N=4, d=5, n=150, reg=0.05, spread=0.5, rng=rng)


def test_reference_solvers_agree(fam):
    newton = fam.solve_reference("newton")
    assert newton.accuracy < 1e-11
    for method, acc in (("scipy", 1e-7), ("lbfgs", 1e-7), ("cvxpy", 1e-5)):
        ref = fam.solve_reference(method)
        assert ref.accuracy < acc, method
        # strong convexity: ||x - x*|| <= ||grad|| / mu
        assert np.abs(ref.x_star - newton.x_star).max() <= ref.accuracy / fam.mu + 1e-10
        assert np.allclose(ref.f_star, newton.f_star, atol=1e-9)
    with pytest.raises(ValueError):
        fam.solve_reference("nope")


def test_certified_constants(fam):
    rng = np.random.default_rng(1)
    X = 3 * rng.standard_normal((20, fam.N, fam.d))
    ev = np.linalg.eigvalsh(fam.hessian(X))
    assert ev.min() >= fam.mu - 1e-12
    assert ev.max() <= fam.L + 1e-12
    assert fam.excess(X).min() >= 0
    # sigma2 bounds the one-sample gradient variance at any point
    x = X[0]
    g = fam.grad(np.broadcast_to(x, (20_000, fam.N, fam.d)).copy(), rng)
    var = ((g - fam.exact_grad(x)) ** 2).sum(-1).mean(0)
    assert np.all(var <= fam.sigma2)
    assert np.allclose(g.mean(0), fam.exact_grad(x), atol=0.05)


def test_gradient_matches_finite_differences(fam):
    x = np.random.default_rng(2).standard_normal((fam.N, fam.d))
    g = fam.exact_grad(x)
    h = 1e-6
    for c in range(fam.d):
        e = np.zeros(fam.d)
        e[c] = h
        fd = (fam.f(x + e) - fam.f(x - e)) / (2 * h)
        assert np.allclose(fd, g[:, c], atol=1e-7)


@pytest.mark.parametrize("sparse", [False, True])
def test_mixed_grad_pairwise(fam, sparse):
    rng = np.random.default_rng(3)
    Lam = rng.random((4, 4)) * (rng.random((4, 4)) < 0.6) + np.eye(4)
    Lam /= Lam.sum(1, keepdims=True)
    X = rng.standard_normal((3, 4, 5))
    Zs, ys = fam.sample_noise(3, rng)
    ref = np.zeros_like(X)
    for r in range(3):
        for i in range(4):
            for j in range(4):
                t = Zs[r, j] @ X[r, i]
                ref[r, i] += Lam[i, j] * (-ys[r, j] / (1 + np.exp(ys[r, j] * t)) * Zs[r, j]
                                          + fam.reg * X[r, i])
    L = sp.csr_matrix(Lam) if sparse else Lam
    assert np.allclose(fam.mixed_grad(X, L, (Zs, ys)), ref, atol=1e-12)
