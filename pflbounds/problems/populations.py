"""Synthetic client populations for hypernetwork methods (PeFLL digest §6.1).

* :class:`LowRankRegression` (population A): z_i ~ N(0, I_q), w_i = W* z_i (q < p), x ~ N(0,
  I_p), y = w_i^T x + e, e ~ N(0, s^2); per-point features psi(x, y) = y x (E[y x] = w_i);
  linear-linear networks theta = H A psibar_i. Exact F, grad F (closed form, numpy), the
  constants L_1, L_2, L_3 of the digest's Testbed A table, the variances of descriptors from
  batches of b < m points (exact over the batch draw), and F_* from the nuclear-norm program
  (cvxpy + Clarabel).
* :class:`LabelShift` (population C): C Gaussian classes x | y = c ~ N(mu_c, I_p), client
  label proportions pi_i ~ Dir(alpha 1_C), m training points per client; the risk of a
  classifier on client i is sum_c pi_ic e_c(theta_i) with e_c estimated on held-out points of
  class c (shared by all clients), with its standard error.

Everything is numpy; the JAX engines take the arrays as they are.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np

__all__ = ["LabelShift", "LabelShiftClients", "LowRankInstance", "LowRankRegression",
           "label_shift_risk", "nuclear_lower_bound"]


# ------------------------------------------------------------------------------ population A
@dataclass(frozen=True, eq=False)
class LowRankInstance:
    """n clients of population A: ``X`` (n, m, p), ``Y`` (n, m), ``W`` (n, p) true parameters,
    ``psi`` (n, m, p) features y x, and the objective's weights (f_i carries the 1/2 of the
    digest: f_i(theta) = ||X_i theta - y_i||^2/(2m) + lam_theta ||theta||^2)."""

    X: np.ndarray
    Y: np.ndarray
    W: np.ndarray
    lam_h: float
    lam_v: float
    lam_theta: float

    @property
    def n(self) -> int:
        return self.X.shape[0]

    @property
    def m(self) -> int:
        return self.X.shape[1]

    @property
    def p(self) -> int:
        return self.X.shape[2]

    @cached_property
    def psi(self) -> np.ndarray:
        return self.Y[..., None] * self.X

    @cached_property
    def psibar(self) -> np.ndarray:
        """Full-data mean features psibar_i (n, p)."""
        return self.psi.mean(axis=1)

    def thetas(self, H: np.ndarray, A: np.ndarray, psibar: np.ndarray | None = None
               ) -> np.ndarray:
        """theta_i = H A psibar_i (n, p)."""
        pb = self.psibar if psibar is None else psibar
        return pb @ A.T @ H.T

    def client_grads(self, thetas: np.ndarray) -> np.ndarray:
        """G_i = grad f_i(theta_i) = X_i^T (X_i theta_i - y_i)/m + 2 lam_theta theta_i."""
        r = np.einsum("imp,ip->im", self.X, thetas) - self.Y
        return np.einsum("imp,im->ip", self.X, r) / self.m + 2 * self.lam_theta * thetas

    def objective(self, H: np.ndarray, A: np.ndarray) -> float:
        """F(H, A) = (1/n) sum_i f_i(H A psibar_i) + lam_h ||H||^2 + lam_v ||A||^2."""
        th = self.thetas(H, A)
        r = np.einsum("imp,ip->im", self.X, th) - self.Y
        fi = 0.5 * (r**2).mean(axis=1) + self.lam_theta * (th**2).sum(axis=1)
        return float(fi.mean() + self.lam_h * (H**2).sum() + self.lam_v * (A**2).sum())

    def gradient(self, H: np.ndarray, A: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Closed-form grad F (digest §6.1): grad_H = (1/n) sum_i G_i v_i^T + 2 lam_h H,
        grad_A = (1/n) sum_i (H^T G_i) psibar_i^T + 2 lam_v A, v_i = A psibar_i."""
        G = self.client_grads(self.thetas(H, A))
        V = self.psibar @ A.T
        gH = G.T @ V / self.n + 2 * self.lam_h * H
        gA = (G @ H).T @ self.psibar / self.n + 2 * self.lam_v * A
        return gH, gA

    @cached_property
    def L1(self) -> float:
        """L_1 = max_i lambda_max(X_i^T X_i/m) + 2 lam_theta (exact)."""
        C = np.einsum("imp,imq->ipq", self.X, self.X) / self.m
        return float(np.linalg.eigvalsh(C)[:, -1].max() + 2 * self.lam_theta)

    @cached_property
    def L2(self) -> float:
        """L_2 = max_i ||psibar_i|| (the Jacobian of (H, A) -> H A psibar is
        ||psibar||-Lipschitz; full-data descriptors)."""
        return float(np.linalg.norm(self.psibar, axis=1).max())

    @property
    def L3(self) -> float:
        """L_3 = 2 max(lam_h, lam_v), the smoothness of f = lam_h||H||^2 + lam_v||A||^2."""
        return 2 * max(self.lam_h, self.lam_v)

    def batch_moments(self, b: int) -> np.ndarray:
        """E delta delta^T for delta = psibar_B - psibar_S, B of b points drawn without
        replacement from the client's m: (1/b) (m - b)/(m - 1) S_i, (n, p, p), S_i the
        client's covariance of psi (divisor m)."""
        m = self.m
        dev = self.psi - self.psibar[:, None, :]
        S = np.einsum("imp,imq->ipq", dev, dev) / m
        return S * (m - b) / (b * (m - 1))

    def batch_variances(self, b: int, H: np.ndarray, A: np.ndarray) -> tuple[float, float]:
        """The largest variances of batch descriptors, exact over the batch draw, over the
        clients and the networks (H, A) of shapes (E, p, l), (E, l, p): b E_B||J(B) -
        J(S)||_op^2 and b E_B||H A (psibar_B - psibar_S)||^2, J(B) the Jacobian of (H, A) ->
        H A psibar_B. With delta = psibar_B - psibar_S, ||J(delta)||_op^2 = ||A delta||^2 +
        ||delta||^2 ||H||_2^2 (digest §6.1)."""
        C = self.batch_moments(b)  # (n, p, p)
        AtA = np.einsum("elp,elq->epq", A, A)
        M = np.einsum("epl,elq->epq", H, A)
        MtM = np.einsum("erp,erq->epq", M, M)
        h2 = np.linalg.norm(H, ord=2, axis=(1, 2)) ** 2  # ||H||_2^2 per network
        trC = np.trace(C, axis1=1, axis2=2)
        jac = np.einsum("epq,iqp->ei", AtA, C) + h2[:, None] * trC[None, :]
        out = np.einsum("epq,iqp->ei", MtM, C)
        return float(b * jac.max()), float(b * out.max())

    def batch_jacobian_norm(self, b: int, H: np.ndarray, A: np.ndarray,
                            rng: np.random.Generator, draws: int = 16) -> float:
        """max ||J(B_i, eta)||_op = sqrt(||A psibar_B||^2 + ||psibar_B||^2 ||H||_2^2) over the
        networks (H, A), the clients' full data and ``draws`` batches of b points per client
        drawn without replacement (a sup estimate from below)."""
        idx = np.argsort(rng.random((draws, self.n, self.m)), axis=2)[..., :b]
        pb = np.take_along_axis(self.psi[None], idx[..., None], axis=2).mean(axis=2)
        pbs = np.concatenate([self.psibar[None], pb]).reshape(-1, self.p)  # (draws*n, p)
        h2 = np.linalg.norm(H, ord=2, axis=(1, 2)) ** 2
        Av = np.einsum("elp,jp->ejl", A, pbs)
        J2 = np.sum(Av**2, axis=2) + h2[:, None] * np.sum(pbs**2, axis=1)[None]
        return float(np.sqrt(J2.max()))

    @cached_property
    def F_star(self) -> tuple[float, float]:
        """(F_*, solver gap estimate) from :func:`nuclear_lower_bound`."""
        return nuclear_lower_bound(self.X, self.Y, self.psibar, self.lam_h, self.lam_v,
                                   self.lam_theta)


def nuclear_lower_bound(X: np.ndarray, Y: np.ndarray, psibar: np.ndarray, lam_h: float,
                        lam_v: float, lam_theta: float) -> tuple[float, float]:
    """F_* = min_M (1/n) sum_i f_i(M psibar_i) + 2 sqrt(lam_h lam_v) ||M||_* (digest §6.1,
    [DERIVED]: min over H A = M of lam_h||H||^2 + lam_v||A||^2 is 2 sqrt(lam_h lam_v)||M||_*),
    a lower bound of F for every descriptor dimension l. Solved by cvxpy with Clarabel;
    returns (value minus the solver's duality-gap estimate, that estimate)."""
    import cvxpy as cp

    from pflbounds.problems.conic import solve_clarabel

    n, m, p = X.shape
    K = np.einsum("ima,ib->imab", X, psibar).reshape(n * m, p * p)  # x^T M psibar
    M = cp.Variable((p, p))
    vecM = cp.reshape(M, (p * p,), order="C")
    obj = cp.sum_squares(K @ vecM - Y.reshape(-1)) / (2 * n * m)
    if lam_theta:
        obj = obj + lam_theta * cp.sum_squares(M @ psibar.T) / n
    if lam_h and lam_v:
        obj = obj + 2 * np.sqrt(lam_h * lam_v) * cp.normNuc(M)
    prob = cp.Problem(cp.Minimize(obj))
    status = solve_clarabel(prob, tol_gap_abs=1e-10, tol_gap_rel=1e-10, tol_feas=1e-10)
    if status != "optimal":
        raise RuntimeError(f"nuclear-norm program: solver status {status}")
    stats = prob.solver_stats.extra_stats
    gap = abs(float(getattr(stats, "gap_abs", 0.0) or 0.0)) if stats is not None else 0.0
    gap = max(gap, 1e-9 * abs(prob.value))
    return float(prob.value) - gap, gap


@dataclass(frozen=True)
class LowRankRegression:
    """Population A: p, q < p, noise s, and the regularizer weights of F."""

    p: int = 8
    q: int = 3
    s: float = 0.3
    lam_h: float = 1e-3
    lam_v: float = 1e-3
    lam_theta: float = 1e-3

    def __post_init__(self) -> None:
        if not 0 < self.q < self.p:
            raise ValueError(f"population A needs 0 < q < p, got q={self.q}, p={self.p}")

    def draw(self, n: int, m: int, rng: np.random.Generator) -> LowRankInstance:
        """n clients with m points each (W* has N(0, 1/(p q)) entries, so E||w_i||^2 = 1)."""
        Wstar = rng.standard_normal((self.p, self.q)) / np.sqrt(self.p * self.q)
        W = rng.standard_normal((n, self.q)) @ Wstar.T
        X = rng.standard_normal((n, m, self.p))
        Y = np.einsum("imp,ip->im", X, W) + self.s * rng.standard_normal((n, m))
        return LowRankInstance(X, Y, W, self.lam_h, self.lam_v, self.lam_theta)


# ------------------------------------------------------------------------------ population C
@dataclass(frozen=True, eq=False)
class LabelShiftClients:
    """Clients of population C: ``X`` (n, m, p), ``Y`` (n, m) labels, ``pi`` (n, C)."""

    X: np.ndarray
    Y: np.ndarray
    pi: np.ndarray

    def embedding_inputs(self, classes: int, labels: bool = True) -> np.ndarray:
        """(x, one-hot y) per point (n, m, p + C); one-hot zeros when ``labels`` is False
        (descriptors from unlabelled data)."""
        oh = np.eye(classes)[self.Y] if labels else np.zeros((*self.Y.shape, classes))
        return np.concatenate([self.X, oh], axis=-1)


@dataclass(frozen=True)
class LabelShift:
    """Population C: ``classes`` Gaussian classes, means mu_c ~ N(0, sep^2 I_p / p) (so
    ||mu_c|| is about sep) drawn once per instance, unit covariance, client proportions
    Dir(alpha)."""

    p: int = 10
    classes: int = 5
    sep: float = 3.0

    def means(self, rng: np.random.Generator) -> np.ndarray:
        return self.sep * rng.standard_normal((self.classes, self.p)) / np.sqrt(self.p)

    def clients(self, mu: np.ndarray, n: int, m: int, alpha: float,
                rng: np.random.Generator) -> LabelShiftClients:
        """n clients, m points each, pi_i ~ Dir(alpha 1_C)."""
        pi = rng.dirichlet(np.full(self.classes, alpha), size=n)
        u = rng.random((n, m, 1))
        Y = np.minimum((u > np.cumsum(pi, axis=1)[:, None, :]).sum(-1), self.classes - 1)
        X = mu[Y] + rng.standard_normal((n, m, self.p))
        return LabelShiftClients(X, Y, pi)

    def test_points(self, mu: np.ndarray, per_class: int, rng: np.random.Generator
                    ) -> np.ndarray:
        """Held-out points (classes, per_class, p) shared by all clients."""
        return mu[:, None, :] + rng.standard_normal((self.classes, per_class, self.p))


def label_shift_risk(class_errors: np.ndarray, pi: np.ndarray, per_class: int
                     ) -> tuple[np.ndarray, np.ndarray]:
    """Risk of each client's model under its label distribution and its standard error:
    r_i = sum_c pi_ic e_ic with e_ic the error rate on ``per_class`` held-out points of class
    c; se_i^2 = sum_c pi_ic^2 e_ic (1 - e_ic)/per_class (independent binomial counts)."""
    e = np.asarray(class_errors, dtype=float)
    r = (pi * e).sum(axis=-1)
    se = np.sqrt((pi**2 * e * (1 - e) / per_class).sum(axis=-1))
    return r, se
