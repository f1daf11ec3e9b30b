import numpy as np
import pytest
import scipy.sparse as sp

from pflbounds.algorithms import (
    MixtureProblem,
    StochasticProblem,
    run_afa,
    run_afa_estimated,
    run_afa_lifted,
    run_afo,
    run_global_model,
    run_interpolated,
    run_local_sgd,
    stable_afa_step,
)
from pflbounds.exact import f_Lambda_gap
from pflbounds.problems import (
    GaussianMeans,
    HardInstanceA,
    LinearRegressionFamily,
    LogisticFamily,
    QuadraticFamily,
    cluster_weights,
    clustered,
    global_weights,
    interpolated_weights,
    regular_graph_weights,
    sinkhorn,
    star_bias_matrix,
    threshold_weights,
)


def _quad(N: int = 6, d: int = 3, seed: int = 0, per_agent: bool = False) -> QuadraticFamily:
    rng = np.random.default_rng(seed)
    P = QuadraticFamily.random(N, d, kappa=4.0, sigma2=1.0, spread=1.0, rng=rng)
    if per_agent:
        P = QuadraticFamily(h=P.h, m=P.m, s=rng.random((N, d)))
    return P


def test_protocols():
    P = _quad()
    assert isinstance(P, StochasticProblem) and isinstance(P, MixtureProblem)
    G = GaussianMeans.random(2, 2, 3, 1.0, 1.0, np.random.default_rng(0))
    assert isinstance(G, MixtureProblem)


def test_seed_gives_bitwise_identical_runs():
    P = _quad()
    Lam = sinkhorn(np.random.default_rng(1).random((6, 6)))
    for runner, M in ((run_afa, Lam @ Lam.T), (run_afo, Lam)):
        a = runner(P, M, 0.2, 10, np.zeros(3), 7, np.random.default_rng(5))
        b = runner(P, M, 0.2, 10, np.zeros(3), 7, np.random.default_rng(5))
        c = runner(P, M, 0.2, 10, np.zeros(3), 7, np.random.default_rng(6))
        assert np.array_equal(a.excess, b.excess) and np.array_equal(a.X_final, b.X_final)
        assert not np.array_equal(a.excess, c.excess)


def test_trace_shapes_and_recording():
    P = _quad()
    tr = run_afa(P, np.eye(6), 0.1, 12, np.ones(3), 4, np.random.default_rng(0),
                 record=[0, 3, 12], store_iterates=True)
    assert tr.ks.tolist() == [0, 3, 12]
    assert tr.excess.shape == (4, 3, 6) and tr.iterates.shape == (4, 3, 6, 3)
    assert tr.F.shape == (4, 3) and tr.F_mean().shape == (3,)
    assert np.allclose(tr.excess[:, 0], P.excess(np.ones(3)[None, None]))  # common init
    assert np.array_equal(tr.iterates[:, -1], tr.X_final)
    full = run_afa(P, np.eye(6), 0.1, 5, np.ones(3), 2, np.random.default_rng(0))
    assert full.ks.tolist() == list(range(6))
    for bad in ([3, 1], [0, 13], [], [-1]):
        with pytest.raises(ValueError):
            run_afa(P, np.eye(6), 0.1, 12, np.ones(3), 2, np.random.default_rng(0), record=bad)
    with pytest.raises(ValueError, match="common initialisation"):
        run_afa(P, np.eye(6), 0.1, 3, np.ones((6, 3)), 2, np.random.default_rng(0))
    with pytest.raises(ValueError, match="agents"):
        run_afa(P, np.eye(5), 0.1, 3, np.ones(3), 2, np.random.default_rng(0))
    with pytest.raises(ValueError, match="eta"):
        run_afa(P, np.eye(6), -0.1, 3, np.ones(3), 2, np.random.default_rng(0))


def test_lifted_recursion_reproduces_afa():
    """Digest P10: x^k = Lam y^k to machine precision with the same noise, x^k in range(Lam)."""
    P = _quad(N=8, per_agent=True)
    Lam = threshold_weights(P.bias_matrix() ** 2, np.quantile(P.bias_matrix() ** 2, 0.4))
    W = Lam @ Lam.T
    eta = stable_afa_step(P.L, W)
    a = run_afa(P, W, eta, 25, np.full(3, 0.5), 5, np.random.default_rng(9), store_iterates=True)
    lt = run_afa_lifted(P, Lam, eta, 25, np.full(3, 0.5), 5, np.random.default_rng(9))
    scale = np.abs(a.iterates).max()
    assert np.abs(a.iterates - lt.iterates).max() <= 1e-12 * scale
    assert np.allclose(np.matmul(Lam, lt.y_iterates), lt.iterates, atol=1e-13, rtol=0)
    assert np.allclose(a.F, f_Lambda_gap(P, Lam, lt.y_iterates), rtol=1e-11)
    # x^k in range(Lam): the residual of projecting onto range(Lam) vanishes
    U, sv, _ = np.linalg.svd(Lam)
    Ur = U[:, sv > 1e-10 * sv[0]]
    resid = a.iterates - np.einsum("il,jl,rkjc->rkic", Ur, Ur, a.iterates)
    assert np.abs(resid).max() <= 1e-12 * scale


def test_baselines_agree_with_afa_forms():
    P = _quad()
    x0 = np.zeros(3)
    loc = run_local_sgd(P, 0.2, 10, x0, 5, np.random.default_rng(3))
    afa_I = run_afa(P, np.eye(6), 0.2, 10, x0, 5, np.random.default_rng(3))
    afo_I = run_afo(P, np.eye(6), 0.2, 10, x0, 5, np.random.default_rng(3))
    assert np.array_equal(loc.excess, afa_I.excess)
    assert np.array_equal(loc.excess, afo_I.excess)
    glob = run_global_model(P, 0.2, 10, x0, 5, np.random.default_rng(3), store_iterates=True)
    afa_G = run_afa(P, global_weights(6), 0.2, 10, x0, 5, np.random.default_rng(3))
    assert np.allclose(glob.excess, afa_G.excess, rtol=1e-12, atol=1e-14)
    assert np.ptp(glob.iterates, axis=2).max() == 0.0  # one shared model
    alpha = np.linspace(0.1, 0.9, 6)
    Lam = interpolated_weights(6, alpha)
    for method, M, runner in (("afa", Lam @ Lam.T, run_afa), ("afo", Lam, run_afo)):
        it = run_interpolated(P, alpha, 0.2, 10, x0, 5, np.random.default_rng(4), method=method)
        ref = runner(P, M, 0.2, 10, x0, 5, np.random.default_rng(4))
        assert np.allclose(it.excess, ref.excess, rtol=1e-11, atol=1e-14)


def test_sparse_and_dense_weights_agree():
    P = _quad(N=12, per_agent=True)
    Ls = regular_graph_weights(12, 2, sparse=True)
    Ld = Ls.toarray()
    for runner, Ms, Md in ((run_afa, (Ls @ Ls.T).tocsr(), Ld @ Ld.T), (run_afo, Ls, Ld)):
        a = runner(P, Ms, 0.3, 15, np.zeros(3), 4, np.random.default_rng(7))
        b = runner(P, Md, 0.3, 15, np.zeros(3), 4, np.random.default_rng(7))
        assert np.allclose(a.excess, b.excess, rtol=1e-12, atol=1e-15)


def test_afa_on_clusters_is_minibatch_sgd():
    """Digest P7: block weights -> agents of a cluster hold identical iterates."""
    P, labels = clustered(3, 4, 2, 3.0, np.array([1.0, 2.0]), 0.5, np.random.default_rng(0))
    Lam = cluster_weights(labels)
    tr = run_afa(P, Lam @ Lam.T, 0.25, 20, np.zeros(2), 6, np.random.default_rng(1),
                 store_iterates=True)
    for m in range(3):
        block = tr.iterates[:, :, labels == m]
        assert np.abs(block - block[:, :, :1]).max() <= 1e-12


def test_star_graph_divergence_at_paper_step():
    """Digest P11: rho(W) = 5.01 for N = 20; eta = 1/(2L) diverges, 1/(2 L rho) converges."""
    rng = np.random.default_rng(0)
    N = 20
    b = star_bias_matrix(N, 1.0, 2.0)
    Lam = threshold_weights(b**2, 1.5)
    W = Lam @ Lam.T
    P = QuadraticFamily(h=np.ones(2), m=rng.standard_normal((N, 2)), s=np.zeros(2))
    bad = run_afa(P, W, 0.5 / P.L, 30, np.zeros(2), 1, rng)
    good = run_afa(P, W, stable_afa_step(P.L, W), 30, np.zeros(2), 1, rng)
    assert bad.F[0, -1] > 1e4 * bad.F[0, 0]
    assert good.F[0, -1] < good.F[0, 0]


def test_afa_estimated_recovers_clusters():
    G = GaussianMeans.random(M=3, C=4, d=3, Delta2=16.0, Sigma=0.5, rng=np.random.default_rng(0))
    u = G.Delta2 / 4
    S = int(np.ceil(16 * G.nu2 * G.d_eff / G.Delta2 * 10))
    tr = run_afa_estimated(G, S, u, "stable", 30, np.zeros(3), 8, np.random.default_rng(1))
    assert tr.info["exact_recovery"].all()
    assert np.allclose(tr.info["eta"], 0.5)  # rho(What) = 1 on the good event
    oracle = run_afa(G, G.true_weights(), 0.5, 30, np.zeros(3), 2000, np.random.default_rng(2))
    local = run_local_sgd(G, 0.5, 30, np.zeros(3), 2000, np.random.default_rng(2))
    # cluster of size 4: variance floor 4x smaller than local SGD
    ratio = oracle.F_mean()[-1] / local.F_mean()[-1]
    assert 0.2 < ratio < 0.3
    # S = 1 and a tiny threshold: no recovery, steps per replica still set
    bad = run_afa_estimated(G, 1, 1e-3, 0.5, 5, np.zeros(3), 4, np.random.default_rng(3))
    assert not bad.info["exact_recovery"].any() and bad.info["eta"].shape == (4,)
    fn = run_afa_estimated(G, S, u, lambda W: np.full(W.shape[0], 0.1), 3, np.zeros(3), 2,
                           np.random.default_rng(3))
    assert np.allclose(fn.info["eta"], 0.1)


def test_methods_run_on_every_problem():
    rng = np.random.default_rng(0)
    probs = [
        GaussianMeans.random(2, 3, 4, 4.0, 0.3, rng),
        HardInstanceA.two_level(12, 0.25, 3, 3, 0.01, rng),
        LinearRegressionFamily.cluster_case(6, 5, 2, rng)[0],
        LogisticFamily.random(6, 3, 50, 0.1, 0.3, rng),
    ]
    for P in probs:
        Lam = sinkhorn(rng.random((P.N, P.N)) + 0.1)
        eta = 0.25 / P.L
        x0 = np.full(P.d, 0.3)
        for tr in (run_afa(P, Lam @ Lam.T, eta, 40, x0, 16, rng),
                   run_afo(P, Lam, eta, 40, x0, 16, rng),
                   run_afo(P, sp.csr_matrix(Lam), eta, 5, x0, 2, rng)):
            assert np.all(np.isfinite(tr.excess))
            assert np.all(tr.excess >= -1e-12)
        # errors decrease from the initialisation
        afa = run_afa(P, Lam @ Lam.T, eta, 60, x0, 64, rng)
        assert afa.F_mean()[-1] < afa.F_mean()[0]
