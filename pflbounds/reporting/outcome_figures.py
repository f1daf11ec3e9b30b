"""The figures and value tables of a check outcome, as plain-dict specs.

:func:`figures_for` resolves what the report shows for an outcome: the check's own ``plot``
function when it has one (falling back to the defaults, with a warning, if it fails),
otherwise the default figures of the check's kind. A figure that carries no information (a
single x value per series, a single bar, all values equal) becomes a table of its values;
identity checks get a table of residuals against the tolerance.

Figure specs are described in :mod:`pflbounds.reporting.figure_specs`. A table spec is
``{"kind": "table", "title", "columns": [...], "rows": [[...], ...], "caption"}``.
"""

from __future__ import annotations

import json
import math
import warnings
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from pflbounds.checking.kinds import CheckKind
from pflbounds.checking.verdicts import claim_reference, claim_text
from pflbounds.reporting.figure_specs import STYLES, figure, series
from pflbounds.reporting.numbers import fmt

if TYPE_CHECKING:  # pragma: no cover
    from pflbounds.checking.check import Check
    from pflbounds.checking.outcome import Outcome

__all__ = [
    "MAX_FIGURES",
    "POINTS_PER_FIGURE",
    "STYLES",
    "as_table",
    "default_figures",
    "figures_for",
    "informative",
]

POINTS_PER_FIGURE = 3
MAX_FIGURES = 4
MAX_ROWS = 4
"""Rows (e.g. agents) drawn per grid point when the measured value has several axes."""


def params_text(params: dict[str, Any]) -> str:
    """``name=value`` pairs of a grid point, numbers to 4 significant digits (never cut)."""

    def one(v: Any) -> str:
        if isinstance(v, (list, tuple)):
            return "(" + ", ".join(one(u) for u in v) + ")"
        if isinstance(v, dict):
            return "{" + ", ".join(f"{k}={one(u)}" for k, u in v.items()) + "}"
        if isinstance(v, (int, float, np.floating, np.integer)) and not isinstance(v, bool):
            return fmt(float(v))
        return str(v)

    return ", ".join(f"{k}={one(v)}" for k, v in params.items())


def _points_caption(points: Sequence[dict[str, Any]]) -> str:
    return "; ".join(f"point {p['point']}: {params_text(p['params'])}" for p in points) + "."


def _chosen_points(outcome: Outcome) -> list[dict[str, Any]]:
    """At most POINTS_PER_FIGURE * MAX_FIGURES points, the tightest first when trimming."""
    pts = [p for p in outcome.evidence if "mean" in p or "residual" in p]
    cap = POINTS_PER_FIGURE * MAX_FIGURES
    if len(pts) <= cap:
        return pts

    def tightness(p: dict[str, Any]) -> float:
        m = np.asarray(p.get("mean", np.nan), dtype=float)
        b = np.asarray(p.get("bound", p.get("bound_printed", np.nan)), dtype=float)
        with np.errstate(divide="ignore", invalid="ignore"):
            r = np.where(m > 0, b / m, np.inf)
        return float(np.nanmin(r)) if r.size else math.inf

    keep = sorted(pts, key=tightness)[:cap]
    return sorted(keep, key=lambda p: p["point"])


def _chunks(items: Sequence[Any], n: int) -> list[Sequence[Any]]:
    return [items[i : i + n] for i in range(0, len(items), n)]


def _rows(p: dict[str, Any], bound_keys: Sequence[str]) -> list[tuple[str, dict[str, Any]]]:
    """Split a point with (rows, K) evidence into 1-d curves, the tightest rows first."""
    mean = np.asarray(p["mean"], dtype=float)
    if mean.ndim <= 1:
        return [("", p)]
    flat = mean.reshape(-1, mean.shape[-1])
    keys = ["mean", "lo", "hi", *bound_keys]
    arrays = {k: np.broadcast_to(np.asarray(p[k], dtype=float), mean.shape).reshape(flat.shape)
              for k in keys if k in p}
    ks = np.broadcast_to(np.asarray(p["ks"], dtype=float), mean.shape).reshape(flat.shape)
    ref = arrays.get(bound_keys[0]) if bound_keys else None
    if ref is not None:
        with np.errstate(divide="ignore", invalid="ignore"):
            tight = np.nanmin(np.where(flat > 0, ref / flat, np.inf), axis=1)
        order = np.argsort(tight, kind="stable")[:MAX_ROWS]
    else:
        order = np.arange(min(MAX_ROWS, flat.shape[0]))
    out = []
    for r in sorted(order.tolist()):
        idx = np.unravel_index(r, mean.shape[:-1])
        sub = {"point": p["point"], "params": p["params"], "ks": ks[r]}
        sub.update({k: v[r] for k, v in arrays.items()})
        out.append((f", entry {tuple(int(i) for i in idx)}", sub))
    return out


def _title(outcome: Outcome) -> str:
    return f"{outcome.check_id}: {outcome.title}" if outcome.title else outcome.check_id


def curve_figures(outcome: Outcome) -> list[dict[str, Any]]:
    """Measured curves with bands against their bounds, a few grid points per figure.

    Evidence with several axes, e.g. (agents, K), is drawn as up to :data:`MAX_ROWS` curves
    per grid point, the rows closest to their bound first. Each curve and its bounds form
    one group (one colour).
    """
    bound_keys = {
        CheckKind.ERRATUM: ("bound_printed", "bound_corrected"),
    }.get(outcome.kind, ("bound",))
    figs = []
    chunks = _chunks(_chosen_points(outcome), POINTS_PER_FIGURE)
    for c, chunk in enumerate(chunks):
        items = []
        for p in chunk:
            for suffix, q in _rows(p, [k for k in bound_keys if k in p]):
                tag = f"point {p['point']}{suffix}"
                s = series(f"measured ({tag})", q["ks"], q["mean"], "measured", q.get("lo"),
                           q.get("hi"), group=tag)
                s["point"] = p["point"]
                items.append(s)
                for key in bound_keys:
                    if key in q:
                        label = key.replace("_", " ")
                        items.append(series(f"{label} ({tag})", q["ks"], q[key], key, group=tag))
        title = _title(outcome)
        if len(chunks) > 1:
            title += f" ({c + 1}/{len(chunks)})"
        fig = figure("curves", title, "K", "measured", items)
        fig["caption"] = _points_caption(chunk)
        figs.append(fig)
    return figs


def rate_figures(outcome: Outcome) -> list[dict[str, Any]]:
    """Measured curves, the fitted line and a reference line with the predicted slope."""
    figs = curve_figures(outcome)
    by_point = {f["point"]: f for f in outcome.fits if "point" in f}
    for fig in figs:
        extra = []
        for s in fig["series"]:
            if s["style"] != "measured":
                continue
            point = s.get("point")
            f = by_point.get(point)
            if f is None or not math.isfinite(f.get("slope", math.nan)):
                continue
            k = np.asarray(f["ks"], dtype=float)
            x = k if f["axis"] == "semilog" else np.log(k)
            fitted = np.exp(f["intercept"] + f["slope"] * x)
            ref_value = claim_reference(f)
            pred_slope = math.log(ref_value) if f["axis"] == "semilog" else ref_value
            anchor = float(np.mean(x))
            level = f["intercept"] + f["slope"] * anchor
            ref = np.exp(level + pred_slope * (x - anchor))
            tag = s["group"]
            extra.append(series(f"fit {fmt(f['estimate'])} ({tag})", k, fitted, "fit",
                                group=tag))
            fig.setdefault("annotations", []).append(_fit_note(f, tag))
            extra.append(series(f"{_reference_label(f)} ({tag})", k, ref, "reference",
                                group=tag))
        fig["series"].extend(extra)
        fig["logy"] = True
        fig["logx"] = outcome.fits[0]["axis"] != "semilog" if outcome.fits else fig["logx"]
    return figs


def _fit_note(f: dict[str, Any], where: str) -> str:
    """One line: estimate, interval (when any) and prediction of a fit."""
    what = "factor" if f.get("axis") == "semilog" else "slope"
    est = f.get("estimate", math.nan)
    ci = ""
    if f.get("se", 0.0) and math.isfinite(f.get("lo", math.nan)):
        ci = f" [{fmt(f['lo'])}, {fmt(f['hi'])}]"
    head = f"{where}: " if where else ""
    return f"{head}{what} {fmt(est)}{ci}, {claim_text(f, fmt)}"


def _reference_label(f: dict[str, Any], noun: str = "") -> str:
    """The reference line: the predicted value, or the boundary of a one-sided claim."""
    what = "predicted" if f.get("side", "both") == "both" else "claim boundary"
    return f"{what} {noun}{fmt(claim_reference(f))}"


def scaling_figures(outcome: Outcome) -> list[dict[str, Any]]:
    """Cost against the swept parameter, per group, with fitted and predicted slopes."""
    figs = []
    pts = {p["point"]: p for p in outcome.evidence}
    for f in outcome.fits[:MAX_FIGURES]:
        idx = list(f["points"])
        x = np.asarray(f["x"], dtype=float)
        y = np.asarray(f["cost"], dtype=float)
        lo = [float(np.ravel(pts[i]["lo"])[0]) for i in idx if i in pts and "lo" in pts[i]]
        hi = [float(np.ravel(pts[i]["hi"])[0]) for i in idx if i in pts and "hi" in pts[i]]
        band = len(lo) == len(x) == len(hi)
        items = [series("measured cost", x, y, "measured", lo if band else None,
                        hi if band else None, group="cost")]
        if math.isfinite(f.get("slope", math.nan)):
            lx = np.log(x)
            items.append(series(f"fit slope {fmt(f['slope'])}", x,
                                np.exp(f["intercept"] + f["slope"] * lx), "fit", group="cost"))
            anchor = float(np.mean(lx))
            level = f["intercept"] + f["slope"] * anchor
            items.append(series(_reference_label(f, "slope "), x,
                                np.exp(level + claim_reference(f) * (lx - anchor)), "reference",
                                group="cost"))
        fig = figure("scaling", _title(outcome), str(f.get("x_param", "x")), "cost", items,
                     logx=True, logy=True)
        group = f.get("group")
        if isinstance(group, str) and group.startswith("{"):
            try:
                group = json.loads(group)
            except ValueError:
                pass
        fig["caption"] = (f"Fixed parameters: {params_text(group)}." if isinstance(group, dict)
                          else f"Group {group}.")
        fig["annotations"] = [_fit_note(f, "")]
        figs.append(fig)
    return figs


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
    return [{"kind": "table", "title": _title(outcome),
             "columns": ["point", "parameters", "max |residual|", "tolerance"], "rows": rows,
             "caption": "Largest absolute residual of the identity at each grid point."}]


def default_figures(outcome: Outcome, check: Check | None = None) -> list[dict[str, Any]]:
    """The default figures of an outcome, by kind (none for outcomes without evidence).

    The axis labels are the check's ``xlabel``/``ylabel`` when it names them."""
    if not outcome.evidence:
        return []
    if outcome.kind is CheckKind.IDENTITY:
        return identity_tables(outcome)
    if outcome.kind is CheckKind.RATE:
        figs = rate_figures(outcome)
    elif outcome.kind is CheckKind.SCALING:
        figs = scaling_figures(outcome)
    else:
        figs = curve_figures(outcome)
    if check is not None:
        for fig in figs:
            if check.xlabel:
                fig["xlabel"] = check.xlabel
            if check.ylabel:
                fig["ylabel"] = check.ylabel
    return figs


def _finite_xy(s: dict[str, Any], logx: bool, logy: bool) -> list[tuple[Any, float]]:
    out = []
    for x, y in zip(s.get("x") or [], s.get("y") or [], strict=False):
        if y is None or not math.isfinite(y) or (logy and y <= 0):
            continue
        if not isinstance(x, str) and (x is None or not math.isfinite(x) or (logx and x <= 0)):
            continue
        out.append((x, y))
    return out


def informative(fig: dict[str, Any]) -> bool:
    """Whether a figure shows more than a table would: some series has two or more distinct
    x values (bars: two or more categories), and not every drawn value is the same."""
    if fig.get("kind") == "table":
        return True
    logx = bool(fig.get("logx")) and fig.get("kind") != "bars"
    pts = [_finite_xy(s, logx, bool(fig.get("logy"))) for s in fig.get("series", [])]
    if not any(len({x for x, _ in p}) >= 2 for p in pts):
        return False
    ys = {y for p in pts for _, y in p}
    return len(ys) >= 2


def as_table(fig: dict[str, Any]) -> dict[str, Any]:
    """The values of a figure as a table: one row per drawn point of each series."""
    xlabel = fig.get("xlabel") or "x"
    ylabel = fig.get("ylabel") or "value"
    rows = []
    for s in fig.get("series", []):
        for x, y in _finite_xy(s, False, False):
            rows.append([s.get("label", ""), fmt(x), fmt(y)])
    return {"kind": "table", "title": fig.get("title", ""), "columns": ["series", xlabel, ylabel],
            "rows": rows, "caption": fig.get("caption", "")}


def figures_for(outcome: Outcome, check: Check | None) -> list[dict[str, Any]]:
    """What the report shows for ``outcome``: the check's custom figures when it has a
    ``plot`` function (the defaults, with a warning, when that fails), otherwise the default
    figures of its kind; figures without information become tables."""
    figs = None
    if check is not None and check.plot is not None:
        try:
            figs = list(check.plot(outcome))
        except Exception as exc:  # noqa: BLE001 - a report must still be produced
            warnings.warn(f"custom figures of {outcome.check_id} failed ({exc!r}); "
                          "using defaults", stacklevel=2)
    if figs is None:
        figs = default_figures(outcome, check)
    return [f if informative(f) else as_table(f) for f in figs]
