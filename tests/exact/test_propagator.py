"""The exact propagator against closed forms, brute-force second moments and Monte Carlo."""

import numpy as np
import pytest
from scipy.linalg import block_diag

from pflbounds.exact import (
    LinearDraws,
    QuadraticMetrics,
    StateLayout,
    afa_excess_by_propagation,
    afa_expected_excess,
    afo_excess_by_propagation,
    afo_expected_excess,
    block_coordinate_draws,
    pfl_client_index,
    pfl_client_metrics,
    pfl_quadratic,
    propagate,
)
from pflbounds.problems import QuadraticFamily, sinkhorn

KS = [0, 1, 2, 5, 10, 15, 64, 300]


def _rel(a, b):
    return float(np.max(np.abs(a - b) / np.abs(b)))


def _spd(rng, n, lo=0.3, hi=2.0):
    Q = np.linalg.qr(rng.standard_normal((n, n)))[0]
    return (Q * rng.uniform(lo, hi, n)) @ Q.T


# ---------------------------------------------------------------- (1) AFA / AFO closed forms
def _family(per_agent: bool, seed: int = 0) -> tuple[QuadraticFamily, np.ndarray]:
    rng = np.random.default_rng(seed)
    N, d = 7, 3
    s = rng.random((N, d)) if per_agent else np.array([0.3, 0.2, 0.5])
    P = QuadraticFamily(h=np.array([0.5, 1.0, 2.0]), m=rng.standard_normal((N, d)), s=s)
    return P, sinkhorn(rng.random((N, N)))


@pytest.mark.parametrize("per_agent", [False, True])
@pytest.mark.parametrize("closed", ["spectral", "recursion"])
@pytest.mark.parametrize("engine", ["recursion", "doubling"])
def test_afa_equals_closed_form(per_agent, closed, engine):
    P, Lam = _family(per_agent)
    W = Lam @ Lam.T
    x0 = np.array([1.0, -2.0, 0.5])
    ref = afa_expected_excess(P, W, 0.3, x0, KS, method=closed)
    got = afa_excess_by_propagation(P, W, 0.3, x0, KS, method=engine)
    assert got.shape == (len(KS), P.N)
    assert _rel(got, ref) <= 1e-12


@pytest.mark.parametrize("per_agent", [False, True])
@pytest.mark.parametrize("engine", ["recursion", "doubling"])
def test_afa_per_agent_steps_nonsymmetric_w_equals_closed_form(per_agent, engine):
    P, Lam = _family(per_agent, seed=1)
    eta = np.linspace(0.1, 0.35, P.N)
    x0 = np.array([0.0, 1.0, -1.0])
    for W in (Lam @ Lam.T, Lam):  # Lam is not symmetric
        ref = afa_expected_excess(P, W, eta, x0, KS, method="recursion")
        assert _rel(afa_excess_by_propagation(P, W, eta, x0, KS, method=engine), ref) <= 1e-12


@pytest.mark.parametrize("per_agent", [False, True])
@pytest.mark.parametrize("engine", ["recursion", "doubling"])
def test_afo_equals_closed_form(per_agent, engine):
    P, Lam = _family(per_agent, seed=2)
    x0 = np.array([2.0, 0.0, -1.0])
    for eta in (0.25, np.linspace(0.1, 0.4, P.N)):
        ref = afo_expected_excess(P, Lam, eta, x0, KS)
        assert _rel(afo_excess_by_propagation(P, Lam, eta, x0, KS, method=engine), ref) <= 1e-12


def test_afa_closed_form_comparison_is_sharp():
    """A 1% change of the noise is far outside the 1e-12 tolerance."""
    P, Lam = _family(True)
    W = Lam @ Lam.T
    P2 = QuadraticFamily(h=P.h, m=P.m, s=1.01 * P.s)
    got = afa_excess_by_propagation(P2, W, 0.3, np.zeros(3), KS)
    assert _rel(got, afa_expected_excess(P, W, 0.3, np.zeros(3), KS)) > 1e-4


def test_auto_picks_doubling_for_long_single_draw_runs():
    P, Lam = _family(False)
    from pflbounds.exact import afa_draws, agent_excess_metrics, coordinate_blocks

    draws, x0 = afa_draws(P, Lam @ Lam.T, 0.3), coordinate_blocks(P, np.zeros(3))
    assert propagate(draws, x0, [0, 1000], agent_excess_metrics(P)).method == "doubling"
    assert propagate(draws, x0, [0, 1, 2]).method == "recursion"


# ---------------------------------------------------------------- brute force (dense)
def _brute(draws_at, x0, cov0, K):
    """Raw second moments S = E[x x^T] through Kronecker products (the textbook recursion):
    vec S' = sum_j p_j [(A_j (x) A_j) vec S + vec(A_j m c_j^T + c_j m^T A_j^T + c_j c_j^T
    + Sigma_j)]."""
    m = x0.copy()
    S = cov0 + np.outer(x0, x0)
    out = [(m.copy(), S.copy())]
    for k in range(K):
        d = draws_at(k)
        vecS = np.zeros(S.size)
        m_new = np.zeros_like(m)
        for j in range(d.J):
            A, c, Sig = d.A[j, 0], d.c[j, 0], d.Sigma[j, 0]
            Am = A @ m
            vecS += d.p[j] * (np.kron(A, A) @ S.ravel()
                              + (np.outer(Am, c) + np.outer(c, Am) + np.outer(c, c)
                                 + Sig).ravel())
            m_new += d.p[j] * (Am + c)
        m, S = m_new, vecS.reshape(S.shape)
        out.append((m.copy(), S.copy()))
    return out


def _quad_expect(m, S, Q, xs):
    """E[1/2 (x - xs)^T Q (x - xs)] from the raw second moment S."""
    return 0.5 * (np.sum(Q * S) - 2 * xs @ Q @ m + xs @ Q @ xs)


# ---------------------------------------------------------------- (3) per-agent Hessians
def _gossip_per_agent_hessians(seed=3):
    """Randomized gossip gradient steps with per-agent Hessians H_i and noise covariances S_i:
    x <- x - eta (W_j (x) I_d)(blockdiag(H) (x - x*) + n), W_j drawn from 3 mixing matrices."""
    rng = np.random.default_rng(seed)
    N, d, J = 4, 3, 3
    H = np.stack([_spd(rng, d) for _ in range(N)])
    S = np.stack([_spd(rng, d, 0.05, 0.5) for _ in range(N)])
    xs = rng.standard_normal(N * d)
    Ws = np.stack([sinkhorn(rng.random((N, N))) for _ in range(J)])
    eta, p = 0.3, np.array([0.5, 0.3, 0.2])
    Hb, Sb = block_diag(*H), block_diag(*S)
    Wk = np.stack([np.kron(W, np.eye(d)) for W in Ws])
    A = np.eye(N * d) - eta * Wk @ Hb
    c = eta * Wk @ Hb @ xs
    Sigma = eta**2 * Wk @ Sb @ np.swapaxes(Wk, 1, 2)
    return LinearDraws(p=p, A=A, c=c, Sigma=Sigma), H, xs, N, d


def test_per_agent_hessians_equal_brute_force_second_moments():
    draws, H, xs, N, d = _gossip_per_agent_hessians()
    rng = np.random.default_rng(4)
    x0 = rng.standard_normal(N * d)
    cov0 = _spd(rng, N * d, 0.0, 0.3)
    idx = np.arange(N * d).reshape(N, d)
    metrics = QuadraticMetrics(Q=H[:, None], x_star=xs[idx][:, None], index=idx)
    ks = [0, 1, 3, 10, 25]
    run = propagate(draws, x0, ks, metrics, cov0=cov0, keep_moments=True)
    brute = _brute(lambda k: draws, x0, cov0, ks[-1])
    for t, k in enumerate(ks):
        m, S = brute[k]
        cov = S - np.outer(m, m)
        assert np.allclose(run.means[t, 0], m, rtol=1e-12, atol=1e-13)
        assert np.allclose(run.covs[t, 0], cov, rtol=1e-11, atol=1e-13)
        for i in range(N):
            Qi = np.zeros((N * d, N * d))
            Qi[np.ix_(idx[i], idx[i])] = H[i]
            assert run.metrics[t, i] == pytest.approx(_quad_expect(m, S, Qi, xs), rel=1e-12)


def test_blocks_with_a_shared_draw_equal_the_dense_block_diagonal_system():
    """B blocks moved by one shared draw: the per-block moments are exact (the dense
    block-diagonal system has the same diagonal blocks), with A shared (Kronecker) or not."""
    rng = np.random.default_rng(5)
    B, n, J = 4, 3, 2
    p = np.array([0.35, 0.65])
    for shared in (True, False):
        A = rng.standard_normal((J, 1 if shared else B, n, n)) * 0.4
        c = rng.standard_normal((J, B, n))
        L = rng.standard_normal((J, B, n, n)) * 0.3
        Sigma = L @ np.swapaxes(L, -1, -2)
        x0 = rng.standard_normal((B, n))
        blocks = LinearDraws(p=p, A=A, c=c, Sigma=Sigma)
        Ab = np.broadcast_to(A, (J, B, n, n))
        dense = LinearDraws(p=p, A=[block_diag(*Ab[j]) for j in range(J)],
                            c=c.reshape(J, B * n), Sigma=[block_diag(*Sigma[j])
                                                          for j in range(J)])
        ks = [0, 1, 4, 12]
        a = propagate(blocks, x0, ks, keep_moments=True)
        b = propagate(dense, x0.ravel(), ks, keep_moments=True)
        assert np.allclose(a.means.reshape(len(ks), -1), b.means[:, 0], rtol=1e-12, atol=1e-14)
        for blk in range(B):
            sl = slice(blk * n, (blk + 1) * n)
            assert np.allclose(a.covs[:, blk], b.covs[:, 0, sl, sl], rtol=1e-11, atol=1e-13)
        # the shared draw does correlate different blocks: the dense system says so
        assert np.abs(b.covs[-1, 0, :n, n:]).max() > 1e-3


@pytest.mark.parametrize("shared", [True, False])
def test_row_structure_equals_dense_products(shared):
    """Draws that change a few (overlapping) rows: the row kernel equals the dense one."""
    rng = np.random.default_rng(11)
    B, n, J = 3, 9, 4
    Ba = 1 if shared else B
    A = np.broadcast_to(np.eye(n), (J, Ba, n, n)).copy()
    rows = [[0, 1], [1, 2, 3], [8], [4, 0, 7]]
    c = np.zeros((J, B, n))
    for j, R in enumerate(rows):
        A[j][:, R] = rng.standard_normal((Ba, len(R), n)) * 0.4
        c[j][:, R] = rng.standard_normal((B, len(R)))
    c[2, :, 5] = 1.0  # an offset on a row where A_2 is the identity
    L = rng.standard_normal((J, B, n, n)) * 0.2
    draws = LinearDraws(p=[0.1, 0.2, 0.3, 0.4], A=A, c=c, Sigma=L @ np.swapaxes(L, -1, -2))
    x0, cov0 = rng.standard_normal((B, n)), np.stack([_spd(rng, n, 0.0, 1.0)] * B)
    ks = [0, 1, 3, 10]
    a = propagate(draws, x0, ks, cov0=cov0, keep_moments=True, structure="rows")
    b = propagate(draws, x0, ks, cov0=cov0, keep_moments=True, structure="dense")
    assert (a.structure, b.structure) == ("rows", "dense")
    assert propagate(draws, x0, ks).structure == "rows"  # auto: at most half the rows
    dense_c = LinearDraws(p=draws.p, A=A, c=rng.standard_normal((J, B, n)), Sigma=draws.Sigma)
    assert propagate(dense_c, x0, ks).structure == "dense"  # offsets on every row
    assert np.allclose(a.means, b.means, rtol=1e-12, atol=1e-14)
    assert np.allclose(a.covs, b.covs, rtol=1e-12, atol=1e-14)
    # all rows changed: still exact through the row kernel
    full, *_ = _gossip_per_agent_hessians()
    y0 = rng.standard_normal(full.n)
    a = propagate(full, y0, ks, keep_moments=True, structure="rows")
    b = propagate(full, y0, ks, keep_moments=True)
    assert b.structure == "dense"
    assert np.allclose(a.covs, b.covs, rtol=1e-12, atol=1e-14)


# ---------------------------------------------------------------- (2) block sampling vs MC
def _pfl_instance(seed=6):
    """F(w, beta) = (1/M) sum_m f_m(w, beta_m), f_m(z) = 1/2 (z - a_m)^T H_m (z - a_m) with
    random SPD H_m on z = (w, beta_m): M = 3 clients, d0 = d1 = 2."""
    rng = np.random.default_rng(seed)
    M, d0, d1 = 3, 2, 2
    H_c = np.stack([_spd(rng, d0 + d1, 0.5, 3.0) for _ in range(M)])
    a_c = rng.standard_normal((M, d0 + d1))
    return rng, M, d0, d1, H_c, a_c


def test_pfl_quadratic_optimum_and_client_metrics():
    rng, M, d0, d1, H_c, a_c = _pfl_instance()
    H, xs = pfl_quadratic(H_c, a_c, d0)
    idx = pfl_client_index(M, d0, d1)
    assert idx.tolist() == [[0, 1, 2, 3], [0, 1, 4, 5], [0, 1, 6, 7]]
    grad = np.zeros(H.shape[0])
    np.add.at(grad, idx, np.einsum("mij,mj->mi", H_c, xs[idx] - a_c) / M)
    assert np.abs(grad).max() < 1e-12  # x* is stationary for F
    # mean of client excesses = F excess, in expectation, at a random Gaussian state
    x, C = rng.standard_normal((1, H.shape[0])), _spd(rng, H.shape[0], 0.0, 1.0)[None]
    per_client = pfl_client_metrics(H_c, a_c, d0, xs).expect(x, C)
    F = QuadraticMetrics(Q=H[None, None], x_star=xs[None, None]).expect(x, C)
    assert per_client.mean() == pytest.approx(F[0], rel=1e-12)


def _max_z(mc_mean, mc_sem, exact):
    return float(np.max(np.abs(mc_mean - exact) / mc_sem))


def _spread_free_excess(draws, x0, ks, Q, xs):
    """A deliberately wrong propagation: the spread term sum_j p_j (u_j - m')(u_j - m')^T of
    the law of total covariance is left out."""
    m, C, out = x0.copy(), np.zeros((x0.size, x0.size)), []
    for k in range(ks[-1] + 1):
        if k in ks:
            r = m - xs
            out.append(0.5 * (r @ Q @ r + np.sum(Q * C)))
        U = np.einsum("jik,k->ji", draws.A[:, 0], m) + draws.c[:, 0]
        C = sum(draws.p[j] * (draws.A[j, 0] @ C @ draws.A[j, 0].T + draws.Sigma[j, 0])
                for j in range(draws.J))
        m = draws.p @ U
    return np.array(out)


def test_block_sampling_exact_vs_monte_carlo_and_planted_error():
    """Randomized block-coordinate descent on the (w, beta) quadratic: the w-block with
    probability p_w, else one beta_m block, Gaussian gradient noise. Exact mean and
    E[excess] agree with R replicas within 4 standard errors; the spread-free propagation is
    rejected by the same statistic."""
    rng, M, d0, d1, H_c, a_c = _pfl_instance()
    H, xs = pfl_quadratic(H_c, a_c, d0)
    n = H.shape[0]
    p_w = 0.4
    blocks = [np.arange(d0)] + [d0 + d1 * m + np.arange(d1) for m in range(M)]
    p = np.array([p_w] + [(1 - p_w) / M] * M)
    eta = 0.8 / np.linalg.eigvalsh(H)[-1]
    Sg = _spd(rng, n, 0.05, 0.4)
    draws = block_coordinate_draws(H, xs, blocks, p, eta, Sg)
    x0 = xs + 3.0 * rng.standard_normal(n)
    ks = [0, 1, 2, 4, 8, 16, 30]
    metrics_F = QuadraticMetrics(Q=H[None, None], x_star=xs[None, None])
    clients = pfl_client_metrics(H_c, a_c, d0, xs)
    run = propagate(draws, x0, ks, metrics_F, keep_moments=True)
    run_c = propagate(draws, x0, ks, clients, structure="dense")
    assert (run.structure, run_c.structure) == ("rows", "dense")

    # Monte Carlo: the algorithm itself, gradients from the clients' own functions
    R = 10_000
    idx = pfl_client_index(M, d0, d1)
    masks = np.zeros((M + 1, n))
    for j, b in enumerate(blocks):
        masks[j, b] = 1.0
    chol = np.linalg.cholesky(Sg)
    X = np.tile(x0, (R, 1))
    mc = np.random.default_rng(7)
    means, F_vals, client_vals = [], [], []
    for k in range(ks[-1] + 1):
        if k in ks:
            Z = X[:, idx] - a_c  # (R, M, s)
            f = 0.5 * np.einsum("rmi,mij,rmj->rm", Z, H_c, Z)
            Zs = xs[idx] - a_c
            f_star = 0.5 * np.einsum("mi,mij,mj->m", Zs, H_c, Zs)
            client_vals.append(f - f_star)
            F_vals.append((f - f_star).mean(axis=1))
            means.append(X.copy())
        G = np.einsum("mij,rmj->rmi", H_c, X[:, idx] - a_c) / M
        grad = np.concatenate([G[:, :, :d0].sum(axis=1), G[:, :, d0:].reshape(R, -1)], axis=1)
        noise = mc.standard_normal((R, n)) @ chol.T
        j = mc.choice(M + 1, size=R, p=p)
        X = X - eta * masks[j] * (grad + noise)
    X_rec = np.stack(means)  # (n_rec, R, n)
    F_rec = np.stack(F_vals)  # (n_rec, R)
    C_rec = np.stack(client_vals)  # (n_rec, R, M)
    sem = lambda a: a.std(axis=1, ddof=1) / np.sqrt(R)  # noqa: E731
    assert np.array_equal(X_rec[0, 0], x0) and np.array_equal(run.means[0, 0], x0)
    assert _max_z(X_rec.mean(1)[1:], sem(X_rec)[1:], run.means[1:, 0]) <= 4.0
    assert _max_z(F_rec.mean(1)[1:], sem(F_rec)[1:], run.metrics[1:, 0]) <= 4.0
    assert _max_z(C_rec.mean(1)[1:], sem(C_rec)[1:], run_c.metrics[1:]) <= 4.0
    assert np.allclose(run_c.metrics.mean(axis=1), run.metrics[:, 0], rtol=1e-12)
    # planted error: without the spread term the same statistic rejects
    wrong = _spread_free_excess(draws, x0, ks, H, xs)
    assert wrong[0] == pytest.approx(run.metrics[0, 0])
    assert _max_z(F_rec.mean(1)[1:], sem(F_rec)[1:], wrong[1:]) > 4.0


# ---------------------------------------------------------------- (5) time-varying schedule
def test_decreasing_steps_schedule_equals_direct_recursion():
    rng, M, d0, d1, H_c, a_c = _pfl_instance(seed=8)
    H, xs = pfl_quadratic(H_c, a_c, d0)
    n = H.shape[0]
    blocks = [np.arange(d0), np.arange(d0, n)]  # SCD-PFL: w or all beta blocks
    p_w = 0.3
    Sg = _spd(rng, n, 0.05, 0.4)
    eta0 = 0.9 / np.linalg.eigvalsh(H)[-1]

    def schedule(k):  # eta_k = eta0 / (1 + k/5)
        return block_coordinate_draws(H, xs, blocks, [p_w, 1 - p_w], eta0 / (1 + k / 5), Sg)

    x0 = xs + rng.standard_normal(n)
    ks = [0, 1, 5, 17, 40]
    metrics = QuadraticMetrics(Q=H[None, None], x_star=xs[None, None])
    brute = _brute(schedule, x0, np.zeros((n, n)), ks[-1])
    for structure in ("dense", "rows"):
        run = propagate(schedule, x0, ks, metrics, keep_moments=True, structure=structure)
        for t, k in enumerate(ks):
            m, S = brute[k]
            assert np.allclose(run.means[t, 0], m, rtol=1e-12, atol=1e-14)
            assert run.metrics[t, 0] == pytest.approx(_quad_expect(m, S, H, xs), rel=1e-11)
    # the schedule matters: the constant first set gives other numbers
    const = propagate(schedule(0), x0, ks, metrics)
    assert abs(const.metrics[-1, 0] - run.metrics[-1, 0]) > 1e-3 * run.metrics[-1, 0]
    # a schedule returning one set is the constant propagation, bitwise
    fixed = schedule(0)
    same = propagate(lambda k: fixed, x0, ks, metrics)
    assert np.array_equal(same.metrics, const.metrics)


def test_periodic_averaging_schedule():
    """LSGD-style: local steps on two copies of w, averaged every tau = 3 iterations; the
    averaging enters as the schedule's set at k = 0 mod tau (x <- Avg x, no noise), compared
    with the direct recursion."""
    rng = np.random.default_rng(9)
    n = 4
    H = _spd(rng, n)
    xs = rng.standard_normal(n)
    step = block_coordinate_draws(H, xs, [np.arange(n)], [1.0], 0.2, _spd(rng, n, 0.1, 0.3))
    avg = np.kron(np.full((2, 2), 0.5), np.eye(2))
    averaging = LinearDraws(p=[1.0], A=(avg @ step.A[0, 0])[None], c=(avg @ step.c[0, 0])[None],
                            Sigma=(avg @ step.Sigma[0, 0] @ avg.T)[None])

    def schedule(k):
        return averaging if k % 3 == 0 else step

    x0 = rng.standard_normal(n)
    run = propagate(schedule, x0, [0, 2, 3, 7, 9], keep_moments=True)
    brute = _brute(schedule, x0, np.zeros((n, n)), 9)
    for t, k in enumerate([0, 2, 3, 7, 9]):
        m, S = brute[k]
        assert np.allclose(run.means[t, 0], m, rtol=1e-12, atol=1e-14)
        assert np.allclose(run.covs[t, 0], S - np.outer(m, m), rtol=1e-11, atol=1e-13)


# ---------------------------------------------------------------- layout
def test_state_layout_round_trip_and_positions():
    lay = StateLayout({"w_y": (2,), "w_z": (2,), "beta_y": (3, 2), "beta_z": (3, 2)})
    assert lay.n == 16
    assert lay.positions("beta_y").tolist() == [[4, 5], [6, 7], [8, 9]]
    rng = np.random.default_rng(10)
    state = {k: rng.standard_normal((5, *s)) for k, s in lay.shapes.items()}
    x = lay.flatten(state, lead=1)
    assert x.shape == (5, 16)
    assert np.array_equal(x[:, lay.slice("w_z")], state["w_z"])
    back = lay.unflatten(x)
    assert all(np.array_equal(back[k], state[k]) for k in state)
    with pytest.raises(ValueError, match="'beta_z'"):
        lay.flatten({**state, "beta_z": np.zeros((5, 2, 2))}, lead=1)
    with pytest.raises(ValueError, match="lacks the sequences"):
        lay.flatten({"w_y": state["w_y"]}, lead=1)


# ---------------------------------------------------------------- (4) bad inputs
_A2 = np.stack([np.eye(2), 0.5 * np.eye(2)])


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        (dict(p=[0.5, 0.4], A=_A2), r"probabilities p must sum to 1, got sum 0\.9"),
        (dict(p=[1.2, -0.2], A=_A2), r"probabilities p must be >= 0, got p\[1\] = -0\.2"),
        (dict(p=[0.5, 0.5], A=np.eye(2)[None]), r"A must have shape \(J=2, n, n\)"),
        (dict(p=[0.5, 0.5], A=np.ones((2, 2, 3))), r"A must have shape"),
        (dict(p=[0.5, 0.5], A=_A2, c=np.zeros((2, 3))), r"c must have shape \(J=2, n=2\)"),
        (dict(p=[0.5, 0.5], A=_A2, Sigma=np.zeros((2, 3, 3))), r"Sigma must have shape"),
        (dict(p=[0.5, 0.5], A=_A2, Sigma=np.stack([np.eye(2), np.diag([1.0, -0.5])])),
         r"Sigma\[1, 0\] must be positive semidefinite \(smallest eigenvalue -0\.5\)"),
        (dict(p=[0.5, 0.5], A=_A2, Sigma=np.stack([np.eye(2), [[1.0, 0.5], [0.0, 1.0]]])),
         r"Sigma\[1, 0\] must be symmetric"),
        (dict(p=[0.5, 0.5], A=np.full((2, 2, 2), np.nan)), r"A must be finite"),
        (dict(p=[0.5, 0.5], A=np.zeros((2, 3, 2, 2)), c=np.zeros((2, 4, 2))),
         r"disagree on the number of blocks B: 3, 4, 1"),
    ],
)
def test_bad_draws_name_the_problem(kwargs, message):
    with pytest.raises(ValueError, match=message):
        LinearDraws(**kwargs)


def test_bad_propagation_inputs_name_the_problem():
    d1 = LinearDraws(p=[1.0], A=np.eye(2)[None])
    d2 = LinearDraws(p=[0.5, 0.5], A=_A2)
    with pytest.raises(ValueError, match=r"x0 must have shape \(B, 2\) or \(2,\)"):
        propagate(d1, np.zeros(3), [0, 1])
    with pytest.raises(ValueError, match=r"x0 must have shape \(3, 2\)"):
        propagate(LinearDraws(p=[1.0], A=np.zeros((1, 3, 2, 2))), np.zeros((2, 2)), [0])
    with pytest.raises(ValueError, match=r"cov0\[0\] must be positive semidefinite"):
        propagate(d1, np.zeros(2), [0, 1], cov0=-np.eye(2))
    with pytest.raises(ValueError, match="doubling method needs a constant set with a single"):
        propagate(d2, np.zeros(2), [0, 1], method="doubling")
    with pytest.raises(ValueError, match="method must be 'auto', 'recursion' or 'doubling'"):
        propagate(d1, np.zeros(2), [0, 1], method="eig")
    with pytest.raises(ValueError, match="structure must be 'auto', 'dense' or 'rows'"):
        propagate(d1, np.zeros(2), [0, 1], structure="sparse")
    with pytest.raises(ValueError, match="record must be strictly increasing"):
        propagate(d1, np.zeros(2), [3, 1])
    with pytest.raises(ValueError, match="must read all n=2 positions, got s=3"):
        propagate(d1, np.zeros(2), [0], QuadraticMetrics(Q=np.ones((1, 1, 3))))
    with pytest.raises(ValueError, match=r"metric index must lie in \[0, 2\)"):
        propagate(d1, np.zeros(2), [0], QuadraticMetrics(Q=np.ones((1, 1, 1)), index=[[2]]))
    with pytest.raises(ValueError, match="schedule must return a LinearDraws at every k, got "
                                         "tuple at k = 2"):
        propagate(lambda k: d1 if k < 2 else (1,), np.zeros(2), [0, 5])
    with pytest.raises(ValueError, match=r"schedule changes the state shape at k = 1"):
        propagate(lambda k: d1 if k < 1 else LinearDraws(p=[1.0], A=np.eye(3)[None]),
                  np.zeros(2), [0, 5])
    with pytest.raises(ValueError, match=r"probabilities p must sum to 1"):
        block_coordinate_draws(np.eye(2), np.zeros(2), [[0], [1]], [0.5, 0.6], 0.1)
    with pytest.raises(ValueError, match=r"noise_cov must have shape \(2, 2\)"):
        block_coordinate_draws(np.eye(2), np.zeros(2), [[0], [1]], [0.5, 0.5], 0.1, np.eye(3))
    with pytest.raises(ValueError, match=r"noise_cov must be positive semidefinite"):
        block_coordinate_draws(np.eye(2), np.zeros(2), [[0], [1]], [0.5, 0.5], 0.1,
                               np.diag([1.0, -1.0]))
    with pytest.raises(ValueError, match="block 1 has positions outside"):
        block_coordinate_draws(np.eye(2), np.zeros(2), [[0], [2]], [0.5, 0.5], 0.1)
    with pytest.raises(ValueError, match="not jointly strongly convex"):
        pfl_quadratic(np.zeros((2, 2, 2)), np.zeros((2, 2)), 1)
