"""Fit verdicts: slopes of rate and scaling checks against their predicted band
(:mod:`pflbounds.checking.verdicts`, ``rate`` and ``scaling``)."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from pflbounds.checking.check import Check
from pflbounds.checking.details import claim_text, excess, g
from pflbounds.checking.evidence import EvidenceError
from pflbounds.checking.jsonsafe import canonical_json
from pflbounds.checking.kinds import Verdict
from pflbounds.checking.measures import Measure, combine_verdicts
from pflbounds.checking.statistics import bonferroni, fit_line, log_mean_covariance, t_quantile


def _band_verdict(
    est: float, lo: float, hi: float, predicted: float, tol: float, deterministic: bool,
    side: str = "both",
) -> Verdict:
    a = -math.inf if side == "at_most" else predicted - tol
    b = math.inf if side == "at_least" else predicted + tol
    slack = 1e-12 * max(1.0, abs(predicted))
    if deterministic:
        if side == "both":
            return Verdict.HOLDS if abs(est - predicted) <= tol + slack else Verdict.VIOLATED
        return Verdict.HOLDS if a - slack <= est <= b + slack else Verdict.VIOLATED
    if lo >= a - slack and hi <= b + slack:
        return Verdict.HOLDS
    if hi < a or lo > b:
        return Verdict.VIOLATED
    return Verdict.INCONCLUSIVE


def _fit_text(f: Mapping[str, Any], what: str, deterministic: bool) -> str:
    ci = "" if deterministic else f" [{g(f['lo'])}, {g(f['hi'])}]"
    return f"{what} {g(f['estimate'])}{ci} vs {claim_text(f)}"


def rate_fits(check: Check, ms: Sequence[Measure], evs: Sequence[Mapping]) -> list[dict]:
    """One slope fit per grid point (see module docstring); Monte Carlo limits per fit at
    the check's Bonferroni share of ``1 - confidence`` over the fits."""
    semilog = check.rate_axis == "semilog"
    n_fits = len(ms)
    alpha = bonferroni(check.confidence, n_fits)
    fits = []
    for i, (mz, ev) in enumerate(zip(ms, evs, strict=True)):
        if len(mz.shape) != 1:
            raise EvidenceError(f"point {i}: a rate curve must be 1-d, got shape {mz.shape}")
        mask = np.ones(mz.mean.size, dtype=bool)
        if "fit_mask" in ev:
            mask &= np.broadcast_to(np.asarray(ev["fit_mask"], dtype=bool), mask.shape)
        if not semilog:
            mask &= mz.ks > 0
        mask &= np.isfinite(mz.ks)
        fit: dict[str, Any] = {
            "point": i, "axis": check.rate_axis, "predicted": float(check.predicted),
            "tolerance": float(check.tolerance), "side": check.side, "ks": mz.ks[mask],
        }
        mean = mz.mean[mask]
        if np.isnan(mean).any():
            raise EvidenceError(f"point {i}: NaN in the measured curve")
        if mask.sum() < 2:
            raise EvidenceError(f"point {i}: fewer than 2 points in the fit window")
        if np.any(mean <= 0) or not np.all(np.isfinite(mean)):
            if check.deterministic:
                raise EvidenceError(f"point {i}: non-positive or infinite metric in the fit window")
            fit.update(estimate=math.nan, lo=-math.inf, hi=math.inf, slope=math.nan,
                       intercept=math.nan, se=math.inf, verdict=Verdict.INCONCLUSIVE,
                       note="non-positive mean in the fit window")
            fits.append(fit)
            continue
        x = mz.ks[mask] if semilog else np.log(mz.ks[mask])
        y = np.log(mean)
        cov = None
        q = 0.0
        if not check.deterministic:
            sub = mz.cov[np.ix_(mask, mask)] if mz.cov is not None else None
            cov = log_mean_covariance(mean, mz.mom.count, mz.mom.sd[mask], sub)
            q = t_quantile(alpha, mz.mom.count - 1.0)
        lf = fit_line(x, y, cov)
        half = q * lf.se if lf.se > 0 else 0.0
        s_lo, s_hi = lf.slope - half, lf.slope + half
        if semilog:
            est, lo, hi = math.exp(lf.slope), math.exp(s_lo), math.exp(s_hi)
        else:
            est, lo, hi = lf.slope, s_lo, s_hi
        verdict = _band_verdict(
            est, lo, hi, float(check.predicted), float(check.tolerance), check.deterministic,
            check.side,
        )
        fit.update(estimate=est, lo=lo, hi=hi, slope=lf.slope, intercept=lf.intercept,
                   se=lf.se, verdict=verdict)
        fits.append(fit)
    return fits


def scaling_fits(
    check: Check, ms: Sequence[Measure], evs: Sequence[Mapping], params: Sequence[Mapping],
) -> list[dict]:
    """Fits of log cost against log x_param, one per group of otherwise equal grid points;
    Monte Carlo limits per fit at the check's Bonferroni share over the groups."""
    groups: dict[str, list[int]] = {}
    for i, p in enumerate(params):
        rest = {k: v for k, v in p.items() if k != check.x_param}
        groups.setdefault(canonical_json(rest), []).append(i)
    alpha = bonferroni(check.confidence, len(groups))
    fits = []
    for gkey, idx in groups.items():
        use = []
        for i in idx:
            if ms[i].mean.size != 1:
                raise EvidenceError(f"point {i}: a scaling cost must be a scalar")
            keep = bool(np.all(evs[i]["fit_mask"])) if "fit_mask" in evs[i] else True
            if keep:
                use.append(i)
        xs = np.array([float(params[i][check.x_param]) for i in use])
        cost = np.array([float(ms[i].mean[0]) for i in use])
        fit: dict[str, Any] = {
            "group": gkey, "points": use, "x_param": check.x_param, "x": xs, "cost": cost,
            "predicted": float(check.predicted), "tolerance": float(check.tolerance),
            "side": check.side, "axis": "loglog",
        }
        if np.isnan(cost).any():
            raise EvidenceError(f"NaN cost in scaling group {gkey}")
        if len(use) < 2 or len(set(xs.tolist())) < 2:
            raise EvidenceError(f"scaling group {gkey} has fewer than 2 distinct x values")
        if np.any(xs <= 0):
            raise EvidenceError(f"scaling group {gkey}: x_param values must be > 0")
        if np.any(cost <= 0) or not np.all(np.isfinite(cost)):
            if check.deterministic:
                raise EvidenceError(f"scaling group {gkey}: costs must be finite and > 0")
            fit.update(estimate=math.nan, lo=-math.inf, hi=math.inf, slope=math.nan,
                       intercept=math.nan, se=math.inf, verdict=Verdict.INCONCLUSIVE,
                       note="non-positive or infinite mean cost")
            fits.append(fit)
            continue
        cov = None
        q = 0.0
        if not check.deterministic:
            sd = np.array([float(ms[i].mom.sd[0]) for i in use])
            counts = np.array([ms[i].mom.count for i in use])
            cov = (sd / cost) ** 2 / counts
            q = t_quantile(alpha, float(counts.min()) - 1.0)
        lf = fit_line(np.log(xs), np.log(cost), cov)
        half = q * lf.se if lf.se > 0 else 0.0
        lo, hi = lf.slope - half, lf.slope + half
        verdict = _band_verdict(
            lf.slope, lo, hi, float(check.predicted), float(check.tolerance), check.deterministic,
            check.side,
        )
        fit.update(estimate=lf.slope, lo=lo, hi=hi, slope=lf.slope, intercept=lf.intercept,
                   se=lf.se, verdict=verdict)
        fits.append(fit)
    return fits


def fits_evaluation(check: Check, fits: list[dict], what: str, where_key: str) -> tuple:
    verdict = combine_verdicts([f["verdict"] for f in fits])
    errs = [excess(f) for f in fits if np.isfinite(f["estimate"])]
    margin = max(errs) if errs else None
    worst = max(fits, key=lambda f: excess(f) if np.isfinite(f["estimate"]) else math.inf)
    text = _fit_text(worst, what, check.deterministic)
    loc = f"{where_key} {worst[where_key]}"
    n_ok = sum(f["verdict"] is Verdict.HOLDS for f in fits)
    detail = f"{text} at {loc} (worst of {len(fits)}; {n_ok} within tolerance)"
    if "note" in worst:
        detail += f"; {worst['note']}"
    return verdict, margin, detail
