"""The block methods of :mod:`pflbounds.algorithms.block_pfl` on a quadratic objective, as
linear dynamics for the exact propagator (:func:`pflbounds.exact.propagate`): exact means and
covariances of the iterates, hence exact E[F(.) - F^*], with no Monte Carlo noise.

F(x) = (1/2)(x - x*)^T H (x - x*) + F^* on x = (w, beta_1, ..., beta_M) (N = d0 + M d1), with
client functions f_m(z_m) = z_m^T H_m z_m/2 - g_m^T z_m + const on z_m = (w, beta_m)
(hanzely2023 Eq. (1); H and (H_m, g_m) from
:class:`pflbounds.problems.pfl_objectives.PFLObjective` with quadratic losses).

* ACD-PFL (hanzely2023 Algorithm 2, best reading): state (y, z) in R^{2N}; two draws, the
  w-step (probability p_w) and the beta-step. x = (1 - theta) y + theta z is substituted.
* LSGD-PFL (Algorithm 1): state (W, beta, avg): the local copies W (M d0), beta (M d1) and the
  running weighted average of the virtual iterates (N); one draw per iteration with additive
  Gaussian gradient noise; a deterministic schedule (averaging at k mod tau = 0, and the
  average's weight (1 - q)/(1 - q^(k+2)), q = 1 - eta mu).
"""

from __future__ import annotations

import numpy as np

from pflbounds.algorithms.block_pfl import average_weight
from pflbounds.exact.propagator_draws import LinearDraws, Schedule
from pflbounds.exact.propagator_metrics import QuadraticMetrics

__all__ = ["acd_pfl_draws", "excess_metric", "lsgd_pfl_metrics", "lsgd_pfl_schedule"]


def excess_metric(H: np.ndarray, x_star: np.ndarray, offset: int = 0) -> QuadraticMetrics:
    """F(x) - F^* for x read at positions offset .. offset + N of the state."""
    N = H.shape[0]
    return QuadraticMetrics(Q=H[None, None], x_star=np.asarray(x_star, float)[None, None],
                            index=(offset + np.arange(N))[None], names=["excess"])


def acd_pfl_draws(H: np.ndarray, x_star: np.ndarray, d0: int, *, Lw: float, Lb: float,
                  nu: float, theta: float, eta: float, pw: float,
                  beta_factor: float = 1.0) -> LinearDraws:
    """ACD-PFL's two draws on (y, z) (module docstring; the method is
    :func:`pflbounds.algorithms.block_pfl.run_acd_pfl` with ``unsampled_y="x"``).
    ``beta_factor``: 1 for grad_beta F (the best reading), M for the printed grad_beta f_m."""
    N = H.shape[0]
    I = np.eye(N)
    Pw = np.zeros(N)
    Pw[:d0] = 1.0
    Pb = 1.0 - Pw
    Hs = H.copy()
    Hs[d0:] *= beta_factor  # the gradient each step uses
    den = 1.0 + eta * nu
    sq = np.sqrt(Lw) + np.sqrt(Lb)
    X = np.hstack([(1 - theta) * I, theta * I])  # x = X s, s = (y, z)
    Z = np.hstack([np.zeros((N, N)), I])
    A, c = [], []
    for P, L, cf in ((Pw, Lw, eta / (np.sqrt(Lw) * sq)), (Pb, Lb, eta / (np.sqrt(Lb) * sq))):
        G = P[:, None] * Hs  # rows of the sampled block
        Ay = (I - G / L) @ X
        Az = (Z + eta * nu * X - cf * G @ X) / den
        A.append(np.vstack([Ay, Az]))
        c.append(np.concatenate([G @ x_star / L, cf * G @ x_star / den]))
    return LinearDraws(p=np.array([pw, 1 - pw]), A=np.stack(A), c=np.stack(c))


def lsgd_pfl_schedule(Hm: np.ndarray, gm: np.ndarray, d0: int, *, eta: float, tau: int,
                      mu: float = 0.0, sigma2: float = 0.0, B: int = 1,
                      beta_factor: float | None = None
                      ) -> tuple[Schedule, np.ndarray, dict[str, QuadraticMetrics]]:
    """LSGD-PFL as a schedule on the state (W, beta, avg) (module docstring).

    ``Hm`` (M, s, s) and ``gm`` (M, s): the client quadratics. ``beta_factor``: the scale of
    the beta-step (default 1/M, grad_beta F; 1 for the printed step). Returns the schedule,
    the initial state for w^0 = 0, beta^0 = 0, and what :func:`lsgd_pfl_metrics` needs to
    read the excess of the virtual iterate and of the average.
    """
    M, s, _ = Hm.shape
    d1 = s - d0
    fb = 1.0 / M if beta_factor is None else beta_factor
    nW, nb = M * d0, M * d1
    nu_ = nW + nb
    N = d0 + nb
    # positions of client m's (w_m, beta_m) in u = (W, beta)
    idx = np.concatenate([d0 * np.arange(M)[:, None] + np.arange(d0),
                          nW + d1 * np.arange(M)[:, None] + np.arange(d1)], axis=1)
    G = np.zeros((nu_, nu_))
    G[idx[:, :, None], idx[:, None, :]] = Hm
    ghat = np.zeros(nu_)
    ghat[idx] = gm
    step = np.r_[np.full(nW, eta), np.full(nb, eta * fb)]
    Au = np.eye(nu_) - step[:, None] * G
    cu = step * ghat
    avg = np.eye(nu_)
    for i in range(d0):  # averaging of the w copies
        rows = d0 * np.arange(M) + i
        avg[np.ix_(rows, rows)] = 1.0 / M
    V = np.zeros((N, nu_))  # virtual iterate: mean of the w copies, and beta
    for i in range(d0):
        V[i, d0 * np.arange(M) + i] = 1.0 / M
    V[d0:, nW:] = np.eye(nb)
    noise = np.r_[np.full(nW, sigma2 / (B * max(d0, 1))), np.full(nb, sigma2 / (B * max(d1, 1)))]
    Su = (step**2 * noise)[:, None] * np.eye(nu_)
    q = 1.0 - eta * mu
    n = nu_ + N
    Aavg = Au @ avg

    def draws(k: int) -> LinearDraws:
        r = average_weight(k, q)  # of the newest virtual iterate in the running average
        Ak = Aavg if k % tau == 0 else Au
        A = np.zeros((n, n))
        A[:nu_, :nu_] = Ak
        A[nu_:, :nu_] = r * V @ Ak
        A[nu_:, nu_:] = (1 - r) * np.eye(N)
        T = np.vstack([np.eye(nu_), r * V])
        return LinearDraws(p=np.ones(1), A=A[None], c=(T @ cu)[None],
                           Sigma=(T @ Su @ T.T)[None], check=False)

    x0 = np.zeros(n)
    return draws, x0, {"V": V, "n_u": nu_, "N": N}


def lsgd_pfl_metrics(H: np.ndarray, x_star: np.ndarray, info: dict) -> QuadraticMetrics:
    """Two metrics of :func:`lsgd_pfl_schedule`'s state: F - F^* at the virtual iterate
    (V u) and at the weighted average."""
    V, nu_, N = info["V"], info["n_u"], info["N"]
    Q_virtual = V.T @ H @ V
    u_star = np.linalg.lstsq(V, x_star, rcond=None)[0]  # V u* = x* (w* in every copy)
    s = nu_ + N
    Q = np.zeros((2, 1, s, s))
    Q[0, 0, :nu_, :nu_] = Q_virtual
    Q[1, 0, nu_:, nu_:] = H
    xs = np.zeros((2, 1, s))
    xs[0, 0, :nu_] = u_star
    xs[1, 0, nu_:] = x_star
    return QuadraticMetrics(Q=Q, x_star=xs, names=["excess", "excess_avg"])
