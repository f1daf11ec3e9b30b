"""Per-client quadratics with one Hessian per client, additive Gaussian gradient noise and,
optionally, pairwise constraints between the clients' models.

R_k(theta) = scale (theta - m_k)^T A_k (theta - m_k): ``scale = 1/2`` is the usual
normalisation, ``scale = 1`` the one of philippenko2025 Property 1 (R_k = (theta + xi_k)^T
A_k (theta + xi_k), xi_k = -m_k). Clients that share m_k but not A_k have gradients whose
difference is not uniformly bounded: the multiplicative heterogeneity c_ik of
||grad R_i - grad R_k||^2 <= b_ik^2 + c_ik ||grad R_i||^2 (:meth:`ClientQuadratics.heterogeneity`).
The noise model is :class:`pflbounds.problems.additive_noise.AdditiveNoise`.

The same clients in the linear form (the one of erickson2025's Karula clients, alpha_k f_k(theta)
= theta^T A_k theta/2 - b_k^T theta at ``scale = 1/2``): R_k(theta) - R_k(0) = scale
theta^T A_k theta - 2 scale b_k^T theta with b_k = A_k m_k, so m_k is client k's own optimum.
:meth:`~ClientQuadratics.client_grads` and :meth:`~ClientQuadratics.mean_objective` compute in
that form (their rounding differs from :meth:`~ClientQuadratics.exact_grad` and
:meth:`~ClientQuadratics.excess`, which compute around m_k). With radii ``r`` (one per pair i <
j, :func:`pflbounds.problems.pairwise_constraints.pair_index` order) the models are
constrained to K(r) = {||theta_i - theta_j|| <= r_ij}; :func:`random_constrained` draws radii
r_ij = rho ||m_i - m_j||, rho < 1, so that the own optima are infeasible and constraints are
active at the constrained optimum.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING

import numpy as np

from pflbounds.problems.additive_noise import AdditiveNoise

if TYPE_CHECKING:  # imported where used: cvxpy loads only for constrained clients
    from pflbounds.problems.pairwise_constraints import PairwiseConstraintSet

__all__ = ["ClientQuadratics", "random_constrained", "random_spd"]


@dataclass(frozen=True, eq=False)
class ClientQuadratics(AdditiveNoise):
    """R_k(theta) = scale (theta - m_k)^T A_k (theta - m_k), g_k = grad R_k + n_k with
    n_k ~ N(0, (sigma_k^2/d) I_d); sigma2 is one value or one per client (N,). ``r``: radii of
    the pairwise constraints (N (N - 1)/2,), or None for unconstrained clients."""

    A: np.ndarray
    m: np.ndarray
    sigma2: np.ndarray
    scale: float = 0.5
    r: np.ndarray | None = None

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
        if self.r is not None:
            r = np.array(self.r, dtype=np.float64)
            if r.shape != (N * (N - 1) // 2,) or np.any(r < 0):
                raise ValueError(f"r must hold {N * (N - 1) // 2} radii >= 0 (one per pair "
                                 f"i < j), got shape {r.shape}")
            object.__setattr__(self, "r", r)

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
        """(b, c) of Assumption 3 (philippenko2025 Property 1 with this normalisation):
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

    # --- the linear form and the pairwise constraints (module docstring) ------------------

    @cached_property
    def b(self) -> np.ndarray:
        """b_k = A_k m_k, (N, d)."""
        return np.einsum("nij,nj->ni", self.A, self.m)

    def client_grads(self, X: np.ndarray) -> np.ndarray:
        """grad R_k(theta_k) = 2 scale (A_k theta_k - b_k) for X (..., N, d), in the linear
        form (the gradient :meth:`exact_grad` computes around m_k)."""
        return 2 * self.scale * (np.einsum("nij,...nj->...ni", self.A, X) - self.b)

    def mean_objective(self, X: np.ndarray) -> np.ndarray:
        """f(theta) = (1/N) sum_k (R_k(theta_k) - R_k(0)) = (1/N) sum_k (scale theta_k^T A_k
        theta_k - 2 scale b_k^T theta_k), shape X.shape[:-2]."""
        q = self.scale * np.einsum("...ni,nij,...nj->...", X, self.A, X)
        return (q - 2 * self.scale * np.einsum("ni,...ni->...", self.b, X)) / self.N

    def mean_grad(self, X: np.ndarray) -> np.ndarray:
        """grad f(theta) = client_grads(theta)/N (the 1/N of :meth:`mean_objective`)."""
        return self.client_grads(X) / self.N

    @cached_property
    def cset(self) -> PairwiseConstraintSet:
        """K(r), the pairwise constraint set of the models (needs ``r``)."""
        from pflbounds.problems.pairwise_constraints import PairwiseConstraintSet

        if self.r is None:
            raise ValueError("these clients have no pairwise constraints (r is None)")
        return PairwiseConstraintSet(self.N, self.d, self.r)

    @cached_property
    def constrained_optimum(self) -> tuple[np.ndarray, float, float]:
        """(theta*, f*, largest constraint violation of the solver's point): the minimiser
        of :meth:`mean_objective` over K(r) by cvxpy + Clarabel (tolerances 1e-10), shrunk to
        feasibility (:func:`pflbounds.problems.dykstra.shrink_to_feasible`), so that f* is
        attained by a feasible point."""
        import cvxpy as cp

        from pflbounds.problems.dykstra import shrink_to_feasible
        from pflbounds.problems.pairwise_constraints import pair_index

        cset = self.cset
        th = cp.Variable((self.N, self.d))
        i, j = pair_index(self.N)
        lin = 2 * self.scale * self.b
        obj = sum(self.scale * cp.quad_form(th[k], self.A[k]) - lin[k] @ th[k]
                  for k in range(self.N)) / self.N
        prob = cp.Problem(cp.Minimize(obj), [cp.norm(th[i] - th[j], 2, axis=1) <= self.r])
        prob.solve(solver=cp.CLARABEL, tol_gap_abs=1e-10, tol_gap_rel=1e-10, tol_feas=1e-10)
        x = shrink_to_feasible(np.asarray(th.value), self.r)
        return x, float(self.mean_objective(x)), float(cset.violation(th.value))

    def consensus_start(self) -> np.ndarray:
        """A feasible start for any radii: every client at the mean of the own optima m_k."""
        return np.broadcast_to(self.m.mean(axis=0), self.m.shape).copy()


def random_spd(N: int, d: int, lo: float, hi: float, rng: np.random.Generator) -> np.ndarray:
    """N random symmetric matrices with spectrum in [lo, hi] (the ends attained)."""
    Q, _ = np.linalg.qr(rng.standard_normal((N, d, d)))
    ev = rng.uniform(lo, hi, (N, d))
    ev[:, 0], ev[:, -1] = lo, hi
    return np.einsum("nab,nb,ncb->nac", Q, ev, Q)


def random_constrained(rng: np.random.Generator, N: int, d: int, *, cond: float = 10.0,
                       spread: float = 2.0, rho: float = 0.5, L: float = 1.0
                       ) -> ClientQuadratics:
    """Noiseless clients (scale 1/2) under pairwise constraints: A_k with random rotations and
    eigenvalues log-uniform in [L/cond, L], the largest exactly L (so the smoothness ``beta``
    is L), own optima m_k ~ N(0, spread^2 I_d) and radii r_ij = rho ||m_i - m_j||."""
    from pflbounds.problems.pairwise_constraints import pair_index

    Q, _ = np.linalg.qr(rng.standard_normal((N, d, d)))
    eig = L * np.exp(rng.uniform(np.log(1.0 / cond), 0.0, (N, d)))
    eig[:, 0] = L
    A = np.einsum("nij,nj,nkj->nik", Q, eig, Q)
    m = spread * rng.standard_normal((N, d))
    i, j = pair_index(N)
    return ClientQuadratics(A, m, 0.0, r=rho * np.linalg.norm(m[i] - m[j], axis=1))
