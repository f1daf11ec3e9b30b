"""Populations A (low-rank regression, F_* by the nuclear-norm program) and C (label shift)."""

import numpy as np
import pytest

from pflbounds.problems.populations import (
    LabelShift,
    LowRankRegression,
    label_shift_risk,
    nuclear_lower_bound,
)


@pytest.fixture(scope="module")
def inst():
    return LowRankRegression(p=5, q=2, lam_h=0.01, lam_v=0.04, lam_theta=0.001).draw(
        30, 12, np.random.default_rng(0))


def test_gradient_against_finite_differences(inst):
    rng = np.random.default_rng(1)
    H, A = rng.standard_normal((5, 3)), rng.standard_normal((3, 5))
    gH, _ = inst.gradient(H, A)
    E = np.zeros_like(H)
    E[2, 1] = 1e-6
    fd = (inst.objective(H + E, A) - inst.objective(H - E, A)) / 2e-6
    assert fd == pytest.approx(gH[2, 1], rel=1e-6)


def test_nuclear_program_is_a_tight_lower_bound(inst):
    """F_* <= F at random points, and the balanced factorisation of the program's minimiser
    (H = U sqrt(S) (lam_v/lam_h)^(1/4), A = sqrt(S) V^T (lam_h/lam_v)^(1/4)) attains it."""
    Fs, gap = inst.F_star
    assert 0 <= gap < 1e-6
    rng = np.random.default_rng(2)
    for _ in range(5):
        assert inst.objective(rng.standard_normal((5, 5)), rng.standard_normal((5, 5))) >= Fs
    import cvxpy as cp

    X, Y, pb = inst.X, inst.Y, inst.psibar
    M = cp.Variable((5, 5))
    th = M @ pb.T
    res = sum(cp.sum_squares(X[i] @ th[:, i] - Y[i]) for i in range(inst.n)) / (2 * 12 * 30)
    obj = res + 0.001 * cp.sum_squares(th) / 30 + 2 * np.sqrt(0.01 * 0.04) * cp.normNuc(M)
    cp.Problem(cp.Minimize(obj)).solve(solver=cp.CLARABEL)
    U, S, Vt = np.linalg.svd(M.value)
    r = (0.04 / 0.01) ** 0.25
    H, A = U * np.sqrt(S) * r, (np.sqrt(S)[:, None] * Vt) / r
    assert inst.objective(H, A) == pytest.approx(Fs, abs=1e-6)
    assert nuclear_lower_bound(X, Y, pb, 0.0, 0.0, 0.0)[0] <= Fs


def test_population_a_constants(inst):
    C = np.einsum("imp,imq->ipq", inst.X, inst.X) / 12
    assert inst.L1 == pytest.approx(np.linalg.eigvalsh(C).max() + 0.002)
    assert inst.L2 == pytest.approx(np.linalg.norm(inst.psibar, axis=1).max())
    assert inst.L3 == pytest.approx(0.08)
    with pytest.raises(ValueError, match="0 < q < p"):
        LowRankRegression(p=3, q=3)


def test_label_shift_clients_and_risk():
    pop = LabelShift(p=4, classes=5, sep=3.0)
    rng = np.random.default_rng(0)
    mu = pop.means(rng)
    cl = pop.clients(mu, 200, 400, 0.5, rng)
    assert cl.X.shape == (200, 400, 4) and cl.Y.max() <= 4
    np.testing.assert_allclose(cl.pi.sum(1), 1.0)
    freq = np.stack([(cl.Y == c).mean(1) for c in range(5)], axis=1)
    assert np.abs(freq - cl.pi).max() < 0.12  # labels follow each client's proportions
    z = cl.embedding_inputs(5)
    np.testing.assert_array_equal(z[..., 4:].argmax(-1), cl.Y)
    assert not cl.embedding_inputs(5, labels=False)[..., 4:].any()
    e = np.array([[0.1, 0.2, 0.0, 0.5, 1.0]])
    pi = np.array([[0.2, 0.2, 0.2, 0.2, 0.2]])
    r, se = label_shift_risk(e, pi, 100)
    assert r[0] == pytest.approx(0.36)
    assert se[0] == pytest.approx(np.sqrt(0.04 * (0.09 + 0.16 + 0.25) / 100))


def _jacobian(H: np.ndarray, A: np.ndarray, psibar: np.ndarray) -> np.ndarray:
    """The Jacobian of (H, A) -> H A psibar (p x (p l + l p)), written out entry by entry."""
    p, l = H.shape
    v = A @ psibar
    dH = np.kron(np.eye(p), v[None, :])  # d theta_i / d H_ij = v_j
    dA = np.kron(H, psibar[None, :])  # d theta_i / d A_kj = H_ik psibar_j
    return np.concatenate([dH, dA], axis=1)


def test_batch_variances_equal_the_expectations_over_every_batch():
    from itertools import combinations

    small = LowRankRegression(p=3, q=2).draw(3, 6, np.random.default_rng(2))
    rng = np.random.default_rng(3)
    H, A = rng.standard_normal((2, 3, 2)), rng.standard_normal((2, 2, 3))  # two networks
    b = 2
    batches = list(combinations(range(small.m), b))
    jac, out = np.zeros((2, small.n)), np.zeros((2, small.n))
    for e in range(2):
        for i in range(small.n):
            JS = _jacobian(H[e], A[e], small.psibar[i])
            for B in batches:
                pb = small.psi[i, list(B)].mean(axis=0)
                jac[e, i] += np.linalg.norm(_jacobian(H[e], A[e], pb) - JS, 2) ** 2
                out[e, i] += np.sum((H[e] @ A[e] @ (pb - small.psibar[i])) ** 2)
    s2, s3 = small.batch_variances(b, H, A)
    assert s2 == pytest.approx(b * jac.max() / len(batches), rel=1e-10)
    assert s3 == pytest.approx(b * out.max() / len(batches), rel=1e-10)
    assert small.batch_variances(small.m, H, A) == (0.0, 0.0)  # b = m: the full data


def test_batch_jacobian_norm_covers_the_full_data_and_the_batches_drawn():
    small = LowRankRegression(p=3, q=2).draw(4, 6, np.random.default_rng(4))
    rng = np.random.default_rng(5)
    H, A = rng.standard_normal((1, 3, 2)), rng.standard_normal((1, 2, 3))
    full = max(np.linalg.norm(_jacobian(H[0], A[0], pb), 2) for pb in small.psibar)
    assert small.batch_jacobian_norm(small.m, H, A, np.random.default_rng(0)) == \
        pytest.approx(full, rel=1e-12)
    b2 = small.batch_jacobian_norm(2, H, A, np.random.default_rng(0), draws=64)
    assert b2 >= full * (1 - 1e-12)
    # every pair of points is a batch: the largest over all of them bounds the draws
    from itertools import combinations

    every = max(np.linalg.norm(_jacobian(H[0], A[0], small.psi[i, list(B)].mean(axis=0)), 2)
                for i in range(small.n) for B in combinations(range(small.m), 2))
    assert b2 <= max(every, full) * (1 + 1e-12)
