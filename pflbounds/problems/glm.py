"""Mixture gradients for losses of generalised-linear form ell(x, (z, y)) = phi(z^T x, y).

AFO (even2022 Eq. (2)) needs, for every agent i, sum_j lambda_ij grad ell(x_i, xi_j) with one
fresh sample xi_j = (z_j, y_j) per agent j reused for every i. For such losses

    sum_j lambda_ij phi'(z_j^T x_i, y_j) z_j,

which needs the scalars z_j^T x_i only on the support of Lambda. Dense small problems use one
(R, N, N) array of scalars; otherwise the nonzeros of Lambda are processed in CSR order with a
segmented reduction (cost O(nnz R d), no (N, N, d) array).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import scipy.sparse as sp

from pflbounds.problems.agent_ops import AgentMatrix, AgentOperator

__all__ = ["glm_mixed_grad"]

_DENSE_LIMIT = 20_000_000  # entries of the (R, N, N) scalar array for the dense path


def glm_mixed_grad(
    X: np.ndarray,
    Lam: AgentMatrix,
    Z: np.ndarray,
    y: np.ndarray,
    dphi: Callable[[np.ndarray, np.ndarray], np.ndarray],
) -> np.ndarray:
    """sum_j lambda_ij dphi(z_j^T x_i, y_j) z_j for X, Z of shape (R, N, d) and y (R, N).

    ``dphi(t, y)`` is the derivative of phi in its first argument, applied elementwise with
    broadcasting. Lam may be dense (N, N), per-replica (R, N, N), sparse or an AgentOperator.
    """
    op = Lam if isinstance(Lam, AgentOperator) else AgentOperator(Lam, X.shape[1])
    R, N, d = X.shape
    if op.kind == "batched" or (op.kind == "dense" and R * N * N <= _DENSE_LIMIT):
        T = np.matmul(X, np.swapaxes(Z, 1, 2))  # T[r, i, j] = x_i . z_j
        Cmat = op.W * dphi(T, y[:, None, :])
        return np.matmul(Cmat, Z)
    W = sp.csr_matrix(op.dense()) if op.kind in ("dense", "linop") else op.W
    W = W.tocsr()
    W.sort_indices()
    rows = np.repeat(np.arange(N), np.diff(W.indptr))
    cols = W.indices
    vals = W.data
    out = np.zeros((R, N, d))
    nonempty = np.flatnonzero(np.diff(W.indptr) > 0)
    if nonempty.size == 0:
        return out
    # process in chunks of nonzeros to bound memory at about R * chunk * d floats
    chunk = max(1, 4_000_000 // max(R * d, 1))
    starts = W.indptr[:-1]
    for lo in range(0, vals.size, chunk):
        hi = min(vals.size, lo + chunk)
        r_ = rows[lo:hi]
        c_ = cols[lo:hi]
        Zc = Z[:, c_, :]  # (R, n, d)
        t = np.einsum("rnd,rnd->rn", X[:, r_, :], Zc)
        coef = vals[lo:hi] * dphi(t, y[:, c_])
        contrib = coef[..., None] * Zc
        # segmented sum over the rows present in this chunk
        seg_rows = np.unique(r_)
        seg_starts = np.maximum(starts[seg_rows], lo) - lo
        out[:, seg_rows, :] += np.add.reduceat(contrib, seg_starts, axis=1)
    return out
