"""Pairwise dissimilarity constraint sets and their exact Euclidean projection.

The set is K(r) = {Theta in R^{n x d} : ||theta_i - theta_j||_2 <= r_ij for all i < j},
optionally intersected with the ball ||theta_i||_2 <= R for every i (the parameter space
Theta of a bounded model class). With r_ij = sqrt(t D_ij) this is the feasible set of
Problem (1) of Erickson & Johansson (2025). K(r) is closed and convex and contains every
consensus point theta_1 = ... = theta_n (inside the ball).

The exact projection solves min ||Theta - Z||_F^2 over K(r) with cvxpy and Clarabel
(:func:`pflbounds.problems.conic.solve_clarabel_dense`: faer's supernodal factorisation,
Clarabel's default where it falls short of the tolerance). One
DPP-parameterised problem is built per shape (n, d, with or without a ball) and reused for
every call (only the parameters Z, r and R change), and each solve reports its accuracy: the
largest constraint violation of the returned point and the solver's status. A point that is
already feasible (to 1e-14 relative) is returned as is: interior-point solvers stop about
sqrt(tol) inside a constraint that is active with a zero multiplier (a projection of a
boundary point), 2.6e-6 at tol = 1e-10 on a 3-client example.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import cvxpy as cp
import numpy as np

from pflbounds.problems.conic import solve_clarabel_dense
from pflbounds.problems.pair_sets import (  # noqa: F401  (the sets' own names, here too)
    max_violation,
    pair_index,
    radii,
    shrink_to_feasible,
)


@dataclass(frozen=True)
class Projection:
    """An exact projection: the points, the solver's accuracy and status per replica."""

    theta: np.ndarray
    violation: np.ndarray
    status: tuple[str, ...]


@lru_cache(maxsize=32)
def _problem(n: int, d: int, with_ball: bool):
    """The DPP problem of one shape: parameters Z (n*d,), r (m,), R (scalar)."""
    m = n * (n - 1) // 2
    th = cp.Variable((n, d))
    Z = cp.Parameter((n, d))
    r = cp.Parameter(m, nonneg=True)
    i, j = pair_index(n)
    cons = [cp.norm(th[i] - th[j], 2, axis=1) <= r] if m else []
    R = cp.Parameter(nonneg=True)
    if with_ball:
        cons.append(cp.norm(th, 2, axis=1) <= R)
    prob = cp.Problem(cp.Minimize(cp.sum_squares(th - Z)), cons)
    assert prob.is_dcp(dpp=True)
    return prob, th, Z, r, R


class PairwiseConstraintSet:
    """K(r) (and the optional ball) with its exact projection (:class:`ProjectionOracle`).

    ``r`` holds the n(n-1)/2 radii of the pairs i < j (:func:`radii`).
    """

    def __init__(self, n: int, d: int, r: np.ndarray, ball: float | None = None,
                 tol: float = 1e-10) -> None:
        self.n, self.d = int(n), int(d)
        self.r = np.asarray(r, dtype=float).reshape(-1)
        if self.r.shape[0] != self.n * (self.n - 1) // 2 or np.any(self.r < 0):
            raise ValueError(f"r must hold {self.n * (self.n - 1) // 2} nonnegative radii")
        self.ball = None if ball is None else float(ball)
        self.tol = float(tol)
        self.feasible_tol = 1e-14 * max(1.0, float(self.r.max(initial=0.0)))

    def violation(self, theta: np.ndarray) -> np.ndarray:
        """Largest constraint violation per replica (0 when feasible)."""
        return max_violation(theta, self.r, self.ball)

    def project_exact(self, Z: np.ndarray) -> Projection:
        """Euclidean projection of each replica's Z (shape (R, n, d) or (n, d)) by Clarabel."""
        Z = np.asarray(Z, dtype=float)
        single = Z.ndim == 2
        Zs = Z[None] if single else Z
        prob, th, Zp, rp, Rp = _problem(self.n, self.d, self.ball is not None)
        rp.value = self.r
        Rp.value = 0.0 if self.ball is None else self.ball
        out = np.empty_like(Zs)
        status = []
        inside = self.violation(Zs) <= self.feasible_tol
        for k in range(Zs.shape[0]):  # one conic solve per replica (no batched solver)
            if inside[k]:  # a feasible point is its own projection (exact, no solver error)
                out[k] = Zs[k]
                status.append("feasible input")
                continue
            Zp.value = Zs[k]
            solved = solve_clarabel_dense(prob, tol_gap_abs=self.tol, tol_gap_rel=self.tol,
                                          tol_feas=self.tol)
            if th.value is None:
                raise RuntimeError(f"projection failed: solver status {solved}")
            out[k] = th.value
            status.append(solved)
        viol = self.violation(out)
        return Projection(out[0] if single else out, viol[0] if single else viol,
                          tuple(status))

    def project(self, X: np.ndarray) -> np.ndarray:
        """:class:`~pflbounds.algorithms.protocols.ProjectionOracle`: the exact projection."""
        return self.project_exact(X).theta


@dataclass(frozen=True)
class ConstrainedOptimum:
    """The minimiser of a separable quadratic over K(r): ``theta`` (n, d), feasible (shrunk
    towards the mean by at most the solver's violation), ``raw`` the solver's point, its
    largest constraint ``violation``, the objective ``value`` at ``theta`` and the solver's
    ``status``."""

    theta: np.ndarray
    raw: np.ndarray
    violation: float
    value: float
    status: str


def quadratic_optimum(H: np.ndarray, b: np.ndarray, r: np.ndarray,
                      weights: np.ndarray | None = None, *, tol: float = 1e-10
                      ) -> ConstrainedOptimum:
    """argmin over K(r) of sum_i w_i (theta_i^T H_i theta_i/2 - b_i^T theta_i), by cvxpy and
    Clarabel (gap and feasibility tolerances ``tol``).

    ``H`` (n, d, d) symmetric positive definite, ``b`` (n, d), ``r`` the n(n-1)/2 radii
    (:func:`radii`), ``weights`` w (n,) > 0 (default 1). The quadratic enters as
    ||C_i^T theta_i||^2/2 with C_i the Cholesky factor of w_i H_i. The solver's point is made
    feasible by :func:`pflbounds.problems.pair_sets.shrink_to_feasible` (it moves by at most the
    violation), so the value is attained in K(r). With every radius large it is the local
    optima H_i^{-1} b_i, with every radius 0 the weighted consensus optimum.
    """
    H, b = np.asarray(H, dtype=float), np.asarray(b, dtype=float)
    if H.ndim != 3 or b.ndim != 2 or H.shape != (*b.shape, b.shape[1]):
        raise ValueError(f"H must be (n, d, d) and b (n, d), got {H.shape} and {b.shape}")
    n, d = b.shape
    r = np.asarray(r, dtype=float).reshape(-1)
    if r.shape[0] != n * (n - 1) // 2 or np.any(r < 0):
        raise ValueError(f"r must hold {n * (n - 1) // 2} nonnegative radii, got {r.shape[0]}")
    w = np.ones(n) if weights is None else np.asarray(weights, dtype=float).reshape(-1)
    if w.shape != (n,) or np.any(w <= 0):
        raise ValueError(f"weights must be {n} positive numbers")
    try:
        C = np.linalg.cholesky(w[:, None, None] * H)
    except np.linalg.LinAlgError:
        raise ValueError("every H_i must be symmetric positive definite") from None
    th = cp.Variable((n, d))
    obj = 0.5 * sum(cp.sum_squares(C[k].T @ th[k]) for k in range(n)) \
        - cp.sum(cp.multiply(w[:, None] * b, th))
    i, j = pair_index(n)
    cons = [cp.norm(th[i] - th[j], 2, axis=1) <= r] if i.size else []
    prob = cp.Problem(cp.Minimize(obj), cons)
    solved = solve_clarabel_dense(prob, tol_gap_abs=tol, tol_gap_rel=tol, tol_feas=tol)
    if th.value is None:
        raise RuntimeError(f"the constrained optimum failed: solver status {solved}")
    raw = np.asarray(th.value)
    theta = shrink_to_feasible(raw, r)
    Ht = np.einsum("nij,nj->ni", H, theta)
    value = float((w * (0.5 * (theta * Ht).sum(-1) - (b * theta).sum(-1))).sum())
    return ConstrainedOptimum(theta, raw, float(max_violation(raw, r)), value, solved)
