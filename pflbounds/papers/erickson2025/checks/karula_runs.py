"""Runs of Karula on the quadratic instances of erickson2025, shared by the Monte Carlo
checks: the gradient mapping with the exact projection (certified interval), f, ||theta -
phi||^2 and the certified inexactness of the loop's projections."""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import Any

import numpy as np

from pflbounds.algorithms.karula import run_karula
from pflbounds.papers.erickson2025.instances import (
    QuadraticClients,
    certified_gmap_sq,
    random_clients,
)
from pflbounds.problems.inexact_projection import Projector, controlled_delta, inexactness
from pflbounds.symbolic.catalog import get
from pflbounds.symbolic.evaluate import evaluate

THEOREM = "erickson2025.theorem4_3_eta38"


@lru_cache(maxsize=16)
def instance(n: int, d: int, cond: float, rho: float, seed: int, scale: float = 1.0
             ) -> QuadraticClients:
    """The quadratic instance of a grid point (fixed by its own seed, not the run's), with f
    multiplied by ``scale`` (H -> scale H, same optima and radii)."""
    base = random_clients(np.random.default_rng(seed), n, d, cond=cond, rho=rho)
    return QuadraticClients(scale * base.H, base.m, base.r)


def point_instance(p: Mapping[str, Any]) -> QuadraticClients:
    return instance(int(p["n"]), int(p["d"]), float(p.get("cond", 10.0)),
                    float(p.get("rho", 0.5)), int(p.get("inst", 0)),
                    float(p.get("scale", 1.0)))


def run(p: Mapping[str, Any], R: int, seed: np.random.SeedSequence, *, K: int,
        sigma2: float = 0.0, delta: float = 0.0, estimator: str = "vr", reading: str = "B",
        start: str = "consensus", record: Any = None, loop: str = "dual",
        loop_tol: float = 1e-12) -> dict[str, Any]:
    """Karula (eta = 3/(8L)) from the consensus point or from theta* on the grid point's
    instance; the loop projects by the certified dual method (or, with ``delta`` > 0, by the
    controlled-delta projection towards the consensus point). Returns the certified interval
    of ||G_eta(theta^k)||^2 (``G2lo``, ``G2hi``, (R, n_rec)), f(theta^k), ||theta^k - phi^k||^2,
    ``delta_max`` (delta plus the largest certified inexactness of the loop's exact
    projections) and the instance's constants.

    ``loop="dykstra"``: the loop projects by Dykstra stopped at ``loop_tol`` (largest change
    of an entry over a sweep, warm-started), and the inexactness of every projection is
    measured a posteriori against the certified dual projection of the same point:
    ``delta_meas`` (R,) is max_k delta_k per replica, with delta_k = (||u - z||^2 - ||p - z||^2)
    /(2 eta) and p the dual's (feasible, so ||p - z|| >= ||Pi_K(z) - z|| and delta_k is not
    overstated)."""
    inst = point_instance(p)
    n, d, L = inst.n, inst.d, inst.L
    eta = 3.0 / (8.0 * L)
    x_star, f_star, _ = inst.optimum
    th0 = inst.consensus_start() if start == "consensus" else x_star
    th0 = np.broadcast_to(th0, (R, n, d)).copy()
    gm = Projector(inst.cset, "dual", 1e-13)
    if loop == "dykstra":
        loop_p, ref = Projector(inst.cset, "dykstra", loop_tol), Projector(inst.cset, "dual",
                                                                           1e-14)
    else:
        loop_p, ref = Projector(inst.cset, "dual", loop_tol), None
    worst = [0.0]
    meas = np.zeros(R)

    def project(z: np.ndarray) -> np.ndarray:
        ubar = loop_p(z)
        if ref is not None:
            meas[:] = np.maximum(meas, inexactness(ubar, z, ref(z), eta))
            return ubar
        worst[0] = max(worst[0], float(np.max(loop_p.gap)) / eta)
        if delta > 0:
            centre = np.broadcast_to(z.mean(axis=1, keepdims=True), z.shape)
            return controlled_delta(z, ubar, centre, eta, delta)
        return ubar

    def g2(st: Mapping[str, np.ndarray]) -> np.ndarray:
        lo, hi = certified_gmap_sq(inst, st["theta"], eta, gm)
        return np.stack([lo, hi], axis=-1)

    metrics = {"G2": g2, "f": lambda st: inst.f(st["theta"]),
               "thphi": lambda st: ((st["theta"] - st["phi"]) ** 2).sum(axis=(1, 2))}
    r = run_karula(inst.weighted_grad, th0, project, eta=eta, s=int(p["s"]), K=K,
                   rng=np.random.default_rng(seed), metrics=metrics, sigma2=sigma2,
                   reading=reading, estimator=estimator, record=record)
    return {"G2lo": r.metrics["G2"][..., 0], "G2hi": r.metrics["G2"][..., 1],
            "f": r.metrics["f"], "thphi": r.metrics["thphi"], "ks": r.ks,
            "delta_max": delta + worst[0], "Delta0": max(float(inst.f(th0[0])) - f_star, 0.0),
            "f_star": f_star, "L": L, "eta": eta, "n": n, "s": int(p["s"]), "inst": inst,
            "theta": r.state["theta"], "delta_meas": meas}


def theorem_bound(form: str, r: Mapping[str, Any], K: np.ndarray, sigma2: float,
                  delta: float) -> np.ndarray:
    """Theorem 4.3 at eta = 3/(8L) in ``form`` at horizons K (array)."""
    return np.asarray(evaluate(get(THEOREM), form, L=r["L"], n=r["n"], s=r["s"],
                               K=np.asarray(K, dtype=float), Delta0=r["Delta0"],
                               sigma2=sigma2, delta=delta).value, dtype=float) * np.ones(len(K))


def running_average(x: np.ndarray) -> np.ndarray:
    """(1/K) sum_{k<K} x_k for K = 1..n_rec (x: (R, n_rec) recorded at every k)."""
    return np.cumsum(x, axis=1) / np.arange(1, x.shape[1] + 1)
