"""Code erickson2025's experiments share: their claims as checks on shared draws,
comparisons between methods decided on paired differences
(:mod:`pflbounds.checking.comparison`) and bounds on a mean over the draws; the draws come
from :mod:`pflbounds.papers.erickson2025.checks.common`."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

from pflbounds.checking import Check, CheckKind, Verdict
from pflbounds.checking.draws import DrawPlan
from pflbounds.papers.erickson2025.checks.common import (
    METHODS,
    SYN,
    SYN_QUICK,
    synthetic_draws,
)
from pflbounds.symbolic.result import Result


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
