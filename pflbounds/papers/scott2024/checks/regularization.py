"""scott2024 P12 on population B (digest §6.3): regularization tightens Theorem 3.2's bound.

Per replica, one draw of the n observed clients of population B (checks/population_b.py:
noisy halfspaces, features psi(x, y) = y x, linear embedding and hypernetwork, l = 3) and one
proof-form PeFLL-train run per lambda = lambda_h = lambda_v = lambda_theta on the logistic
loss (same data, same keys, same eta_0 for every lambda: paired). The trained networks are
scored with the 0-1 loss by Theorem 3.2 (corrected: losses at theta~ ~ N(theta, alpha_theta
I), KL = ||mu||^2/(2 alpha)) over a data-independent alpha-grid with delta/|grid|; the bound
of a run is its minimum over the grid. The claim (digest P12): the grid-optimised bound does
not grow from lambda = 0 to moderate lambda (||eta||^2 and ||theta||^2 shrink, emp barely
moves); a very large lambda underfits (reported, not claimed).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from pflbounds.checking import Check, CheckKind, Verdict, requiring
from pflbounds.extras import lazy_module
from pflbounds.papers.scott2024.checks.population_b import (
    NoisyHalfspaces,
    _psi,
    _thetas,
    grid_terms,
    population,
)
from pflbounds.reporting.figure_specs import figure, series

jax = lazy_module("jax", "scott2024's networks")
jnp = lazy_module("jax.numpy", "scott2024's networks")
pefll = lazy_module("pflbounds.algorithms.pefll", "scott2024's networks")
models = lazy_module("pflbounds.algorithms.client_models", "scott2024's networks")
hn = lazy_module("pflbounds.algorithms.hypernetworks", "scott2024's networks")

P = "scott2024."
ALPHA_NET12 = (1e-3, 1e-2, 1e-1, 1.0, 10.0)
ALPHA_THETA12 = (1e-3, 1e-2, 1e-1, 1.0, 10.0, 100.0)
GRID12 = tuple((a, t) for a in ALPHA_NET12 for t in ALPHA_THETA12)
"""The data-independent alpha-grid of P12, fixed before any data: (alpha_h = alpha_v,
alpha_theta)."""
FRESH = 4000
ER_GRID_REPLICAS = 4
"""The future risk at every grid point (the figure over the alpha-grid) is measured on the
first replicas only (FRESH fresh clients per grid point)."""
TERMS = ("bound", "emp", "meta", "sample", "er_tilde")


def fresh_risk(pop: NoisyHalfspaces, nets: tuple[np.ndarray, np.ndarray], a_net: float,
               a_theta: float, m: int, rng: np.random.Generator) -> float:
    """er: the mean exact risk of theta~ on ``FRESH`` fresh clients, each with a fresh sample
    of m points for its descriptor and its own network draw."""
    w = pop.clients(rng, (FRESH,))
    _, _, psi = _psi(pop, rng, w, m)
    total = 0.0
    for part in np.array_split(np.arange(FRESH), 8):
        _, tilde = _thetas(rng, psi[part], nets, a_net, a_theta, 1)
        total += float(pop.risk(tilde[0], w[part]).sum())
    return total / FRESH


def simulate_p12(p: Mapping[str, Any], R: int, seed: np.random.SeedSequence) -> dict:
    """P12: per replica and lambda (``lams``), Theorem 3.2's bound minimised over GRID12 for
    the trained networks; samples = bound(lambda) - bound(0) for ``lam_claim`` (paired: the
    same clients, keys and evaluation draws), bound 0. Extra evidence: the means of the terms
    at each run's best grid point per lambda, and every grid point's terms and future risk at
    ``lam_grid``."""
    pop = population(p)
    n, m, dim, l = int(p["n"]), int(p["m"]), int(p["p"]), int(p["l"])
    kids = seed.spawn(R + 1)
    rngs = [np.random.default_rng(s) for s in kids[:R]]
    draws = []
    for rng in rngs:
        w = pop.clients(rng, (n,))
        x, y, psibar = _psi(pop, rng, w, m)
        draws.append((w, x, y, psibar))
    X = np.stack([d[1] for d in draws])
    Y = np.stack([d[2] for d in draws])
    data = pefll.ClientData(jnp.asarray(Y[..., None] * X), jnp.asarray(X), jnp.asarray(Y))
    arch = pefll.Architecture("pefll", models.BinaryLogistic(dim), hn.linear_hypernetwork(l, dim),
                              hn.linear_embedding(dim, l))
    keys = jax.random.split(hn.key_of(kids[R]), R)
    lams = [float(v) for v in p["lams"]]
    at = lams.index(float(p["lam_grid"]))
    best = {k: np.empty((R, len(lams))) for k in (*TERMS, "er", "eta2", "theta2")}
    grid = {k: np.empty((R, len(GRID12))) for k in TERMS}
    grid["er"] = np.empty((min(R, ER_GRID_REPLICAS), len(GRID12)))
    for j, lam in enumerate(lams):
        cfg = pefll.TrainConfig(T=int(p["T"]), c=int(p["c"]), k=int(p["k"]),
                                beta=float(p["beta"]), lam_h=lam, lam_v=lam, lam_theta=lam)
        eta = pefll.train(arch, data, cfg, keys)
        H = np.asarray(eta["eta"]["h"][0]["W"])
        A = np.asarray(eta["eta"]["v"][0]["W"])
        for r, (w, x, y, psibar) in enumerate(draws):
            nets = (H[r], A[r])
            rng = np.random.default_rng([int(p["instance"]), 12, r])  # the same for every lambda
            t = grid_terms(pop, nets, w, x, y, psibar, float(p["delta"]), rng, GRID12)
            g = int(np.argmin(t["bound"]))
            for k in TERMS:
                best[k][r, j] = t[k][g]
            best["er"][r, j] = fresh_risk(pop, nets, *GRID12[g], m, rng)
            best["eta2"][r, j] = float((H[r] ** 2).sum() + (A[r] ** 2).sum())
            best["theta2"][r, j] = float(((psibar @ (H[r] @ A[r]).T) ** 2).sum(1).mean())
            if j == at:
                for k in TERMS:
                    grid[k][r] = t[k]
                if r < ER_GRID_REPLICAS:
                    grid["er"][r] = [fresh_risk(pop, nets, a_net, a_th, m, rng)
                                     for a_net, a_th in GRID12]
    rhs = best["bound"]
    claim = [lams.index(float(v)) for v in p["lam_claim"]]
    return {"samples": rhs[:, claim] - rhs[:, :1], "bound": np.zeros(len(claim)),
            "ks": np.array([lams[j] for j in claim]), "lams": np.array(lams),
            **{f"mean_{k}": v.mean(axis=0) for k, v in best.items()},
            **{f"grid_{k}": v.mean(axis=0) for k, v in grid.items()}}


def plot_p12(outcome) -> list[dict]:
    """The grid-optimised bound and its terms against lambda, with the future risk."""
    figs = []
    for ev in outcome.evidence:
        lams = np.asarray(ev["lams"], dtype=float)
        x = np.where(lams > 0, lams, lams[lams > 0].min() / 10)  # lambda = 0 drawn a decade left
        items = [series("bound emp + meta + sample", x, ev["mean_bound"], "bound", group="b"),
                 series("emp (0-1, theta~)", x, ev["mean_emp"], "reference", group="emp"),
                 series("meta term", x, ev["mean_meta"], "reference", group="meta"),
                 series("sample term", x, ev["mean_sample"], "reference", group="sample"),
                 series("er (future clients)", x, ev["mean_er"], "measured", group="b")]
        fig = figure("curves", f"{outcome.check_id}: Theorem 3.2 against the regularization",
                     "lambda_h = lambda_v = lambda_theta (0 drawn a decade left)",
                     "risk / bound term", items, logx=True, logy=False)
        fig["caption"] = ("Population B, trained networks; each run's bound is its minimum "
                          "over the alpha-grid (delta/|grid|); means over the replicas.")
        rows = [[f"{lam:g}", *(f"{float(ev[f'mean_{k}'][j]):.3g}"
                               for k in ("bound", "emp", "meta", "sample", "er", "eta2",
                                         "theta2"))]
                for j, lam in enumerate(lams)]
        lam_g = float(ev["params"]["lam_grid"])
        at = np.asarray(ALPHA_THETA12, dtype=float)
        gitems = []
        for i, a_net in enumerate(ALPHA_NET12):
            sl = slice(i * len(at), (i + 1) * len(at))
            tag = f"alpha_h = alpha_v = {a_net:g}"
            gitems += [series("er (future clients)", at, np.asarray(ev["grid_er"])[sl],
                              "measured", group=tag),
                       series("bound emp + meta + sample", at,
                              np.asarray(ev["grid_bound"])[sl], "bound", group=tag)]
        gfig = figure("curves", f"{outcome.check_id}: future risk against Theorem 3.2 over "
                      f"the alpha-grid (lambda = {lam_g:g})", "alpha_theta", "0-1 risk",
                      gitems, logx=True, logy=True)
        gfig["caption"] = ("Population B, trained networks, means over the replicas (er: over "
                           f"the first {ER_GRID_REPLICAS}), delta/{len(GRID12)} in both log "
                           "terms; one colour per alpha_h = alpha_v. The terms emp, meta and "
                           "sample of every grid point are in the evidence (grid_emp, "
                           "grid_meta, grid_sample).")
        figs += [fig, gfig, {"kind": "table", "title": f"{outcome.check_id}: the bound's terms per "
                       "lambda (means over replicas)",
                       "columns": ["lambda", "bound", "emp", "meta", "sample", "er",
                                   "||eta||^2", "mean ||theta||^2"], "rows": rows}]
    return figs


_P12 = {"instance": 11, "p": 5, "q": 2, "l": 3, "rho": 0.05, "m": 100, "n": 200,
        "delta": 0.05, "T": 1000, "c": 10, "k": 5, "beta": 0.1,
        "lams": [0.0, 1e-3, 1e-2, 1e-1], "lam_claim": [1e-2], "lam_grid": 1e-2}

CHECKS = requiring(("jax",), [
    Check(
        P + "P12", "Regularization tightens Theorem 3.2's bound (population B, trained)",
        CheckKind.BOUND_HOLDS, Verdict.HOLDS, simulate_p12, grid=(_P12,),
        quick_grid=({**_P12, "T": 200},), engine="mc", replicas=32, block_size=32,
        result_id=P + "theorem3_2", form="corrected", plot=plot_p12,
        xlabel="lambda", ylabel="bound(lambda) - bound(0), grid-optimised, per replica",
        description="Per replica one draw of n = 200 observed clients (m = 100) of "
                    "population B and one proof-form PeFLL-train run (logistic loss, T = 1000, "
                    "c = 10, k = 5, beta = 0.1) per lambda = lambda_h = lambda_v = lambda_theta "
                    "in {0, 1e-3, 1e-2, 1e-1}, same data, keys and evaluation draws (32 "
                    "replicas): Theorem 3.2 (0-1 loss, corrected) minimised over a 5 x 6 "
                    "alpha-grid with delta/30. Claim: the bound at the moderate lambda = 1e-2 "
                    "is at most the bound at lambda = 0: the mean paired difference "
                    "bound(1e-2) - bound(0) is <= 0 (upper limit); lambda = 1e-3 and 1e-1 (the "
                    "trivial predictor theta = 0) are reported. n = 200, not 1000: the change "
                    "comes from the meta and sample terms, which shrink like n^(-1/2); at n = "
                    "1000, 40 draws gave -0.0047 [-0.0112, 0.0018] (INCONCLUSIVE). The bound "
                    "stays above 0.5 (the risk of a coin) and the future risk er rises with "
                    "lambda here: the bound tightens, the predictor does not improve"),
])
