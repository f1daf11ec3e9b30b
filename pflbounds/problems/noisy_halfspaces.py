"""A population of clients with linear classifiers and label noise, and its exact 0-1 risk.

Client i has a direction w_i = W z_i (z_i ~ N(0, I_q), W in R^{p x q}: a low-rank client
manifold); its data are x ~ N(0, I_p) and y = sign(w_i . x), flipped with probability rho.
For a linear classifier theta the 0-1 risk on client i is exact (the angle formula, valid
for isotropic x):

    R_i(theta) = rho + (1 - 2 rho) arccos(theta . w_i/(|theta| |w_i|))/pi.

Reference: scott2024 digest §6.2 (testbed B). The module knows nothing of hypernetworks:
it draws clients and samples and scores classifiers, vectorised over leading axes.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

__all__ = ["NoisyHalfspaces", "angle_risk"]


def angle_risk(theta: np.ndarray, w: np.ndarray, rho: float) -> np.ndarray:
    """Exact 0-1 risk rho + (1 - 2 rho) angle(theta, w)/pi of sign(theta . x) on
    x ~ N(0, I), y = sign(w . x) flipped with probability rho. Broadcasts over leading axes
    (last axis: the dimension p); theta = 0 scores as a random guess (1/2)."""
    theta = np.asarray(theta, dtype=np.float64)
    w = np.asarray(w, dtype=np.float64)
    num = np.einsum("...p,...p->...", theta, w)
    den = np.linalg.norm(theta, axis=-1) * np.linalg.norm(w, axis=-1)
    cos = np.where(den > 0, num / np.where(den > 0, den, 1.0), 0.0)
    return rho + (1 - 2 * rho) * np.arccos(np.clip(cos, -1.0, 1.0)) / np.pi


@dataclass(frozen=True)
class NoisyHalfspaces:
    """The population: W (p x q) and the flip probability rho."""

    W: np.ndarray
    rho: float

    def __post_init__(self) -> None:
        W = np.asarray(self.W, dtype=np.float64)
        if W.ndim != 2 or W.shape[1] > W.shape[0]:
            raise ValueError(f"W must be p x q with q <= p, got shape {W.shape}")
        if not 0.0 <= self.rho < 0.5:
            raise ValueError(f"rho must lie in [0, 1/2), got {self.rho}")
        object.__setattr__(self, "W", W)

    @classmethod
    def random(cls, p: int, q: int, rho: float, rng: np.random.Generator) -> NoisyHalfspaces:
        """W with i.i.d. N(0, 1/q) entries."""
        return cls(rng.standard_normal((p, q)) / np.sqrt(q), rho)

    @property
    def p(self) -> int:
        return int(self.W.shape[0])

    def clients(self, rng: np.random.Generator, shape: tuple[int, ...]) -> np.ndarray:
        """Client directions w = W z, shape (*shape, p)."""
        z = rng.standard_normal((*shape, self.W.shape[1]))
        return z @ self.W.T

    def samples(self, rng: np.random.Generator, w: np.ndarray,
                m: int) -> tuple[np.ndarray, np.ndarray]:
        """m samples per client: x of shape (*w.shape[:-1], m, p), labels y in {-1, 1} of
        shape (*w.shape[:-1], m)."""
        lead = w.shape[:-1]
        x = rng.standard_normal((*lead, m, self.p))
        y = np.where(np.einsum("...mp,...p->...m", x, w) >= 0, 1.0, -1.0)
        flip = rng.random((*lead, m)) < self.rho
        return x, np.where(flip, -y, y)

    def risk(self, theta: np.ndarray, w: np.ndarray) -> np.ndarray:
        """Exact 0-1 risk of theta on the clients w (:func:`angle_risk`)."""
        return angle_risk(theta, w, self.rho)
