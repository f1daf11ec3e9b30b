"""Additive Gaussian gradient noise shared by every model, for per-client problems.

A problem that mixes in :class:`AdditiveNoise` gives ``exact_grad`` (X of shape (..., N, d)
-> per-client gradients), ``sigma2`` (N,), ``N`` and ``d``; the mixin adds the stochastic
oracle g_k(theta) = grad R_k(theta) + n_k with n_k ~ N(0, (sigma_k^2/d) I_d), so that
E||g_k - grad R_k||^2 = sigma_k^2 exactly, and the All-for-one mixing
sum_k lambda_ik g_k(theta_i) with ONE noise draw per client k reused for every model theta_i
(the All-for-one convention of even2022 Algorithm 1).
"""

from __future__ import annotations

import numpy as np

from pflbounds.problems.agent_ops import AgentMatrix, AgentOperator

__all__ = ["AdditiveNoise", "dense_mixing"]


def dense_mixing(Lam: AgentMatrix, N: int) -> np.ndarray:
    """The dense N x N (or R x N x N) copy of an agent matrix, its size checked against N."""
    op = Lam if isinstance(Lam, AgentOperator) else AgentOperator(Lam, N)
    return op.dense()


class AdditiveNoise:
    """g_k(theta) = grad R_k(theta) + n_k, n_k ~ N(0, (sigma_k^2/d) I_d), one draw per client
    shared by every model; subclasses give ``exact_grad``, ``sigma2``, ``N``, ``d``."""

    def sample_noise(self, R: int, rng: np.random.Generator) -> np.ndarray:
        """One noise vector per replica and client, (R, N, d)."""
        return rng.standard_normal((R, self.N, self.d)) * np.sqrt(self.sigma2 / self.d)[:, None]

    def grad(self, X: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        """Stochastic gradients of every client at its own model, X (R, N, d) -> (R, N, d)."""
        X = np.asarray(X, dtype=np.float64)
        return self.exact_grad(X) + self.sample_noise(X.shape[0], rng)

    def mixed_grad(self, X: np.ndarray, Lam: AgentMatrix, noise: np.ndarray) -> np.ndarray:
        """sum_k lambda_ik (grad R_k(theta_i) + n_k), one noise draw per client k."""
        W = dense_mixing(Lam, self.N)
        R = X.shape[0]
        CG = self.exact_grad(np.broadcast_to(X[:, :, None, :], (R, self.N, self.N, self.d)))
        Wb = np.broadcast_to(W, (R, self.N, self.N))
        return np.einsum("rik,rikd->rid", Wb, CG) + np.matmul(Wb, noise)
