"""Per-agent l2-regularised logistic regression with reference optima and certified constants.

    f_i(x) = (1/n) sum_s log(1 + exp(-y_is z_is^T x)) + (reg/2) ||x||^2,   y in {-1, +1}.

The data of each agent are a fixed finite sample (Z_i, y_i); a "population" version is the same
object with a large n. The stochastic oracle draws one data point (or a mini-batch) uniformly
from the agent's sample, so f_i is exactly the expectation of the sampled loss.

Certified constants (DESIGN "The numerical layer"):
  * mu = reg (the logistic part is convex);
  * L_i = lambda_max(Z_i^T Z_i) / (4 n) + reg (since sigma'(t) <= 1/4), L = max_i L_i;
  * sigma2 = max_i (1/n) sum_s ||z_is||^2 >= E||grad ell - grad f_i||^2 for every x
    (|phi'| <= 1 for the logistic part; the regulariser is deterministic). An upper bound,
    uniform in x.

Reference optima (:meth:`LogisticFamily.solve_reference`): a damped Newton method batched over
agents (numpy), scipy (trust-exact Newton or L-BFGS) and cvxpy with Clarabel; every solve
reports the gradient norm at the returned point.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np
from scipy.special import expit

from pflbounds.problems.agent_ops import AgentMatrix, AgentOperator
from pflbounds.problems.glm import glm_mixed_grad

__all__ = ["LogisticFamily", "Reference"]


@dataclass(frozen=True)
class Reference:
    """A reference solution: optima (N, d), values (N,), gradient norms there (N,)."""

    x_star: np.ndarray
    f_star: np.ndarray
    grad_norm: np.ndarray
    method: str

    @property
    def accuracy(self) -> float:
        """max_i ||grad f_i(x_i^*)|| at the returned optima."""
        return float(self.grad_norm.max())


def _dphi(t: np.ndarray, y: np.ndarray) -> np.ndarray:
    """d/dt log(1 + exp(-y t)) = -y sigma(-y t)."""
    return -y * expit(-y * t)


@dataclass(frozen=True, eq=False)
class LogisticFamily:
    """Logistic-regression agents (shared engine for the later papers).

    Parameters
    ----------
    Z
        Features, shape (N, n, d).
    y
        Labels in {-1, +1}, shape (N, n).
    reg
        l2 regularisation > 0 (gives mu).
    """

    Z: np.ndarray
    y: np.ndarray
    reg: float

    def __post_init__(self) -> None:
        Z = np.array(self.Z, dtype=np.float64)
        y = np.array(self.y, dtype=np.float64)
        if Z.ndim != 3:
            raise ValueError(f"Z must have shape (N, n, d), got {Z.shape}")
        if y.shape != Z.shape[:2]:
            raise ValueError(f"y must have shape {Z.shape[:2]}, got {y.shape}")
        if not np.all(np.abs(y) == 1):
            raise ValueError("labels y must be -1 or +1")
        if not self.reg > 0:
            raise ValueError(f"reg must be > 0 for a certified mu, got {self.reg}")
        Z.setflags(write=False)
        y.setflags(write=False)
        object.__setattr__(self, "Z", Z)
        object.__setattr__(self, "y", y)

    @classmethod
    def random(
        cls,
        N: int,
        d: int,
        n: int,
        reg: float,
        spread: float,
        rng: np.random.Generator,
        scale: float = 2.0,
    ) -> LogisticFamily:
        """theta_0 ~ N(0, (scale^2/d) I), theta_i = theta_0 + spread N(0, I/d); z ~ N(0, I_d);
        P(y = 1 | z) = sigma(z^T theta_i)."""
        theta0 = scale * rng.standard_normal(d) / np.sqrt(d)
        theta = theta0 + spread * rng.standard_normal((N, d)) / np.sqrt(d)
        Z = rng.standard_normal((N, n, d))
        pr = expit(np.einsum("nsd,nd->ns", Z, theta))
        y = np.where(rng.random((N, n)) < pr, 1.0, -1.0)
        return cls(Z=Z, y=y, reg=reg)

    # ------------------------------------------------------------------ sizes, constants
    @property
    def N(self) -> int:
        """Number of agents."""
        return int(self.Z.shape[0])

    @property
    def n(self) -> int:
        """Samples per agent."""
        return int(self.Z.shape[1])

    @property
    def d(self) -> int:
        """Dimension."""
        return int(self.Z.shape[2])

    @property
    def mu(self) -> float:
        """Certified strong convexity mu = reg."""
        return float(self.reg)

    @cached_property
    def L_agents(self) -> np.ndarray:
        """L_i = lambda_max(Z_i^T Z_i)/(4n) + reg, shape (N,)."""
        G = np.einsum("nsc,nse->nce", self.Z, self.Z) / (4.0 * self.n)
        return np.linalg.eigvalsh(G)[:, -1] + self.reg

    @property
    def L(self) -> float:
        """Certified smoothness max_i L_i."""
        return float(self.L_agents.max())

    @property
    def kappa(self) -> float:
        """L / mu."""
        return self.L / self.mu

    @property
    def sigma2(self) -> float:
        """Certified bound max_i (1/n) sum_s ||z_is||^2 on the one-sample gradient variance."""
        return float(np.einsum("nsd,nsd->ns", self.Z, self.Z).mean(axis=1).max())

    # ------------------------------------------------------------------ exact functions
    def f(self, X: np.ndarray) -> np.ndarray:
        """f_i(x_i) for X of shape (..., N, d) -> (..., N)."""
        X = np.asarray(X, dtype=np.float64)
        t = np.einsum("nsd,...nd->...ns", self.Z, X)
        return np.logaddexp(0.0, -self.y * t).mean(axis=-1) + 0.5 * self.reg * np.einsum(
            "...d,...d->...", X, X
        )

    def exact_grad(self, X: np.ndarray) -> np.ndarray:
        """grad f_i(x_i), shape (..., N, d)."""
        X = np.asarray(X, dtype=np.float64)
        t = np.einsum("nsd,...nd->...ns", self.Z, X)
        w = _dphi(t, self.y) / self.n
        return np.einsum("...ns,nsd->...nd", w, self.Z) + self.reg * X

    def hessian(self, X: np.ndarray) -> np.ndarray:
        """Hessians of f_i at x_i, shape (..., N, d, d)."""
        X = np.asarray(X, dtype=np.float64)
        t = np.einsum("nsd,...nd->...ns", self.Z, X)
        sg = expit(t)
        w = sg * (1.0 - sg) / self.n
        H = np.einsum("...ns,nsc,nse->...nce", w, self.Z, self.Z)
        return H + self.reg * np.eye(self.d)

    # ------------------------------------------------------------------ reference optima
    def solve_reference(self, method: str = "newton", tol: float = 1e-12) -> Reference:
        """Reference optima x_i^* with their accuracy ||grad f_i(x_i^*)||.

        method: "newton" (damped Newton with Armijo backtracking, batched over agents),
        "scipy" (scipy.optimize trust-exact with the exact Hessian, per agent), "lbfgs"
        (scipy L-BFGS-B, per agent) or "cvxpy" (Clarabel, exponential cone, per agent).
        """
        if method == "newton":
            x = self._newton(tol)
        elif method in ("scipy", "lbfgs"):
            x = self._scipy(method, tol)
        elif method == "cvxpy":
            x = self._cvxpy()
        else:
            raise ValueError(f"unknown method {method!r}; use newton, scipy, lbfgs or cvxpy")
        g = self.exact_grad(x)
        return Reference(
            x_star=x, f_star=self.f(x), grad_norm=np.linalg.norm(g, axis=-1), method=method
        )

    def _newton(self, tol: float, max_iter: int = 100) -> np.ndarray:
        x = np.zeros((self.N, self.d))
        fx = self.f(x)
        for _ in range(max_iter):
            g = self.exact_grad(x)
            gn = np.linalg.norm(g, axis=-1)
            if gn.max() <= tol:
                break
            step = np.linalg.solve(self.hessian(x), g[..., None])[..., 0]
            dec = np.einsum("nd,nd->n", g, step)
            t = np.ones(self.N)
            active = gn > tol
            for _ls in range(60):
                xn = x - t[:, None] * step
                fn = self.f(xn)
                ok = (fn <= fx - 0.25 * t * dec) | ~active | (dec <= 1e-300)
                if ok.all():
                    break
                t = np.where(ok, t, 0.5 * t)
            upd = active[:, None]
            x = np.where(upd, xn, x)
            fx = np.where(active, fn, fx)
        return x

    def _scipy(self, method: str, tol: float) -> np.ndarray:
        from scipy.optimize import minimize

        out = np.zeros((self.N, self.d))
        for i in range(self.N):  # reference solve, not a hot path
            sub = LogisticFamily(Z=self.Z[i : i + 1], y=self.y[i : i + 1], reg=self.reg)

            def fun(v: np.ndarray, sub: LogisticFamily = sub) -> tuple[float, np.ndarray]:
                return float(sub.f(v[None])[0]), sub.exact_grad(v[None])[0]

            def hess(v: np.ndarray, sub: LogisticFamily = sub) -> np.ndarray:
                return sub.hessian(v[None])[0]

            if method == "scipy":
                res = minimize(
                    fun, np.zeros(self.d), jac=True, hess=hess, method="trust-exact",
                    options={"gtol": tol, "maxiter": 1000},
                )
            else:
                res = minimize(
                    fun, np.zeros(self.d), jac=True, method="L-BFGS-B",
                    options={"gtol": tol, "ftol": 0.0, "maxiter": 10_000, "maxcor": 30},
                )
            out[i] = res.x
        return out

    def _cvxpy(self) -> np.ndarray:
        import cvxpy as cp

        out = np.zeros((self.N, self.d))
        for i in range(self.N):  # reference solve, not a hot path
            xv = cp.Variable(self.d)
            margins = cp.multiply(-self.y[i], self.Z[i] @ xv)
            obj = cp.sum(cp.logistic(margins)) / self.n + 0.5 * self.reg * cp.sum_squares(xv)
            prob = cp.Problem(cp.Minimize(obj))
            prob.solve(solver=cp.CLARABEL)
            if xv.value is None:
                raise RuntimeError(f"cvxpy/Clarabel failed on agent {i}: {prob.status}")
            out[i] = xv.value
        return out

    @cached_property
    def reference(self) -> Reference:
        """Default reference solution (batched Newton, tol 1e-12)."""
        return self.solve_reference("newton")

    @property
    def x_star(self) -> np.ndarray:
        """Reference optima, shape (N, d)."""
        return self.reference.x_star

    @property
    def f_star(self) -> np.ndarray:
        """Reference optimal values, shape (N,)."""
        return self.reference.f_star

    def excess(self, X: np.ndarray) -> np.ndarray:
        """f_i(x_i) - f_i^* (reference optimum), (..., N, d) -> (..., N)."""
        return self.f(X) - self.f_star

    # ------------------------------------------------------------------ oracles
    def sample(self, R: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
        """One data point per agent and replica drawn uniformly from its sample:
        features (R, N, d), labels (R, N)."""
        idx = rng.integers(0, self.n, size=(R, self.N))
        agents = np.arange(self.N)
        return self.Z[agents, idx], self.y[agents, idx]

    def sample_noise(self, R: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
        """Per-agent samples used by :meth:`mixed_grad` (AFO)."""
        return self.sample(R, rng)

    def grad(self, X: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        """One-sample stochastic gradient -y sigma(-y z^T x) z + reg x, shape (R, N, d)."""
        X = np.asarray(X, dtype=np.float64)
        Zs, ys = self.sample(X.shape[0], rng)
        t = np.einsum("rnd,rnd->rn", Zs, X)
        return _dphi(t, ys)[..., None] * Zs + self.reg * X

    def mixed_grad(
        self, X: np.ndarray, Lam: AgentMatrix, noise: tuple[np.ndarray, np.ndarray]
    ) -> np.ndarray:
        """sum_j lambda_ij grad ell(x_i, xi_j) (even2022 Eq. (2)), one sample per agent j."""
        Zs, ys = noise
        op = Lam if isinstance(Lam, AgentOperator) else AgentOperator(Lam, self.N)
        r = op.row_sums()
        return glm_mixed_grad(X, op, Zs, ys, _dphi) + self.reg * r[..., None] * X
