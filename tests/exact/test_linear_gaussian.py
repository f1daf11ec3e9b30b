import numpy as np
import pytest

from pflbounds.algorithms import run_afa, run_afo, run_local_sgd, stable_afa_step
from pflbounds.exact import (
    afa_bias_floor,
    afa_expected_excess,
    afa_lifted_floor,
    afo_expected_excess,
    afo_limit,
    geometric_sum,
    local_sgd_expected_excess,
)
from pflbounds.problems import (
    GaussianMeans,
    HardInstanceA,
    QuadraticFamily,
    cluster_weights,
    sinkhorn,
    spectral_radius,
    star_bias_matrix,
    threshold_weights,
)

KS = [0, 1, 2, 5, 10, 15]


def _instance(per_agent: bool, seed: int = 0) -> tuple[QuadraticFamily, np.ndarray]:
    """Digest Appendix C #5 setting: N = 6, d = 3, K = 15, eta = 0.2, Sinkhorn Lambda."""
    rng = np.random.default_rng(seed)
    h = np.array([0.5, 1.0, 2.0])
    m = rng.standard_normal((6, 3))
    s = rng.random((6, 3)) if per_agent else np.array([0.3, 0.2, 0.5])
    Lam = sinkhorn(rng.random((6, 6)))
    return QuadraticFamily(h=h, m=m, s=s), Lam


def _within(mc_mean, mc_sem, exact, z=4.0):
    return np.all(np.abs(mc_mean - exact) <= z * mc_sem + 1e-12 * np.abs(exact))


def test_geometric_sum_accuracy():
    q = np.array([0.0, 0.5, 1.0, 1 - 1e-12, -0.7, 1.5])
    k = 7.0
    ref = np.array([1.0, (1 - 0.5**7) / 0.5, 7.0, 7.0, (1 - (-0.7) ** 7) / 1.7,
                    (1.5**7 - 1) / 0.5])
    out = geometric_sum(q, k)
    assert np.allclose(out, ref, rtol=1e-10)
    assert geometric_sum(0.0, 0.0) == 0.0
    # q underflowing next to 0 (eta h d_l = 1 up to rounding): no 0 * log(0) = nan
    assert np.array_equal(geometric_sum(np.array([1e-32, 1e-32]), np.array([0.0, 3.0])),
                          [0.0, 1.0])
    # near q = 1 the naive formula loses ~4 digits; ours matches the series
    qq = 1 - 1e-9
    assert geometric_sum(qq, 1000.0) == pytest.approx(sum(qq**t for t in range(1000)), rel=1e-12)


@pytest.mark.parametrize("per_agent", [False, True])
def test_spectral_equals_recursion(per_agent):
    P, Lam = _instance(per_agent)
    W = Lam @ Lam.T
    a = afa_expected_excess(P, W, 0.2, np.zeros(3), KS, method="spectral")
    b = afa_expected_excess(P, W, 0.2, np.zeros(3), KS, method="recursion")
    assert np.allclose(a, b, rtol=1e-12, atol=1e-15)
    with pytest.raises(ValueError):
        afa_expected_excess(P, W, np.full(6, 0.2), np.zeros(3), KS, method="spectral")


@pytest.mark.parametrize("per_agent", [False, True])
def test_afa_exact_vs_monte_carlo(per_agent):
    P, Lam = _instance(per_agent)
    W = Lam @ Lam.T
    exact = afa_expected_excess(P, W, 0.2, np.zeros(3), KS)
    tr = run_afa(P, W, 0.2, 15, np.zeros(3), 20_000, np.random.default_rng(1), record=KS)
    assert _within(tr.mean_excess(), tr.sem_excess(), exact)
    assert _within(tr.F_mean(), tr.F_sem(), exact.mean(1))
    # the comparison is sharp: 10% more noise is rejected at the same tolerance
    P2 = QuadraticFamily(h=P.h, m=P.m, s=1.1 * P.s)
    wrong = afa_expected_excess(P2, W, 0.2, np.zeros(3), KS)
    assert not _within(tr.F_mean(), tr.F_sem(), wrong.mean(1))


@pytest.mark.parametrize("per_agent", [False, True])
def test_afo_exact_vs_monte_carlo(per_agent):
    P, Lam = _instance(per_agent)
    eta = np.linspace(0.1, 0.3, 6)  # per-agent steps, as in Eq. (6)
    exact = afo_expected_excess(P, Lam, eta, np.zeros(3), KS)
    tr = run_afo(P, Lam, eta, 15, np.zeros(3), 20_000, np.random.default_rng(2), record=KS)
    assert _within(tr.mean_excess(), tr.sem_excess(), exact)


def test_afa_per_agent_steps_and_nonsymmetric_w():
    P, Lam = _instance(True)
    eta = np.linspace(0.1, 0.3, 6)
    W = Lam @ Lam.T
    exact = afa_expected_excess(P, W, eta, np.zeros(3), KS)
    tr = run_afa(P, W, eta, 15, np.zeros(3), 20_000, np.random.default_rng(3), record=KS)
    assert _within(tr.mean_excess(), tr.sem_excess(), exact)
    exact_ns = afa_expected_excess(P, Lam, 0.2, np.zeros(3), KS)  # W = Lam, non-symmetric
    tr2 = run_afa(P, Lam, 0.2, 15, np.zeros(3), 20_000, np.random.default_rng(4), record=KS)
    assert _within(tr2.mean_excess(), tr2.sem_excess(), exact_ns)


def test_star_graph_divergence_exact_and_monte_carlo():
    """Digest P11: N = 20 star, rho(W) = 5.01, eta = 1/(2L) diverges; 1/(2 L rho) converges."""
    rng = np.random.default_rng(5)
    N = 20
    Lam = threshold_weights(star_bias_matrix(N, 1.0, 2.0) ** 2, 1.5)
    W = Lam @ Lam.T
    assert spectral_radius(W) == pytest.approx(5.0096, abs=1e-4)
    P = QuadraticFamily(h=np.ones(3), m=rng.standard_normal((N, 3)), s=np.full(3, 0.1))
    ks = [0, 10, 20, 30]
    bad = afa_expected_excess(P, W, 0.5 / P.L, np.zeros(3), ks).mean(1)
    assert bad[-1] > 1e6 * bad[0]
    assert np.all(np.diff(np.log(bad[1:])) > 0)
    tr = run_afa(P, W, 0.5 / P.L, 30, np.zeros(3), 4000, rng, record=ks)
    assert _within(tr.F_mean(), tr.F_sem(), bad)
    good = afa_expected_excess(P, W, stable_afa_step(P.L, W), np.zeros(3), ks).mean(1)
    assert good[-1] < good[0]


def test_bias_floor_projection_lstsq_cvxpy_and_limit():
    """Digest P9: F^inf = (1/(2N)) sum_c h_c ||(I - P_range Lam) M_c||^2 = f^Lam(y^Lam) - fbar*."""
    rng = np.random.default_rng(6)
    labels = np.repeat(np.arange(3), 3)
    Lam = cluster_weights(labels)  # rank 3: non-trivial floor
    P = QuadraticFamily(h=np.array([0.5, 2.0]), m=rng.standard_normal((9, 2)), s=np.zeros(2))
    floor = afa_bias_floor(P, Lam)
    # explicit: within-cluster variances of m, H-weighted
    dev = P.m - np.stack([P.m[labels == c].mean(0) for c in range(3)])[labels]
    assert floor == pytest.approx(0.5 * (dev**2 @ P.h).mean(), rel=1e-12)
    assert afa_lifted_floor(P, Lam) == pytest.approx(floor, rel=1e-10)
    assert afa_lifted_floor(P, Lam, solver="cvxpy") == pytest.approx(floor, rel=1e-6)
    limit = afa_expected_excess(P, Lam @ Lam.T, 0.4, np.full(2, 3.0), [2000]).mean()
    assert limit == pytest.approx(floor, rel=1e-10)
    per_agent = afa_bias_floor(P, Lam, per_agent=True)
    assert per_agent.shape == (9,) and per_agent.mean() == pytest.approx(floor)
    # Lemma 5 / Remark 1: floor <= (1/N) sum_ij lam_ij (f_i(x_j^*) - f_i^*)
    assert floor <= (Lam * P.cross_gap()).sum() / 9 + 1e-15


def test_afo_limit_and_local_sgd():
    P, Lam = _instance(True)
    lim = afo_limit(P, Lam, 0.2)
    far = afo_expected_excess(P, Lam, 0.2, np.zeros(3), [5000])[0]
    assert np.allclose(far, lim, rtol=1e-10)
    loc = local_sgd_expected_excess(P, 0.2, np.zeros(3), KS)
    tr = run_local_sgd(P, 0.2, 15, np.zeros(3), 20_000, np.random.default_rng(7), record=KS)
    assert _within(tr.mean_excess(), tr.sem_excess(), loc)
    # local SGD limit: 1/2 sum_c eta s_c / (2 - eta h_c), no bias
    lim0 = afo_limit(P, np.eye(6), 0.2)
    assert np.allclose(lim0, 0.5 * (0.2 * P.s / (2 - 0.2 * P.h)).sum(1), rtol=1e-14)


def test_reductions_for_gaussian_means_and_instance_a():
    rng = np.random.default_rng(8)
    A = rng.standard_normal((3, 3))
    G = GaussianMeans.random(2, 3, 3, 4.0, A @ A.T / 3 + 0.2 * np.eye(3), rng)
    Lam = G.true_weights()
    ex = afa_expected_excess(G, Lam, 0.3, np.zeros(3), KS)
    tr = run_afa(G, Lam, 0.3, 15, np.zeros(3), 20_000, np.random.default_rng(9), record=KS)
    assert _within(tr.mean_excess(), tr.sem_excess(), ex)
    H = HardInstanceA.two_level(12, 0.25, 3, 3, 0.03, rng)
    Lam = np.zeros((6, 6))
    Lam[:, :3] = 1 / 3
    ex = afo_expected_excess(H, Lam, 0.3, np.zeros(12), KS)
    tr = run_afo(H, Lam, 0.3, 15, np.zeros(12), 20_000, np.random.default_rng(10), record=KS)
    assert _within(tr.mean_excess(), tr.sem_excess(), ex)
