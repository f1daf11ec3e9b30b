"""Default figure specs of outcomes, as plain dicts the report renders.

A figure is ``{"kind": "curves"|"scaling"|"bars", "title", "xlabel", "ylabel", "logx", "logy",
"series": [...]}`` (plus optional ``caption`` and ``annotations``, a list of short text lines)
and a series is ``{"label", "x", "y", "lo", "hi", "style"}`` with style one
of :data:`STYLES`. ``lo`` and ``hi`` are None when there is no band. Arrays are plain lists.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from pflbounds.checking.kinds import CheckKind

if TYPE_CHECKING:  # pragma: no cover
    from pflbounds.checking.outcome import Outcome

STYLES = ("measured", "bound", "bound_printed", "bound_corrected", "fit", "reference")
POINTS_PER_FIGURE = 3
MAX_FIGURES = 4


def series(
    label: str, x: Any, y: Any, style: str, lo: Any = None, hi: Any = None
) -> dict[str, Any]:
    """One series of a figure spec (numpy arrays converted to lists)."""
    if style not in STYLES:
        raise ValueError(f"unknown series style {style!r}; expected one of {STYLES}")

    def lst(v: Any) -> list[float] | None:
        return None if v is None else [float(u) for u in np.asarray(v, dtype=float).ravel()]

    return {"label": label, "x": lst(x), "y": lst(y), "lo": lst(lo), "hi": lst(hi),
            "style": style}


def figure(
    kind: str, title: str, xlabel: str, ylabel: str, items: list[dict[str, Any]],
    *, logx: bool | None = None, logy: bool | None = None,
) -> dict[str, Any]:
    """A figure spec; log axes default to True when every value on that axis is > 0."""
    def positive(key: str) -> bool:
        vals = [v for s in items for v in (s[key] or []) if math.isfinite(v)]
        return bool(vals) and min(vals) > 0 and max(vals) / min(vals) > 10

    return {
        "kind": kind, "title": title, "xlabel": xlabel, "ylabel": ylabel,
        "logx": positive("x") if logx is None else logx,
        "logy": positive("y") if logy is None else logy,
        "series": items,
    }


def _params_text(params: dict[str, Any], limit: int = 60) -> str:
    text = ", ".join(f"{k}={v}" for k, v in params.items() if not isinstance(v, (list, dict)))
    return text if len(text) <= limit else text[: limit - 1] + "…"


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


MAX_ROWS = 4
"""Rows (e.g. agents) drawn per grid point when the measured value has several axes."""


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


def curve_figures(outcome: Outcome) -> list[dict[str, Any]]:
    """Measured curves with bands against their bounds, a few grid points per figure.

    Evidence with several axes, e.g. (agents, K), is drawn as up to :data:`MAX_ROWS` curves
    per grid point, the rows closest to their bound first.
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
                items.append(series(f"measured ({tag})", q["ks"], q["mean"], "measured",
                                    q.get("lo"), q.get("hi")))
                for key in bound_keys:
                    if key in q:
                        label = key.replace("_", " ")
                        items.append(series(f"{label} ({tag})", q["ks"], q[key], key))
        names = "; ".join(f"{p['point']}: {_params_text(p['params'])}" for p in chunk)
        title = f"{outcome.check_id}: {outcome.title}" if outcome.title else outcome.check_id
        if len(chunks) > 1:
            title += f" ({c + 1}/{len(chunks)})"
        fig = figure("curves", title, "K", "metric", items)
        fig["caption"] = names
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
            point = int(s["label"].split("(point ", 1)[1].split(")")[0].split(",")[0])
            f = by_point.get(point)
            if f is None or not math.isfinite(f.get("slope", math.nan)):
                continue
            k = np.asarray(f["ks"], dtype=float)
            x = k if f["axis"] == "semilog" else np.log(k)
            fitted = np.exp(f["intercept"] + f["slope"] * x)
            pred_slope = math.log(f["predicted"]) if f["axis"] == "semilog" else f["predicted"]
            anchor = float(np.mean(x))
            level = f["intercept"] + f["slope"] * anchor
            ref = np.exp(level + pred_slope * (x - anchor))
            extra.append(series(f"fit {f['estimate']:.3g} (point {point})", k, fitted, "fit"))
            fig.setdefault("annotations", []).append(_fit_note(f, f"point {point}"))
            extra.append(series(f"predicted {f['predicted']:.3g} (point {point})", k, ref,
                                "reference"))
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
        ci = f" [{f['lo']:.3g}, {f['hi']:.3g}]"
    head = f"{where}: " if where else ""
    return (f"{head}{what} {est:.4g}{ci}, predicted {f['predicted']:.4g}"
            f" ± {f['tolerance']:.3g}")


def scaling_figures(outcome: Outcome) -> list[dict[str, Any]]:
    """Cost against the swept parameter, per group, with fitted and predicted slopes."""
    figs = []
    pts = {p["point"]: p for p in outcome.evidence}
    for f in outcome.fits[: MAX_FIGURES]:
        idx = list(f["points"])
        x = np.asarray(f["x"], dtype=float)
        y = np.asarray(f["cost"], dtype=float)
        lo = [float(np.ravel(pts[i]["lo"])[0]) for i in idx if i in pts]
        hi = [float(np.ravel(pts[i]["hi"])[0]) for i in idx if i in pts]
        items = [series("measured cost", x, y, "measured", lo or None, hi or None)]
        if math.isfinite(f.get("slope", math.nan)):
            lx = np.log(x)
            items.append(series(f"fit slope {f['slope']:.3g}", x,
                                np.exp(f["intercept"] + f["slope"] * lx), "fit"))
            anchor = float(np.mean(lx))
            level = f["intercept"] + f["slope"] * anchor
            items.append(series(f"predicted slope {f['predicted']:.3g}", x,
                                np.exp(level + f["predicted"] * (lx - anchor)), "reference"))
        title = f"{outcome.check_id}: {outcome.title}" if outcome.title else outcome.check_id
        fig = figure("scaling", title, str(f.get("x_param", "x")), "cost", items,
                     logx=True, logy=True)
        fig["caption"] = f"group {f['group']}"
        fig["annotations"] = [_fit_note(f, "")]
        figs.append(fig)
    return figs


def identity_figures(outcome: Outcome) -> list[dict[str, Any]]:
    """Residual per grid point against the tolerance."""
    x, y = [], []
    for p in outcome.evidence:
        if "residual" in p:
            r = float(np.max(np.abs(np.asarray(p["residual"], dtype=float))))
        elif "mean" in p and "target" in p:
            r = float(np.max(np.abs(np.asarray(p["mean"]) - np.asarray(p["target"]))))
        else:
            continue
        x.append(p["point"])
        y.append(r)
    tol = outcome.config.get("tolerance")
    items = [series("max |residual|", x, y, "measured")]
    if tol is not None and x:
        items.append(series("tolerance", x, [tol] * len(x), "bound"))
    title = f"{outcome.check_id}: {outcome.title}" if outcome.title else outcome.check_id
    positive = all(v > 0 for v in y) and bool(y)
    return [figure("bars", title, "grid point", "max |residual|", items,
                   logx=False, logy=positive)]


def default_figures(outcome: Outcome) -> list[dict[str, Any]]:
    """The default figures of an outcome, by kind (none for outcomes without evidence).

    The axis labels are the check's ``xlabel``/``ylabel`` when it names them."""
    if not outcome.evidence:
        return []
    if outcome.kind is CheckKind.RATE:
        figs = rate_figures(outcome)
    elif outcome.kind is CheckKind.SCALING:
        figs = scaling_figures(outcome)
    elif outcome.kind is CheckKind.IDENTITY:
        figs = identity_figures(outcome)
    else:
        figs = curve_figures(outcome)
    from pflbounds.checking.registry import find

    check = find(outcome.check_id)
    if check is not None and outcome.kind is not CheckKind.IDENTITY:
        for fig in figs:
            if check.xlabel:
                fig["xlabel"] = check.xlabel
            if check.ylabel:
                fig["ylabel"] = check.ylabel
    return figs
