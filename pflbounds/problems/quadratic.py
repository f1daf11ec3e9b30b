"""The shared-Hessian quadratic family Q with additive Gaussian gradient noise.

Reference: even2022, digest section 7 ("Shared test family Q") and Appendix A.

    f_j(x) = 1/2 (x - m_j)^T H (x - m_j),        H = diag(h) shared by all agents,
    g_j(x) = H (x - m_j) + n,                    n ~ N(0, diag(s_j)) independent of x,

with agent optima m (N, d) and noise variances s either shared (d,) or per agent (N, d).
This is the law of the loss ell(x, xi) = 1/2 (x - xi)^T H (x - xi) with
xi_j ~ N(m_j, H^{-1} diag(s_j) H^{-1}). We drop the additive constant, so f_j^* = 0.

Certified constants (all exact):
  * mu = min h, L = max h (Assumption 2), kappa = L / mu;
  * sigma2 = max_j sum_c s_jc (Assumption 1 holds with equality for the worst agent,
    uniformly in x);
  * b_ij = ||H (m_i - m_j)|| is the uniform gradient gap ||grad f_i(x) - grad f_j(x)||,
    the same for every x (strong Assumption 3);
  * f_i(x_j^*) - f_i^* = 1/2 ||m_i - m_j||_H^2 (the quantity of Lemma 4 / Remark 1).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np

from pflbounds.problems.agent_ops import AgentMatrix, AgentOperator

__all__ = ["QuadraticFamily"]


def _as_float_array(name: str, value: object) -> np.ndarray:
    arr = np.array(value, dtype=np.float64)
    if not np.all(np.isfinite(arr)):
        raise ValueError(f"{name} must be finite")
    arr.setflags(write=False)
    return arr


@dataclass(frozen=True, eq=False)
class QuadraticFamily:
    """Quadratic family Q of even2022 (digest section 7, Appendix A).

    Parameters
    ----------
    h
        Diagonal of the shared Hessian H, shape (d,), all entries > 0.
    m
        Agent optima m_j = x_j^*, shape (N, d).
    s
        Gradient-noise variances per coordinate: shape (d,) shared by agents, or (N, d)
        per agent; scalars are broadcast to (d,). All entries >= 0.
    """

    h: np.ndarray
    m: np.ndarray
    s: np.ndarray

    def __post_init__(self) -> None:
        h = _as_float_array("h", self.h)
        m = _as_float_array("m", self.m)
        if h.ndim != 1 or h.size == 0:
            raise ValueError(f"h must be a non-empty vector of shape (d,), got shape {h.shape}")
        if np.any(h <= 0):
            raise ValueError(f"h must be > 0 (strong convexity), got min h = {h.min()}")
        d = h.shape[0]
        if m.ndim != 2 or m.shape[1] != d or m.shape[0] == 0:
            raise ValueError(f"m must have shape (N, {d}) with N >= 1, got shape {m.shape}")
        s = _as_float_array("s", self.s)
        if s.ndim == 0:
            s = _as_float_array("s", np.full(d, float(s)))
        if s.shape not in {(d,), (m.shape[0], d)}:
            raise ValueError(
                f"s must have shape ({d},) (shared) or ({m.shape[0]}, {d}) (per agent), "
                f"got shape {s.shape}"
            )
        if np.any(s < 0):
            raise ValueError(f"noise variances s must be >= 0, got min s = {s.min()}")
        object.__setattr__(self, "h", h)
        object.__setattr__(self, "m", m)
        object.__setattr__(self, "s", s)

    # ------------------------------------------------------------------ constructors
    @classmethod
    def random(
        cls,
        N: int,
        d: int,
        kappa: float,
        sigma2: float,
        spread: float,
        rng: np.random.Generator,
        mu: float = 1.0,
    ) -> QuadraticFamily:
        """Random instance: h log-spaced in [mu, kappa*mu] (exact mu, L), shared isotropic
        noise s_c = sigma2/d (so sigma2 is exact), optima m_j ~ N(0, spread^2 I_d)."""
        if N < 1 or d < 1:
            raise ValueError(f"need N >= 1 and d >= 1, got N={N}, d={d}")
        if kappa < 1:
            raise ValueError(f"kappa must be >= 1, got {kappa}")
        if sigma2 < 0 or spread < 0 or mu <= 0:
            raise ValueError("need sigma2 >= 0, spread >= 0 and mu > 0")
        if d == 1 and kappa != 1:
            raise ValueError(f"d = 1 allows only kappa = 1, got kappa = {kappa}")
        h = mu * np.geomspace(1.0, kappa, d)
        h[0], h[-1] = mu, mu * kappa  # exact extremes
        m = spread * rng.standard_normal((N, d))
        s = np.full(d, sigma2 / d)
        return cls(h=h, m=m, s=s)

    # ------------------------------------------------------------------ sizes, constants
    @property
    def N(self) -> int:
        """Number of agents."""
        return int(self.m.shape[0])

    @property
    def d(self) -> int:
        """Dimension."""
        return int(self.h.shape[0])

    @property
    def mu(self) -> float:
        """Certified strong-convexity constant mu = min h (Assumption 2)."""
        return float(self.h.min())

    @property
    def L(self) -> float:
        """Certified smoothness constant L = max h (Assumption 2)."""
        return float(self.h.max())

    @property
    def kappa(self) -> float:
        """Condition number kappa = L / mu (digest section 8 #1)."""
        return self.L / self.mu

    @property
    def per_agent_noise(self) -> bool:
        """True when the noise variances differ by agent (s of shape (N, d))."""
        return self.s.ndim == 2

    @cached_property
    def s_agents(self) -> np.ndarray:
        """Noise variances broadcast to shape (N, d)."""
        return np.broadcast_to(self.s, (self.N, self.d))

    @cached_property
    def sigma2_agents(self) -> np.ndarray:
        """E||g_j(x) - grad f_j(x)||^2 = sum_c s_jc, shape (N,) (exact, uniform in x)."""
        return self.s_agents.sum(axis=1)

    @property
    def sigma2(self) -> float:
        """Assumption 1 constant sigma^2 = max_j sum_c s_jc (exact for this noise model)."""
        return float(self.sigma2_agents.max())

    @property
    def x_star(self) -> np.ndarray:
        """Agent optima x_j^* = m_j, shape (N, d)."""
        return self.m

    @property
    def f_star(self) -> np.ndarray:
        """Optimal values f_j^* (all 0: the constant is dropped), shape (N,)."""
        return np.zeros(self.N)

    # ------------------------------------------------------------------ function values
    def excess(self, X: np.ndarray) -> np.ndarray:
        """f_j(x_j) - f_j^* = 1/2 ||x_j - m_j||_H^2 for X of shape (..., N, d) -> (..., N)
        (even2022 digest section 7, family Q)."""
        E = np.asarray(X, dtype=np.float64) - self.m
        return 0.5 * np.einsum("...c,c,...c->...", E, self.h, E)

    def f(self, X: np.ndarray) -> np.ndarray:
        """f_j(x_j) (constant dropped), same as :meth:`excess`."""
        return self.excess(X)

    def cross_excess(self, x: np.ndarray) -> np.ndarray:
        """f_i(x) - f_i^* for a single point x of shape (..., d), for every agent -> (..., N)."""
        E = np.asarray(x, dtype=np.float64)[..., None, :] - self.m
        return 0.5 * np.einsum("...c,c,...c->...", E, self.h, E)

    # ------------------------------------------------------------------ oracles
    def exact_grad(self, X: np.ndarray) -> np.ndarray:
        """grad f_j(x_j) = H (x_j - m_j) for X of shape (..., N, d) (even2022 digest section 7)."""
        return (np.asarray(X, dtype=np.float64) - self.m) * self.h

    def sample_noise(self, R: int, rng: np.random.Generator) -> np.ndarray:
        """One fresh noise vector per agent and replica: n ~ N(0, diag(s_j)), shape (R, N, d)."""
        return rng.standard_normal((R, self.N, self.d)) * np.sqrt(self.s)

    def grad(self, X: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        """Stochastic gradients g_j(x_j) = H(x_j - m_j) + n_j for X (R, N, d) -> (R, N, d)
        (even2022 digest section 7 and Appendix A).

        Draws exactly what :meth:`sample_noise` draws, so a run with Lambda = I through
        AFO reproduces local SGD bitwise.
        """
        X = np.asarray(X, dtype=np.float64)
        return self.exact_grad(X) + self.sample_noise(X.shape[0], rng)

    def mixed_grad(self, X: np.ndarray, Lam: AgentMatrix, noise: np.ndarray) -> np.ndarray:
        """AFO direction sum_j lambda_ij grad ell(x_i, xi_j) for every i (even2022 Eq. (2)).

        With g(x, xi_j) = H(x - m_j) + n_j this is H(r_i x_i - (Lam m)_i) + (Lam n)_i with
        r = Lam 1 (= 1 for row-stochastic Lam). One sample per agent j (``noise``, shape
        (R, N, d)) is reused for every i, as in the paper. Cost O(nnz(Lam) R d); no (N, N, d)
        array is formed.
        """
        op = Lam if isinstance(Lam, AgentOperator) else AgentOperator(Lam, self.N)
        r = op.row_sums()
        if op.batched:
            Lm = np.matmul(op.W, self.m)
            drift = r[..., None] * X - Lm
        else:
            Lm = op.apply_vec(self.m)
            drift = r[:, None] * X - Lm
        return drift * self.h + op.apply(noise)

    # ------------------------------------------------------------------ dissimilarities
    def bias_matrix(self) -> np.ndarray:
        """b_ij = ||H (m_i - m_j)|| = sup_x ||grad f_i(x) - grad f_j(x)|| (strong Assumption 3),
        shape (N, N)."""
        Hm = self.m * self.h
        G = Hm @ Hm.T
        sq = np.diag(G)
        b2 = np.maximum(sq[:, None] + sq[None, :] - 2.0 * G, 0.0)
        np.fill_diagonal(b2, 0.0)
        return np.sqrt(b2)

    def cross_gap(self) -> np.ndarray:
        """f_i(x_j^*) - f_i^* = 1/2 ||m_i - m_j||_H^2, shape (N, N) (Lemma 4 / Remark 1)."""
        sm = self.m * np.sqrt(self.h)
        G = sm @ sm.T
        sq = np.diag(G)
        c = np.maximum(0.5 * (sq[:, None] + sq[None, :] - 2.0 * G), 0.0)
        np.fill_diagonal(c, 0.0)
        return c

    def with_optima(self, m: np.ndarray) -> QuadraticFamily:
        """Same H and noise, other optima."""
        return QuadraticFamily(h=self.h, m=m, s=self.s)
