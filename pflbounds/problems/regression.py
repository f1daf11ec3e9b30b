"""Random-design linear regression with sign labels (even2022 Section 6 and Appendix A).

    ell(x, (a, b)) = 1/2 (a^T x - b)^2,   a ~ N(0, Sigma_i),
    b = sign(a^T u) * e,   e = -1 with probability p (label flip), +1 otherwise.

Exact quantities (digest section 6, "Exact quantities for regeneration", [DERIVED]); with
s_i^2 = u^T Sigma_i u:

    E[a a^T] = Sigma_i,   E[a b] = (1 - 2p) sqrt(2/pi) Sigma_i u / s_i,
    x_i^* = (1 - 2p) sqrt(2/pi) u / s_i,
    f_i^* = 1/2 (1 - (1 - 2p)^2 2/pi),
    f_i(x) - f_i^* = 1/2 (x - x_i^*)^T Sigma_i (x - x_i^*).

Constants: f_i is lambda_min(Sigma_i)-strongly convex and lambda_max(Sigma_i)-smooth.
Assumption 1 FAILS globally here (digest section 8 #25): the gradient-noise variance
E||g(x) - grad f(x)||^2 grows like ||x||^2 (see :meth:`LinearRegressionFamily.noise_variance`,
exact); a sigma^2 exists only on a bounded domain. Assumption 4 fails too (a a^T is
sub-exponential, not sub-Gaussian).

Constructors: :meth:`cluster_case` (Figure 1(a): Sigma_m = I/sqrt(d) + e_m e_m^T) and
:meth:`iid_case` (Figure 1(b): Sigma_i = Diag(u^{(i)})/sqrt(d), u^{(i)} i.i.d. uniform).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np

from pflbounds.problems.agent_ops import AgentMatrix, AgentOperator
from pflbounds.problems.glm import glm_mixed_grad

__all__ = ["LinearRegressionFamily", "least_squares_reference"]

_C2PI = np.sqrt(2.0 / np.pi)


@dataclass(frozen=True, eq=False)
class LinearRegressionFamily:
    """Per-agent random-design regression of even2022 Section 6 / Appendix A.

    Parameters
    ----------
    Sigmas
        Feature covariances: (N, d, d) symmetric positive definite, or (N, d) diagonals.
    u
        Label direction, shape (d,), non-zero.
    p
        Label-flip probability in [0, 1/2).
    """

    Sigmas: np.ndarray
    u: np.ndarray
    p: float = 0.2

    def __post_init__(self) -> None:
        S = np.array(self.Sigmas, dtype=np.float64)
        u = np.array(self.u, dtype=np.float64)
        if S.ndim not in (2, 3):
            raise ValueError(f"Sigmas must have shape (N, d, d) or (N, d), got {S.shape}")
        d = S.shape[-1]
        if S.ndim == 3 and S.shape[1] != d:
            raise ValueError(f"Sigmas must have shape (N, d, d), got {S.shape}")
        if u.shape != (d,) or not np.any(u):
            raise ValueError(f"u must be a non-zero vector of shape ({d},)")
        if not (0 <= self.p < 0.5):
            raise ValueError(f"flip probability p must lie in [0, 1/2), got {self.p}")
        if S.ndim == 3:
            if not np.allclose(S, np.swapaxes(S, 1, 2), rtol=0, atol=1e-12):
                raise ValueError("every Sigma_i must be symmetric")
            ev = np.linalg.eigvalsh(S)
        else:
            ev = np.sort(S, axis=1)
        if ev.min() <= 0:
            raise ValueError(f"every Sigma_i must be positive definite (min eigenvalue {ev.min()})")
        S.setflags(write=False)
        u.setflags(write=False)
        object.__setattr__(self, "Sigmas", S)
        object.__setattr__(self, "u", u)
        object.__setattr__(self, "_eigs", ev)

    # ------------------------------------------------------------------ constructors
    @classmethod
    def cluster_case(
        cls,
        N: int,
        d: int,
        M: int,
        rng: np.random.Generator,
        p: float = 0.2,
        u: np.ndarray | None = None,
    ) -> tuple[LinearRegressionFamily, np.ndarray]:
        """Figure 1(a): M clusters of size N/M, Sigma_m = I_d/sqrt(d) + e_m e_m^T; u ~ N(0, I_d)
        unless given. Returns (family, labels)."""
        if M > d or N % M:
            raise ValueError(f"need M <= d and M | N, got N={N}, d={d}, M={M}")
        labels = np.repeat(np.arange(M), N // M)
        diag = np.full((N, d), 1.0 / np.sqrt(d))
        diag[np.arange(N), labels] += 1.0
        uu = rng.standard_normal(d) if u is None else np.asarray(u, dtype=np.float64)
        return cls(Sigmas=diag, u=uu, p=p), labels

    @classmethod
    def iid_case(
        cls, N: int, d: int, rng: np.random.Generator, p: float = 0.2, u: np.ndarray | None = None
    ) -> LinearRegressionFamily:
        """Figure 1(b): Sigma_i = Diag(u_1^{(i)}, ..., u_d^{(i)})/sqrt(d), u^{(i)} i.i.d.
        Uniform[0, 1] (digest section 8 #26 reading); u ~ N(0, I_d) unless given."""
        diag = rng.random((N, d)) / np.sqrt(d)
        uu = rng.standard_normal(d) if u is None else np.asarray(u, dtype=np.float64)
        return cls(Sigmas=diag, u=uu, p=p)

    # ------------------------------------------------------------------ sizes, constants
    @property
    def diagonal(self) -> bool:
        """True when the covariances are stored as diagonals (N, d)."""
        return self.Sigmas.ndim == 2

    @property
    def N(self) -> int:
        """Number of agents."""
        return int(self.Sigmas.shape[0])

    @property
    def d(self) -> int:
        """Dimension."""
        return int(self.Sigmas.shape[-1])

    @cached_property
    def Sigma_full(self) -> np.ndarray:
        """Covariances as (N, d, d)."""
        if self.diagonal:
            return np.einsum("nc,ce->nce", self.Sigmas, np.eye(self.d))
        return np.array(self.Sigmas)

    @cached_property
    def _sqrt(self) -> np.ndarray:
        if self.diagonal:
            return np.sqrt(self.Sigmas)
        return np.linalg.cholesky(self.Sigmas)

    @property
    def mu_agents(self) -> np.ndarray:
        """lambda_min(Sigma_i), shape (N,)."""
        return self._eigs[:, 0]  # type: ignore[attr-defined]

    @property
    def L_agents(self) -> np.ndarray:
        """lambda_max(Sigma_i), shape (N,)."""
        return self._eigs[:, -1]  # type: ignore[attr-defined]

    @property
    def mu(self) -> float:
        """Certified strong convexity min_i lambda_min(Sigma_i)."""
        return float(self.mu_agents.min())

    @property
    def L(self) -> float:
        """Certified smoothness max_i lambda_max(Sigma_i)."""
        return float(self.L_agents.max())

    @property
    def kappa(self) -> float:
        """L / mu."""
        return self.L / self.mu

    @property
    def sigma2(self) -> float:
        """Not defined: Assumption 1 fails globally here (digest section 8 #25).

        Raises AttributeError (so ``hasattr(problem, "sigma2")`` is False); the exact
        variance at given points is :meth:`noise_variance`.
        """
        raise AttributeError(
            "sigma2 is undefined for random-design least squares: the gradient-noise variance "
            "grows like ||x||^2 (Assumption 1 fails globally, even2022 digest section 8 #25); "
            "use noise_variance(X) for the exact value at given points"
        )

    def _Sigma_apply(self, V: np.ndarray) -> np.ndarray:
        """Sigma_i v_i for V of shape (..., N, d)."""
        if self.diagonal:
            return self.Sigmas * V
        return np.einsum("nce,...ne->...nc", self.Sigmas, V)

    @cached_property
    def s_u(self) -> np.ndarray:
        """s_i = sqrt(u^T Sigma_i u), shape (N,)."""
        uu = np.broadcast_to(self.u, (self.N, self.d))
        return np.sqrt(np.einsum("nc,nc->n", uu, self._Sigma_apply(uu)))

    @cached_property
    def x_star(self) -> np.ndarray:
        """x_i^* = (1 - 2p) sqrt(2/pi) u / s_i (digest section 6), shape (N, d)."""
        return ((1 - 2 * self.p) * _C2PI / self.s_u)[:, None] * self.u

    @property
    def f_star(self) -> np.ndarray:
        """f_i^* = 1/2 (1 - (1 - 2p)^2 2/pi) for every agent, shape (N,)."""
        return np.full(self.N, 0.5 * (1.0 - (1 - 2 * self.p) ** 2 * 2.0 / np.pi))

    @cached_property
    def cross_moment(self) -> np.ndarray:
        """E[a b] = (1 - 2p) sqrt(2/pi) Sigma_i u / s_i, shape (N, d)."""
        return self._Sigma_apply(self.x_star)

    # ------------------------------------------------------------------ function values
    def excess(self, X: np.ndarray) -> np.ndarray:
        """f_i(x_i) - f_i^* = 1/2 (x_i - x_i^*)^T Sigma_i (x_i - x_i^*), (..., N, d) -> (..., N)."""
        E = np.asarray(X, dtype=np.float64) - self.x_star
        return 0.5 * np.einsum("...c,...c->...", E, self._Sigma_apply(E))

    def f(self, X: np.ndarray) -> np.ndarray:
        """f_i(x_i) = f_i^* + excess."""
        return self.excess(X) + self.f_star

    def exact_grad(self, X: np.ndarray) -> np.ndarray:
        """grad f_i(x_i) = Sigma_i x_i - E[a b] (digest section 6, exact quantities)."""
        return self._Sigma_apply(np.asarray(X, dtype=np.float64)) - self.cross_moment

    def noise_variance(self, X: np.ndarray) -> np.ndarray:
        """Exact E||g_i(x) - grad f_i(x)||^2 at x = x_i, X (..., N, d) -> (..., N).

        With t = a^T u, v = Sigma u / s^2, Sigma_r = Sigma - Sigma u u^T Sigma / s^2:
        E[(a^T x)^2 ||a||^2] = (x^T Sigma x) Tr Sigma + 2 ||Sigma x||^2 (Isserlis),
        E[(a^T x) sign(t) ||a||^2] = sqrt(2/pi) [2 s^3 (v^T x)||v||^2 + s((v^T x) Tr Sigma_r
        + 2 x^T Sigma_r v)], E[b^2 ||a||^2] = Tr Sigma. Unbounded in x: Assumption 1 fails.
        """
        X = np.asarray(X, dtype=np.float64)
        Sf = self.Sigma_full
        trS = np.trace(Sf, axis1=1, axis2=2)
        Sx = self._Sigma_apply(X)
        xSx = np.einsum("...c,...c->...", X, Sx)
        quad = xSx * trS + 2.0 * np.einsum("...c,...c->...", Sx, Sx)
        s = self.s_u
        Su = self._Sigma_apply(np.broadcast_to(self.u, (self.N, self.d)))
        v = Su / (s**2)[:, None]
        Sr = Sf - np.einsum("nc,ne->nce", Su, Su) / (s**2)[:, None, None]
        vx = np.einsum("nc,...nc->...n", v, X)
        vv = np.einsum("nc,nc->n", v, v)
        trSr = np.trace(Sr, axis1=1, axis2=2)
        xSrv = np.einsum("...nc,nce,ne->...n", X, Sr, v)
        cross = _C2PI * (2 * s**3 * vx * vv + s * (vx * trSr + 2 * xSrv))
        second = quad - 2.0 * (1 - 2 * self.p) * cross + trS
        g = self.exact_grad(X)
        return second - np.einsum("...c,...c->...", g, g)

    # ------------------------------------------------------------------ oracles
    def sample(self, R: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
        """One sample (a, b) per agent and replica: A of shape (R, N, d), labels (R, N)."""
        z = rng.standard_normal((R, self.N, self.d))
        if self.diagonal:
            A = z * self._sqrt
        else:
            A = np.einsum("nce,rne->rnc", self._sqrt, z)
        t = A @ self.u
        flip = rng.random((R, self.N)) < self.p
        bl = np.where(t >= 0, 1.0, -1.0) * np.where(flip, -1.0, 1.0)
        return A, bl

    def sample_noise(self, R: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
        """Per-agent samples (A, b) used by :meth:`mixed_grad` (AFO)."""
        return self.sample(R, rng)

    def grad(self, X: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        """Stochastic gradient a_i (a_i^T x_i - b_i), shape (R, N, d) (even2022 Section 6)."""
        X = np.asarray(X, dtype=np.float64)
        A, bl = self.sample(X.shape[0], rng)
        resid = np.einsum("rnd,rnd->rn", A, X) - bl
        return A * resid[..., None]

    def mixed_grad(
        self, X: np.ndarray, Lam: AgentMatrix, noise: tuple[np.ndarray, np.ndarray]
    ) -> np.ndarray:
        """sum_j lambda_ij a_j (a_j^T x_i - b_j) (even2022 Eq. (2)), one sample per agent j."""
        A, bl = noise
        op = Lam if isinstance(Lam, AgentOperator) else AgentOperator(Lam, self.N)
        return glm_mixed_grad(X, op, A, bl, lambda t, y: t - y)


    # ------------------------------------------------------------------ distances
    def covariance_sq_distances(self) -> np.ndarray:
        """||Sigma_i - Sigma_j||_F^2, shape (N, N): the squared distances between the agents'
        feature covariances (even2022 Appendix A uses b_ij = ||Sigma_i - Sigma_j||)."""
        if self.diagonal:
            D = self.Sigmas
        else:
            D = self.Sigmas.reshape(self.N, -1)
        sq = np.einsum("nc,nc->n", D, D)
        D2 = np.maximum(sq[:, None] + sq[None, :] - 2.0 * (D @ D.T), 0.0)
        np.fill_diagonal(D2, 0.0)
        return D2

    def estimate_biases(self, S: int, R: int, rng: np.random.Generator) -> np.ndarray:
        """bhat_ij^2 = ||muhat_i - muhat_j||^2, shape (R, N, N), where muhat_i is the mean of
        the stacked sample xi = (vec(a a^T), a b) over S fresh samples of agent i (even2022
        Section 6 estimator, as used in Appendix A).

        Computed from inner products without forming the d^2 features:
        <muhat_i, muhat_j> = (1/S^2) sum_{s,t} (a_is^T a_jt)^2 + v_i^T v_j with
        v_i = (1/S) sum_s a_is b_is (S(S+1)/2 products of (N, d) blocks); when that costs more
        than the d^2 features (S(S+1)/2 > d), from the features. The generator is consumed as
        S calls of :meth:`sample`.
        """
        if int(S) != S or S < 1:
            raise ValueError(f"need an integer S >= 1 of estimation samples, got {S}")
        S = int(S)
        draws = [self.sample(R, rng) for _ in range(S)]
        A = [a for a, _ in draws]  # S arrays (R, N, d)
        v = sum(a * b[..., None] for a, b in draws) / S  # (R, N, d)
        gram = np.matmul(v, np.swapaxes(v, 1, 2))
        if S * (S + 1) // 2 <= self.d:
            # few samples: S(S+1)/2 products of (N, d) blocks cost less than d^2 features
            for s in range(S):
                for t in range(s, S):
                    G2 = np.matmul(A[s], np.swapaxes(A[t], 1, 2)) ** 2
                    gram += (G2 if s == t else G2 + np.swapaxes(G2, 1, 2)) / S**2
        else:
            aa = sum(np.einsum("rnc,rne->rnce", a, a) for a in A) / S  # (R, N, d, d)
            flat = aa.reshape(R, self.N, -1)
            gram += np.matmul(flat, np.swapaxes(flat, 1, 2))
        sq = np.einsum("rnn->rn", gram)
        D2 = np.maximum(sq[:, :, None] + sq[:, None, :] - 2.0 * gram, 0.0)
        idx = np.arange(self.N)
        D2[:, idx, idx] = 0.0
        return D2


def least_squares_reference(
    A: np.ndarray, b: np.ndarray, solver: str = "lstsq"
) -> tuple[np.ndarray, float]:
    """argmin_x (1/2n) ||A x - b||^2 for A (n, d), with its accuracy.

    ``solver``: "lstsq" (numpy SVD) or "cvxpy" (Clarabel). Returns (x, ||grad||) where the
    gradient A^T(Ax - b)/n of the empirical objective is evaluated at the returned x.
    """
    A = np.asarray(A, dtype=np.float64)
    b = np.asarray(b, dtype=np.float64)
    n = A.shape[0]
    if solver == "lstsq":
        x = np.linalg.lstsq(A, b, rcond=None)[0]
    elif solver == "cvxpy":
        import cvxpy as cp

        xv = cp.Variable(A.shape[1])
        prob = cp.Problem(cp.Minimize(cp.sum_squares(A @ xv - b) / (2 * n)))
        prob.solve(solver=cp.CLARABEL)
        if xv.value is None:
            raise RuntimeError(f"cvxpy/Clarabel failed: status {prob.status}")
        x = np.asarray(xv.value, dtype=np.float64)
    else:
        raise ValueError(f"unknown solver {solver!r}; use 'lstsq' or 'cvxpy'")
    grad = A.T @ (A @ x - b) / n
    return x, float(np.linalg.norm(grad))
