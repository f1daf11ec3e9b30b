"""Projection onto pairwise-distance constraint sets by accelerated ascent on the dual, with
the duality-gap certificate of :mod:`pflbounds.problems.dykstra`.

The dual of min_{K(r)} ||Theta - Z||^2/2 (K(r) of :mod:`pflbounds.problems.
pairwise_constraints`, no ball) is, up to a constant, the group-lasso problem
min_p ||Z - E^T p||^2/2 + sum_ij r_ij ||p_ij|| over one vector p_ij per pair, E the (pairs x
clients) incidence matrix (+1 on i, -1 on j), and the primal point is X = Z - E^T p. Its
smooth part has Lipschitz constant lambda_max(E E^T) = n (the complete graph's Laplacian), the
prox of the group norm is block soft-thresholding, so FISTA with adaptive (gradient) restart
updates every pair of every replica at once. The increments p are the same dual variables as
Dykstra's, so the same certificate applies: the shrunk point's gap bounds its squared distance
to the exact projection. It is the fast path for projected-gradient loops (warm-started from
the previous increments); :func:`pflbounds.problems.dykstra.dykstra_project` is the classical
alternating-projection method.
"""

from __future__ import annotations

import numpy as np

from pflbounds.problems.dykstra import (
    DykstraResult,
    assemble_increments,
    certified,
    certified_gap,
    prepare,
)

__all__ = ["dual_project"]


def dual_project(Z: np.ndarray, r: np.ndarray, *, gap_tol: float = 1e-14,
                 max_iter: int = 20000, check_every: int = 25,
                 warm: DykstraResult | None = None) -> DykstraResult:
    """Project each replica of ``Z`` ((R, n, d) or (n, d)) onto K(r) (no ball) by FISTA on
    the dual; stop when every replica's certified gap is <= ``gap_tol`` (1 + ||Z||^2/2), a
    tolerance relative to the scale of the objective (its rounding error is about 1e-16
    times that scale), checked every ``check_every`` iterations, or after ``max_iter``. Returns a
    :class:`~pflbounds.problems.dykstra.DykstraResult` (``sweeps`` counts FISTA iterations).
    """
    Zs, single, r, i, j = prepare(Z, r)
    R, n, d = Zs.shape
    p = warm.p.copy() if warm is not None and warm.p.shape == (R, i.size, d) \
        else np.zeros((R, i.size, d))
    Lc = float(n)
    thresh = (r / Lc)[:, None]
    tol = gap_tol * (1.0 + 0.5 * (Zs * Zs).sum(axis=(-2, -1)))
    # per-replica FISTA: momentum and restart per replica; converged replicas leave the
    # active set, so one slow replica does not make the others iterate
    active = np.arange(R)
    q, t = p.copy(), np.ones(R)
    it = 0
    for it in range(1, max_iter + 1):  # noqa: B007 - reported
        pa, qa, ta, Za = p[active], q[active], t[active], Zs[active]
        X = Za - assemble_increments(qa, n)
        v = qa + (X[:, i] - X[:, j]) / Lc
        nv = np.linalg.norm(v, axis=-1, keepdims=True)
        p_new = v * np.maximum(0.0, 1.0 - thresh / np.maximum(nv, 1e-300))
        t_new = 0.5 * (1.0 + np.sqrt(1.0 + 4.0 * ta * ta))
        restart = ((qa - p_new) * (p_new - pa)).sum(axis=(1, 2)) > 0
        t_new = np.where(restart, 1.0, t_new)
        beta = np.where(restart, 0.0, (ta - 1.0) / t_new)[:, None, None]
        q[active] = p_new + beta * (p_new - pa)
        p[active], t[active] = p_new, t_new
        if it % check_every == 0 or it == max_iter:
            Xa = Za - assemble_increments(p_new, n)
            gap = certified_gap(Za, Xa, p_new, r)
            active = active[gap > tol[active]]
            if active.size == 0:
                break
    return certified(Zs, Zs - assemble_increments(p, n), p, r, it, single)
