"""Code erickson2025's experiments share: their claims as checks on shared draws,
comparisons between methods decided on paired differences
(:mod:`pflbounds.checking.comparison`) and bounds on a mean over the draws; the draws come
from :mod:`pflbounds.papers.erickson2025.checks.common`. The comparisons' draws are planned
from a 16-draw pilot (:func:`syn_plan`; the pilot is recorded in ``pilot16.json``)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

from pflbounds.checking import Check, CheckKind, Verdict
from pflbounds.checking.draws import DrawPlan
from pflbounds.checking.pilot import pilot_draw_plan
from pflbounds.papers.erickson2025.checks.common import (
    METHODS,
    SYN,
    SYN_BUDGET,
    SYN_BUDGET_NOTE,
    SYN_DRAWS,
    SYN_QUICK,
    synthetic_draws,
)
from pflbounds.symbolic.result import Result

PILOT16_SEED = 1003
"""The base seed of the 16-draw pilot the comparisons' draws are planned from (its streams
are not those of the suite seed 2025 or the stability seeds 2026-2028)."""


def syn_plan(pair: str, mean: float, lower: float, sd: float) -> DrawPlan:
    """The plan of a §5.1 comparison from the 16-draw pilot at :data:`PILOT16_SEED`
    (:func:`pflbounds.checking.pilot.pilot_draw_plan`): the shared :data:`SYN_DRAWS` draws,
    for ``lower`` (the lower 90% limit of ``pair``'s pilot mean ``mean`` in magnitude) with
    ``sd`` (its pilot sd times 1.32), power 0.99. A comparison that needs more draws than the
    budget allows for that power is not powered: its verdict is INCONCLUSIVE."""
    return pilot_draw_plan(SYN_DRAWS, pair, mean, lower, sd, n0=16, seed=PILOT16_SEED,
                           budget_draws=SYN_BUDGET, budget_note=SYN_BUDGET_NOTE)


def pm2se(x: np.ndarray, fmt: str) -> str:
    """mean ± 2 standard errors of ``x``, formatted with ``fmt``."""
    x = np.asarray(x, dtype=float)
    se = x.std(ddof=1) / np.sqrt(x.size) if x.size > 1 else float("nan")
    return f"{x.mean():{fmt}} ± {2 * se:{fmt}}"


Draws = Callable[[Mapping[str, Any], np.random.SeedSequence], dict[str, np.ndarray]]


def paired(columns: Callable[[dict], np.ndarray], draws: Draws
           ) -> Callable[[Mapping[str, Any], int, np.random.SeedSequence], dict]:
    """simulate() of a comparison: ``R`` shared draws at ``p`` (``seeds = R``) and, as
    ``draws`` (R, M), the compared methods' metric per draw (``columns`` of the draws)."""

    def simulate(p: Mapping[str, Any], R: int, seed: np.random.SeedSequence) -> dict:
        out = draws({**p, "seeds": int(R)}, seed)
        return {"draws": np.asarray(columns(out), dtype=float).reshape(int(R), -1)}

    return simulate


def columns_of(key: str, methods: tuple[str, ...]) -> Callable[[dict], np.ndarray]:
    """The columns of ``out[key]`` (draws x :data:`METHODS`) of ``methods``, in order."""
    idx = [METHODS.index(m) for m in methods]
    return lambda out: np.asarray(out[key])[:, idx]


def synthetic_comparison(cid: str, title: str, expected: Verdict, methods: tuple[str, ...],
                         columns: Callable[[dict], np.ndarray], plan: DrawPlan, desc: str,
                         ylabel: str, *, claim: Result, order: str = "increasing") -> Check:
    """A §5.1 comparison check of ``claim`` (its printed form): ``methods`` in the claimed
    order of their metric (``columns`` of the shared draws), decided on paired differences
    over the ``plan``'s draws (:mod:`pflbounds.checking.comparison`)."""
    return Check("erickson2025." + cid, title, CheckKind.COMPARISON, expected,
                 paired(columns, synthetic_draws), grid=(SYN,), quick_grid=(SYN_QUICK,),
                 engine="mc", methods=methods, order=order, plan=plan, result_id=claim.id,
                 form="printed", xlabel="method", ylabel=ylabel, description=desc,
                 requires=("jax",) if SYN["backend"] == "jax" else (), cost="long")


def synthetic_bound(cid: str, title: str, expected: Verdict,
                    measure: Callable[[dict], tuple[float, float]], desc: str, ylabel: str, *,
                    claim: Result, plot: Callable[[Any], list[dict]] | None = None) -> Check:
    """A §5.1 check of ``claim`` (printed): ``measure`` of the shared draws (a mean over the
    draws, and the bound) is at most the bound."""

    def simulate(p: Mapping[str, Any], R: int, seed: np.random.SeedSequence) -> dict:
        out = synthetic_draws(p, seed)
        mean, bnd = measure(out)
        return {"mean": np.atleast_1d(float(mean)), "bound": np.atleast_1d(float(bnd)),
                "ks": np.zeros(1), **out}

    return Check("erickson2025." + cid, title, CheckKind.BOUND_HOLDS, expected, simulate,
                 grid=(SYN,), quick_grid=(SYN_QUICK,), engine="exact", rel_tol=0.0,
                 result_id=claim.id, form="printed", plot=plot, xlabel="draws mean",
                 ylabel=ylabel, description=desc,
                 requires=("jax",) if SYN["backend"] == "jax" else (), cost="long")
