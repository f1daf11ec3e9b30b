"""The instances of erickson2025's checks, read from a grid point: Karula's quadratic clients
under pairwise constraints, the 3-client counterexample of digest §5.4, and the generator of
the synthetic experiment of §5.1.

Karula's clients are :class:`pflbounds.problems.client_quadratics.ClientQuadratics` in the
linear form: alpha_i f_i(theta) = (1/2) theta^T H_i theta - b_i^T theta (``A`` = H_i, b_i = H_i
m_i, so m_i is client i's local optimum), f(theta) = (1/n) sum_i alpha_i f_i(theta_i) (digest
§1, with the 1/n: ``mean_objective``), L = max_i lambda_max(H_i) (Assumption 4.1, certified by
eigenvalues: ``beta``). The constraint radii are r_ij = rho ||m_i - m_j|| with rho < 1, so the
local optima are infeasible and constraints are active at the solution; f* = min_K f by cvxpy
+ Clarabel (``constrained_optimum``).
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import Any

import numpy as np

from pflbounds.problems.client_quadratics import ClientQuadratics, random_constrained
from pflbounds.problems.clustered_regression import ClusteredRegression
from pflbounds.problems.pairwise_constraints import PairwiseConstraintSet


@lru_cache(maxsize=16)
def instance(n: int, d: int, cond: float, rho: float, seed: int, scale: float = 1.0
             ) -> ClientQuadratics:
    """The quadratic instance of a grid point (fixed by its own seed, not the run's), with f
    multiplied by ``scale`` (H -> scale H, same optima and radii)."""
    base = random_constrained(np.random.default_rng(seed), n, d, cond=cond, rho=rho)
    return ClientQuadratics(scale * base.A, base.m, 0.0, r=base.r)


def point_instance(p: Mapping[str, Any]) -> ClientQuadratics:
    """:func:`instance` at grid point ``p`` (``n``, ``d``, and ``cond`` 10, ``rho`` 0.5,
    ``inst`` 0, ``scale`` 1 unless given)."""
    return instance(int(p["n"]), int(p["d"]), float(p.get("cond", 10.0)),
                    float(p.get("rho", 0.5)), int(p.get("inst", 0)),
                    float(p.get("scale", 1.0)))


def counterexample(p: Mapping[str, Any]) -> dict[str, float]:
    """The 3-client instance of digest §5.4: alpha_i f_i = (theta_i - z_i)^2/2 (L = 1),
    f = (1/3) sum_i alpha_i f_i, eta = 3/(8L), radii r_12 = 1, r_13 = r_23 = 10, z = p + n_hat,
    theta^0 = p - n_hat/7 (feasible). Returns ||G_eta(theta^0)||^2 and Delta0 = f(theta^0) -
    min_K f, both with the exact projection (cvxpy + Clarabel)."""
    n = 3
    L = 1.0
    eta = 3 / (8 * L)
    cset = PairwiseConstraintSet(n, 1, np.array([p["r12"], 10.0, 10.0]))
    nhat = np.array([1.0, -1.0, 0.0]) / np.sqrt(2)
    centre = np.array([0.5, -0.5, 0.0]) * p["r12"]
    z = centre + nhat
    theta0 = centre - float(p.get("t", 1 / 7)) * nhat

    def f(th: np.ndarray) -> float:
        return float(((th - z) ** 2).sum() / (2 * n))

    grad = (theta0 - z) / n
    step = cset.project_exact((theta0 - eta * grad)[:, None]).theta[:, 0]
    gmap = (theta0 - step) / eta
    best = cset.project_exact(z[:, None])  # argmin_K f: f is a scaled distance to z
    return {"G2": float(gmap @ gmap), "Delta0": f(theta0) - f(best.theta[:, 0]), "L": L,
            "n": n, "violation": float(best.violation)}


def generator(p: Mapping[str, Any]) -> ClusteredRegression:
    """The generator of §5.1 (:class:`pflbounds.problems.clustered_regression.
    ClusteredRegression`) with the grid point's options."""
    return ClusteredRegression(
        n=int(p["n"]), d=int(p["d"]), sd_theta=float(p["sd_theta"]),
        n_min=int(p["n_min"]), n_max=int(p["n_max"]), feature_shift=float(p["feature_shift"]),
        sd_eps=float(p["sd_eps"]), lam=float(p["lam"]), n_test=int(p["n_test"]))
