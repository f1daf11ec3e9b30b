"""Check code several erickson2025 topics and experiments share.

* Karula runs on the quadratic clients of a grid point (:func:`run`): the checks of Theorem 4.3
  at eta = 3/(8L) and of its floor read the certified ||G_eta||^2, f, ||theta - phi||^2 and the
  inexactness of the loop's projections from them, and compare them with the theorem at the
  run's constants (:func:`theorem_bound`); :func:`timed_karula` times the same run.
* The figures' access to a check's evidence (:func:`evidence_array`, :func:`evidences_with`,
  :func:`first_evidence_with`).
* The experiments of §5: the loop projection and the LOT surrogate D both use
  (:func:`loop_projector`, :func:`pairwise_lot`), the draws of §5.1 that Table 1's and Fig. 1's
  checks read (:func:`run_synthetic`, shared by a sweep one draw at a time:
  :func:`synthetic_draws`); the claims' checks on them are in
  :mod:`pflbounds.papers.erickson2025.experiments.common`.
"""

from __future__ import annotations

import json
import time
from collections.abc import Mapping
from typing import Any

import numpy as np
from scipy.stats import spearmanr

from pflbounds.algorithms.collaborative import run_local_sgd
from pflbounds.algorithms.ifca import (
    assign_clusters,
    effective_clusters,
    personalised_models,
    run_fedavg,
    run_ifca,
)
from pflbounds.algorithms.karula import run_karula
from pflbounds.checking import bound
from pflbounds.checking.jsonsafe import canonical_json
from pflbounds.papers.erickson2025.instances import generator, point_instance
from pflbounds.papers.erickson2025.theory.convergence import THEOREM4_3_ETA38
from pflbounds.problems.clustered_regression import RegressionClients, RidgeQuadratics
from pflbounds.problems.inexact_projection import (
    Projector,
    certified_gradient_mapping_sq,
    controlled_delta,
    inexactness,
)
from pflbounds.problems.pairwise_constraints import (
    PairwiseConstraintSet,
    pair_index,
    quadratic_optimum,
    radii,
)
from pflbounds.problems.transport import embedding_distance, lot_map, lp_plan
from pflbounds.running.seeds import stable_words
from pflbounds.running.shared import shared_computation

# --- Karula runs ---------------------------------------------------------------------------

def run(p: Mapping[str, Any], R: int, seed: np.random.SeedSequence, *, K: int,
        sigma2: float = 0.0, delta: float = 0.0, estimator: str = "vr", reading: str = "B",
        start: str = "consensus", record: Any = None, loop: str = "dual",
        loop_tol: float = 1e-12, inst: Any = None) -> dict[str, Any]:
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
    inst = point_instance(p) if inst is None else inst  # or a given ClientQuadratics
    n, d, L = inst.N, inst.d, inst.beta
    eta = 3.0 / (8.0 * L)
    x_star, f_star, _ = inst.constrained_optimum
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
        lo, hi = certified_gradient_mapping_sq(st["theta"], inst.mean_grad(st["theta"]), eta,
                                               gm)
        return np.stack([lo, hi], axis=-1)

    metrics = {"G2": g2, "f": lambda st: inst.mean_objective(st["theta"]),
               "thphi": lambda st: ((st["theta"] - st["phi"]) ** 2).sum(axis=(1, 2))}
    r = run_karula(inst.client_grads, th0, project, eta=eta, s=int(p["s"]), K=K,
                   rng=np.random.default_rng(seed), metrics=metrics, sigma2=sigma2,
                   reading=reading, estimator=estimator, record=record)
    return {"G2lo": r.metrics["G2"][..., 0], "G2hi": r.metrics["G2"][..., 1],
            "f": r.metrics["f"], "thphi": r.metrics["thphi"], "ks": r.ks,
            "delta_max": delta + worst[0],
            "Delta0": max(float(inst.mean_objective(th0[0])) - f_star, 0.0),
            "f_star": f_star, "L": L, "eta": eta, "n": n, "s": int(p["s"]), "inst": inst,
            "theta": r.state["theta"], "delta_meas": meas}


def theorem_bound(form: str, r: Mapping[str, Any], K: np.ndarray, sigma2: float,
                  delta: float) -> np.ndarray:
    """Theorem 4.3 at eta = 3/(8L) in ``form`` at horizons K (array), with the constants of
    the run ``r`` (:func:`run`)."""
    return bound(THEOREM4_3_ETA38, form, L=r["L"], n=r["n"], s=r["s"],
                 K=np.asarray(K, dtype=float), Delta0=r["Delta0"], sigma2=sigma2,
                 delta=delta) * np.ones(len(K))


def running_average(x: np.ndarray) -> np.ndarray:
    """(1/K) sum_{k<K} x_k for K = 1..n_rec (x: (R, n_rec) recorded at every k)."""
    return np.cumsum(x, axis=1) / np.arange(1, x.shape[1] + 1)


def timed_karula(p: Mapping[str, Any], R: int, seed: np.random.SeedSequence, *, K: int,
                 reading: str) -> tuple[float, np.ndarray]:
    """Wall time (s) of Karula alone on a batch of R replicas for K rounds: the run of
    :func:`run` (same instance, start, eta = 3/(8L), loop projection and random stream, hence
    the same iterates) without its certified ||G_eta||^2 at every round (one cheap metric at
    k = K only). Returns the time and theta^K (R, n, d)."""
    inst = point_instance(p)
    th0 = np.broadcast_to(inst.consensus_start(), (R, inst.N, inst.d)).copy()
    project = Projector(inst.cset, "dual", 1e-12)
    t0 = time.perf_counter()
    r = run_karula(inst.client_grads, th0, project, eta=3.0 / (8.0 * inst.beta), s=int(p["s"]),
                   K=K, rng=np.random.default_rng(seed), reading=reading, record=[K],
                   metrics={"theta": lambda st: st["theta"][:, 0, 0]})
    return time.perf_counter() - t0, r.state["theta"]


# --- figures -------------------------------------------------------------------------------


def evidence_array(e: Mapping[str, Any], key: str) -> np.ndarray:
    """The evidence entry ``key`` of one grid point, flattened to floats."""
    return np.asarray(e[key], dtype=float).ravel()


def evidences_with(outcome: Any, key: str) -> list[dict]:
    """The grid points' evidence that holds ``key``."""
    return [e for e in outcome.evidence if key in e]


def first_evidence_with(outcome: Any, key: str) -> dict | None:
    """The first grid point's evidence that holds ``key`` (None if none does)."""
    ev = evidences_with(outcome, key)
    return ev[0] if ev else None


# --- the experiments of §5: projections in the loop and the LOT surrogate D ----------------

METHODS = ("Local", "FedAvg", "IFCA", "Karula")
"""The strategies §5 compares, in the order of Table 1 (the columns of the draws)."""
LOOP_METHODS = ("dykstra", "dual")


def loop_projector(n: int, d: int, r: np.ndarray, method: str, tol: float,
                   backend: str = "numpy") -> Projector:
    """The projection onto K(r) (n blocks of d) of a projected-gradient loop: ``method``
    "dykstra" (stopped when no entry moves by ``tol`` over a sweep) or "dual" (certified
    relative gap ``tol``, tested every 5 iterations), warm-started from the previous call
    (:class:`pflbounds.problems.inexact_projection.Projector`)."""
    if method not in LOOP_METHODS:
        raise ValueError(f"projection must be one of {LOOP_METHODS}, got {method!r}")
    return Projector(PairwiseConstraintSet(n, d, r), method, tol, backend=backend,
                     check_every=5)


def pairwise_lot(samples: list[np.ndarray], N0: int, reading: str,
                 rng: np.random.Generator) -> np.ndarray:
    """D (n, n): the LOT surrogate of erickson2025 §3.4 between the clients' joint samples
    (one (N_i, d_xi) array each) against a reference sample of N0 points from N(pooled mean,
    pooled covariance), Euclidean cost, HiGHS plans (:mod:`pflbounds.problems.transport`)."""
    pooled = np.concatenate(samples)
    ref = rng.multivariate_normal(pooled.mean(0), np.cov(pooled, rowvar=False), size=N0)
    maps = [lot_map(lp_plan(ref, x), x) for x in samples]  # one transport LP per client
    n = len(samples)
    D = np.zeros((n, n))
    for i, j in zip(*pair_index(n), strict=True):
        D[i, j] = D[j, i] = embedding_distance(maps[i], maps[j], reading)
    return D


# --- §5.1: the synthetic experiment's draws (Table 1 and Fig. 1 read the same ones) -------

FOLDS = 5

SYNTHETIC: dict[str, Any] = {
    "n": 30, "d": 50, "sd_theta": 1.0, "feature_shift": 1.0, "sd_eps": 5.0, "lam": 1e-6,
    "n_min": 10, "n_max": 100, "n_test": 100, "s": 10, "K": 1000, "N0": 100,
    "D_reading": "literal", "t_grid": [0.001, 0.01, 0.1, 1.0], "k_grid": [1, 2, 3],
    "ifca_init": 1.0, "projection": "dykstra", "proj_tol": 1e-10, "backend": "jax",
    "cv_projection": "dual", "cv_proj_tol": 1e-8, "seeds": 0, "reading": "A",
    # Karula's rounds follow Algorithm 1 as printed (Reading A: the table unscaled); Reading
    # B, the proof's unbiased estimate, takes about n times the rounds (digest §8 #25)
}
"""The §5.1 grid point at full size (n = 30, d = 50, s = 10); K and the grids are ours."""


def _folds(data: RegressionClients, rng: np.random.Generator) -> np.ndarray:
    """Training-sample selections (FOLDS, n, N_max) of 5-fold cross-validation per client
    (fold of a sample: its rank in a random order, mod 5)."""
    order = np.argsort(np.where(data.mask, rng.random(data.mask.shape), np.inf), axis=1)
    fold = np.empty_like(order)
    np.put_along_axis(fold, order, np.arange(data.mask.shape[1]) % FOLDS, axis=1)
    return np.stack([data.mask & (fold != f) for f in range(FOLDS)])


def _held_out_error(data: RegressionClients, train: np.ndarray, theta: np.ndarray) -> np.ndarray:
    """Summed held-out squared error of (..., FOLDS, n, d) models on the complements of the
    training selections ``train`` (FOLDS, n, N_max); the sum over folds and clients (...)."""
    pred = np.einsum("nsd,...fnd->...fns", data.X, theta)
    held = data.mask & ~train
    return (np.where(held, (pred - data.y) ** 2, 0.0)).sum(axis=(-3, -2, -1))


def _karula(ridge: RidgeQuadratics, D: np.ndarray, t: np.ndarray, p: Mapping[str, Any],
            L: float, rng: np.random.Generator, exact: tuple[int, ...] = ()
            ) -> tuple[np.ndarray, np.ndarray]:
    """Karula's iterates at rounds K/2 and K, (R, 2, n, d), for each replica of ``ridge``
    (leading axis R), replica r under K(t_r, D), theta^0 = 0, projections by
    :func:`loop_projector` (``p["projection"]``, tolerance ``p["proj_tol"]``; a run without
    ``exact`` replicas, the cross-validation, by ``p["cv_projection"]`` at ``p["cv_proj_tol"]``).
    At the recorded rounds the replicas ``exact`` are projected exactly instead (cvxpy + Clarabel,
    :meth:`~pflbounds.problems.pairwise_constraints.PairwiseConstraintSet.project_exact`);
    the second array holds, per such projection, the distance between the loop's projection
    and the exact one and the exact point's largest constraint violation, (len(exact), 2, 2)."""
    n, d = ridge.n, ridge.d
    cv = not exact  # the cross-validation runs take the cheaper loop projection
    base = loop_projector(n, d, radii(1.0, D), str(p["cv_projection" if cv else "projection"]),
                          float(p["cv_proj_tol" if cv else "proj_tol"]), str(p["backend"]))
    t = np.asarray(t, dtype=float)
    if np.any(t <= 0):
        raise ValueError(f"every t of the grid must be > 0, got {t.tolist()}")
    c = np.sqrt(t)[:, None, None]
    recorded = _recorded(p)
    accuracy = np.zeros((len(exact), len(recorded), 2))
    calls = [0]

    def project(Z: np.ndarray) -> np.ndarray:
        out = c * base(Z / c)
        calls[0] += 1
        if calls[0] in recorded:
            h = recorded.index(calls[0])
            for e, rep in enumerate(exact):
                P = PairwiseConstraintSet(n, d, radii(float(t[rep]), D)).project_exact(Z[rep])
                accuracy[e, h] = np.linalg.norm(out[rep] - P.theta), P.violation
                out[rep] = P.theta
        return out

    theta0 = np.zeros((c.shape[0], n, d))
    run = run_karula(ridge.weighted_grad, theta0, project, eta=3.0 / (8.0 * L),
                     s=int(p["s"]), K=int(p["K"]), rng=rng, reading=str(p["reading"]),
                     metrics={"theta": _theta}, record=recorded)
    return run.metrics["theta"], accuracy


def _recorded(p: Mapping[str, Any]) -> list[int]:
    """The recorded rounds K/2 and K: the models compared and their change over the second
    half of the run (the convergence measure)."""
    return [int(p["K"]) // 2, int(p["K"])]


def _theta(st: Mapping[str, np.ndarray]) -> np.ndarray:
    return st["theta"]


def _ifca(ridge: RidgeQuadratics, k: int, p: Mapping[str, Any], L: float,
          rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """IFCA's personalised models (R, 2, n, d) at rounds K/2 and K, the final assignments
    (R, n) and the final cluster models (R, k, d), for each replica of ``ridge`` (leading
    axis R, as every method here)."""
    R = ridge.b.shape[0]
    theta0 = float(p["ifca_init"]) * rng.standard_normal((R, k, ridge.d))
    run = run_ifca(ridge.loss, ridge.grad_f, theta0, n=ridge.n, eta=1.0 / (2.0 * L),
                   K=int(p["K"]), rng=rng, s=int(p["s"]), alpha=ridge.alpha,
                   metrics={"theta": _theta}, record=_recorded(p))
    th = run.metrics["theta"]  # (R, 2, k, d)
    assign = [assign_clusters(ridge.loss, th[:, h], ridge.n) for h in range(th.shape[1])]
    models = np.stack([personalised_models(th[:, h], a) for h, a in enumerate(assign)], axis=1)
    return models, assign[-1], th[:, -1]


def ifca_limit(ridge: RidgeQuadratics, theta: np.ndarray, assign: np.ndarray,
               max_iter: int = 100) -> tuple[np.ndarray, np.ndarray, bool]:
    """IFCA's limit from its final state (one replica: ``ridge`` unbatched, cluster models
    ``theta`` (k, d), assignments ``assign`` (n,)): each cluster model the alpha-weighted
    ridge optimum of its members, (sum alpha_i H_i)^{-1} sum alpha_i b_i, a cluster without
    members keeping its model, then every client re-assigned to the model of lowest own loss,
    until no client moves (Lloyd's iteration: the fixed point of IFCA with exact local
    minimisation and every client). Returns the models (k, d), the assignments (n,) and
    whether no client moved within ``max_iter`` rounds."""
    th, a = np.array(theta, dtype=float), np.asarray(assign)
    for _ in range(max_iter):
        for j in range(th.shape[0]):  # k cluster models (k <= 3), not a loop over clients
            m = a == j
            if m.any():
                th[j] = RidgeQuadratics(ridge.H[m], ridge.b[m], ridge.c[m],
                                        ridge.alpha[m]).consensus_optimum
        new = assign_clusters(ridge.loss, th[None], ridge.n)[0]
        if np.array_equal(new, a):
            return th, a, True
        a = new
    return th, a, False


def _fedavg(ridge: RidgeQuadratics, p: Mapping[str, Any], L: float,
            rng: np.random.Generator) -> np.ndarray:
    """FedAvg's global model at rounds K/2 and K, as (R, 2, n, d) personalised models, for
    each replica of ``ridge`` (leading axis R)."""
    R = ridge.b.shape[0]
    run = run_fedavg(ridge.loss, ridge.grad_f, np.zeros((R, ridge.d)), n=ridge.n,
                     eta=1.0 / (10.0 * L), K=int(p["K"]), rng=rng, s=int(p["s"]),
                     local_steps=5, alpha=ridge.alpha,
                     metrics={"theta": _theta}, record=_recorded(p))
    th = run.metrics["theta"]  # (R, 2, 1, d)
    return np.broadcast_to(th, (R, th.shape[1], ridge.n, ridge.d))


def _local(ridge: RidgeQuadratics, p: Mapping[str, Any], rng: np.random.Generator) -> np.ndarray:
    """Local's K gradient steps from 0 on each client's own ridge loss, the models at rounds
    K/2 and K, (2, n, d)."""
    tr = run_local_sgd(ridge, 1.0 / float(np.max(ridge.smoothness)), int(p["K"]),
                       np.zeros(ridge.d), 1, rng, record=_recorded(p), store_iterates=True)
    return tr.iterates[0]


def synthetic_draw(p: Mapping[str, Any], rng: np.random.Generator) -> dict[str, np.ndarray]:
    """One data draw of §5.1: every method's models, its metrics, the chosen t and k, the
    cross-validation curves, the convergence measure and the Fig. 1 matrices.

    ``change``: per method (:data:`METHODS`, then Local's ridge optima, which are exact: 0),
    the relative change |e_K - e_{K/2}|/e_K of the estimation error over the second half of
    the run (Karula's at the chosen t, IFCA's at the chosen k)."""
    data = generator(p).draw(rng)
    D = pairwise_lot([data.samples(i) for i in range(data.n)], int(p["N0"]),
                     str(p["D_reading"]), rng)
    full = data.ridge()
    L = float(full.L)
    train = _folds(data, rng)
    cv = data.ridge(train)  # leading axis: folds
    t_grid = np.asarray(p["t_grid"], dtype=float)
    G = t_grid.size
    # Karula: folds x t grid as replicas of one run, then every t on the full data
    rep = RidgeQuadratics(np.tile(cv.H, (G, 1, 1, 1)), np.tile(cv.b, (G, 1, 1)),
                          np.tile(cv.c, (G, 1)), np.tile(cv.alpha, (G, 1)))
    th = _karula(rep, D, np.repeat(t_grid, FOLDS), p, float(rep.L.max()), rng)[0][:, -1]
    cv_t = _held_out_error(data, train, th.reshape(G, FOLDS, data.n, data.d))
    it = int(np.argmin(cv_t))
    tb = RidgeQuadratics(*(np.broadcast_to(a, (G, *a.shape)) for a in
                           (full.H, full.b, full.c, full.alpha)))
    karula_all, exact_acc = _karula(tb, D, t_grid, p, L, rng, exact=(it,))  # (G, 2, n, d)
    # Karula's limit at every t: the constrained minimiser of sum_i alpha_i f_i over K(t, D)
    r1 = radii(1.0, D)
    optima = [quadratic_optimum(full.H, full.b, np.sqrt(t) * r1, full.alpha) for t in t_grid]
    karula_lim = np.stack([o.theta for o in optima])
    # IFCA: folds as replicas, one run per k
    k_grid = [int(k) for k in p["k_grid"]]
    cv_k = np.array([_held_out_error(data, train, _ifca(cv, k, p, float(cv.L.max()), rng)[0][:, -1])
                     for k in k_grid])
    k_best = k_grid[int(np.argmin(cv_k))]
    fb = RidgeQuadratics(full.H[None], full.b[None], full.c[None], full.alpha[None])
    ifca_models, assign, ifca_theta = _ifca(fb, k_best, p, L, rng)
    ifca_lim, ifca_lim_assign, ifca_settled = ifca_limit(full, ifca_theta[0], assign[0])
    halves = {"Local": _local(full, p, rng), "FedAvg": _fedavg(fb, p, L, rng)[0],
              "IFCA": ifca_models[0], "Karula": karula_all[it]}  # each (2, n, d)
    half_err = np.array([data.estimation_error(halves[m]).mean(-1) for m in METHODS])
    models = {m: halves[m][-1] for m in METHODS}
    err = half_err[:, -1]
    r2 = np.array([data.test_r2(models[m]).mean() for m in METHODS])
    opt = full.local_optima
    i, j = pair_index(data.n)
    true = ((data.theta_true[i] - data.theta_true[j]) ** 2).sum(-1)
    loc = ((opt[i] - opt[j]) ** 2).sum(-1)
    gd = ((models["Local"][i] - models["Local"][j]) ** 2).sum(-1)
    karula_err = data.estimation_error(karula_all).mean(-1)  # (G, 2)
    limits = {"Local": opt, "FedAvg": np.broadcast_to(full.consensus_optimum, opt.shape),
              "IFCA": personalised_models(ifca_lim[None], ifca_lim_assign[None])[0],
              "Karula": karula_lim[it]}
    return {
        "error": err, "r2": r2, "t": np.asarray(t_grid[it]), "k": np.asarray(k_best),
        "error_half": half_err[:, 0],
        "change": np.abs(err - half_err[:, 0]) / err,
        "local_optimum_error": data.estimation_error(opt).mean(),
        "local_optimum_r2": data.test_r2(opt).mean(),
        "spearman_local_gd": np.asarray(spearmanr(gd, true).statistic),
        "ifca_effective": effective_clusters(assign, k_best)[0],
        "ifca_in_use": np.asarray(np.unique(assign[0]).size),
        "cv_t": cv_t, "cv_k": cv_k,
        "karula_error_t": karula_err[:, -1],
        "karula_change_t": np.abs(karula_err[:, -1] - karula_err[:, 0]) / karula_err[:, -1],
        "spearman_D": np.asarray(spearmanr(D[i, j], true).statistic),
        "spearman_local": np.asarray(spearmanr(loc, true).statistic),
        "true_dist": true, "D": D[i, j], "local_dist": loc, "cluster": data.cluster,
        "small_clients": np.asarray((data.counts < data.d).mean()),
        "limit_error": np.array([data.estimation_error(limits[m]).mean() for m in METHODS]),
        "limit_r2": np.array([data.test_r2(limits[m]).mean() for m in METHODS]),
        "limit_distance": np.array([_rel_distance(models[m], limits[m]) for m in METHODS]),
        "karula_limit_error_t": data.estimation_error(karula_lim).mean(-1),
        "karula_distance_t": _rel_distance(karula_all[:, -1], karula_lim),
        "karula_objective_gap_t": (_objective(full, karula_all[:, -1])
                                   - _objective(full, karula_lim)),
        "limit_inaccurate": np.asarray(sum(o.status != "optimal" for o in optima)),
        "limit_violation": np.asarray(max(o.violation for o in optima)),
        "ifca_settled": np.asarray(ifca_settled),
        "exact_distance": exact_acc[..., 0].max(), "exact_violation": exact_acc[..., 1].max(),
    }


def _objective(ridge: RidgeQuadratics, theta: np.ndarray) -> np.ndarray:
    """sum_i alpha_i f_i(theta_i), the objective Karula minimises over K(t, D), per leading
    index of ``theta`` (..., n, d)."""
    return (ridge.alpha * ridge.loss(theta)).sum(-1)


def _rel_distance(theta: np.ndarray, limit: np.ndarray) -> np.ndarray:
    """||theta - limit||_F/||limit||_F over the last two axes: how far a method's K-round
    models are from the point its iteration converges to."""
    ax = (-2, -1)
    return np.sqrt(((theta - limit) ** 2).sum(axis=ax) / (limit ** 2).sum(axis=ax))


def run_synthetic(p: Mapping[str, Any], seed: np.random.SeedSequence) -> dict[str, np.ndarray]:
    """The synthetic experiment of erickson2025 §5.1 (digest §6.1), regenerated: Table 1
    (estimation error and test R^2 of Local, FedAvg, IFCA and Karula, +- 2 SE over data draws)
    and Fig. 1 (true model distances, the LOT surrogate D and the distances of the local
    estimates, with their Spearman correlations).

    Setting (the paper's where it gives one; the digest's (*) defaults otherwise, all options of
    :class:`pflbounds.problems.clustered_regression.ClusteredRegression`): n clients in three
    parameter clusters (means 1, 1.5, 2), d features, N_i ~ U{10..100}, ridge lam = 1e-6,
    alpha_i proportional to N_i (mean 1), L = max_i alpha_i lambda_max(H_i), full gradients
    (sigma = 0), s = n/3 clients per round for every method, theta^0 = 0, K rounds.

    * D_ij: the LOT surrogate on xi = (x, y), Euclidean cost, a reference sample of N_0 points
      from N(pooled mean, pooled covariance) (*), HiGHS plans, reading ``D_reading``
      (:mod:`pflbounds.problems.transport`).
    * Karula (Algorithm 1 as printed, Reading ``reading``, A by default) with eta = 3/(8L),
      projections in the loop by ``projection`` (:func:`loop_projector`: Dykstra warm-started
      from the previous round's increments, stopped when no entry moves by ``proj_tol`` = 1e-10
      over a sweep, its sweeps compiled by JAX, by default; or the certified dual method), and at
      the recorded rounds, for the replica of the chosen t, the exact projection (cvxpy +
      Clarabel); t by 5-fold cross-validation over ``t_grid`` (held-out squared error summed
      over clients), whose 20 runs (folds x t) take the certified dual projection at relative
      gap ``cv_proj_tol`` = 1e-8 (``cv_projection``): Dykstra to 1e-10 there costs about 0.6 s
      per round, and the two give models within about 1e-3 per entry, far below what moves a
      held-out error between grid points.
      K(t, D) = sqrt(t) K(1, D), so one projector serves every t: Pi_{K(t)}(Z) = sqrt(t)
      Pi_{K(1)}(Z/sqrt(t)) and the folds and the t grid run as replicas of one run. D is
      computed once on the full training data (before optimisation, as in the paper) and shared
      by the folds.
    * Local: gradient descent on each client's own ridge loss, step 1/max_i L_i
      (:func:`pflbounds.algorithms.collaborative.run_local_sgd`, exact gradients).
    * FedAvg: five local steps, eta = 1/(10L), alpha-weighted model averaging
      (:func:`pflbounds.algorithms.ifca.run_fedavg`).
    * IFCA: gradient averaging per cluster, eta = 1/(2L), k by the same 5-fold cross-validation
      over ``k_grid``, cluster models initialised N(0, ifca_init^2 I).

    Fig. 1's local estimates are the clients' own ridge optima H_i^{-1} b_i (what a client
    estimates alone; underdetermined but for lam when N_i < d); Table 1 also lists them as
    "Local (optimum)" beside Local's K gradient steps (the same budget as the other methods).

    Every method is run for K rounds and its models are recorded at K/2 and K: the relative
    change of the estimation error between the two (``change``) measures how far it is from
    converged in the quantity compared. Each method's limit is computed too, so that the
    orderings can be compared where K does not decide them: Local's is the ridge optima,
    FedAvg's the consensus ridge optimum, IFCA's the fixed point of cluster ridge optima and
    re-assignment reached from its last state (:func:`ifca_limit`), Karula's the constrained
    optimum theta*(t) = argmin sum_i alpha_i f_i(theta_i) over K(t, D)
    (:func:`pflbounds.problems.pairwise_constraints.quadratic_optimum`) at every t of the grid;
    ``limit_distance`` is ||theta^K - theta_lim||/||theta_lim|| per method.

    Metrics: estimation error (1/n) sum_i ||theta_i - theta_i^true|| (the digest's reading of
    "estimation error") and the mean over clients of the test R^2 (fresh test samples per
    client).

    ``seeds`` independent draws (one child seed each); arrays stacked on a first axis.
    """
    return stacked([synthetic_draw(p, np.random.default_rng(s))
                    for s in seed.spawn(int(p["seeds"]))])


def stacked(draws: list[Mapping[str, Any]]) -> dict[str, np.ndarray]:
    """The draws' values stacked on a first axis, key by key."""
    return {key: np.stack([np.asarray(d[key]) for d in draws]) for key in draws[0]}


def draws_args(p: Mapping[str, Any], seed: np.random.SeedSequence) -> tuple[str, int]:
    """The arguments of a shared computation of draws at grid point ``p``: its canonical JSON
    and the base seed's entropy (the check's own spawn key is not used, so every check of an
    experiment reads the same draws)."""
    entropy = int(seed.entropy) if isinstance(seed.entropy, int) else 0
    return canonical_json(dict(p)), entropy


def draws_seed(kind: str, params: str, entropy: int) -> np.random.SeedSequence:
    """The seed of the draws of experiment ``kind`` at grid point ``params`` (JSON): the base
    seed and the grid point only."""
    return np.random.SeedSequence(entropy, spawn_key=stable_words(kind + params))


@shared_computation("erickson2025.synthetic_draw", maxsize=32)
def _synthetic_draw(params: str, entropy: int, draw: int) -> dict[str, np.ndarray]:
    """Draw ``draw`` of the §5.1 draws at grid point ``params`` (JSON): the child ``draw`` of
    their seed, as ``seed.spawn`` in :func:`run_synthetic` gives it."""
    base = draws_seed("synthetic", params, entropy)
    child = np.random.SeedSequence(base.entropy, spawn_key=(*base.spawn_key, int(draw)),
                                   pool_size=base.pool_size)
    return synthetic_draw(json.loads(params), np.random.default_rng(child))


def synthetic_draws(p: Mapping[str, Any], seed: np.random.SeedSequence
                    ) -> dict[str, np.ndarray]:
    """The §5.1 draws at grid point ``p`` (:func:`run_synthetic`, bit for bit), seeded by the
    base seed and ``p`` only, each draw computed once per sweep
    (:func:`pflbounds.running.shared.shared_computation`): workers that ask for them at once
    compute different draws side by side and read the others', and a rerun of unchanged code
    reads them all."""
    params, entropy = draws_args(p, seed)
    return stacked(_synthetic_draw.each([((params, entropy, j), {})
                                         for j in range(int(p["seeds"]))]))


SYN_DRAWS = 26
"""The draws of every §5.1 check (one count: they all read the same draws): the most that a
comparison the 16-draw pilot settles within the budget needs for power 0.99
(:data:`pflbounds.papers.erickson2025.experiments.common.PILOT16_SEED`; the pilot is recorded
in ``experiments/pilot16.json``)."""
SYN_BUDGET, SYN_BUDGET_NOTE = 67, ("about 106 s per draw with two draws at once on the 2-core "
                                   "machine in the pilot; two hours for the draws every §5.1 "
                                   "check shares: 67 draws")
SYN = {**SYNTHETIC, "seeds": SYN_DRAWS}  # the grid point of the §5.1 checks
SYN_QUICK = {**SYNTHETIC, "n": 9, "d": 10, "s": 3, "K": 200, "N0": 30,  # their quick point
             "t_grid": [0.1, 1.0], "k_grid": [1, 3], "seeds": SYN_DRAWS}
