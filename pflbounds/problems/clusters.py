"""Clustered populations, closeness graphs and collaboration weight matrices.

References (even2022):
  * threshold weights lambda_ij = 1{c_ij <= eps} / N_i^eps(c): Theorem 2 part 2, Corollary 1,
    Section 6 step 3 (digest sections 3.1-3.3 and section 8 #2 for the generic N_i^eps(c));
  * star closeness graph with rho(Lam Lam^T) ~ N/4: digest section 3.2 and P11;
  * classical personalisation and single global model: digest section 3.4;
  * clustered populations (Assumption 5): digest section 2 and P7.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp
from scipy.sparse.linalg import ArpackNoConvergence, LinearOperator, eigs, eigsh

from pflbounds.problems.agent_ops import AgentMatrix, AgentOperator
from pflbounds.problems.quadratic import QuadraticFamily

__all__ = [
    "clustered",
    "cluster_centres",
    "cluster_weights",
    "closeness_counts",
    "threshold_weights",
    "star_bias_matrix",
    "sinkhorn",
    "regular_graph_weights",
    "interpolated_weights",
    "interpolated_operator",
    "global_weights",
    "spectral_radius",
    "is_row_stochastic",
    "is_doubly_stochastic",
]


# ---------------------------------------------------------------------- populations
def cluster_centres(
    M: int, d: int, centre_separation: float, rng: np.random.Generator
) -> np.ndarray:
    """M cluster centres in R^d with min_{m != m'} ||c_m - c_m'|| = centre_separation.

    For M <= d the centres are (sep/sqrt 2) times M orthonormal vectors of a random rotation,
    so every pairwise Euclidean distance equals the separation exactly. For M > d they are
    Gaussian points rescaled so that the smallest pairwise distance equals the separation.
    """
    if M < 1 or d < 1:
        raise ValueError(f"need M >= 1 and d >= 1, got M={M}, d={d}")
    if centre_separation < 0:
        raise ValueError(f"centre_separation must be >= 0, got {centre_separation}")
    if M == 1:
        return np.zeros((1, d))
    if M <= d:
        Q, Rm = np.linalg.qr(rng.standard_normal((d, d)))
        Q = Q * np.sign(np.diag(Rm))
        return (centre_separation / np.sqrt(2.0)) * Q[:, :M].T
    c = rng.standard_normal((M, d))
    D2 = ((c[:, None, :] - c[None, :, :]) ** 2).sum(-1)
    np.fill_diagonal(D2, np.inf)
    return c * (centre_separation / np.sqrt(D2.min()))


def clustered(
    M: int,
    C: int,
    d: int,
    centre_separation: float,
    h: float | np.ndarray,
    s: float | np.ndarray,
    rng: np.random.Generator,
) -> tuple[QuadraticFamily, np.ndarray]:
    """Clustered quadratic population (Assumption 5 of even2022; digest P7).

    N = M*C agents, agent j in cluster labels[j] = j // C with optimum m_j = c_{labels[j]};
    the centres satisfy min ||c_m - c_m'|| = centre_separation (:func:`cluster_centres`).
    Within a cluster b_ij = 0; across clusters b_ij = ||H(c_m - c_m')||.

    Returns ``(family, labels)`` with labels of shape (N,).
    """
    if C < 1:
        raise ValueError(f"cluster size C must be >= 1, got {C}")
    centres = cluster_centres(M, d, centre_separation, rng)
    labels = np.repeat(np.arange(M), C)
    h_arr = np.broadcast_to(np.asarray(h, dtype=np.float64), (d,)).copy()
    s_arr = np.asarray(s, dtype=np.float64)
    if s_arr.ndim == 0:
        s_arr = np.full(d, float(s_arr))
    return QuadraticFamily(h=h_arr, m=centres[labels], s=s_arr), labels


def cluster_weights(labels: np.ndarray, sparse: bool = False) -> np.ndarray | sp.csr_matrix:
    """lambda_ij = 1{labels_i = labels_j} / |cluster of i| (block-uniform, digest section 3.3).

    Symmetric and doubly stochastic; W = Lam Lam^T = Lam is the cluster-averaging projection
    (rho(W) = 1). ``sparse=True`` returns a CSR matrix (nnz = sum of squared cluster sizes).
    """
    labels = np.asarray(labels)
    if labels.ndim != 1:
        raise ValueError(f"labels must have shape (N,), got {labels.shape}")
    _, inv, counts = np.unique(labels, return_inverse=True, return_counts=True)
    if not sparse:
        same = inv[:, None] == inv[None, :]
        return same / counts[inv][:, None]
    members = np.argsort(inv, kind="stable")  # agents grouped by cluster
    starts = np.concatenate([[0], np.cumsum(counts)[:-1]])
    rows = np.repeat(np.arange(labels.size), counts[inv])
    cols = _cluster_cols(inv, counts, starts, members)
    vals = 1.0 / counts[inv][rows]
    return sp.csr_matrix((vals, (rows, cols)), shape=(labels.size, labels.size))


def _cluster_cols(
    inv: np.ndarray, counts: np.ndarray, starts: np.ndarray, members: np.ndarray
) -> np.ndarray:
    """Column indices of the block structure, vectorised: for each agent i, the members of
    its cluster in order."""
    n_i = counts[inv]
    offsets = np.arange(n_i.sum()) - np.repeat(np.cumsum(n_i) - n_i, n_i)
    return members[np.repeat(starts[inv], n_i) + offsets]


# ---------------------------------------------------------------------- thresholds
def closeness_counts(c: np.ndarray, eps: float, strict: bool = False) -> np.ndarray:
    """N_i^eps(c) = #{j : c_ij <= eps} (or < eps when strict); digest section 8 #2.

    c has shape (..., N, N); returns (..., N) integer counts.
    """
    c = np.asarray(c, dtype=np.float64)
    close = c < eps if strict else c <= eps
    return close.sum(axis=-1)


def threshold_weights(c: np.ndarray, eps: float, strict: bool = False) -> np.ndarray:
    """lambda_ij = 1{c_ij <= eps} / #{l : c_il <= eps} (``strict``: < instead of <=).

    even2022 Theorem 2 part 2 (c = 2 b^2 / mu), Corollary 1 (c = b^2 / mu) and the estimated
    weights of Section 6 (c = bhat^2, eps = u); generic reading of digest section 8 #2.
    Works on (..., N, N) stacks. Row-stochastic; raises if a row does not contain its own
    agent (c_ii must pass the threshold: c_ii = 0 with eps >= 0, or eps > 0 if strict).
    """
    c = np.asarray(c, dtype=np.float64)
    if c.ndim < 2 or c.shape[-1] != c.shape[-2]:
        raise ValueError(f"c must have shape (..., N, N), got {c.shape}")
    close = c < eps if strict else c <= eps
    diag = np.diagonal(close, axis1=-2, axis2=-1)
    if not np.all(diag):
        bad = np.argwhere(~diag)[0]
        raise ValueError(
            f"threshold eps={eps} excludes agent {tuple(bad)} from its own neighbourhood "
            f"(c_ii = {np.diagonal(c, axis1=-2, axis2=-1)[tuple(bad)]}); need c_ii = 0 and "
            f"eps >= 0 (eps > 0 when strict)"
        )
    return close / close.sum(axis=-1, keepdims=True)


def star_bias_matrix(N: int, near: float, far: float) -> np.ndarray:
    """Star bias matrix (digest section 3.2, P11): agent 0 is the centre with b_0j = near,
    leaves are mutually at b_jk = far (j != k >= 1). The triangle inequality requires
    far <= 2 near (and near <= far + near, always true); a ValueError otherwise.

    With threshold weights at near <= threshold < far, rho(Lam Lam^T) ~ N/4 (N = 20: 5.01).
    """
    if N < 2:
        raise ValueError(f"a star needs N >= 2 agents, got {N}")
    if near < 0 or far < 0:
        raise ValueError("near and far must be >= 0")
    if far > 2 * near:
        raise ValueError(
            f"triangle inequality fails: leaves at distance far={far} > 2*near={2 * near}"
        )
    b = np.full((N, N), float(far))
    b[0, :] = near
    b[:, 0] = near
    np.fill_diagonal(b, 0.0)
    return b


# ---------------------------------------------------------------------- weight matrices
def sinkhorn(P: np.ndarray, tol: float = 1e-13, max_iter: int = 100_000) -> np.ndarray:
    """Doubly-stochastic scaling diag(a) P diag(b) of a positive matrix (Sinkhorn-Knopp).

    Used for the doubly-stochastic Lambda of digest P8 (rho(Lam Lam^T) = 1). Stops when every
    row and column sum is within ``tol`` of 1; raises if that does not happen.
    """
    P = np.asarray(P, dtype=np.float64)
    if P.ndim != 2 or P.shape[0] != P.shape[1]:
        raise ValueError(f"P must be square, got shape {P.shape}")
    if np.any(P < 0) or np.any(P.sum(0) == 0) or np.any(P.sum(1) == 0):
        raise ValueError("P must be non-negative with no zero row or column")
    A = P.copy()
    for _ in range(max_iter):
        A /= A.sum(axis=1, keepdims=True)
        A /= A.sum(axis=0, keepdims=True)
        if np.abs(A.sum(axis=1) - 1.0).max() <= tol:
            return A
    raise ValueError(f"Sinkhorn did not reach tol={tol} in {max_iter} iterations")


def regular_graph_weights(N: int, k: int, sparse: bool = False) -> np.ndarray | sp.csr_matrix:
    """Circulant k-nearest-neighbour weights on a ring: lambda_ij = 1/(2k+1) for
    |i - j| <= k (mod N), else 0. Symmetric and doubly stochastic (digest P8)."""
    if k < 0 or 2 * k + 1 > N:
        raise ValueError(f"need 0 <= k and 2k+1 <= N, got k={k}, N={N}")
    rows = np.repeat(np.arange(N), 2 * k + 1)
    cols = (rows + np.tile(np.arange(-k, k + 1), N)) % N
    vals = np.full(rows.size, 1.0 / (2 * k + 1))
    Lam = sp.csr_matrix((vals, (rows, cols)), shape=(N, N))
    return Lam if sparse else Lam.toarray()


def interpolated_weights(N: int, alpha: float | np.ndarray) -> np.ndarray:
    """Classical personalisation (digest section 3.4): lambda_ii = 1 - alpha_i and
    lambda_ij = alpha_i / (N - 1) for j != i. alpha scalar or (N,), in [0, 1]."""
    if N < 2:
        raise ValueError(f"need N >= 2, got {N}")
    a = np.broadcast_to(np.asarray(alpha, dtype=np.float64), (N,))
    if np.any(a < 0) or np.any(a > 1):
        raise ValueError("alpha must lie in [0, 1]")
    Lam = np.broadcast_to((a / (N - 1))[:, None], (N, N)).copy()
    np.fill_diagonal(Lam, 1.0 - a)
    return Lam


def global_weights(N: int) -> np.ndarray:
    """Single global model: Lambda = W = 1 1^T / N (digest section 3.4)."""
    return np.full((N, N), 1.0 / N)


def is_row_stochastic(Lam: AgentMatrix, tol: float = 1e-12) -> bool:
    """Non-negative entries and rows summing to 1."""
    A = AgentOperator(Lam).dense()
    return bool(np.all(A >= -tol) and np.allclose(A.sum(-1), 1.0, atol=tol, rtol=0))


def is_doubly_stochastic(Lam: AgentMatrix, tol: float = 1e-12) -> bool:
    """Row-stochastic with columns summing to 1."""
    A = AgentOperator(Lam).dense()
    return is_row_stochastic(A, tol) and bool(np.allclose(A.sum(-2), 1.0, atol=tol, rtol=0))


def spectral_radius(W: AgentMatrix) -> float | np.ndarray:
    """rho(W) = max |eigenvalue|; for W = Lam Lam^T this is ||Lam||_2^2 (digest section 3.2).

    Dense (N, N) -> float; per-replica stack (R, N, N) -> (R,); sparse -> ARPACK.
    """
    if sp.issparse(W):
        Ws = sp.csr_matrix(W, dtype=np.float64)
        N = Ws.shape[0]
        if N <= 200:
            return spectral_radius(Ws.toarray())
        symmetric = abs(Ws - Ws.T).max() <= 1e-14 * max(abs(Ws).max(), 1.0)
        try:
            if symmetric:
                val = eigsh(Ws, k=1, which="LM", return_eigenvectors=False, tol=1e-12)
            else:
                val = eigs(Ws, k=1, which="LM", return_eigenvectors=False, tol=1e-12)
        except ArpackNoConvergence as err:  # pragma: no cover - rare
            raise ValueError("ARPACK did not converge on the spectral radius") from err
        return float(np.abs(val).max())
    A = AgentOperator(W).dense()
    scale = max(1.0, float(np.abs(A).max()))
    symmetric = np.allclose(A, np.swapaxes(A, -1, -2), rtol=0, atol=1e-14 * scale)
    ev = np.linalg.eigvalsh(A) if symmetric else np.linalg.eigvals(A)
    out = np.abs(ev).max(axis=-1)
    return float(out) if out.ndim == 0 else out


class _InterpolatedOperator(LinearOperator):
    """Lambda = diag(a) + c 1^T with a_i = 1 - alpha_i - alpha_i/(N-1), c_i = alpha_i/(N-1):
    the classical-personalisation weights applied in O(N) per column."""

    def __init__(self, N: int, alpha: np.ndarray) -> None:
        self.a = 1.0 - alpha - alpha / (N - 1)
        self.c = alpha / (N - 1)
        super().__init__(dtype=np.float64, shape=(N, N))

    def _matmat(self, X: np.ndarray) -> np.ndarray:
        return self.a[:, None] * X + self.c[:, None] * X.sum(axis=0, keepdims=True)

    def _matvec(self, x: np.ndarray) -> np.ndarray:
        return self._matmat(x.reshape(-1, 1)).reshape(x.shape)

    def _rmatmat(self, X: np.ndarray) -> np.ndarray:
        return self.a[:, None] * X + (self.c @ X)[None, :]

    def _rmatvec(self, x: np.ndarray) -> np.ndarray:
        return self._rmatmat(x.reshape(-1, 1)).reshape(x.shape)


def interpolated_operator(N: int, alpha: float | np.ndarray) -> LinearOperator:
    """Matrix-free :func:`interpolated_weights` (classical personalisation, digest 3.4):
    applying Lambda or Lambda^T costs O(N) per column instead of O(N^2)."""
    if N < 2:
        raise ValueError(f"need N >= 2, got {N}")
    a = np.broadcast_to(np.asarray(alpha, dtype=np.float64), (N,)).copy()
    if np.any(a < 0) or np.any(a > 1):
        raise ValueError("alpha must lie in [0, 1]")
    return _InterpolatedOperator(N, a)
