"""A noiseless least-squares stream with isotropic Gaussian features (multiplicative noise).

Client i observes y = <x, theta_i^*> with x ~ N(0, I_d) in batches of b, so R_i(theta) =
E(<x, theta> - y)^2 = ||theta - theta_i^*||^2 (beta = mu = 2) and the stochastic gradient
(2/b) sum_s x_s x_s^T (theta - theta_i^*) has variance 4 (d + 1) ||theta - theta_i^*||^2/b:
the noise vanishes at the optimum and a uniform variance bound holds only on bounded sets.
This is the synthetic experiment of philippenko2025 Appendix A (H_i = I_d, no label noise).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from pflbounds.problems.additive_noise import dense_mixing
from pflbounds.problems.agent_ops import AgentMatrix

__all__ = ["LeastSquaresStream"]


@dataclass(frozen=True, eq=False)
class LeastSquaresStream:
    """Client i observes y = <x, theta^*_i> with x ~ N(0, I_d), in batches of ``batch``;
    R_i(theta) = ||theta - theta_i^*||^2, beta = mu = 2, c = 0, b_ik = 2 ||theta_i^* -
    theta_k^*||. ``optima``: (N, d), one optimum per client."""

    optima: np.ndarray
    batch: int = 2

    def __post_init__(self) -> None:
        object.__setattr__(self, "optima", np.array(self.optima, dtype=np.float64))
        if int(self.batch) < 1:
            raise ValueError(f"batch must be >= 1, got {self.batch}")

    @property
    def N(self) -> int:
        return int(self.optima.shape[0])

    @property
    def d(self) -> int:
        return int(self.optima.shape[1])

    mu = 2.0
    beta = 2.0

    def exact_grad(self, X: np.ndarray) -> np.ndarray:
        return 2.0 * (np.asarray(X, dtype=np.float64) - self.optima)

    def excess(self, X: np.ndarray) -> np.ndarray:
        E = np.asarray(X, dtype=np.float64) - self.optima
        return np.sum(E * E, axis=-1)

    def noise_variance(self, X: np.ndarray) -> np.ndarray:
        """E||g - grad R||^2 = 4 (d + 1) ||theta - theta^*||^2/b (Gaussian fourth moments)."""
        return 4.0 * (self.d + 1) * self.excess(X) / self.batch

    def sample_noise(self, R: int, rng: np.random.Generator) -> np.ndarray:
        """One batch of features per client, (R, N, b, d)."""
        return rng.standard_normal((R, self.N, int(self.batch), self.d))

    def grad(self, X: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        X = np.asarray(X, dtype=np.float64)
        Z = self.sample_noise(X.shape[0], rng)
        t = np.einsum("rnsd,rnd->rns", Z, X - self.optima)
        return 2.0 / self.batch * np.einsum("rns,rnsd->rnd", t, Z)

    def mixed_grad(self, X: np.ndarray, Lam: AgentMatrix, noise: np.ndarray) -> np.ndarray:
        """sum_k lambda_ik (2/b) sum_s x_ks x_ks^T (theta_i - theta_k^*), batch of client k."""
        R, N, b, d = noise.shape
        W = np.broadcast_to(dense_mixing(Lam, N), (R, N, N))
        Zf = noise.reshape(R, N * b, d)  # rows (k, s)
        t = np.matmul(X, np.swapaxes(Zf, 1, 2)).reshape(R, N, N, b)  # x_ks . theta_i
        t -= np.einsum("rksd,kd->rks", noise, self.optima)[:, None]
        coef = (W[..., None] * t).reshape(R, N, N * b)
        return 2.0 / self.batch * np.matmul(coef, Zf)

    def heterogeneity(self) -> tuple[np.ndarray, np.ndarray]:
        """Tight (b, c): b_ik = 2 ||theta_i^* - theta_k^*|| (the gap 2(theta_k^* - theta_i^*)
        is constant), c = 0."""
        diff = self.optima[:, None, :] - self.optima[None, :, :]
        return 2.0 * np.linalg.norm(diff, axis=-1), np.zeros((self.N, self.N))
