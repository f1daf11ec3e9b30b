"""Quadratic metrics of a propagated state, in expectation, vectorised over metrics.

For a state x with blocks x_b (b = 1..B) of mean m_b and covariance C_b, metric number i
reads the positions S_i of every block (``index[i]``; all n positions when index is None):

    phi_i(x) = sum_b [ 1/2 (x_{b,S_i} - x*_{ib})^T Q_{ib} (x_{b,S_i} - x*_{ib})
                       + g_{ib}^T (x_{b,S_i} - x*_{ib}) ],

    E[phi_i] = sum_b [ 1/2 r^T Q_{ib} r + 1/2 tr(Q_{ib} C_{b,S_i S_i}) + g_{ib}^T r ],
    r = m_{b,S_i} - x*_{ib}.

Examples: the excess f_i(x_i) - f_i^* = 1/2 (x_i - x_i^*)^T H_i (x_i - x_i^*) of an agent
with its own Hessian H_i (S_i = agent i's coordinates, Q_i = H_i); even2022's per-agent
excess on the quadratic family with a diagonal Hessian in the coordinate-block layout
(S_i = {i} in every block c, Q_ic = h_c); a client's excess f_m(w, beta_m) - f_m(w*, beta_m*)
in the (w, beta) objective (S_m = positions of w and beta_m, Q_m = the client's Hessian, g_m
its gradient at the optimum; hanzely2023 digest section 1.1).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from pflbounds.exact.propagator_draws import finite_array

__all__ = ["QuadraticMetrics"]


def _array(name: str, value: object, ndim: int) -> np.ndarray:
    arr = finite_array(name, value)
    if arr.ndim != ndim:
        raise ValueError(f"{name} must have {ndim} axes, got shape {arr.shape}")
    arr.setflags(write=False)
    return arr


@dataclass(frozen=True, eq=False)
class QuadraticMetrics:
    """M quadratic metrics (module docstring).

    Parameters
    ----------
    Q
        Curvatures: dense (M, B, s, s) or diagonal (M, B, s); B = 1 applies the same to
        every block.
    x_star
        Centres, shape (M, B, s) (B may be 1); None means 0.
    index
        Positions read by each metric within a block, shape (M, s) integers; None reads all
        n positions (then s = n).
    g
        Linear terms, shape (M, B, s) (B may be 1); None means 0.
    names
        Optional metric names, M of them.
    """

    Q: np.ndarray
    x_star: np.ndarray | None = None
    index: np.ndarray | None = None
    g: np.ndarray | None = None
    names: Sequence[str] | None = None

    def __post_init__(self) -> None:
        Q = np.array(self.Q, dtype=np.float64)
        if Q.ndim not in (3, 4) or (Q.ndim == 4 and Q.shape[2] != Q.shape[3]):
            raise ValueError(f"Q must have shape (M, B, s, s) (dense) or (M, B, s) (diagonal),"
                             f" got {Q.shape}")
        Q = _array("Q", Q, Q.ndim)
        M, Bq, s = Q.shape[:3]
        object.__setattr__(self, "Q", Q)
        for name in ("x_star", "g"):
            value = getattr(self, name)
            arr = np.zeros((M, 1, s)) if value is None else _array(name, value, 3)
            if arr.shape[0] != M or arr.shape[2] != s:
                raise ValueError(f"{name} must have shape (M={M}, B, s={s}), got {arr.shape}")
            object.__setattr__(self, name, arr)
        if self.index is not None:
            idx = np.array(self.index)
            if idx.shape != (M, s) or not np.issubdtype(idx.dtype, np.integer):
                raise ValueError(f"index must be an integer array of shape (M={M}, s={s}), "
                                 f"got {idx.dtype} {idx.shape}")
            idx.setflags(write=False)
            object.__setattr__(self, "index", idx)
        if self.names is not None and len(self.names) != M:
            raise ValueError(f"names must have M={M} entries, got {len(self.names)}")
        blocks = {Bq, self.x_star.shape[1], self.g.shape[1]} - {1}
        if len(blocks) > 1:
            raise ValueError(f"Q, x_star and g disagree on the number of blocks: {sorted(blocks)}")

    @property
    def M(self) -> int:
        """Number of metrics."""
        return int(self.Q.shape[0])

    @property
    def s(self) -> int:
        """Positions read per block."""
        return int(self.Q.shape[2])

    @property
    def diagonal(self) -> bool:
        """True when Q holds diagonals."""
        return self.Q.ndim == 3

    def check_state(self, shape: tuple[int, ...]) -> None:
        """Raise ValueError unless the metrics can read a state of shape (B, n)."""
        B, n = shape
        for name in ("Q", "x_star", "g"):
            b = getattr(self, name).shape[1]
            if b not in (1, B):
                raise ValueError(f"metric {name} has {b} blocks, the state has {B}")
        if self.index is None:
            if self.s != n:
                raise ValueError(f"metrics without an index must read all n={n} positions, "
                                 f"got s={self.s}")
        elif self.index.size and (self.index.min() < 0 or self.index.max() >= n):
            raise ValueError(f"metric index must lie in [0, {n}), got "
                             f"{self.index.min()}..{self.index.max()}")

    def expect(self, mean: np.ndarray, cov: np.ndarray) -> np.ndarray:
        """E[phi_i] for every metric, shape (M,), from block means (B, n) and covariances
        (B, n, n)."""
        B = mean.shape[0]
        M, s = self.M, self.s
        if self.index is None:
            m_sel = np.broadcast_to(mean, (M, B, s))
        else:
            m_sel = np.moveaxis(mean[:, self.index], 0, 1)  # (M, B, s)
        r = m_sel - self.x_star
        if self.diagonal:
            q = np.broadcast_to(self.Q, (M, B, s))
            diag_c = np.diagonal(cov, axis1=-2, axis2=-1)
            c_sel = diag_c[None] if self.index is None else np.moveaxis(diag_c[:, self.index],
                                                                        0, 1)
            quad = np.einsum("mbi,mbi->m", q, r * r + c_sel)
        else:
            Q = np.broadcast_to(self.Q, (M, B, s, s))
            if self.index is None:
                trace = np.einsum("mbij,bji->m", Q, cov)
            else:
                ix = self.index
                c_sel = cov[:, ix[:, :, None], ix[:, None, :]]  # (B, M, s, s)
                trace = np.einsum("mbij,bmji->m", Q, c_sel)
            quad = np.einsum("mbi,mbi->m", np.matmul(Q, r[..., None])[..., 0], r) + trace
        return 0.5 * quad + np.einsum("mbi,mbi->m", np.broadcast_to(self.g, (M, B, s)), r)
