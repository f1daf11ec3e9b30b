import numpy as np
import pytest

from pflbounds.papers.even2022.instances import misclassification_bound
from pflbounds.problems import GaussianMeans, estimated_weights


def _gm(seed: int = 0, Sigma=None) -> GaussianMeans:
    rng = np.random.default_rng(seed)
    if Sigma is None:
        A = rng.standard_normal((4, 4))
        Sigma = A @ A.T / 4 + 0.1 * np.eye(4)
    return GaussianMeans.random(M=3, C=5, d=4, Delta2=9.0, Sigma=Sigma, rng=rng)


def test_constants():
    G = GaussianMeans(mus=np.array([[0.0, 0.0], [3.0, 0.0], [0.0, 2.0]]), C=2,
                      Sigma=np.diag([2.0, 0.5]))
    assert G.N == 6 and G.M == 3 and G.d == 2
    assert G.nu2 == pytest.approx(2.0) and G.d_eff == pytest.approx(1.25)
    assert G.sigma2 == pytest.approx(2.5) and G.Delta2 == pytest.approx(4.0)
    assert G.labels.tolist() == [0, 0, 1, 1, 2, 2]
    b = G.bias_matrix()
    assert b[0, 1] == 0 and b[0, 2] == pytest.approx(3.0) and b[2, 4] == pytest.approx(np.sqrt(13))
    assert np.allclose(G.cross_gap(), 0.5 * b**2)
    assert _gm().Delta2 == pytest.approx(9.0, rel=1e-12)


def test_validation():
    with pytest.raises(ValueError, match="symmetric"):
        GaussianMeans(mus=np.zeros((2, 2)), C=2, Sigma=np.array([[1.0, 0.5], [0.0, 1.0]]))
    with pytest.raises(ValueError, match="positive semi-definite"):
        GaussianMeans(mus=np.zeros((2, 2)), C=2, Sigma=np.diag([1.0, -1.0]))
    with pytest.raises(ValueError, match="cluster size"):
        GaussianMeans(mus=np.zeros((2, 2)), C=0, Sigma=np.eye(2))


def test_sample_moments_non_diagonal_sigma():
    G = _gm()
    xi = G.sample(50_000, np.random.default_rng(1))
    dev = xi - G.m
    assert np.abs(dev.mean(0)).max() < 4.5 * np.sqrt(np.diag(G.Sigma).max() / 50_000)
    cov = np.einsum("rnc,rne->ce", dev, dev) / (50_000 * G.N)
    assert np.allclose(cov, G.Sigma, atol=0.01)


def test_bias_estimates_expectation_and_recovery():
    G = _gm()
    S = 4
    bhat2 = G.estimate_biases(S, 20_000, np.random.default_rng(2))
    assert bhat2.shape == (20_000, G.N, G.N)
    # E bhat_ij^2 = ||mu_i - mu_j||^2 + 2 Tr(Sigma)/S
    expected = G.mean_distance_matrix() ** 2 + 2 * G.sigma2 / S
    np.fill_diagonal(expected, 0.0)
    se = bhat2.std(0) / np.sqrt(20_000) + 1e-15
    assert np.all(np.abs(bhat2.mean(0) - expected) <= 5 * se)
    # large S: exact cluster recovery with u = Delta2/4 in every replica
    Lh = estimated_weights(G.estimate_biases(2000, 50, np.random.default_rng(3)), G.Delta2 / 4)
    assert np.all(Lh == G.true_weights()[None])
    # S = 1 with a tiny threshold: recovery fails
    Lh1 = estimated_weights(G.estimate_biases(1, 50, np.random.default_rng(3)), 0.01)
    assert not np.any(np.all(Lh1 == G.true_weights()[None], axis=(1, 2)))


def test_p12_cross_pair_tail_below_bound():
    # digest P12, example of Appendix C #4: p = 5, S = 20, ||mu_i - mu_j||^2 = 4, u = 1
    G = GaussianMeans(mus=np.array([[0.0] * 5, [2.0] + [0.0] * 4]), C=1, Sigma=np.eye(5))
    S, u = 20, 1.0
    assert u >= 4 * G.nu2 * G.d_eff / S
    bhat2 = G.estimate_biases(S, 200_000, np.random.default_rng(4))[:, 0, 1]
    p_hat = (bhat2 <= u).mean()
    bound = misclassification_bound(G, S, u)
    assert bound == pytest.approx(2 * np.exp(-20 * 2 / 8), rel=1e-12)  # 1.35e-2
    assert not hasattr(G, "misclassification_bound")  # the formula is the paper's, not the engine's
    assert p_hat + 4 * np.sqrt(max(p_hat, 1e-6) / 200_000) < bound


def test_as_quadratic_reduction():
    G = _gm()
    Q = G.as_quadratic()
    assert np.allclose(Q.h, 1.0) and np.array_equal(Q.m, G.m)
    assert Q.sigma2 == pytest.approx(G.sigma2, rel=1e-14)
