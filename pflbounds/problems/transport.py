"""Optimal transport between empirical measures (uniform weights): exact W1, W1-optimal
plans (LP by HiGHS, or monotone in 1-D) and the linear-OT (LOT) embedding against a shared
reference sample, with the two readings of the embedding distance.

The LOT embedding (Erickson & Johansson 2025, §3.4; digest §3.6): with a reference sample
D_0 (N_0 points) and a W1-optimal plan pi_i between its empirical measure and client i's,
the approximate Monge map is M_i = N_0 pi_i D_i (row r: the barycentre of the targets of
reference point r), and Phi(D_i) = (M_i - D_0)/sqrt(N_0). Distances:

* ``literal``: ||Phi(D_i) - Phi(D_j)||_1 read entrywise, sum |M_i - M_j|/sqrt(N_0);
* ``w1``: the W1-consistent (1/N_0) sum_r ||M_i[r] - M_j[r]||_2.

W1 plans are not unique, so the embedding depends on the solver's choice of plan.
"""

from __future__ import annotations

import numpy as np
from scipy.optimize import linear_sum_assignment, linprog
from scipy.sparse import coo_matrix
from scipy.spatial.distance import cdist

__all__ = ["D_READINGS", "embedding_distance", "lot_map", "lp_plan", "monotone_plan",
           "w1_exact"]

D_READINGS = ("literal", "w1")


def _as2d(X: np.ndarray) -> np.ndarray:
    X = np.asarray(X, dtype=float)
    return X[:, None] if X.ndim == 1 else X


def lp_plan(A: np.ndarray, B: np.ndarray) -> np.ndarray:
    """A W1-optimal plan (N_A, N_B) between the uniform empirical measures of A and B
    (Euclidean cost, unsquared), by the HiGHS LP solver (a vertex of the transport polytope)."""
    A, B = _as2d(A), _as2d(B)
    na, nb = len(A), len(B)
    rows = np.r_[np.repeat(np.arange(na), nb), na + np.tile(np.arange(nb), na)]
    cols = np.r_[np.arange(na * nb), np.arange(na * nb)]
    Aeq = coo_matrix((np.ones(2 * na * nb), (rows, cols)), shape=(na + nb, na * nb)).tocsr()
    beq = np.r_[np.full(na, 1.0 / na), np.full(nb, 1.0 / nb)]
    res = linprog(cdist(A, B).ravel(), A_eq=Aeq, b_eq=beq, bounds=(0, None), method="highs")
    if res.status != 0:
        raise RuntimeError(f"transport LP failed: {res.message}")
    return res.x.reshape(na, nb)


def monotone_plan(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The monotone (sorted) plan between two 1-D samples of equal size: W1-optimal."""
    a, b = np.asarray(a, dtype=float).ravel(), np.asarray(b, dtype=float).ravel()
    if a.size != b.size:
        raise ValueError(f"monotone plans need equal sizes, got {a.size} and {b.size}")
    plan = np.zeros((a.size, b.size))
    plan[np.argsort(a, kind="stable"), np.argsort(b, kind="stable")] = 1.0 / a.size
    return plan


def w1_exact(A: np.ndarray, B: np.ndarray) -> float:
    """W1 between the uniform empirical measures of A and B (Euclidean ground cost): an
    assignment problem for equal sizes, the HiGHS transport LP otherwise."""
    A, B = _as2d(A), _as2d(B)
    C = cdist(A, B)
    if len(A) == len(B):
        r, c = linear_sum_assignment(C)
        return float(C[r, c].mean())
    return float((lp_plan(A, B) * C).sum())


def lot_map(plan: np.ndarray, B: np.ndarray) -> np.ndarray:
    """M = N_0 pi B: the barycentric (approximate Monge) map of the reference points."""
    return plan.shape[0] * plan @ _as2d(B)


def embedding_distance(Mi: np.ndarray, Mj: np.ndarray, reading: str = "literal") -> float:
    """D_ij from two LOT maps (N_0, d): ``literal`` sum |M_i - M_j|/sqrt(N_0) or ``w1``
    (1/N_0) sum_r ||M_i[r] - M_j[r]||_2 (module docstring)."""
    if reading not in D_READINGS:
        raise ValueError(f"reading must be one of {D_READINGS}, got {reading!r}")
    diff = _as2d(Mi) - _as2d(Mj)
    if reading == "literal":
        return float(np.abs(diff).sum() / np.sqrt(diff.shape[0]))
    return float(np.linalg.norm(diff, axis=1).mean())
