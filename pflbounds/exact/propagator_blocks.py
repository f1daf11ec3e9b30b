"""Block sampling on quadratics and the coupled (w, beta) objective, for the exact propagator.

Reference: hanzely2023 digest (/work/shared/papers/004_hanzely_digest.md) section 1.1, the
objective F(w, beta) = (1/M) sum_m f_m(w, beta_m) (eq. (1)) with w in R^{d0} shared and
beta_m in R^{d1} local, and section 4 (Algorithms 5-7: the w-block is updated with
probability p_w, else the beta-blocks).

State order: x = (w, beta_1, ..., beta_M), n = d0 + M d1. A quadratic client
f_m(z) = 1/2 (z - a_m)^T H_m (z - a_m) on z = (w, beta_m) gives the Hessian of F

    H = (1/M) sum_m E_m^T H_m E_m,      b = (1/M) sum_m E_m^T H_m a_m,    x* = H^{-1} b,

(E_m selects (w, beta_m)); it couples w with every beta_m. A block-coordinate gradient step
on a quadratic F(x) = 1/2 (x - x*)^T H (x - x*) with additive gradient noise xi ~ N(0, Sigma_g)
that updates the positions P_j of draw j (probability p_j) with step eta_j,

    x <- x - eta_j P_j (H (x - x*) + xi),

is the draw A_j = I - eta_j P_j H, c_j = eta_j P_j H x*, Sigma_j = eta_j^2 P_j Sigma_g P_j.
SCD-PFL (Algorithm 6) takes the two draws {w} (p_w) and {beta_1..beta_M} (1 - p_w), with
eta_j = eta / p_j for its unbiased estimator; single-beta-block sampling is another set.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from pflbounds.exact.propagator_draws import LinearDraws, check_psd
from pflbounds.exact.propagator_metrics import QuadraticMetrics

__all__ = [
    "block_coordinate_draws",
    "pfl_client_index",
    "pfl_client_metrics",
    "pfl_quadratic",
]


def pfl_client_index(M: int, d0: int, d1: int) -> np.ndarray:
    """Positions of (w, beta_m) in x = (w, beta_1, ..., beta_M), shape (M, d0 + d1)."""
    if M < 1 or d0 < 0 or d1 < 0 or d0 + d1 == 0:
        raise ValueError(f"need M >= 1, d0, d1 >= 0 and d0 + d1 >= 1, got M={M}, d0={d0}, "
                         f"d1={d1}")
    w = np.broadcast_to(np.arange(d0), (M, d0))
    beta = d0 + d1 * np.arange(M)[:, None] + np.arange(d1)[None, :]
    return np.concatenate([w, beta], axis=1)


def _clients(H_clients: np.ndarray, a_clients: np.ndarray, d0: int) -> tuple[np.ndarray, ...]:
    H_c = np.asarray(H_clients, dtype=np.float64)
    a_c = np.asarray(a_clients, dtype=np.float64)
    if H_c.ndim != 3 or H_c.shape[1] != H_c.shape[2]:
        raise ValueError(f"H_clients must have shape (M, d0 + d1, d0 + d1), got {H_c.shape}")
    M, s = H_c.shape[:2]
    if a_c.shape != (M, s):
        raise ValueError(f"a_clients must have shape ({M}, {s}), got {a_c.shape}")
    if not 0 <= d0 <= s:
        raise ValueError(f"d0 must lie in [0, {s}], got {d0}")
    return H_c, a_c, pfl_client_index(M, d0, s - d0)


def pfl_quadratic(H_clients: np.ndarray, a_clients: np.ndarray,
                  d0: int) -> tuple[np.ndarray, np.ndarray]:
    """Hessian H (n, n) and minimiser x* (n,) of F(w, beta) = (1/M) sum_m f_m(w, beta_m) with
    f_m(z) = 1/2 (z - a_m)^T H_m (z - a_m) (hanzely2023 eq. (1); module docstring).
    ``H_clients`` (M, s, s), ``a_clients`` (M, s), s = d0 + d1. Raises ValueError when H is
    not positive definite (F not jointly strongly convex)."""
    H_c, a_c, idx = _clients(H_clients, a_clients, d0)
    M = H_c.shape[0]
    n = int(idx.max()) + 1
    H = np.zeros((n, n))
    np.add.at(H, (idx[:, :, None], idx[:, None, :]), H_c / M)
    b = np.zeros(n)
    np.add.at(b, idx, np.einsum("mij,mj->mi", H_c, a_c) / M)
    H = 0.5 * (H + H.T)
    if np.linalg.eigvalsh(H)[0] <= 0:
        raise ValueError("the Hessian of F(w, beta) is not positive definite: F is not "
                         "jointly strongly convex")
    return H, np.linalg.solve(H, b)


def pfl_client_metrics(H_clients: np.ndarray, a_clients: np.ndarray, d0: int,
                       x_star: np.ndarray) -> QuadraticMetrics:
    """f_m(w, beta_m) - f_m(w*, beta_m*) for every client m, one block (hanzely2023 eq. (1)):
    1/2 r^T H_m r + grad f_m(z_m*)^T r with r = z_m - z_m*, z_m* = (w*, beta_m*). Their mean
    over m is F(x) - F(x*)."""
    H_c, a_c, idx = _clients(H_clients, a_clients, d0)
    z_star = np.asarray(x_star, dtype=np.float64)[idx]  # (M, s)
    g = np.einsum("mij,mj->mi", H_c, z_star - a_c)
    return QuadraticMetrics(Q=H_c[:, None], x_star=z_star[:, None], index=idx,
                            g=g[:, None], names=[f"client{m}" for m in range(H_c.shape[0])])


def _masks(blocks: Sequence[Sequence[int]] | np.ndarray, n: int) -> np.ndarray:
    if isinstance(blocks, np.ndarray) and blocks.dtype == bool:
        if blocks.ndim != 2 or blocks.shape[1] != n:
            raise ValueError(f"block masks must have shape (J, n={n}), got {blocks.shape}")
        return blocks.astype(np.float64)
    masks = np.zeros((len(blocks), n))
    for j, positions in enumerate(blocks):  # loop over the draw set, built once
        pos = np.asarray(positions, dtype=np.int64)
        if pos.size and (pos.min() < 0 or pos.max() >= n):
            raise ValueError(f"block {j} has positions outside [0, {n}): {pos.tolist()}")
        masks[j, pos] = 1.0
    return masks


def block_coordinate_draws(
    H: np.ndarray,
    x_star: np.ndarray,
    blocks: Sequence[Sequence[int]] | np.ndarray,
    p: Sequence[float] | np.ndarray,
    eta: float | Sequence[float] | np.ndarray,
    noise_cov: np.ndarray | None = None,
) -> LinearDraws:
    """Randomized block-coordinate gradient descent on 1/2 (x - x*)^T H (x - x*) with additive
    gradient noise of covariance ``noise_cov`` (module docstring; hanzely2023 digest section
    4.6 with p_w). ``blocks``: J position lists or a boolean (J, n) mask; ``p`` their
    probabilities; ``eta`` one step or one per draw."""
    H = np.asarray(H, dtype=np.float64)
    n = H.shape[0]
    if H.shape != (n, n):
        raise ValueError(f"H must be square, got shape {H.shape}")
    x_star = np.asarray(x_star, dtype=np.float64)
    if x_star.shape != (n,):
        raise ValueError(f"x_star must have shape ({n},), got {x_star.shape}")
    P = _masks(blocks, n)  # (J, n)
    J = P.shape[0]
    eta_j = np.asarray(eta, dtype=np.float64)
    if eta_j.ndim > 1 or (eta_j.ndim == 1 and eta_j.shape != (J,)):
        raise ValueError(f"eta must be a scalar or have shape ({J},), got {eta_j.shape}")
    scale = np.broadcast_to(eta_j, (J,))[:, None] * P  # eta_j P_j as diagonals (J, n)
    A = np.eye(n)[None] - scale[:, :, None] * H[None]
    c = scale * (H @ x_star)[None]
    Sigma = None
    if noise_cov is not None:
        S = np.asarray(noise_cov, dtype=np.float64)
        if S.shape != (n, n):
            raise ValueError(f"noise_cov must have shape ({n}, {n}), got {S.shape}")
        check_psd("noise_cov", S)  # then every eta_j P_j S P_j eta_j is PSD
        Sigma = scale[:, :, None] * S[None] * scale[:, None, :]
    return LinearDraws(p=p, A=A, c=c, Sigma=Sigma, check=False)
