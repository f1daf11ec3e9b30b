"""The pairwise-distance sets K(r) = {Theta in R^{n x d}: ||theta_i - theta_j|| <= r_ij, i < j}
(optionally within the balls ||theta_i|| <= R): the order of their pairs, their radii, how far
a point lies outside one, and the shrink that brings a point inside.

Both projections onto K(r) use them: the exact one (:mod:`pflbounds.problems.
pairwise_constraints`, cvxpy) and Dykstra's (:mod:`pflbounds.problems.dykstra`).
"""

from __future__ import annotations

import numpy as np


def pair_index(n: int) -> tuple[np.ndarray, np.ndarray]:
    """Rows ``(i, j)`` of the n(n-1)/2 pairs i < j, in ``np.triu_indices`` order."""
    i, j = np.triu_indices(n, k=1)
    return i, j


def radii(t: float, D: np.ndarray) -> np.ndarray:
    """r_ij = sqrt(t D_ij) over the pairs i < j of a symmetric (n, n) matrix D >= 0."""
    D = np.asarray(D, dtype=float)
    if D.ndim != 2 or D.shape[0] != D.shape[1]:
        raise ValueError(f"D must be a square (n, n) matrix, got shape {D.shape}")
    if t < 0 or np.any(D < 0):
        raise ValueError("t and D must be nonnegative")
    i, j = pair_index(D.shape[0])
    return np.sqrt(t * D[i, j])


def max_violation(theta: np.ndarray, r: np.ndarray, ball: float | None = None) -> np.ndarray:
    """Largest violation max(0, ||theta_i - theta_j|| - r_ij, ||theta_i|| - R) per replica.

    ``theta`` has shape (..., n, d); the answer has shape ``theta.shape[:-2]``.
    """
    theta = np.asarray(theta, dtype=float)
    i, j = pair_index(theta.shape[-2])
    gaps = np.linalg.norm(theta[..., i, :] - theta[..., j, :], axis=-1) - r
    worst = np.maximum(gaps.max(axis=-1, initial=0.0), 0.0)
    if ball is not None:
        worst = np.maximum(worst, (np.linalg.norm(theta, axis=-1) - ball).max(axis=-1))
    return worst


def shrink_to_feasible(theta: np.ndarray, r: np.ndarray, ball: float | None = None
                       ) -> np.ndarray:
    """Feasibility restoration: theta_i <- mean + tau (theta_i - mean), tau = min(1, min_ij
    r_ij/||theta_i - theta_j||), after scaling every block into the ball if one is given.

    Differences scale by tau (and by the ball factor), so the result is in K(r); a feasible
    input is returned unchanged. ``theta``: (..., n, d).
    """
    th = np.array(theta, dtype=float, copy=True)
    if ball is not None:
        big = np.linalg.norm(th, axis=-1).max(axis=-1)
        c = np.minimum(1.0, ball / np.maximum(big, 1e-300))
        th = th * c[..., None, None]
    i, j = pair_index(th.shape[-2])
    if i.size == 0:
        return th
    dist = np.linalg.norm(th[..., i, :] - th[..., j, :], axis=-1)
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = np.where(dist > r, r / np.where(dist > 0, dist, 1.0), 1.0)
    tau = np.minimum(1.0, ratio.min(axis=-1))
    mean = th.mean(axis=-2, keepdims=True)
    return np.where((tau < 1.0)[..., None, None], mean + tau[..., None, None] * (th - mean), th)
