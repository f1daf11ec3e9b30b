"""Clustered Gaussian mean estimation: the sub-Gaussian setting of even2022 Theorem 4.

Reference: even2022 Section 6, Theorem 4 and Corollary 2; digest sections 3.3, 4.11, 4.13
and predictions P12, P13.

    ell(x, xi) = 1/2 ||x - xi||^2,   xi_i ~ N(mu_{m(i)}, Sigma),   N = M C agents,

so f_i(x) = 1/2 ||x - mu_{m(i)}||^2 + const, mu = L = 1, x_i^* = mu_{m(i)} and the gradient
noise x - xi - grad f_i(x) = -(xi - mu_{m(i)}) ~ N(0, Sigma), i.e. sigma^2 = Tr Sigma exactly
(uniformly in x). The cluster means are written ``mus`` (M, d) to avoid the clash with the
strong-convexity constant mu (digest section 8 #21).

Sub-Gaussian constants (Assumption 4, digest section 8 #20 reading):
  nu2 = lambda_max(Sigma),   d_eff = Tr(Sigma) / nu2,
  Delta2 = min_{m != m'} ||mu_m - mu_m'||^2   (Assumption 5).

Bias estimation (Section 6 / Algorithm of digest section 3.3): muhat_i = mean of S fresh
samples of agent i, bhat_ij = ||muhat_i - muhat_j||, lambdahat_ij = 1{bhat_ij^2 <= u} / Nhat_i.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np

from pflbounds.problems.agent_ops import AgentMatrix, AgentOperator
from pflbounds.problems.clusters import cluster_centres, cluster_weights, threshold_weights
from pflbounds.problems.quadratic import QuadraticFamily

__all__ = ["GaussianMeans", "estimated_weights", "pairwise_sq_dists"]


def pairwise_sq_dists(P: np.ndarray) -> np.ndarray:
    """||p_i - p_j||^2 for P of shape (..., N, d) -> (..., N, N); exact zeros on the diagonal."""
    G = np.matmul(P, np.swapaxes(P, -1, -2))
    sq = np.einsum("...ic,...ic->...i", P, P)
    D2 = np.maximum(sq[..., :, None] + sq[..., None, :] - 2.0 * G, 0.0)
    idx = np.arange(P.shape[-2])
    D2[..., idx, idx] = 0.0
    return D2


def estimated_weights(bhat2: np.ndarray, u: float) -> np.ndarray:
    """Lambdahat with lambdahat_ij = 1{bhat_ij^2 <= u} / #{l : bhat_il^2 <= u}
    (even2022 Section 6 step 3; digest section 3.3). bhat2 of shape (..., N, N)."""
    if u < 0:
        raise ValueError(f"threshold u must be >= 0, got {u}")
    return threshold_weights(bhat2, u)


@dataclass(frozen=True, eq=False)
class GaussianMeans:
    """Clustered Gaussian mean estimation (even2022 Theorem 4 setting; digest P12, P13).

    Parameters
    ----------
    mus
        Cluster means, shape (M, d).
    C
        Cluster size; agent i belongs to cluster i // C, N = M C.
    Sigma
        Common sample covariance, shape (d, d), symmetric positive semi-definite; a vector
        (d,) is read as a diagonal.
    """

    mus: np.ndarray
    C: int
    Sigma: np.ndarray

    def __post_init__(self) -> None:
        mus = np.array(self.mus, dtype=np.float64)
        if mus.ndim != 2 or mus.shape[0] < 1:
            raise ValueError(f"mus must have shape (M, d), got {mus.shape}")
        d = mus.shape[1]
        Sigma = np.array(self.Sigma, dtype=np.float64)
        if Sigma.ndim == 1:
            Sigma = np.diag(Sigma)
        if Sigma.shape != (d, d):
            raise ValueError(f"Sigma must have shape ({d}, {d}), got {Sigma.shape}")
        if not np.allclose(Sigma, Sigma.T, rtol=0, atol=1e-12 * max(1.0, np.abs(Sigma).max())):
            raise ValueError("Sigma must be symmetric")
        ev = np.linalg.eigvalsh(Sigma)
        if ev.min() < -1e-12 * max(1.0, ev.max()):
            raise ValueError(f"Sigma must be positive semi-definite, min eigenvalue {ev.min()}")
        if int(self.C) != self.C or self.C < 1:
            raise ValueError(f"cluster size C must be a positive integer, got {self.C}")
        for name, arr in (("mus", mus), ("Sigma", Sigma)):
            if not np.all(np.isfinite(arr)):
                raise ValueError(f"{name} must be finite")
            arr.setflags(write=False)
        object.__setattr__(self, "mus", mus)
        object.__setattr__(self, "Sigma", Sigma)
        object.__setattr__(self, "C", int(self.C))

    @classmethod
    def random(
        cls,
        M: int,
        C: int,
        d: int,
        Delta2: float,
        Sigma: float | np.ndarray,
        rng: np.random.Generator,
    ) -> GaussianMeans:
        """M cluster means with min squared separation exactly Delta2 (see
        :func:`~pflbounds.problems.clusters.cluster_centres`); Sigma scalar (times I),
        (d,) diagonal or (d, d)."""
        mus = cluster_centres(M, d, float(np.sqrt(Delta2)), rng)
        Sig = np.asarray(Sigma, dtype=np.float64)
        if Sig.ndim == 0:
            Sig = float(Sig) * np.eye(d)
        return cls(mus=mus, C=C, Sigma=Sig)

    # ------------------------------------------------------------------ sizes, constants
    @property
    def M(self) -> int:
        """Number of clusters."""
        return int(self.mus.shape[0])

    @property
    def N(self) -> int:
        """Number of agents N = M C."""
        return self.M * self.C

    @property
    def d(self) -> int:
        """Dimension."""
        return int(self.mus.shape[1])

    @cached_property
    def labels(self) -> np.ndarray:
        """Cluster of each agent, shape (N,)."""
        return np.repeat(np.arange(self.M), self.C)

    @cached_property
    def m(self) -> np.ndarray:
        """Agent means E[xi_i] = mu_{m(i)} = x_i^*, shape (N, d)."""
        return self.mus[self.labels]

    @property
    def x_star(self) -> np.ndarray:
        """x_i^* = mu_{m(i)}, shape (N, d)."""
        return self.m

    @property
    def mu(self) -> float:
        """Strong convexity of f_i (= 1)."""
        return 1.0

    @property
    def L(self) -> float:
        """Smoothness of f_i (= 1)."""
        return 1.0

    @property
    def kappa(self) -> float:
        """kappa = L / mu = 1."""
        return 1.0

    @property
    def sigma2(self) -> float:
        """Assumption 1: E||grad ell(x, xi) - grad f(x)||^2 = Tr Sigma (exact, uniform in x)."""
        return float(np.trace(self.Sigma))

    @cached_property
    def _eig(self) -> tuple[np.ndarray, np.ndarray]:
        ev, V = np.linalg.eigh(self.Sigma)
        return np.maximum(ev, 0.0), V

    @property
    def nu2(self) -> float:
        """nu^2 = lambda_max(Sigma) (Assumption 4)."""
        return float(self._eig[0].max())

    @property
    def d_eff(self) -> float:
        """d_eff = Tr(Sigma) / nu^2 (digest section 8 #20 reading of Assumption 4)."""
        return self.sigma2 / self.nu2

    @property
    def Delta2(self) -> float:
        """Delta^2 = min_{m != m'} ||mu_m - mu_m'||^2 (Assumption 5); inf when M = 1."""
        if self.M == 1:
            return float("inf")
        D2 = pairwise_sq_dists(self.mus)
        np.fill_diagonal(D2, np.inf)
        return float(D2.min())

    @cached_property
    def _sqrt_Sigma(self) -> np.ndarray:
        ev, V = self._eig
        return V * np.sqrt(ev)  # B with B B^T = Sigma

    def mean_distance_matrix(self) -> np.ndarray:
        """||E xi_i - E xi_j||, shape (N, N): equals the uniform gradient gap b_ij here."""
        return np.sqrt(pairwise_sq_dists(self.m))

    def bias_matrix(self) -> np.ndarray:
        """b_ij = sup_x ||grad f_i(x) - grad f_j(x)|| = ||mu_{m(i)} - mu_{m(j)}||, (N, N)."""
        return self.mean_distance_matrix()

    def cross_gap(self) -> np.ndarray:
        """f_i(x_j^*) - f_i^* = 1/2 ||x_i^* - x_j^*||^2, shape (N, N)."""
        return 0.5 * pairwise_sq_dists(self.m)

    def true_weights(self, sparse: bool = False) -> np.ndarray:
        """The oracle cluster weights (block 1/C), Lambda_hat on the good event."""
        return cluster_weights(self.labels, sparse=sparse)

    # ------------------------------------------------------------------ oracles
    def excess(self, X: np.ndarray) -> np.ndarray:
        """f_i(x_i) - f_i^* = 1/2 ||x_i - mu_{m(i)}||^2, X (..., N, d) -> (..., N)
        (even2022 digest P13)."""
        E = np.asarray(X, dtype=np.float64) - self.m
        return 0.5 * np.einsum("...c,...c->...", E, E)

    def exact_grad(self, X: np.ndarray) -> np.ndarray:
        """grad f_i(x_i) = x_i - mu_{m(i)}."""
        return np.asarray(X, dtype=np.float64) - self.m

    def sample(self, R: int, rng: np.random.Generator) -> np.ndarray:
        """One sample xi_i ~ N(mu_{m(i)}, Sigma) per agent and replica, shape (R, N, d)."""
        z = rng.standard_normal((R, self.N, self.d))
        return self.m + z @ self._sqrt_Sigma.T

    def sample_noise(self, R: int, rng: np.random.Generator) -> np.ndarray:
        """The per-agent samples xi (R, N, d) used by :meth:`mixed_grad` (AFO)."""
        return self.sample(R, rng)

    def grad(self, X: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        """Stochastic gradient grad ell(x_i, xi_i) = x_i - xi_i, shape (R, N, d) (digest P13)."""
        X = np.asarray(X, dtype=np.float64)
        return X - self.sample(X.shape[0], rng)

    def mixed_grad(self, X: np.ndarray, Lam: AgentMatrix, noise: np.ndarray) -> np.ndarray:
        """sum_j lambda_ij (x_i - xi_j) = r_i x_i - (Lam xi)_i (even2022 Eq. (2)), r = Lam 1."""
        op = Lam if isinstance(Lam, AgentOperator) else AgentOperator(Lam, self.N)
        r = op.row_sums()
        return r[..., None] * X - op.apply(noise)

    # ------------------------------------------------------------------ bias estimation
    def sample_means(self, S: int, R: int, rng: np.random.Generator) -> np.ndarray:
        """muhat_i = (1/S) sum_s xi_{i,s}, shape (R, N, d).

        Drawn directly from its exact law N(mu_{m(i)}, Sigma / S) (one Gaussian draw per agent
        instead of S), which has the same distribution as the mean of S fresh samples.
        """
        if S < 1:
            raise ValueError(f"need S >= 1 estimation samples, got {S}")
        z = rng.standard_normal((R, self.N, self.d))
        return self.m + (z @ self._sqrt_Sigma.T) / np.sqrt(S)

    def estimate_biases(self, S: int, R: int, rng: np.random.Generator) -> np.ndarray:
        """bhat_ij^2 = ||muhat_i - muhat_j||^2 from S samples per agent, shape (R, N, N)
        (even2022 Section 6 step 2)."""
        return pairwise_sq_dists(self.sample_means(S, R, rng))

    @staticmethod
    def estimated_weights(bhat2: np.ndarray, u: float) -> np.ndarray:
        """Lambdahat (R, N, N) from bhat^2 (see module-level :func:`estimated_weights`)."""
        return estimated_weights(bhat2, u)

    # ------------------------------------------------------------------ exact engine view
    def as_quadratic(self) -> QuadraticFamily:
        """The quadratic family Q with the same first and second moments of the excess.

        h = 1, optima m, isotropic noise s_c = Tr(Sigma) / d. Reduction: with H = I every
        coordinate of the linear recursions (AFO, AFA) is propagated by the same matrix, so
        E[f_i(x_i^k) - f_i^*] = 1/2 sum_c (mean_c^2 + Var_c) depends on the noise covariance
        only through sum_c Var_c, which is linear in the per-agent covariance and sees only
        its trace. Cross-coordinate correlations of a non-diagonal Sigma never enter. The
        reduction is exact for expectations of the excess, not for its distribution.
        """
        return QuadraticFamily(h=np.ones(self.d), m=self.m, s=np.full(self.d, self.sigma2 / self.d))
