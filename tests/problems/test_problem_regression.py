import numpy as np
import pytest
import scipy.sparse as sp

from pflbounds.problems import LinearRegressionFamily, least_squares_reference


def _small(seed: int = 0) -> LinearRegressionFamily:
    rng = np.random.default_rng(seed)
    A = rng.standard_normal((3, 4, 4))
    Sig = A @ np.swapaxes(A, 1, 2) / 4 + 0.2 * np.eye(4)
    return LinearRegressionFamily(Sigmas=Sig, u=rng.standard_normal(4), p=0.2)


def test_closed_form_optimum_against_monte_carlo_lstsq():
    F = _small()
    rng = np.random.default_rng(1)
    n = 400_000
    A, b = F.sample(n, rng)  # (n, N, d), (n, N)
    for i in range(F.N):
        x_hat, acc = least_squares_reference(A[:, i], b[:, i])
        assert acc < 1e-10
        # O(1/sqrt(n)) statistical error; ||x*|| ~ 1
        assert np.linalg.norm(x_hat - F.x_star[i]) < 0.02
        # empirical f at x* matches f*
        f_emp = 0.5 * np.mean((A[:, i] @ F.x_star[i] - b[:, i]) ** 2)
        assert f_emp == pytest.approx(F.f_star[i], abs=0.005)
    assert F.f_star[0] == pytest.approx(0.5 * (1 - 0.36 * 2 / np.pi))


def test_cvxpy_clarabel_matches_lstsq_on_empirical_problem():
    F = _small()
    A, b = F.sample(3000, np.random.default_rng(2))
    x1, a1 = least_squares_reference(A[:, 0], b[:, 0], solver="lstsq")
    x2, a2 = least_squares_reference(A[:, 0], b[:, 0], solver="cvxpy")
    assert a1 < 1e-12 and a2 < 1e-6
    assert np.allclose(x1, x2, atol=1e-6)
    with pytest.raises(ValueError):
        least_squares_reference(A[:, 0], b[:, 0], solver="nope")


def test_excess_identity_and_noise_variance():
    F = _small()
    rng = np.random.default_rng(3)
    X = rng.standard_normal((F.N, 4))
    A, b = F.sample(200_000, rng)
    loss = 0.5 * (np.einsum("rnd,nd->rn", A, X) - b) ** 2
    assert np.allclose(loss.mean(0) - F.f_star, F.excess(X), rtol=0.02)
    g = A * (np.einsum("rnd,nd->rn", A, X) - b)[..., None]
    assert np.allclose(g.mean(0), F.exact_grad(X), atol=0.05)
    v_mc = ((g - F.exact_grad(X)) ** 2).sum(-1).mean(0)
    assert np.allclose(v_mc, F.noise_variance(X), rtol=0.03)
    # Assumption 1 fails: the variance grows like ||x||^2
    v_far = F.noise_variance(100 * X)
    assert np.all(v_far > 1000 * F.noise_variance(X))
    assert not hasattr(F, "sigma2")
    with pytest.raises(AttributeError, match="Assumption 1"):
        _ = F.sigma2


def test_paper_constructors():
    F, labels = LinearRegressionFamily.cluster_case(20, 16, 4, np.random.default_rng(4))
    assert F.mu == pytest.approx(1 / 4) and F.L == pytest.approx(1.25)
    assert labels.tolist() == sorted(labels.tolist()) and F.diagonal
    # optima are parallel to u
    cos = F.x_star @ F.u / (np.linalg.norm(F.x_star, axis=1) * np.linalg.norm(F.u))
    assert np.allclose(cos, 1.0)
    G = LinearRegressionFamily.iid_case(10, 9, np.random.default_rng(5))
    assert G.L <= 1 / 3 and G.mu > 0
    with pytest.raises(ValueError):
        LinearRegressionFamily(Sigmas=np.ones((2, 3)), u=np.zeros(3))


@pytest.mark.parametrize("sparse", [False, True])
def test_mixed_grad_pairwise(sparse):
    F = _small()
    rng = np.random.default_rng(6)
    Lam = np.array([[0.5, 0.5, 0.0], [0.2, 0.3, 0.5], [0.0, 0.0, 1.0]])
    X = rng.standard_normal((2, 3, 4))
    A, b = F.sample_noise(2, rng)
    ref = np.einsum("ij,rijc->ric", Lam,
                    A[:, None, :, :] * (np.einsum("rjc,ric->rij", A, X) - b[:, None, :])[..., None])
    L = sp.csr_matrix(Lam) if sparse else Lam
    assert np.allclose(F.mixed_grad(X, L, (A, b)), ref, atol=1e-12)


def _features(A: np.ndarray, b: np.ndarray) -> np.ndarray:
    """(vec(a a^T), a b) per replica and agent, shape (R, N, d^2 + d)."""
    aa = np.einsum("rnc,rne->rnce", A, A).reshape(*A.shape[:2], -1)
    return np.concatenate([aa, A * b[..., None]], axis=-1)


@pytest.mark.parametrize("S", [1, 3, 7])  # 7: S(S+1)/2 > d, the feature branch
def test_estimated_distances_equal_the_explicit_feature_distances(S):
    F, _ = LinearRegressionFamily.cluster_case(6, 5, 2, np.random.default_rng(11))
    got = F.estimate_biases(S, 4, np.random.default_rng(12))
    rng = np.random.default_rng(12)
    mu_hat = sum(_features(*F.sample(4, rng)) for _ in range(S)) / S
    want = ((mu_hat[:, :, None, :] - mu_hat[:, None, :, :]) ** 2).sum(-1)
    assert got.shape == (4, 6, 6)
    np.testing.assert_allclose(got, want, rtol=1e-10, atol=1e-10)
    assert np.all(np.diagonal(got, axis1=1, axis2=2) == 0)
    np.testing.assert_array_equal(got, np.swapaxes(got, 1, 2))
    with pytest.raises(ValueError, match="S >= 1"):
        F.estimate_biases(0, 2, rng)


def test_estimated_distances_are_unbiased_up_to_the_sampling_noise():
    # E bhat_ij^2 = ||E xi_i - E xi_j||^2 + (tr Cov xi_i + tr Cov xi_j)/S: with many
    # samples the estimate concentrates on the distance of the means
    F, labels = LinearRegressionFamily.cluster_case(4, 3, 2, np.random.default_rng(13))
    b2 = F.estimate_biases(2000, 3, np.random.default_rng(14))  # the feature branch (S > d)
    same = labels[:, None] == labels[None, :]
    assert np.all(b2[:, same & ~np.eye(4, dtype=bool)] < b2[:, ~same].min() / 2)


def test_covariance_distances():
    F = _small()
    D = F.covariance_sq_distances()
    want = ((F.Sigmas[:, None] - F.Sigmas[None]) ** 2).sum(axis=(2, 3))
    np.testing.assert_allclose(D, want, rtol=1e-12, atol=1e-12)
    G, labels = LinearRegressionFamily.cluster_case(6, 5, 3, np.random.default_rng(15))
    D2 = G.covariance_sq_distances()  # ||e_m e_m^T - e_m' e_m'^T||_F^2 = 2 across clusters
    np.testing.assert_allclose(D2, np.where(labels[:, None] == labels[None, :], 0.0, 2.0),
                               atol=1e-12)
