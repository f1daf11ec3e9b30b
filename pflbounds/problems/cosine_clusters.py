"""Non-convex separable losses with a known global minimum, and additive gradient noise.

R_k(theta) = sum_j [1/2 (theta_j - u_kj)^2 + rho (1 - cos(theta_j - u_kj))]: beta = 1 + rho
smooth, non-convex for rho > 1 (R'' = 1 + rho cos < 0 where cos < -1/rho), unique global
minimum R_k^* = 0 at u_k (R_k >= 1/2 ||theta - u_k||^2). Clients with the same u_k have
identical losses. Used for non-convex rates without the PL condition (philippenko2025
Theorem 3, testbed TB-NC of its digest).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from pflbounds.problems.additive_noise import AdditiveNoise

__all__ = ["CosineClusters"]


@dataclass(frozen=True, eq=False)
class CosineClusters(AdditiveNoise):
    """R_k(theta) = sum_j [1/2 (theta_j - u_kj)^2 + rho (1 - cos(theta_j -
    u_kj))], non-convex for rho > 1, unique global minimum R_k^* = 0 at u_k, beta = 1 + rho;
    additive noise of variance sigma_k^2."""

    u: np.ndarray
    rho: float
    sigma2: np.ndarray

    def __post_init__(self) -> None:
        u = np.array(self.u, dtype=np.float64)
        object.__setattr__(self, "u", u)
        object.__setattr__(self, "sigma2", np.broadcast_to(
            np.asarray(self.sigma2, dtype=np.float64), (u.shape[0],)).copy())

    @property
    def N(self) -> int:
        return int(self.u.shape[0])

    @property
    def d(self) -> int:
        return int(self.u.shape[1])

    @property
    def beta(self) -> float:
        return 1.0 + float(self.rho)

    def exact_grad(self, X: np.ndarray) -> np.ndarray:
        E = np.asarray(X, dtype=np.float64) - self.u
        return E + self.rho * np.sin(E)

    def excess(self, X: np.ndarray) -> np.ndarray:
        E = np.asarray(X, dtype=np.float64) - self.u
        return np.sum(0.5 * E**2 + self.rho * (1 - np.cos(E)), axis=-1)


