"""The testbeds of digest §6.0 that the shared problem families do not cover.

* TB-Q (isotropic clustered quadratics with additive noise) is
  :class:`pflbounds.problems.quadratic.QuadraticFamily` with h = a 1 (:func:`tb_q`).
* TB-A / TB-P: :class:`ClientQuadratics`, one Hessian per client, R_k(theta) = s (theta -
  theta_k^*)^T A_k (theta - theta_k^*) with s = 1/2 (TB-A) or s = 1 (the normalisation of
  Property 1, TB-P), additive Gaussian noise of variance sigma_k^2.
* TB-NC: :class:`CosineClusters`, R_k(theta) = sum_j 1/2 (theta_j - u_kj)^2 + rho (1 -
  cos(theta_j - u_kj)), non-convex for rho > 1, additive noise.
* TB-LSR: :class:`SyntheticLSR`, the least-squares stream of Appendix A: y = <x, theta^*_c>,
  x ~ N(0, I_d), batches of b samples, R_i(theta) = ||theta - theta^*_{c(i)}||^2
  (multiplicative noise).

Every class offers what All-for-one needs (``grad``, ``sample_noise``, ``mixed_grad``,
``excess``, ``exact_grad`` broadcasting over leading axes), its exact constants, and one
sample per client reused for every model (even2022's AFO convention).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np

from pflbounds.problems.agent_ops import AgentMatrix, AgentOperator
from pflbounds.problems.quadratic import QuadraticFamily


def _dense(Lam: AgentMatrix, N: int) -> np.ndarray:
    op = Lam if isinstance(Lam, AgentOperator) else AgentOperator(Lam, N)
    return op.dense()


def tb_q(labels: np.ndarray, centres: np.ndarray, a: float, sigma2: float | np.ndarray
         ) -> QuadraticFamily:
    """TB-Q (digest §6.0): R_k(theta) = a/2 ||theta - theta^{*,c(k)}||^2, g_k = grad R_k + sigma_k
    zeta with zeta ~ N(0, I_d/d): beta = mu = a, c_ik = 0, b_ik = a ||theta_i^* - theta_k^*||
    (tight). ``sigma2``: one value or one per client."""
    labels = np.asarray(labels)
    centres = np.asarray(centres, dtype=np.float64)
    d = centres.shape[1]
    s2 = np.broadcast_to(np.asarray(sigma2, dtype=np.float64), labels.shape)
    s = np.repeat(s2[:, None] / d, d, axis=1)
    return QuadraticFamily(h=np.full(d, float(a)), m=centres[labels], s=s)


class _AdditiveNoise:
    """g_k(theta) = grad R_k(theta) + n_k, n_k ~ N(0, (sigma_k^2/d) I_d), one draw per client
    shared by every model (AFO); subclasses give ``exact_grad``, ``sigma2``, ``N``, ``d``."""

    def sample_noise(self, R: int, rng: np.random.Generator) -> np.ndarray:
        return rng.standard_normal((R, self.N, self.d)) * np.sqrt(self.sigma2 / self.d)[:, None]

    def grad(self, X: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        X = np.asarray(X, dtype=np.float64)
        return self.exact_grad(X) + self.sample_noise(X.shape[0], rng)

    def mixed_grad(self, X: np.ndarray, Lam: AgentMatrix, noise: np.ndarray) -> np.ndarray:
        """sum_k lambda_ik (grad R_k(theta_i) + n_k), one noise draw per client k."""
        W = _dense(Lam, self.N)
        R = X.shape[0]
        CG = self.exact_grad(np.broadcast_to(X[:, :, None, :], (R, self.N, self.N, self.d)))
        Wb = np.broadcast_to(W, (R, self.N, self.N))
        return np.einsum("rik,rikd->rid", Wb, CG) + np.matmul(Wb, noise)


# ------------------------------------------------------------------------------ TB-A / TB-P
@dataclass(frozen=True, eq=False)
class ClientQuadratics(_AdditiveNoise):
    """R_k(theta) = scale (theta - m_k)^T A_k (theta - m_k), g_k = grad R_k + n_k with
    n_k ~ N(0, (sigma_k^2/d) I_d) (digest TB-A with scale 1/2, TB-P with scale 1 = the
    normalisation of Property 1, xi_k = -m_k)."""

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
        """(b, c) of Assumption 3 (Property 1 with this normalisation, digest §2):
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


# ------------------------------------------------------------------------------ TB-NC
@dataclass(frozen=True, eq=False)
class CosineClusters(_AdditiveNoise):
    """TB-NC (digest §6.0): R_k(theta) = sum_j [1/2 (theta_j - u_kj)^2 + rho (1 - cos(theta_j -
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


# ------------------------------------------------------------------------------ TB-LSR
@dataclass(frozen=True, eq=False)
class SyntheticLSR:
    """The synthetic least squares of Appendix A (digest §5.2, TB-LSR): client i observes
    y = <x, theta^*_i> with x ~ N(0, I_d) (H_i = I_d, no label noise), in batches of b;
    R_i(theta) = ||theta - theta_i^*||^2, beta = mu = 2, c = 0, b_ik = 2 ||theta_i^* -
    theta_k^*||. The stochastic gradient (2/b) sum_s x_s x_s^T (theta - theta_i^*) has variance
    4 (d + 1) ||theta - theta_i^*||^2/b: multiplicative noise (Assumption 2 only on bounded
    sets)."""

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
        W = np.broadcast_to(_dense(Lam, N), (R, N, N))
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
