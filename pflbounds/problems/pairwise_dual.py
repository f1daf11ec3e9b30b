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
    pair_incidence,
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

    The iterates are held pair-major, (pairs, active replicas, d), so that E^T q and the
    differences X_i - X_j are two sparse products with the incidence matrix E (CSR, cached
    per n) on contiguous (pairs, replicas x d) blocks; the arrays hold only the active
    replicas (compacted when some converge) and are updated in place. The gap test works on
    (replicas, pairs, d) copies, as :func:`~pflbounds.problems.dykstra.certified_gap` expects.
    """
    Zs, single, r, i, j = prepare(Z, r)
    R, n, d = Zs.shape
    m = i.size
    E, Et = pair_incidence(n)
    result_p = warm.p.copy() if warm is not None and warm.p.shape == (R, m, d) \
        else np.zeros((R, m, d))
    Lc = float(n)
    thresh = (r / Lc)[:, None]
    tol = gap_tol * (1.0 + 0.5 * (Zs * Zs).sum(axis=(-2, -1)))
    # per-replica FISTA: momentum and restart per replica; converged replicas leave the
    # active set, so one slow replica does not make the others iterate
    active = np.arange(R)
    p = result_p.transpose(1, 0, 2).copy()  # (m, R_active, d)
    q = p.copy()
    t = np.ones(R)
    Zt = Zs.transpose(1, 0, 2).copy()  # (n, R_active, d)
    it = 0
    for it in range(1, max_iter + 1):  # noqa: B007 - reported
        Ra = active.size
        X = (Et @ q.reshape(m, Ra * d)).reshape(n, Ra, d)
        np.subtract(Zt, X, out=X)
        X /= Lc
        v = (E @ X.reshape(n, Ra * d)).reshape(m, Ra, d)  # (X_i - X_j)/L
        v += q
        nv = np.sqrt(np.einsum("mrd,mrd->mr", v, v))
        v *= np.maximum(0.0, 1.0 - thresh / np.maximum(nv, 1e-300))[..., None]  # p_new
        t_new = 0.5 * (1.0 + np.sqrt(1.0 + 4.0 * t * t))
        diff = np.subtract(v, p, out=p)
        restart = np.einsum("mrd,mrd->r", np.subtract(q, v, out=q), diff) > 0
        t_new = np.where(restart, 1.0, t_new)
        beta = np.where(restart, 0.0, (t - 1.0) / t_new)[:, None]
        q = np.multiply(diff, beta, out=q)
        q += v
        p, t = v, t_new
        if it % check_every == 0 or it == max_iter:
            pr = p.transpose(1, 0, 2).copy()
            Za = Zs[active]
            gap = certified_gap(Za, Za - assemble_increments(pr, n), pr, r)
            keep = gap > tol[active]
            if not keep.all():
                result_p[active[~keep]] = pr[~keep]
                active = active[keep]
                if active.size == 0:
                    break
                p, q, t, Zt = p[:, keep], q[:, keep], t[keep], Zt[:, keep]
    if active.size:
        result_p[active] = p.transpose(1, 0, 2)
    return certified(Zs, Zs - assemble_increments(result_p, n), result_p, r, it, single)
