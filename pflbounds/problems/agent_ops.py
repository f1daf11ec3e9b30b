"""Applying an N x N agent matrix (W, Lambda) to batched iterates of shape (R, N, d).

Every collaborative method mixes quantities over the agent axis: ``(W X)_i = sum_j W_ij x_j``.
:class:`AgentOperator` wraps the accepted representations once (dense ndarray, scipy.sparse
matrix or array, a :class:`scipy.sparse.linalg.LinearOperator`, or a stack of per-replica
dense matrices of shape (R, N, N)) and applies them to arrays of shape (R, N, d) without any
Python loop over agents or replicas.

For a single matrix the replicas and coordinates are folded into one right-hand side of
shape (N, R*d), so that one BLAS GEMM (dense) or one sparse-times-dense product (sparse) does
the whole batch.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.sparse as sp
from scipy.sparse.linalg import LinearOperator

__all__ = ["AgentOperator", "AgentMatrix", "as_dense"]

AgentMatrix = Any  # np.ndarray | scipy.sparse matrix/array | LinearOperator | AgentOperator


class AgentOperator:
    """A fixed linear map over the agent axis, applied to (R, N, d) arrays.

    Parameters
    ----------
    W
        ``(N, N)`` dense array, scipy.sparse matrix/array, LinearOperator, an existing
        AgentOperator, or a per-replica stack ``(R, N, N)`` of dense matrices.
    N
        Expected number of agents (checked).
    """

    def __init__(self, W: AgentMatrix, N: int | None = None) -> None:
        if isinstance(W, AgentOperator):
            self.kind: str = W.kind
            self.W: Any = W.W
            self.N: int = W.N
            self.batched: bool = W.batched
        elif sp.issparse(W):
            self.kind = "sparse"
            self.W = sp.csr_matrix(W, dtype=np.float64)
            self.batched = False
        elif isinstance(W, LinearOperator):
            self.kind = "linop"
            self.W = W
            self.batched = False
        else:
            arr = np.asarray(W, dtype=np.float64)
            if arr.ndim == 2:
                self.kind = "dense"
                self.batched = False
            elif arr.ndim == 3:
                self.kind = "batched"
                self.batched = True
            else:
                raise ValueError(
                    f"agent matrix must have shape (N, N) or (R, N, N), got shape {arr.shape}"
                )
            self.W = arr
        shape = self.W.shape
        if shape[-1] != shape[-2]:
            raise ValueError(f"agent matrix must be square over agents, got shape {shape}")
        self.N = int(shape[-1])
        if N is not None and self.N != N:
            raise ValueError(f"agent matrix has {self.N} agents, the problem has {N}")

    # ------------------------------------------------------------------ application
    def apply(self, X: np.ndarray) -> np.ndarray:
        """Return ``(W X)`` with ``(W X)[r, i] = sum_j W[(r,) i, j] X[r, j]`` for X (R, N, d)."""
        if X.ndim != 3 or X.shape[1] != self.N:
            raise ValueError(f"expected an array of shape (R, {self.N}, d), got {X.shape}")
        if self.kind == "batched":
            if self.W.shape[0] != X.shape[0]:
                raise ValueError(
                    f"per-replica agent matrices: {self.W.shape[0]} matrices for "
                    f"{X.shape[0]} replicas"
                )
            return np.matmul(self.W, X)
        R, N, d = X.shape
        Xt = np.ascontiguousarray(X.transpose(1, 0, 2)).reshape(N, R * d)
        if self.kind == "linop":
            Yt = self.W.matmat(Xt)
        else:
            Yt = self.W @ Xt
        return np.asarray(Yt).reshape(N, R, d).transpose(1, 0, 2)

    def apply_T(self, X: np.ndarray) -> np.ndarray:
        """Return ``(W^T X)`` for X of shape (R, N, d)."""
        return self.transpose().apply(X)

    def transpose(self) -> AgentOperator:
        """The operator of ``W^T``."""
        if self.kind == "batched":
            return AgentOperator(np.swapaxes(self.W, 1, 2))
        if self.kind == "linop":
            return AgentOperator(self.W.T)
        return AgentOperator(self.W.T)

    def apply_vec(self, V: np.ndarray) -> np.ndarray:
        """Apply a single (non-batched) operator to an (N, d) array."""
        if self.batched:
            raise ValueError("apply_vec needs a single agent matrix, not a per-replica stack")
        return self.apply(V[None])[0]

    def row_sums(self) -> np.ndarray:
        """``W 1``: shape (N,) or (R, N) for a per-replica stack."""
        if self.kind == "batched":
            return self.W.sum(axis=2)
        if self.kind == "linop":
            return np.asarray(self.W.matvec(np.ones(self.N))).ravel()
        return np.asarray(self.W @ np.ones(self.N)).ravel()

    def dense(self) -> np.ndarray:
        """Dense copy: (N, N), or (R, N, N) for a per-replica stack."""
        if self.kind == "dense" or self.kind == "batched":
            return np.array(self.W)
        if self.kind == "sparse":
            return self.W.toarray()
        return np.asarray(self.W.matmat(np.eye(self.N)))


def as_dense(W: AgentMatrix) -> np.ndarray:
    """Dense float64 copy of any accepted agent matrix."""
    return AgentOperator(W).dense()
