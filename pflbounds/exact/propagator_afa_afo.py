"""even2022's AFA and AFO on the quadratic family Q as instances of the exact propagator.

Reference: even2022 digest Appendix A ([DERIVED] there), Algorithm 1 (AFA) and Eq. (2)
(AFO); the family Q is pflbounds.problems.quadratic (f_j(x) = 1/2 (x - m_j)^T H (x - m_j),
H = diag(h), g_j(x) = H (x - m_j) + n_j, n_j ~ N(0, diag(s_j))).

Layout: coordinate blocks. Block c (c = 1..d) holds coordinate c of every agent, so the state
is X^T of shape (d, N) and each block evolves alone (the Hessian is diagonal). With
B = diag(eta_i) W (AFA) or B = diag(eta_i) Lambda (AFO), one iteration is, per coordinate c,

    AFA:  x <- x - B (h_c (x - M_c) + n_c)         A_c = I - h_c B,
    AFO:  x_i <- x_i - eta_i sum_j lambda_ij (h_c (x_i - m_jc) + n_jc)
                                                    A_c = I - h_c diag(B 1),

both with c_c = h_c B M_c and Sigma_c = B diag(s_{:,c}) B^T: a single draw (J = 1), d blocks
of size N. The closed forms pflbounds.exact.linear_gaussian.afa_expected_excess and
afo_expected_excess compute the same numbers by other routes (eigendecomposition in k, or
their own recursion in error coordinates).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np

from pflbounds.exact.linear_gaussian import as_quadratic_family
from pflbounds.exact.propagator import LinearDraws, propagate
from pflbounds.exact.propagator_metrics import QuadraticMetrics
from pflbounds.problems.agent_ops import AgentMatrix, as_dense
from pflbounds.problems.quadratic import QuadraticFamily

__all__ = [
    "afa_draws",
    "afo_draws",
    "agent_excess_metrics",
    "coordinate_blocks",
    "afa_excess_by_propagation",
    "afo_excess_by_propagation",
]


def _mixing(P: QuadraticFamily, Wmat: AgentMatrix, eta: float | np.ndarray,
            name: str) -> np.ndarray:
    Wd = as_dense(Wmat)
    if Wd.shape != (P.N, P.N):
        raise ValueError(f"{name} must have shape ({P.N}, {P.N}), got {Wd.shape}")
    eta_arr = np.asarray(eta, dtype=np.float64)
    if eta_arr.ndim > 1 or (eta_arr.ndim == 1 and eta_arr.shape != (P.N,)):
        raise ValueError(f"eta must be a scalar or have shape ({P.N},), got {eta_arr.shape}")
    return np.broadcast_to(eta_arr, (P.N,))[:, None] * Wd  # diag(eta) W


def _draws(P: QuadraticFamily, Bm: np.ndarray, A_diag_only: bool) -> LinearDraws:
    N = P.N
    if A_diag_only:
        A = np.eye(N)[None] * (1.0 - P.h[:, None] * Bm.sum(axis=1)[None])[:, None, :]
    else:
        A = np.eye(N)[None] - P.h[:, None, None] * Bm[None]  # (d, N, N)
    c = P.h[:, None] * (Bm @ P.m).T  # (d, N)
    Sigma = np.einsum("ij,jc,kj->cik", Bm, P.s_agents, Bm)  # B diag(s_c) B^T
    return LinearDraws(p=[1.0], A=A[None], c=c[None], Sigma=Sigma[None], check=False)


def afa_draws(problem: Any, W: AgentMatrix, eta: float | np.ndarray) -> LinearDraws:
    """AFA (even2022 Algorithm 1) on Q, coordinate blocks (module docstring); eta scalar or
    per agent (N,)."""
    P = as_quadratic_family(problem)
    return _draws(P, _mixing(P, W, eta, "W"), A_diag_only=False)


def afo_draws(problem: Any, Lam: AgentMatrix, eta: float | np.ndarray) -> LinearDraws:
    """AFO (even2022 Eq. (2)) on Q, coordinate blocks (module docstring); one sample per
    agent j reused by every i, so the noise is correlated across agents."""
    P = as_quadratic_family(problem)
    return _draws(P, _mixing(P, Lam, eta, "Lam"), A_diag_only=True)


def coordinate_blocks(problem: Any, x0: np.ndarray) -> np.ndarray:
    """Initial state of the coordinate-block layout: every agent starts at x0 (d,) -> (d, N)."""
    P = as_quadratic_family(problem)
    x0 = np.asarray(x0, dtype=np.float64)
    if x0.shape != (P.d,):
        raise ValueError(f"x0 must have shape ({P.d},), got {x0.shape}")
    return np.repeat(x0[:, None], P.N, axis=1)


def agent_excess_metrics(problem: Any) -> QuadraticMetrics:
    """f_i(x_i) - f_i^* = 1/2 sum_c h_c (x_ic - m_ic)^2 for every agent i (even2022 digest
    section 7, family Q) in the coordinate-block layout: metric i reads position i of every
    block c with weight h_c."""
    P = as_quadratic_family(problem)
    return QuadraticMetrics(
        Q=np.broadcast_to(P.h[None, :, None], (P.N, P.d, 1)),
        x_star=P.m[:, :, None],
        index=np.arange(P.N)[:, None],
        names=[f"agent{i}" for i in range(P.N)],
    )


def _excess(draws: LinearDraws, P: QuadraticFamily, x0: np.ndarray, ks: Iterable[int],
            method: str) -> np.ndarray:
    return propagate(draws, coordinate_blocks(P, x0), ks, agent_excess_metrics(P),
                     method=method).metrics


def afa_excess_by_propagation(problem: Any, W: AgentMatrix, eta: float | np.ndarray,
                              x0: np.ndarray, ks: Iterable[int],
                              method: str = "auto") -> np.ndarray:
    """E[f_i(x_i^k) - f_i^*] of AFA on Q through :func:`propagate`, shape (n_rec, N); the same
    numbers as linear_gaussian.afa_expected_excess (even2022 digest Appendix A)."""
    P = as_quadratic_family(problem)
    return _excess(afa_draws(P, W, eta), P, x0, ks, method)


def afo_excess_by_propagation(problem: Any, Lam: AgentMatrix, eta: float | np.ndarray,
                              x0: np.ndarray, ks: Iterable[int],
                              method: str = "auto") -> np.ndarray:
    """E[f_i(x_i^k) - f_i^*] of AFO on Q through :func:`propagate`, shape (n_rec, N); the same
    numbers as linear_gaussian.afo_expected_excess (even2022 digest Appendix A)."""
    P = as_quadratic_family(problem)
    return _excess(afo_draws(P, Lam, eta), P, x0, ks, method)
