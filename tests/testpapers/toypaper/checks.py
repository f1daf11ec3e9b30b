"""Checks of the toy paper: minibatch SGD on f(x) = h/2 ||x||^2, run on the iteration driver.

With a = 1 - eta h and minibatch noise xi_t ~ N(0, (sigma^2/(B d)) I_d), the driver carries
three state arrays: the iterate x, the weighted noise sum s_k = sum_{t<k} a^{k-1-t} xi_t and
its square sum q_k = sum_{t<k} a^{2(k-1-t)} xi_t^2, so that x_k = a^k x_0 - eta s_k exactly.
Bounds built from s_k and q_k are data-dependent: computed per replica.

* ``toypaper.theorem1``: Theorem 1 printed, E[f(x^K)] - f^* against the bound (expectation).
* ``toypaper.sure``: f(x_k) <= h (a^{2k} ||x_0||^2 + eta^2 ||s_k||^2), from (u + v)^2 <=
  2u^2 + 2v^2: true in every replica (``per_replica``). Its planted version drops the 2.
* ``toypaper.paired``: f(x_k) <= a^{2k} f(x_0) + c eta^2 h/2 sum q_k, whose expectation is
  E f(x_k) when c = 1: with c = 1.5 it holds in expectation (``paired``) though not in every
  replica; the planted version takes c = 0.5. It starts at the optimum (x_0 = 0), so that the
  zero-mean cross term a^k x_0 eta s_k does not drown the gap at small k.
* ``toypaper.whp``: |x_K - a^K x_0| <= sqrt(2 v_K ln(2/delta)) in one dimension, v_K the
  variance of x_K: a Gaussian tail bound that holds with probability >= 1 - delta; the
  planted version claims one standard deviation.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from pflbounds.algorithms import Costs, iterate
from pflbounds.checking import Check, CheckKind, Verdict, register
from pflbounds.symbolic import catalog, evaluate

KS = list(range(0, 41, 4))


def run_minibatch_sgd(p: Mapping[str, Any], R: int, seed: np.random.SeedSequence):
    """Minibatch SGD with state (x, s, q) on the driver; rounds every b steps."""
    rng = np.random.default_rng(seed)
    h, eta, B, b, d = p["h"], p["eta"], p["B"], p["b"], p.get("d", 1)
    sd = np.sqrt(p["sigma2"] / (B * d))
    a = 1.0 - eta * h
    state = {"x": np.full((R, d), p["x0"]), "s": np.zeros((R, d)), "q": np.zeros((R, d))}

    def step(st: dict, k: int, costs: Costs) -> dict:
        xi = sd * rng.standard_normal((R, d))
        costs.add("samples", B)
        if (k + 1) % b == 0:
            costs.add("rounds", 1)
        return {"x": a * st["x"] - eta * xi, "s": a * st["s"] + xi, "q": a * a * st["q"] + xi**2}

    metrics = {
        "f": lambda st: 0.5 * h * (st["x"] ** 2).sum(-1),
        "s2": lambda st: (st["s"] ** 2).sum(-1),
        "q": lambda st: st["q"].sum(-1),
        "x": lambda st: st["x"][:, 0].copy(),
    }
    return iterate(state, step, p.get("K", KS[-1]), metrics=metrics, record=KS,
                   counters=("samples", "rounds")), a


def sim_theorem1(p: Mapping[str, Any], R: int, seed: np.random.SeedSequence) -> dict:
    run, _ = run_minibatch_sgd(p, R, seed)
    ks = run.ks.astype(float)[1:]  # the theorem speaks of K >= 1
    f0 = 0.5 * p["h"] * p.get("d", 1) * p["x0"] ** 2
    r = catalog.get("toypaper.theorem1")
    bound = evaluate(r, p.get("form", "printed"), eta=p["eta"], mu=p["h"], L=p["h"], K=ks,
                     Delta0=f0, sigma2=p["sigma2"], B=p["B"]).value
    return {"ks": ks, "samples": run.metrics["f"][:, 1:], "bound": np.asarray(bound),
            "rounds": run.costs["rounds"][0, 1:]}


def sim_sure(p: Mapping[str, Any], R: int, seed: np.random.SeedSequence) -> dict:
    run, a = run_minibatch_sgd(p, R, seed)
    ks = run.ks.astype(float)
    c = p.get("c", 2.0)  # 2 from (u + v)^2 <= 2u^2 + 2v^2; the planted claim takes 1
    x0sq = p.get("d", 1) * p["x0"] ** 2
    bound = 0.5 * c * p["h"] * (a ** (2 * ks) * x0sq + p["eta"] ** 2 * run.metrics["s2"])
    return {"ks": ks, "samples": run.metrics["f"], "bound_samples": bound}


def sim_paired(p: Mapping[str, Any], R: int, seed: np.random.SeedSequence) -> dict:
    run, a = run_minibatch_sgd(p, R, seed)
    ks = run.ks.astype(float)
    f0 = 0.5 * p["h"] * p.get("d", 1) * p["x0"] ** 2
    bound = a ** (2 * ks) * f0 + p["c"] * 0.5 * p["h"] * p["eta"] ** 2 * run.metrics["q"]
    return {"ks": ks, "samples": run.metrics["f"], "bound_samples": bound}


def sim_whp(p: Mapping[str, Any], R: int, seed: np.random.SeedSequence) -> dict:
    run, a = run_minibatch_sgd({**p, "d": 1}, R, seed)
    ks = run.ks.astype(float)[-1:]  # one k: the claim is about a single time
    dev = np.abs(run.metrics["x"][:, -1:] - a**ks * p["x0"])
    v = p["eta"] ** 2 * p["sigma2"] / p["B"] * (1 - a ** (2 * ks)) / (1 - a * a)
    radius = np.sqrt(v) * p.get("z", np.sqrt(2 * np.log(2 / p["delta"])))
    return {"ks": ks, "samples": dev, "bound_samples": np.broadcast_to(radius, dev.shape)}


BASE = {"h": 1.0, "eta": 0.2, "B": 4, "b": 5, "sigma2": 1.0, "x0": 2.0}

CHECKS = [
    Check("toypaper.theorem1", "Theorem 1 (printed) on minibatch SGD", CheckKind.BOUND_HOLDS,
          Verdict.HOLDS, sim_theorem1, grid=({**BASE, "d": 3},), engine="mc", replicas=400,
          block_size=200, result_id="toypaper.theorem1", form="printed"),
    Check("toypaper.sure", "A per-replica bound that holds surely", CheckKind.BOUND_HOLDS,
          Verdict.HOLDS, sim_sure, grid=({**BASE, "d": 2},), engine="mc", replicas=300,
          block_size=100, bound_mode="per_replica"),
    Check("toypaper.paired", "A data-dependent bound that holds in expectation",
          CheckKind.BOUND_HOLDS, Verdict.HOLDS, sim_paired,
          grid=({**BASE, "c": 1.5, "x0": 0.0},),
          engine="mc", replicas=2000, block_size=1000, bound_mode="paired"),
    Check("toypaper.whp", "A Gaussian tail bound, with probability 1 - delta",
          CheckKind.HOLDS_WITH_PROBABILITY, Verdict.HOLDS, sim_whp,
          grid=({**BASE, "delta": 0.1},), engine="mc", replicas=1000, block_size=500,
          delta=0.1),
]

for _c in CHECKS:
    register(_c)
