"""Toy checks with known answers, shared by the checking and running tests.

Importing this module registers every check in :data:`CHECKS` (so worker processes that
import it can find them by id). Tests re-register them through a fixture and remove them
afterwards.

Monte Carlo metric: x_k = theta / k + sigma * noise, so E[x_k] = theta / k exactly.
Exact metric: E[x_k] = theta / k, returned as a closed form.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from pflbounds.checking import Check, CheckKind, Verdict, mc_block, register

KS = np.array([1, 2, 4, 8, 16, 32, 64], dtype=np.float64)
THETA = 1.0
SIGMA = 0.1


def bound_curve(params: Mapping[str, Any], ks: np.ndarray) -> np.ndarray:
    """``c * theta / k**p`` with c and p taken from the grid point."""
    return params.get("c", 1.0) * THETA / ks ** params.get("p", 1.0)


def mc_curve(params: Mapping[str, Any], n: int, ss: np.random.SeedSequence) -> dict:
    """Monte Carlo evidence of x_k = theta/k + sigma*noise, with a bound c*theta/k**p."""
    rng = np.random.default_rng(ss)
    sigma = params.get("sigma", SIGMA)
    samples = THETA / KS + sigma * rng.standard_normal((n, KS.size))
    return {"ks": KS, **mc_block(samples), "bound": bound_curve(params, KS)}


def exact_curve(params: Mapping[str, Any], n: int, ss: np.random.SeedSequence) -> dict:
    """Exact evidence E[x_k] = theta/k, with a bound c*theta/k**p."""
    return {"ks": KS, "mean": THETA / KS, "bound": bound_curve(params, KS)}


def exact_erratum(params: Mapping[str, Any], n: int, ss: np.random.SeedSequence) -> dict:
    """Exact evidence with a printed bound c_printed/k and a corrected bound c_corrected/k."""
    return {"ks": KS, "mean": THETA / KS, "bound_printed": params["c_printed"] * THETA / KS,
            "bound_corrected": params["c_corrected"] * THETA / KS}


def mc_erratum(params: Mapping[str, Any], n: int, ss: np.random.SeedSequence) -> dict:
    """Monte Carlo version of :func:`exact_erratum`."""
    ev = mc_curve(params, n, ss)
    del ev["bound"]
    ev["bound_printed"] = params["c_printed"] * THETA / KS
    ev["bound_corrected"] = params["c_corrected"] * THETA / KS
    return ev


def exact_geometric(params: Mapping[str, Any], n: int, ss: np.random.SeedSequence) -> dict:
    """Linear convergence: E = 5 * rho**k."""
    ks = np.arange(0, 40, dtype=np.float64)
    return {"ks": ks, "mean": 5.0 * params["rho"] ** ks}


def exact_cost(params: Mapping[str, Any], n: int, ss: np.random.SeedSequence) -> dict:
    """Scaling: cost = 100 * n**(-1) * (1 + eps) (eps: a small deterministic perturbation)."""
    return {"cost": 100.0 / params["n"] * (1.0 + params.get("eps", 0.0))}


def mc_cost(params: Mapping[str, Any], n: int, ss: np.random.SeedSequence) -> dict:
    """Scaling under noise: per-replica cost 100/n * (1 + 0.2 * noise)."""
    rng = np.random.default_rng(ss)
    return {"cost": 100.0 / params["n"] * (1.0 + 0.2 * rng.standard_normal(n))}


def residual(params: Mapping[str, Any], n: int, ss: np.random.SeedSequence) -> dict:
    """An identity whose residual is the grid point's ``r``."""
    return {"residual": np.array([0.0, params["r"]])}


def mc_probability(params: Mapping[str, Any], n: int, ss: np.random.SeedSequence) -> dict:
    """Indicator of a rare event with probability q, bound b; metric in [0, 1]."""
    rng = np.random.default_rng(ss)
    hits = (rng.random(n) < params["q"]).astype(np.float64)
    return {**mc_block(hits), "bound": np.array(params["b"]), "support": np.array([0.0, 1.0])}


def agents(params: Mapping[str, Any], n: int, ss: np.random.SeedSequence) -> dict:
    """Per-agent curves, shape (4 agents, K): E = a*theta/k for agent a = 1..4; bound
    c*a*theta/k, divided by 10 for agent ``bad`` (when given). Exact or Monte Carlo."""
    a = np.arange(1.0, 5.0)[:, None]
    mean = a * THETA / KS
    bound = params["c"] * a * THETA / KS
    if "bad" in params:
        bound[params["bad"]] /= 10.0
    if not params.get("mc"):
        return {"ks": KS, "mean": mean, "bound": bound}
    rng = np.random.default_rng(ss)
    samples = mean + SIGMA * rng.standard_normal((n, *mean.shape))
    return {"ks": KS, "samples": samples, "bound": bound}


def boom(params: Mapping[str, Any], n: int, ss: np.random.SeedSequence) -> dict:
    """Always fails."""
    raise ValueError("boom at the toy simulation")


def _c(id_: str, kind: CheckKind, expected: Verdict, simulate, grid, **kw) -> Check:
    return Check(id=f"toy.{id_}", title=id_.replace("_", " "), kind=kind, expected=expected,
                 simulate=simulate, grid=tuple(grid), **kw)


B, L, R, S, I, E = (CheckKind.BOUND_HOLDS, CheckKind.LOWER_BOUND, CheckKind.RATE,
                    CheckKind.SCALING, CheckKind.IDENTITY, CheckKind.ERRATUM)
H, V, X = Verdict.HOLDS, Verdict.VIOLATED, Verdict.INCONCLUSIVE
MC = {"engine": "mc", "replicas": 2000, "block_size": 500}
NS = [{"n": n} for n in (1, 2, 4, 8, 16, 32)]

CHECKS: list[Check] = [
    # bound_holds, exact engine
    _c("exact_true", B, H, exact_curve, [{"c": 2.0}, {"c": 1.0}]),
    _c("exact_div10", B, V, exact_curve, [{"c": 2.0}, {"c": 0.1}]),
    _c("exact_exponent", B, V, exact_curve, [{"c": 1.0, "p": 2.0}]),
    # bound_holds, Monte Carlo
    _c("mc_true", B, H, mc_curve, [{"c": 3.0}, {"c": 2.5}], **MC),
    _c("mc_div10", B, V, mc_curve, [{"c": 0.1}], **MC),
    _c("mc_exponent", B, V, mc_curve, [{"c": 1.0, "p": 2.0}], **MC),
    _c("mc_equal", B, X, mc_curve, [{"c": 1.0}], **MC),
    # lower bounds
    _c("exact_lower", L, H, exact_curve, [{"c": 0.5}, {"c": 1.0}]),
    _c("exact_lower_wrong", L, V, exact_curve, [{"c": 1.5}]),
    _c("mc_lower", L, H, mc_curve, [{"c": 0.3}], **MC),
    _c("mc_lower_wrong", L, V, mc_curve, [{"c": 2.0}], **MC),
    # rates
    _c("exact_rate", R, H, exact_curve, [{}], predicted=-1.0, tolerance=0.01),
    _c("exact_rate_wrong", R, V, exact_curve, [{}], predicted=-0.5, tolerance=0.1),
    _c("mc_rate", R, H, mc_curve, [{"sigma": 0.01}], predicted=-1.0, tolerance=0.1, **MC),
    _c("mc_rate_wrong", R, V, mc_curve, [{}], predicted=-0.5, tolerance=0.1, **MC),
    _c("semilog_rate", R, H, exact_geometric, [{"rho": 0.9}], predicted=0.9,
       tolerance=1e-9, rate_axis="semilog"),
    _c("semilog_rate_wrong", R, V, exact_geometric, [{"rho": 0.9}], predicted=0.95,
       tolerance=0.01, rate_axis="semilog"),
    # scaling
    _c("exact_scaling", S, H, exact_cost, NS, predicted=-1.0, tolerance=1e-9, x_param="n"),
    _c("exact_scaling_wrong", S, V, exact_cost, NS, predicted=-0.5, tolerance=0.1,
       x_param="n"),
    _c("mc_scaling", S, H, mc_cost, NS, predicted=-1.0, tolerance=0.05, x_param="n", **MC),
    _c("mc_scaling_wrong", S, V, mc_cost, NS, predicted=-0.5, tolerance=0.1, x_param="n",
       **MC),
    # identity
    _c("identity", I, H, residual, [{"r": 1e-15}, {"r": -3e-14}], tolerance=1e-12),
    _c("identity_wrong", I, V, residual, [{"r": 1e-15}, {"r": 1e-3}], tolerance=1e-12),
    # errata
    _c("erratum", E, Verdict.CONFIRMED, exact_erratum,
       [{"c_printed": 0.5, "c_corrected": 2.0}]),
    _c("erratum_not", E, Verdict.NOT_CONFIRMED, exact_erratum,
       [{"c_printed": 2.0, "c_corrected": 3.0}]),
    _c("mc_erratum", E, Verdict.CONFIRMED, mc_erratum,
       [{"c_printed": 0.5, "c_corrected": 2.0}], **MC),
    _c("mc_erratum_not", E, Verdict.NOT_CONFIRMED, mc_erratum,
       [{"c_printed": 2.0, "c_corrected": 3.0}], **MC),
    # probabilities with a known support
    _c("mc_probability", B, H, mc_probability, [{"q": 0.0, "b": 0.01}], **MC),
    # per-agent evidence with shape (agents, K)
    _c("agents", B, H, agents, [{"c": 2.0}]),
    _c("agents_bad", B, V, agents, [{"c": 2.0}, {"c": 2.0, "bad": 2}]),
    _c("mc_agents", B, H, agents, [{"c": 3.0, "mc": True}], **MC),
    _c("mc_agents_bad", B, V, agents, [{"c": 3.0, "mc": True, "bad": 2}], **MC),
    # errors
    _c("boom", B, Verdict.ERROR, boom, [{}]),
]


def register_all() -> None:
    """(Re-)register every toy check."""
    for c in CHECKS:
        register(c, replace=True, module=__name__)


def unregister_all() -> None:
    """Remove every toy check from the registry."""
    from pflbounds.checking import unregister

    for c in CHECKS:
        unregister(c.id)


register_all()
