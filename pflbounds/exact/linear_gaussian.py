"""Closed-form expectations of AFO and AFA on the quadratic family Q (no Monte Carlo).

Reference: even2022 digest Appendix A ([DERIVED] there) and predictions P1, P7-P11.

On Q (f_j(x) = 1/2 (x - m_j)^T H (x - m_j), H = diag(h), g_j = H(x - m_j) + n_j with
n_j ~ N(0, diag(s_j)) independent over agents and iterations) every coordinate c evolves
independently and linearly, so the mean and covariance of the iterates are propagated exactly:

    E[f_i(x_i^k) - f_i^*] = 1/2 sum_c h_c ( (E x_ic^k - m_ic)^2 + Var(x_ic^k) ).

AFO (Eq. (2)), agent i, per coordinate, with r_i = sum_j lambda_ij (= 1 for row-stochastic
Lam), xbar_i = (Lam m)_i / r_i and a = 1 - eta_i h_c r_i:
    E x^k - xbar = a^k (x0 - xbar),
    Var x^k = eta_i^2 (sum_j lambda_ij^2 s_jc) (1 - a^{2k}) / (1 - a^2).

AFA (Algorithm 1), per coordinate, e^k = x^k - M_{:,c}:
    E e^{k+1} = (I - eta h_c W) E e^k,   P^{k+1} = A P^k A^T + eta^2 W diag(s_{:,c}) W^T.
For symmetric W = U D U^T: E e^k = U (1 - eta h_c D)^k U^T e^0 and, in the eigenbasis,
Ptilde^k_lm = Q_lm (1 - (a_l a_m)^k) / (1 - a_l a_m), Q = eta^2 D U^T diag(s_{:,c}) U D,
a_l = 1 - eta h_c d_l (limit k when a_l a_m = 1); with shared noise Q is diagonal.
Non-symmetric W or per-agent steps: the mean/covariance recursion is run exactly.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np

from pflbounds.algorithms.trace import record_points
from pflbounds.problems.agent_ops import AgentMatrix, as_dense
from pflbounds.problems.quadratic import QuadraticFamily

__all__ = [
    "as_quadratic_family",
    "geometric_sum",
    "afo_expected_excess",
    "afo_limit",
    "afa_expected_excess",
    "local_sgd_expected_excess",
    "afa_bias_floor",
    "afa_lifted_floor",
    "f_Lambda_gap",
]


def as_quadratic_family(problem: Any) -> QuadraticFamily:
    """The problem itself if it is a QuadraticFamily, else ``problem.as_quadratic()``
    (GaussianMeans, HardInstanceA: exact reductions for the expected excess)."""
    if isinstance(problem, QuadraticFamily):
        return problem
    if hasattr(problem, "as_quadratic"):
        return problem.as_quadratic()
    raise TypeError(
        f"{type(problem).__name__} is not a QuadraticFamily and offers no as_quadratic()"
    )


def geometric_sum(q: np.ndarray, k: np.ndarray) -> np.ndarray:
    """sum_{t<k} q^t = (1 - q^k)/(1 - q), with the limit k at q = 1, computed without
    cancellation near q = 1 (via expm1/log1p). Broadcasts q and k."""
    q = np.asarray(q, dtype=np.float64)
    k = np.asarray(k, dtype=np.float64)
    q, k = np.broadcast_arrays(q, k)
    out = np.empty(q.shape)
    one = q == 1.0
    pos = (q > 0) & ~one
    neg = q <= 0
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
        out[one] = k[one]
        qp = q[pos]
        logq = np.where(qp > 0.5, np.log1p(qp - 1.0), np.log(qp))  # accurate near q = 1
        out[pos] = -np.expm1(k[pos] * logq) / (1.0 - qp)
        qn = q[neg]
        out[neg] = (1.0 - np.power(qn, k[neg])) / (1.0 - qn)
    out[k == 0] = 0.0
    return out


def _prepare(
    problem: Any, x0: np.ndarray, ks: Iterable[int]
) -> tuple[QuadraticFamily, np.ndarray, np.ndarray]:
    P = as_quadratic_family(problem)
    x0 = np.asarray(x0, dtype=np.float64)
    if x0.shape != (P.d,):
        raise ValueError(f"x0 must have shape ({P.d},), got {x0.shape}")
    ks_arr = np.asarray(list(ks), dtype=np.int64)
    ks_arr = record_points(ks_arr, int(ks_arr.max()) if ks_arr.size else 0)
    return P, x0, ks_arr


# ---------------------------------------------------------------------- AFO
def afo_expected_excess(
    problem: Any,
    Lam: AgentMatrix,
    eta: float | np.ndarray,
    x0: np.ndarray,
    ks: Iterable[int],
) -> np.ndarray:
    """Exact E[f_i(x_i^k) - f_i^*] for AFO (even2022 Eq. (2)) on Q, digest Appendix A.

    eta scalar or per agent (N,). Returns shape (n_rec, N) for the recorded k.
    """
    P, x0, ks = _prepare(problem, x0, ks)
    L = as_dense(Lam)
    if L.shape != (P.N, P.N):
        raise ValueError(f"Lam must have shape ({P.N}, {P.N}), got {L.shape}")
    eta_i = np.broadcast_to(np.asarray(eta, dtype=np.float64), (P.N,))
    r = L.sum(axis=1)
    if np.any(r <= 0):
        raise ValueError("every row of Lam must have a positive sum")
    xbar = (L @ P.m) / r[:, None]  # mixture optimum (shared H)
    a = 1.0 - eta_i[:, None] * P.h[None, :] * r[:, None]  # (N, d)
    V = (L**2) @ P.s_agents  # sum_j lambda_ij^2 s_jc, (N, d)
    kk = ks[:, None, None].astype(np.float64)
    with np.errstate(over="ignore", invalid="ignore"):
        mean_err = np.power(a, kk) * (x0 - xbar) + (xbar - P.m)  # (n_rec, N, d)
        var = (eta_i**2)[:, None] * V * geometric_sum(a**2, kk)
        return 0.5 * np.einsum("c,kic->ki", P.h, mean_err**2 + var)


def afo_limit(problem: Any, Lam: AgentMatrix, eta: float | np.ndarray) -> np.ndarray:
    """lim_k E[f_i(x_i^k) - f_i^*] for AFO with a stable step (row-stochastic Lam):
    1/2 ||beta_i||_H^2 + 1/2 sum_c eta_i V_ic / (2 - eta_i h_c), beta_i = (Lam m)_i - m_i
    (digest Appendix A; V_ic = sum_j lambda_ij^2 s_jc). Shape (N,)."""
    P = as_quadratic_family(problem)
    L = as_dense(Lam)
    eta_i = np.broadcast_to(np.asarray(eta, dtype=np.float64), (P.N,))[:, None]
    beta = L @ P.m - P.m
    V = (L**2) @ P.s_agents
    return 0.5 * (beta**2 @ P.h) + 0.5 * (eta_i * V / (2.0 - eta_i * P.h)).sum(axis=1)


# ---------------------------------------------------------------------- AFA
def afa_expected_excess(
    problem: Any,
    W: AgentMatrix,
    eta: float | np.ndarray,
    x0: np.ndarray,
    ks: Iterable[int],
    method: str = "auto",
) -> np.ndarray:
    """Exact E[f_i(x_i^k) - f_i^*] for AFA (even2022 Algorithm 1) on Q, digest Appendix A.

    ``method``: "spectral" (symmetric W, scalar eta: eigendecomposition, closed form in k),
    "recursion" (exact mean/covariance recursion, any W and per-agent eta) or "auto".
    Returns shape (n_rec, N). Unstable steps (eta h rho(W) > 2) give growing values, as the
    dynamics do (digest P11).
    """
    P, x0, ks = _prepare(problem, x0, ks)
    Wd = as_dense(W)
    if Wd.shape != (P.N, P.N):
        raise ValueError(f"W must have shape ({P.N}, {P.N}), got {Wd.shape}")
    eta_arr = np.asarray(eta, dtype=np.float64)
    symmetric = np.allclose(Wd, Wd.T, rtol=0, atol=1e-13 * max(1.0, np.abs(Wd).max()))
    if method == "auto":
        method = "spectral" if (symmetric and eta_arr.ndim == 0) else "recursion"
    if method == "spectral":
        if not symmetric or eta_arr.ndim != 0:
            raise ValueError("the spectral method needs a symmetric W and a scalar eta")
        return _afa_spectral(P, 0.5 * (Wd + Wd.T), float(eta_arr), x0, ks)
    if method == "recursion":
        return _afa_recursion(P, Wd, eta_arr, x0, ks)
    raise ValueError(f"method must be 'auto', 'spectral' or 'recursion', got {method!r}")


def _afa_spectral(
    P: QuadraticFamily, W: np.ndarray, eta: float, x0: np.ndarray, ks: np.ndarray
) -> np.ndarray:
    D, U = np.linalg.eigh(W)
    a = 1.0 - eta * P.h[:, None] * D[None, :]  # (d, N_l)
    e0 = U.T @ (x0[None, :] - P.m)  # (N_l, d)
    kk = ks[:, None, None].astype(np.float64)
    with np.errstate(over="ignore", invalid="ignore"):
        ak = np.power(a.T[None], kk)  # (n_rec, N_l, d)
        mean_err = np.einsum("il,klc->kic", U, ak * e0[None])
        if not P.per_agent_noise:
            # p_l^k = eta^2 s_c d_l^2 (1 - a_l^{2k}) / (1 - a_l^2)
            p = (eta**2) * P.s[None, None, :] * (D**2)[None, :, None] * geometric_sum(
                (a.T**2)[None], kk
            )
            var = np.einsum("il,klc->kic", U**2, p)
        else:
            Q = (eta**2) * np.einsum("l,jl,jm,jc,m->clm", D, U, U, P.s, D)  # (d, N, N)
            aa = a[:, :, None] * a[:, None, :]  # (d, N, N)
            var = np.empty((ks.size, P.N, P.d))
            for t, k in enumerate(ks):  # loop over recorded k only
                Pt = Q * geometric_sum(aa, np.float64(k))
                var[t] = np.einsum("il,clm,im->ic", U, Pt, U)
        return 0.5 * np.einsum("c,kic->ki", P.h, mean_err**2 + var)


def _afa_recursion(
    P: QuadraticFamily, W: np.ndarray, eta: np.ndarray, x0: np.ndarray, ks: np.ndarray
) -> np.ndarray:
    N, d = P.N, P.d
    eta_i = np.broadcast_to(eta, (N,))
    B = eta_i[:, None] * W  # diag(eta) W
    A = np.eye(N)[None] - P.h[:, None, None] * B[None]  # (d, N, N)
    BsB = np.einsum("ij,jc,kj->cik", B, P.s_agents, B)  # B diag(s_c) B^T, (d, N, N)
    mean = (x0[None, :] - P.m).T.copy()  # (d, N): e^0 per coordinate
    cov = np.zeros((d, N, N))
    out = np.empty((ks.size, N))
    j = 0
    with np.errstate(over="ignore", invalid="ignore"):
        for k in range(int(ks[-1]) + 1):
            if k == ks[j]:
                var = np.diagonal(cov, axis1=1, axis2=2)  # (d, N)
                out[j] = 0.5 * (P.h @ (mean**2 + var))
                j += 1
                if j == ks.size:
                    break
            mean = np.einsum("cij,cj->ci", A, mean)
            cov = A @ cov @ np.swapaxes(A, 1, 2) + BsB
    return out


def local_sgd_expected_excess(
    problem: Any, eta: float | np.ndarray, x0: np.ndarray, ks: Iterable[int]
) -> np.ndarray:
    """Exact E[f_i(x_i^k) - f_i^*] for local SGD (W = I), shape (n_rec, N)."""
    P = as_quadratic_family(problem)
    return afo_expected_excess(P, np.eye(P.N), eta, x0, ks)


# ---------------------------------------------------------------------- bias floors
def _range_projector(Lam: np.ndarray, rtol: float) -> np.ndarray:
    Uq, sv, _ = np.linalg.svd(Lam)
    rank = int(np.sum(sv > rtol * sv.max()))
    Ur = Uq[:, :rank]
    return Ur @ Ur.T


def afa_bias_floor(
    problem: Any, Lam: AgentMatrix, per_agent: bool = False, rtol: float = 1e-10
) -> float | np.ndarray:
    """Deterministic limit of AFA with W = Lam Lam^T and a stable step (digest P9, Appendix A):

        F^inf = (1/(2N)) sum_c h_c ||(I - P_{range Lam}) M_{:,c}||^2 = f^Lam(y^Lam) - fbar(x^*).

    (The limit does not depend on x0 because 1 is in range(Lam) for row-stochastic Lam.)
    ``per_agent=True`` returns the N terms 1/2 sum_c h_c ((I - P) M)_{ic}^2 instead of their
    mean.
    """
    P = as_quadratic_family(problem)
    L = as_dense(Lam)
    res = P.m - _range_projector(L, rtol) @ P.m  # (N, d)
    terms = 0.5 * (res**2 @ P.h)
    return terms if per_agent else float(terms.mean())


def f_Lambda_gap(problem: Any, Lam: AgentMatrix, Y: np.ndarray) -> np.ndarray:
    """f^Lam(y) - fbar(x^*) = (1/N) sum_i (f_i((Lam y)_i) - f_i^*) (even2022 Eq. (3)) for Y of
    shape (..., N, d); equals F^k along AFA through x^k = Lam y^k (digest P10)."""
    P = as_quadratic_family(problem)
    L = as_dense(Lam)
    return P.excess(np.matmul(L, Y)).mean(axis=-1)


def afa_lifted_floor(problem: Any, Lam: AgentMatrix, solver: str = "lstsq") -> float:
    """min_y f^Lam(y) - fbar(x^*) (digest Appendix A "reference optima"), by least squares per
    coordinate (``"lstsq"``) or by cvxpy with Clarabel (``"cvxpy"``); cross-checks
    :func:`afa_bias_floor`."""
    P = as_quadratic_family(problem)
    L = as_dense(Lam)
    if solver == "lstsq":
        Y = np.linalg.lstsq(L, P.m, rcond=None)[0]
        return float(f_Lambda_gap(P, L, Y))
    if solver == "cvxpy":
        import cvxpy as cp

        Yv = cp.Variable((P.N, P.d))
        R = (L @ Yv - P.m) @ np.diag(np.sqrt(P.h))
        prob = cp.Problem(cp.Minimize(cp.sum_squares(R) / (2 * P.N)))
        prob.solve(solver=cp.CLARABEL)
        if Yv.value is None:
            raise RuntimeError(f"cvxpy/Clarabel failed: {prob.status}")
        return float(prob.value)
    raise ValueError(f"solver must be 'lstsq' or 'cvxpy', got {solver!r}")
