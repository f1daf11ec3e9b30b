"""Per-client quadratics with one Hessian per client and additive Gaussian gradient noise.

R_k(theta) = scale (theta - m_k)^T A_k (theta - m_k): ``scale = 1/2`` is the usual
normalisation, ``scale = 1`` the one of philippenko2025 Property 1 (R_k = (theta + xi_k)^T
A_k (theta + xi_k), xi_k = -m_k). Clients that share m_k but not A_k have gradients whose
difference is not uniformly bounded: the multiplicative heterogeneity c_ik of
||grad R_i - grad R_k||^2 <= b_ik^2 + c_ik ||grad R_i||^2 (:meth:`ClientQuadratics.heterogeneity`).
The noise model is :class:`pflbounds.problems.additive_noise.AdditiveNoise`.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np

from pflbounds.problems.additive_noise import AdditiveNoise

__all__ = ["ClientQuadratics", "random_spd"]


@dataclass(frozen=True, eq=False)
class ClientQuadratics(AdditiveNoise):
    """R_k(theta) = scale (theta - m_k)^T A_k (theta - m_k), g_k = grad R_k + n_k with
    n_k ~ N(0, (sigma_k^2/d) I_d); sigma2 is one value or one per client (N,)."""

    A: np.ndarray
    m: np.ndarray
    sigma2: np.ndarray
    scale: float = 0.5

    def __post_init__(self) -> None:
        A = np.array(self.A, dtype=np.float64)
        m = np.array(self.m, dtype=np.float64)
        N, d = m.shape
        if A.shape != (N, d, d) or not np.allclose(A, np.swapaxes(A, 1, 2), atol=1e-12):
            raise ValueError(f"A must be {N} symmetric {d} x {d} matrices")
        if np.linalg.eigvalsh(A).min() <= 0:
            raise ValueError("every A_k must be positive definite")
        s2 = np.broadcast_to(np.asarray(self.sigma2, dtype=np.float64), (N,)).copy()
        if np.any(s2 < 0):
            raise ValueError("noise variances must be >= 0")
        object.__setattr__(self, "A", A)
        object.__setattr__(self, "m", m)
        object.__setattr__(self, "sigma2", s2)

    @property
    def N(self) -> int:
        return int(self.m.shape[0])

    @property
    def d(self) -> int:
        return int(self.m.shape[1])

    @cached_property
    def _eig(self) -> np.ndarray:
        return np.linalg.eigvalsh(self.A)

    @property
    def mu(self) -> float:
        """Strong convexity 2 scale min_k lambda_min(A_k) (Assumption 4)."""
        return float(2 * self.scale * self._eig.min())

    @property
    def beta(self) -> float:
        """Smoothness 2 scale max_k lambda_max(A_k) (Assumption 1)."""
        return float(2 * self.scale * self._eig.max())

    @property
    def sigma2_agents(self) -> np.ndarray:
        """Exact noise variances sigma_k^2, (N,)."""
        return self.sigma2

    def exact_grad(self, X: np.ndarray) -> np.ndarray:
        """grad R_k(theta_k) = 2 scale A_k (theta_k - m_k) for X (..., N, d)."""
        E = np.asarray(X, dtype=np.float64) - self.m
        return 2 * self.scale * np.einsum("kab,...kb->...ka", self.A, E)

    def excess(self, X: np.ndarray) -> np.ndarray:
        """R_k(theta_k) - R_k^* for X (..., N, d) -> (..., N)."""
        E = np.asarray(X, dtype=np.float64) - self.m
        return self.scale * np.einsum("...ka,kab,...kb->...k", E, self.A, E)

    def heterogeneity(self, tight_if_shared: bool = True) -> tuple[np.ndarray, np.ndarray]:
        """(b, c) of Assumption 3 (philippenko2025 Property 1 with this normalisation):
        b_ik = 2 sqrt(2) scale ||A_k (m_i - m_k)||, c_ik = 2 ||I - A_k A_i^-1||_2^2; where
        m_i = m_k the tight c_ik = ||I - A_k A_i^-1||_2^2 (no Young split)."""
        d = self.d
        Ainv = np.linalg.inv(self.A)
        M = np.eye(d) - np.einsum("kab,ibc->ikac", self.A, Ainv)
        op2 = np.linalg.norm(M, ord=2, axis=(2, 3)) ** 2
        diff = self.m[:, None, :] - self.m[None, :, :]
        Ad = np.einsum("kab,ikb->ika", self.A, diff)
        b = 2 * np.sqrt(2) * self.scale * np.linalg.norm(Ad, axis=-1)
        same = np.all(np.abs(diff) == 0, axis=-1)
        c = np.where(same & tight_if_shared, op2, 2 * op2)
        np.fill_diagonal(b, 0.0)
        np.fill_diagonal(c, 0.0)
        return b, c


def random_spd(N: int, d: int, lo: float, hi: float, rng: np.random.Generator) -> np.ndarray:
    """N random symmetric matrices with spectrum in [lo, hi] (the ends attained)."""
    Q, _ = np.linalg.qr(rng.standard_normal((N, d, d)))
    ev = rng.uniform(lo, hi, (N, d))
    ev[:, 0], ev[:, -1] = lo, hi
    return np.einsum("nab,nb,ncb->nac", Q, ev, Q)


