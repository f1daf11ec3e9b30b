"""Figures of fits and identities: the measured points of a rate or scaling fit with the
fitted line and the predicted slope, and the residuals of an identity as a table."""

from __future__ import annotations

import json
import math
from typing import TYPE_CHECKING, Any

import numpy as np

from pflbounds.checking.details import claim_reference, claim_text
from pflbounds.reporting.figure_common import MAX_GROUPS, outcome_title, params_text, point_names
from pflbounds.reporting.numbers import fmt
from pflbounds.reporting.spec_builders import figure, series, table

if TYPE_CHECKING:  # pragma: no cover
    from pflbounds.checking.outcome import Outcome


def _fit_note(f: dict[str, Any], where: str) -> str:
    """One line: estimate, interval (when any) and prediction of a fit."""
    what = "factor" if f.get("axis") == "semilog" else "slope"
    est = f.get("estimate", math.nan)
    ci = ""
    if f.get("se", 0.0) and math.isfinite(f.get("lo", math.nan)):
        ci = f" [{fmt(f['lo'])}, {fmt(f['hi'])}]"
    head = f"{where}: " if where else ""
    return f"{head}{what} {fmt(est)}{ci}, {claim_text(f, fmt)}"


def _slope_lines(f: dict[str, Any], x: np.ndarray, semilog: bool, group: str
                 ) -> list[dict[str, Any]]:
    """The fitted line over ``x`` and the predicted one through the fit's centre, with the
    tolerance band (two-sided claims) or as the claim's boundary (one-sided)."""
    lx = x if semilog else np.log(x)
    anchor = float(np.mean(lx))
    level = f["intercept"] + f["slope"] * anchor
    grid = np.unique(np.concatenate([lx, [anchor]]))
    grid = np.unique(np.concatenate([grid, np.linspace(grid[0], grid[-1], 24)]))
    gx = grid if semilog else np.exp(grid)

    def line(slope: float) -> np.ndarray:
        return np.exp(level + slope * (grid - anchor))

    def slope_of(value: float) -> float:
        return math.log(value) if semilog else value

    what = "factor" if semilog else "slope"
    out = [series(f"fitted {what} {fmt(f['estimate'])}", gx,
                  np.exp(f["intercept"] + f["slope"] * grid), "fit", group=group)]
    side = f.get("side", "both")
    if side == "both":
        lo_v = f["predicted"] - f["tolerance"]
        hi_v = f["predicted"] + f["tolerance"]
        ok = not semilog or lo_v > 0
        band = (np.minimum(line(slope_of(lo_v)), line(slope_of(hi_v))),
                np.maximum(line(slope_of(lo_v)), line(slope_of(hi_v)))) if ok else (None, None)
        out.append(series(f"predicted {what} {fmt(f['predicted'])} ± {fmt(f['tolerance'])}",
                          gx, line(slope_of(f["predicted"])), "reference", *band, group=group))
    else:
        sign = "<=" if side == "at_most" else ">="
        out.append(series(f"claim: {what} {sign} {fmt(claim_reference(f))}", gx,
                          line(slope_of(claim_reference(f))), "reference", group=group))
    return out


def rate_figures(outcome: Outcome, *, xlabel: str = "", ylabel: str = "") -> list[dict]:
    """The measured points of each rate fit (log-log, or semilog for linear rates) with the
    fitted line and the predicted slope; at most :data:`MAX_GROUPS` fits."""
    fits = [f for f in outcome.fits if "point" in f and math.isfinite(f.get("slope", math.nan))]
    if not fits:
        return []
    fits = fits[:MAX_GROUPS]
    by_point = {p["point"]: p for p in outcome.evidence}
    pts = [by_point[f["point"]] for f in fits if f["point"] in by_point]
    names, caption = point_names(pts)
    items, notes = [], []
    semilog = fits[0].get("axis") == "semilog"
    for f, name in zip(fits, names, strict=True):
        p = by_point[f["point"]]
        name = name or f"point {p['point']}"
        k = np.asarray(f["ks"], dtype=float)
        ks = np.asarray(p["ks"], dtype=float)
        mean = np.asarray(p["mean"], dtype=float)
        sel = np.isin(ks, k) if mean.ndim == 1 else np.zeros(0, bool)
        if mean.ndim != 1 or not sel.any():
            continue
        lo = np.asarray(p["lo"], float)[sel] if "lo" in p else None
        hi = np.asarray(p["hi"], float)[sel] if "hi" in p else None
        items.append(series("measured (points of the fit)", ks[sel], mean[sel], "measured",
                            lo, hi, group=name))
        items.extend(_slope_lines(f, ks[sel], semilog, name))
        notes.append(_fit_note(f, name if len(fits) > 1 else ""))
    if not items:
        return []
    fig = figure("scaling", outcome_title(outcome), xlabel, ylabel, items, logx=not semilog,
                 logy=True, caption=caption, annotations=notes)
    return [fig]


def scaling_figures(outcome: Outcome, *, xlabel: str = "", ylabel: str = "") -> list[dict]:
    """Cost against the swept parameter, per group of fixed parameters, with the fitted and
    the predicted slopes."""
    figs = []
    pts = {p["point"]: p for p in outcome.evidence}
    for f in outcome.fits[:MAX_GROUPS]:
        idx = list(f["points"])
        x = np.asarray(f["x"], dtype=float)
        y = np.asarray(f["cost"], dtype=float)
        lo = [float(np.ravel(pts[i]["lo"])[0]) for i in idx if i in pts and "lo" in pts[i]]
        hi = [float(np.ravel(pts[i]["hi"])[0]) for i in idx if i in pts and "hi" in pts[i]]
        band = len(lo) == len(x) == len(hi)
        items = [series("measured", x, y, "measured", lo if band else None,
                        hi if band else None, group="cost")]
        if math.isfinite(f.get("slope", math.nan)) and (x > 0).all():
            items.extend(_slope_lines(f, x, False, "cost"))
        group = f.get("group")
        if isinstance(group, str) and group.startswith("{"):
            try:
                group = json.loads(group)
            except ValueError:
                pass
        caption = (f"Fixed: {params_text(group)}." if isinstance(group, dict) and group
                   else "")
        figs.append(figure("scaling", outcome_title(outcome), xlabel, ylabel, items, logx=True,
                           logy=True, caption=caption,
                           annotations=[_fit_note(f, "")]))
    return figs


# ---------------------------------------------------------------------------------------------
# identity
# ---------------------------------------------------------------------------------------------
def identity_tables(outcome: Outcome) -> list[dict[str, Any]]:
    """The largest residual of each grid point against the tolerance (a table: a bar chart
    of one or two residuals carries no information)."""
    tol = outcome.config.get("tolerance")
    rows = []
    for p in outcome.evidence:
        if "residual" in p:
            r = float(np.max(np.abs(np.asarray(p["residual"], dtype=float))))
        elif "mean" in p and "target" in p:
            r = float(np.max(np.abs(np.asarray(p["mean"]) - np.asarray(p["target"]))))
        else:
            continue
        rows.append([str(p["point"]), params_text(p["params"]), fmt(r), fmt(tol)])
    if not rows:
        return []
    return [table(outcome_title(outcome), ["point", "parameters", "max |residual|", "tolerance"],
                  rows, "Largest absolute residual of the identity at each grid point.")]
