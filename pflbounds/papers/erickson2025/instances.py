"""Instances of the erickson2025 checks: quadratic clients under pairwise constraints with
the exact constrained optimum, and the certified gradient mapping.

Clients: alpha_i f_i(theta) = (1/2) theta^T H_i theta - b_i^T theta (b_i = H_i m_i, so m_i is
client i's local optimum), f(theta) = (1/n) sum_i alpha_i f_i(theta_i) (digest §1, with the
1/n), L = max_i lambda_max(H_i) (Assumption 4.1, certified by eigenvalues). The constraint
radii are r_ij = rho ||m_i - m_j|| with rho < 1, so the local optima are infeasible and
constraints are active at the solution. f* = min_K f by cvxpy + Clarabel.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import cvxpy as cp
import numpy as np

from pflbounds.problems.dykstra import shrink_to_feasible
from pflbounds.problems.inexact_projection import Projector, gradient_mapping
from pflbounds.problems.pairwise_constraints import PairwiseConstraintSet, pair_index


@dataclass(frozen=True, eq=False)
class QuadraticClients:
    """alpha_i f_i(theta) = theta^T H_i theta/2 - b_i^T theta, on K(r) (module docstring)."""

    H: np.ndarray
    m: np.ndarray
    r: np.ndarray

    @property
    def n(self) -> int:
        return int(self.m.shape[0])

    @property
    def d(self) -> int:
        return int(self.m.shape[1])

    @cached_property
    def b(self) -> np.ndarray:
        return np.einsum("nij,nj->ni", self.H, self.m)

    @cached_property
    def L(self) -> float:
        """Assumption 4.1: max_i lambda_max(H_i)."""
        return float(np.linalg.eigvalsh(self.H).max())

    @cached_property
    def cset(self) -> PairwiseConstraintSet:
        return PairwiseConstraintSet(self.n, self.d, self.r)

    def weighted_grad(self, theta: np.ndarray) -> np.ndarray:
        """(alpha_i grad f_i(theta_i))_i, shape of theta (..., n, d)."""
        return np.einsum("nij,...nj->...ni", self.H, theta) - self.b

    def grad_f(self, theta: np.ndarray) -> np.ndarray:
        """grad f(theta) = weighted_grad/n (the 1/n of f)."""
        return self.weighted_grad(theta) / self.n

    def f(self, theta: np.ndarray) -> np.ndarray:
        """f(theta), shape theta.shape[:-2]."""
        q = 0.5 * np.einsum("...ni,nij,...nj->...", theta, self.H, theta)
        return (q - np.einsum("ni,...ni->...", self.b, theta)) / self.n

    @cached_property
    def optimum(self) -> tuple[np.ndarray, float, float]:
        """(theta*, f*, largest constraint violation of theta*) by cvxpy + Clarabel; the
        point is shrunk to feasibility, so f* is attained by a feasible point."""
        th = cp.Variable((self.n, self.d))
        i, j = pair_index(self.n)
        obj = sum(0.5 * cp.quad_form(th[k], self.H[k]) - self.b[k] @ th[k]
                  for k in range(self.n)) / self.n
        prob = cp.Problem(cp.Minimize(obj), [cp.norm(th[i] - th[j], 2, axis=1) <= self.r])
        prob.solve(solver=cp.CLARABEL, tol_gap_abs=1e-10, tol_gap_rel=1e-10, tol_feas=1e-10)
        x = shrink_to_feasible(np.asarray(th.value), self.r)
        return x, float(self.f(x)), float(self.cset.violation(th.value))

    def consensus_start(self) -> np.ndarray:
        """A feasible start: every client at the mean of the local optima."""
        return np.broadcast_to(self.m.mean(axis=0), self.m.shape).copy()


def random_clients(rng: np.random.Generator, n: int, d: int, *, cond: float = 10.0,
                   spread: float = 2.0, rho: float = 0.5, scale: float = 1.0
                   ) -> QuadraticClients:
    """Random PD H_i with eigenvalues in [scale/cond, scale] (random rotations), local optima
    m_i ~ N(0, spread^2 I), radii r_ij = rho ||m_i - m_j||."""
    Q, _ = np.linalg.qr(rng.standard_normal((n, d, d)))
    eig = scale * np.exp(rng.uniform(np.log(1.0 / cond), 0.0, (n, d)))
    eig[:, 0] = scale  # L = scale exactly
    H = np.einsum("nij,nj,nkj->nik", Q, eig, Q)
    m = spread * rng.standard_normal((n, d))
    i, j = pair_index(n)
    r = rho * np.linalg.norm(m[i] - m[j], axis=1)
    return QuadraticClients(H, m, r)


def certified_gmap_sq(inst: QuadraticClients, theta: np.ndarray, eta: float,
                      proj: Projector) -> tuple[np.ndarray, np.ndarray]:
    """||G_eta(theta)||^2 per replica with the exact projection, as a certified interval
    (lower, upper): the projection is computed by ``proj`` (an iterative method with a
    certified gap g), so ||G - G_exact|| <= sqrt(2 g)/eta."""
    G = gradient_mapping(theta, inst.grad_f(theta), eta, proj)
    norm = np.sqrt((G * G).sum(axis=(-2, -1)))
    err = np.zeros_like(norm) if proj.gap is None else np.sqrt(2 * np.maximum(proj.gap, 0)) / eta
    return np.maximum(norm - err, 0.0) ** 2, (norm + err) ** 2
