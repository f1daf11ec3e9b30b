"""The lower-bound "Instance A" (self-consistent version of even2022 Theorem 1's construction).

Reference: even2022 Theorem 1 and Appendix B.2; the implementable version is digest
section 5.3 ([DERIVED] there), which fixes the normalisation issues of digest section 8 #4.

Target agent t (agent "1" of the paper, index ``target``). Given d >= 11, delta in (0, 1/4],
alpha in {-1, +1}^d and a bias matrix b (symmetric, zero diagonal, triangle inequality):

    delta_j = (delta - sqrt(d) b_{tj})^+,
    sample of agent j: k ~ Unif{1..d}, B ~ Ber(1/2 + delta_j alpha_k), xi = B e_k,
    ell(x, xi) = 1/2 ||x - xi||^2,   f_j(x) = 1/2 ||x - m_j||^2 + const,
    m_j = E xi_j = (1/d)(1/2 + delta_j alpha_k)_k,   mu = L = 1,
    Cov(xi_j) = diag(m_j) - m_j m_j^T,   sigma_j^2 = sum_k m_jk - ||m_j||^2 <= 1/2 + delta.

The instance's target precision is eps = delta^2 / (36 d) (valid for eps <= 1/(576 d)), and
N_eff = #{j : sqrt(d) b_tj < delta} = #{j : b_tj^2 < 36 eps} agents carry information on
alpha. The lower bound these give (Theorem 1, explicit form) is a paper's formula: it lives in
the catalog (``even2022.theorem1``) and is evaluated on an instance by
``pflbounds.papers.even2022.instances``.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np

from pflbounds.problems.agent_ops import AgentMatrix, AgentOperator
from pflbounds.problems.quadratic import QuadraticFamily

__all__ = ["HardInstanceA", "check_bias_matrix"]


def check_bias_matrix(b: np.ndarray, tol: float = 1e-12) -> None:
    """Raise ValueError unless b is symmetric, non-negative, zero on the diagonal and
    satisfies the triangle inequality b_ij <= b_ik + b_kj (Theorem 1 hypothesis)."""
    b = np.asarray(b, dtype=np.float64)
    if b.ndim != 2 or b.shape[0] != b.shape[1]:
        raise ValueError(f"b must be square, got shape {b.shape}")
    if np.any(b < 0):
        raise ValueError("b must be non-negative")
    if not np.allclose(b, b.T, rtol=0, atol=tol):
        raise ValueError("b must be symmetric")
    if np.any(np.diag(b) != 0):
        raise ValueError("b must have a zero diagonal")
    N = b.shape[0]
    worst = 0.0
    worst_at: tuple[int, int, int] | None = None
    chunk = max(1, 4_000_000 // max(N * N, 1))
    for k0 in range(0, N, chunk):  # chunks over the intermediate agent; validation only
        via = b[:, k0 : k0 + chunk, None] + b[None, k0 : k0 + chunk, :]  # (N, c, N)
        gap = b[:, None, :] - via
        g = float(gap.max())
        if g > worst:
            worst = g
            i, kk, j = np.unravel_index(int(gap.argmax()), gap.shape)
            worst_at = (int(i), int(k0 + kk), int(j))
    if worst > tol * max(1.0, float(b.max())):
        assert worst_at is not None
        i, k, j = worst_at
        raise ValueError(
            f"triangle inequality fails: b[{i},{j}]={b[i, j]} > b[{i},{k}] + b[{k},{j}]"
            f"={b[i, k] + b[k, j]}"
        )


@dataclass(frozen=True, eq=False)
class HardInstanceA:
    """Instance A of digest section 5.3 (even2022 Theorem 1 construction, made consistent).

    Parameters
    ----------
    d
        Dimension, >= 11.
    delta
        Signal level delta in (0, 1/4].
    b
        Bias matrix (N, N): symmetric, zero diagonal, triangle inequality.
    alpha
        Sign vector in {-1, +1}^d (any fixed one: the implemented methods treat coordinates
        symmetrically, digest section 5.3).
    target
        Index of the target agent ("agent 1" of the paper).
    """

    d: int
    delta: float
    b: np.ndarray
    alpha: np.ndarray
    target: int = 0

    def __post_init__(self) -> None:
        if int(self.d) != self.d or self.d < 11:
            raise ValueError(f"Instance A needs an integer d >= 11 (Fano step), got d={self.d}")
        if not (0 < self.delta <= 0.25):
            raise ValueError(f"Instance A needs 0 < delta <= 1/4 (C_1 bound), got {self.delta}")
        b = np.array(self.b, dtype=np.float64)
        check_bias_matrix(b)
        alpha = np.array(self.alpha, dtype=np.float64)
        if alpha.shape != (self.d,) or not np.all(np.abs(alpha) == 1):
            raise ValueError(f"alpha must be a vector of +-1 of shape ({self.d},)")
        if not (0 <= self.target < b.shape[0]):
            raise ValueError(f"target {self.target} out of range for N={b.shape[0]}")
        b.setflags(write=False)
        alpha.setflags(write=False)
        object.__setattr__(self, "b", b)
        object.__setattr__(self, "alpha", alpha)
        object.__setattr__(self, "d", int(self.d))

    @classmethod
    def two_level(
        cls, d: int, delta: float, n0: int, n1: int, beta: float, rng: np.random.Generator
    ) -> HardInstanceA:
        """n0 agents identical to the target (b = 0) and n1 agents at b_tj = beta; b_ij =
        |b_ti - b_tj| (triangle inequality holds). alpha uniform in {+-1}^d."""
        bt = np.concatenate([np.zeros(n0), np.full(n1, float(beta))])
        b = np.abs(bt[:, None] - bt[None, :])
        alpha = rng.choice([-1.0, 1.0], size=d)
        return cls(d=d, delta=delta, b=b, alpha=alpha, target=0)

    # ------------------------------------------------------------------ constants
    @property
    def N(self) -> int:
        """Number of agents."""
        return int(self.b.shape[0])

    @cached_property
    def delta_j(self) -> np.ndarray:
        """delta_j = (delta - sqrt(d) b_{tj})^+, shape (N,)."""
        return np.maximum(self.delta - np.sqrt(self.d) * self.b[self.target], 0.0)

    @cached_property
    def m(self) -> np.ndarray:
        """m_j = E xi_j = (1/d)(1/2 + delta_j alpha), shape (N, d); x_j^* = m_j."""
        return (0.5 + self.delta_j[:, None] * self.alpha) / self.d

    @property
    def x_star(self) -> np.ndarray:
        """Agent optima x_j^* = m_j."""
        return self.m

    @property
    def mu(self) -> float:
        """mu = 1."""
        return 1.0

    @property
    def L(self) -> float:
        """L = 1."""
        return 1.0

    @property
    def kappa(self) -> float:
        """kappa = 1."""
        return 1.0

    @cached_property
    def sigma2_agents(self) -> np.ndarray:
        """sigma_j^2 = E||xi_j - m_j||^2 = sum_k m_jk - ||m_j||^2, shape (N,)."""
        return self.m.sum(axis=1) - (self.m**2).sum(axis=1)

    @property
    def sigma2(self) -> float:
        """Assumption 1 constant max_j sigma_j^2 (exact, uniform in x; <= 1/2 + delta)."""
        return float(self.sigma2_agents.max())

    def noise_covariance(self) -> np.ndarray:
        """Cov(xi_j) = diag(m_j) - m_j m_j^T, shape (N, d, d)."""
        return np.einsum("jc,ce->jce", self.m, np.eye(self.d)) - np.einsum(
            "jc,je->jce", self.m, self.m
        )

    @property
    def eps_target(self) -> float:
        """Target precision eps = delta^2 / (36 d) (<= psi/9, digest section 5.3)."""
        return self.delta**2 / (36.0 * self.d)

    @property
    def psi_lower(self) -> float:
        """Separation psi >= delta^2 / (4 d) of the alpha-family (digest section 5.3)."""
        return self.delta**2 / (4.0 * self.d)

    @property
    def N_eff(self) -> int:
        """N_eff = #{j : sqrt(d) b_tj < delta}: agents that carry information on alpha."""
        return int(np.count_nonzero(self.delta_j > 0))

    def bias_matrix(self) -> np.ndarray:
        """The given b (an upper bound on d_H(D_i, D_j))."""
        return self.b

    def mean_distance_matrix(self) -> np.ndarray:
        """d_H(D_i, D_j) = ||m_i - m_j|| = |delta_i - delta_j| / sqrt(d) for H = 1-Lipschitz
        affine maps, shape (N, N)."""
        return np.abs(self.delta_j[:, None] - self.delta_j[None, :]) / np.sqrt(self.d)

    def cross_gap(self) -> np.ndarray:
        """f_i(x_j^*) - f_i^* = 1/2 ||m_i - m_j||^2 = (delta_i - delta_j)^2 / (2d)."""
        return 0.5 * self.mean_distance_matrix() ** 2

    def class_violation(self) -> float:
        """max over (i, j) of d_H(D_i, D_j) - b_ij and f_i(x_j^*) - f_i^* - b_ij^2/2 (class
        membership of digest section 5.3); <= 0 means the instance is in the class."""
        v1 = (self.mean_distance_matrix() - self.b).max()
        v2 = (self.cross_gap() - 0.5 * self.b**2).max()
        return float(max(v1, v2))

    # ------------------------------------------------------------------ oracles
    def excess(self, X: np.ndarray) -> np.ndarray:
        """f_j(x_j) - f_j^* = 1/2 ||x_j - m_j||^2, X (..., N, d) -> (..., N) (digest 5.3)."""
        E = np.asarray(X, dtype=np.float64) - self.m
        return 0.5 * np.einsum("...c,...c->...", E, E)

    def exact_grad(self, X: np.ndarray) -> np.ndarray:
        """grad f_j(x_j) = x_j - m_j."""
        return np.asarray(X, dtype=np.float64) - self.m

    def sample(self, R: int, rng: np.random.Generator) -> np.ndarray:
        """xi = B e_k per agent and replica, shape (R, N, d), with k ~ Unif{1..d} and
        B ~ Ber(1/2 + delta_j alpha_k)."""
        k = rng.integers(0, self.d, size=(R, self.N))
        p = 0.5 + self.delta_j[None, :] * self.alpha[k]
        B = rng.random((R, self.N)) < p
        xi = np.zeros((R, self.N, self.d))
        np.put_along_axis(xi, k[..., None], B[..., None].astype(np.float64), axis=2)
        return xi

    def sample_noise(self, R: int, rng: np.random.Generator) -> np.ndarray:
        """The per-agent samples xi (R, N, d) used by :meth:`mixed_grad` (AFO)."""
        return self.sample(R, rng)

    def grad(self, X: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        """Stochastic gradient grad ell(x_j, xi_j) = x_j - xi_j, shape (R, N, d) (digest 5.3)."""
        X = np.asarray(X, dtype=np.float64)
        return X - self.sample(X.shape[0], rng)

    def mixed_grad(self, X: np.ndarray, Lam: AgentMatrix, noise: np.ndarray) -> np.ndarray:
        """sum_j lambda_ij (x_i - xi_j) = r_i x_i - (Lam xi)_i (even2022 Eq. (2)), r = Lam 1."""
        op = Lam if isinstance(Lam, AgentOperator) else AgentOperator(Lam, self.N)
        r = op.row_sums()
        return r[..., None] * X - op.apply(noise)

    def as_quadratic(self) -> QuadraticFamily:
        """Quadratic family with h = 1, optima m and isotropic per-agent noise
        s_jc = sigma_j^2 / d. Exact for E[excess] of AFO/AFA: with H = I only the trace of each
        agent's noise covariance enters (see GaussianMeans.as_quadratic)."""
        s = np.repeat((self.sigma2_agents / self.d)[:, None], self.d, axis=1)
        return QuadraticFamily(h=np.ones(self.d), m=self.m, s=s)
