"""The figures and value tables of a check outcome, as plain-dict specs.

An outcome becomes a figure spec once, by one function per figure kind:

* :func:`curve_figures` (``curves``): measured curves against K (or the grid's ordered
  parameter) with their bounds, the closest to their bound first;
* :func:`scatter_figures` (``scatter``): every recorded value of every grid point (many
  independent instances) against its bound;
* :func:`dot_figures` (``dots``): one category per recorded entry (constants, methods,
  readings) or per grid point;
* :func:`tail_figures` (``tail``): violation rates or probabilities with their intervals;
* :func:`scaling_figures` and :func:`rate_figures` (``scaling``): measured points, the fitted
  line and the predicted slope.

:func:`default_figures` picks the kind from the check's kind and the shape of its evidence; a
check may declare another (``plot=Plot("scatter")``,
:class:`~pflbounds.reporting.figure_specs.Plot`) or build its specs itself (its ``plot``
function). :func:`figures_for` then applies the rules every figure obeys (:func:`finish`):
labelled axes, a caption that says what is drawn, category names drawn as dots (never a
line), fewer than 3 points or no variation a table instead. Identity checks get a table of
residuals against the tolerance.
"""

from __future__ import annotations

import json
import math
import warnings
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from pflbounds.checking.kinds import CheckKind
from pflbounds.checking.verdicts import claim_reference, claim_text
from pflbounds.reporting.figure_model import HISTOGRAM_ABOVE, PlotSpec, ratio_pairs
from pflbounds.reporting.figure_specs import STYLES, figure, series, table
from pflbounds.reporting.numbers import fmt

if TYPE_CHECKING:  # pragma: no cover
    from pflbounds.checking.check import Check
    from pflbounds.checking.outcome import Outcome

__all__ = [
    "MAX_GROUPS",
    "MIN_POINTS",
    "STYLES",
    "as_table",
    "curve_figures",
    "default_figures",
    "dot_figures",
    "figures_for",
    "figures_of_kind",
    "finish",
    "informative",
    "rate_figures",
    "scaling_figures",
    "scatter_figures",
    "tail_figures",
]

MAX_GROUPS = 5
"""Curves (grid points, or rows of a grid point) drawn in one figure, the closest to their
bound first; one colour each."""
MIN_POINTS = 3
"""A figure needs this many points in a series; with fewer it is a table."""
_SEEDS = ("instance", "inst", "seed")
MAX_NAME = 56
"""Longest legend name of a group built from grid parameters (else ``point k``)."""

_BOUND_LABELS = {"bound": "bound", "bound_printed": "bound as printed",
                 "bound_corrected": "corrected bound"}


# ---------------------------------------------------------------------------------------------
# Grid points: names and captions
# ---------------------------------------------------------------------------------------------
def _one(v: Any) -> str:
    if isinstance(v, (list, tuple)):
        return "(" + ", ".join(_one(u) for u in v) + ")"
    if isinstance(v, dict):
        return "{" + ", ".join(f"{k} = {_one(u)}" for k, u in v.items()) + "}"
    if isinstance(v, (int, float, np.floating, np.integer)) and not isinstance(v, bool):
        return fmt(float(v))
    return str(v)


def params_text(params: dict[str, Any]) -> str:
    """``name = value`` pairs of a grid point, numbers to 4 significant digits (never cut)."""
    return ", ".join(f"{k} = {_one(v)}" for k, v in params.items())


def _key(v: Any) -> str:
    return json.dumps(v, sort_keys=True, default=str)


def point_names(points: Sequence[dict[str, Any]]) -> tuple[list[str], str]:
    """A legend name per grid point (the parameters that differ between ``points``) and a
    caption sentence for the parameters they share. Names longer than :data:`MAX_NAME` give
    way to ``point k``, and the caption then lists every point."""
    if not points:
        return [], ""
    keys = list(points[0]["params"])
    for p in points[1:]:
        keys += [k for k in p["params"] if k not in keys]
    varying = [k for k in keys if len({_key(p["params"].get(k)) for p in points}) > 1]
    if len(varying) > 1:  # an instance seed says nothing next to the parameters that vary
        varying = [k for k in varying if k not in _SEEDS] or varying
    fixed = {k: points[0]["params"][k] for k in keys
             if k not in varying and k in points[0]["params"]}
    names = [params_text({k: p["params"][k] for k in varying if k in p["params"]})
             for p in points]
    caption = f"Fixed: {params_text(fixed)}." if fixed else ""
    if len(points) > 1 and (not all(names) or max(map(len, names)) > MAX_NAME
                            or len(set(names)) < len(names)):
        names = [f"point {p['point']}" for p in points]
        caption = " ".join(f"Point {p['point']}: {params_text(p['params'])}." for p in points)
    if len(points) == 1:
        names = [""]
        caption = f"Grid point: {params_text(points[0]['params'])}." if points[0]["params"] \
            else ""
    return names, caption


def _title(outcome: Outcome) -> str:
    return f"{outcome.check_id}: {outcome.title}" if outcome.title else outcome.check_id


def _bound_keys(outcome: Outcome, p: dict[str, Any]) -> list[str]:
    keys = ["bound_printed", "bound_corrected"] if outcome.kind is CheckKind.ERRATUM \
        else ["bound"]
    return [k for k in keys if k in p]


def _style(outcome: Outcome, key: str) -> str:
    if key == "bound" and outcome.kind is CheckKind.LOWER_BOUND:
        return "lower_bound"
    return key


def _label(outcome: Outcome, key: str) -> str:
    return "lower bound" if _style(outcome, key) == "lower_bound" else _BOUND_LABELS[key]


def _tightness(mean: np.ndarray, bound: np.ndarray | None, lower: bool) -> float:
    """The largest measured/bound (bound/measured for a lower bound): large = close."""
    if bound is None:
        return -math.inf
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        r = bound / mean if lower else mean / bound
    r = r[np.isfinite(r)]
    return float(r.max()) if r.size else -math.inf


# ---------------------------------------------------------------------------------------------
# curves
# ---------------------------------------------------------------------------------------------
def _curves_of(outcome: Outcome, rows: Sequence[str] | str | None = None
               ) -> list[tuple[dict[str, Any], str, dict[str, Any]]]:
    """(point, row name, 1-d evidence) for every curve of the outcome: evidence with several
    axes, e.g. (agents, K), gives one curve per row, named ``rows[r]``, or ``<rows> r`` when
    ``rows`` is a word (``"client"``), or ``row r``."""
    out = []
    for p in outcome.evidence:
        if "mean" not in p:
            continue
        mean = np.asarray(p["mean"], dtype=float)
        ks = np.asarray(p.get("ks", np.arange(mean.shape[-1] if mean.ndim else 1)), float)
        keys = ["lo", "hi", "bound_lo", "bound_hi", *_bound_keys(outcome, p)]
        if mean.ndim <= 1:
            q = {"ks": np.broadcast_to(ks, mean.shape), "mean": mean}
            q.update({k: np.broadcast_to(np.asarray(p[k], float), mean.shape)
                      for k in keys if k in p})
            out.append((p, "", q))
            continue
        flat = mean.reshape(-1, mean.shape[-1])
        arrays = {k: np.broadcast_to(np.asarray(p[k], float), mean.shape).reshape(flat.shape)
                  for k in keys if k in p}
        kk = np.broadcast_to(ks, mean.shape).reshape(flat.shape)
        for r in range(flat.shape[0]):
            idx = np.unravel_index(r, mean.shape[:-1])
            q = {"ks": kk[r], "mean": flat[r], **{k: v[r] for k, v in arrays.items()}}
            where = ", ".join(str(int(i)) for i in idx)
            if isinstance(rows, str):
                name = f"{rows} {where}"
            elif rows is not None and r < len(rows):
                name = rows[r]
            else:
                name = f"row {where}"
            out.append((p, name, q))
    return out


def curve_figures(outcome: Outcome, *, xlabel: str = "", ylabel: str = "",
                  max_groups: int = MAX_GROUPS, logx: bool | None = None,
                  logy: bool | None = None, rows: Sequence[str] | str | None = None
                  ) -> list[dict[str, Any]]:
    """One figure: the measured curves (bands from lo/hi) with their bounds against K, at most
    ``max_groups`` of them (the closest to their bound), each curve and its bounds one group;
    ``rows`` names the rows of evidence with several axes. The drawing adds the
    measured/bound panel."""
    curves = _curves_of(outcome, rows)
    if not curves:
        return []
    lower = outcome.kind is CheckKind.LOWER_BOUND

    def tight(c: tuple) -> float:
        keys = _bound_keys(outcome, c[2])
        return _tightness(c[2]["mean"], c[2][keys[0]] if keys else None, lower)

    chosen = curves
    if len(curves) > max_groups:
        keep = sorted(range(len(curves)), key=lambda i: -tight(curves[i]))[:max_groups]
        chosen = [curves[i] for i in sorted(keep)]
    pts = []
    for p, _, _ in chosen:
        if all(p is not q for q in pts):
            pts.append(p)
    names, caption = point_names(pts)
    name_of = {id(p): n for p, n in zip(pts, names, strict=True)}
    items = []
    for p, suffix, q in chosen:
        group = ", ".join(v for v in (name_of[id(p)], suffix) if v) or f"point {p['point']}"
        items.append(series("measured", q["ks"], q["mean"], "measured", q.get("lo"),
                            q.get("hi"), group=group))
        for key in _bound_keys(outcome, p):
            band = (q.get("bound_lo"), q.get("bound_hi")) if key == "bound" else (None, None)
            items.append(series(_label(outcome, key), q["ks"], q[key], _style(outcome, key),
                                *band, group=group))
    if len(chosen) < len(curves):
        caption += (f" {len(chosen)} of the {len(curves)} curves are drawn: those closest to "
                    "their bound.")
    return [figure("curves", _title(outcome), xlabel, ylabel, items, logx=logx,
                   logy=logy, caption=caption.strip())]


def point_figures(outcome: Outcome, *, x: str | None = None, xlabel: str = "",
                  ylabel: str = "", group_by: Sequence[str] | None = None
                  ) -> list[dict[str, Any]]:
    """Checks with one value per grid point: measured and bound across the grid points,
    against the grid parameter ``x`` (``"ks"``: the recorded x value; by default the recorded
    x when it differs between points, else the one numeric parameter that does); points that
    differ in other parameters (or in the parameters ``group_by``) form groups. Named cases
    (a text parameter that differs at every point) or no ordered parameter: the points are
    categories (dots), or a table when there are fewer than 3."""
    pts = [p for p in outcome.evidence if "mean" in p and np.size(p["mean"]) == 1]
    if not pts:
        return []
    ks = [float(np.ravel(p.get("ks", [math.nan]))[0]) for p in pts]
    keys = [k for k in pts[0]["params"]
            if len({_key(p["params"].get(k)) for p in pts}) > 1]
    numeric = [k for k in keys if all(isinstance(p["params"].get(k), (int, float))
                                      and not isinstance(p["params"].get(k), bool)
                                      for p in pts)]
    finite = all(math.isfinite(v) for v in ks)
    named = [k for k in keys if k not in numeric
             and len({_key(p["params"].get(k)) for p in pts}) == len(pts)]
    if x is None and named and len(pts) >= MIN_POINTS:
        return dot_figures(outcome, xlabel=xlabel or "grid point", ylabel=ylabel)
    if (x == "ks" or x is None and len(set(ks)) > 1) and finite:
        xs, x_name = ks, ""
    elif x is not None or len(numeric) == 1:
        x_name = x or numeric[0]
        xs = [float(p["params"][x_name]) for p in pts]
    elif len(pts) >= MIN_POINTS or not finite:
        return dot_figures(outcome, xlabel=xlabel or "grid point", ylabel=ylabel)
    else:  # two points at one x: a table of their values, by point
        return curve_figures(outcome, xlabel=xlabel, ylabel=ylabel)
    if group_by is None:  # a parameter with as many values as x moves with x: not a group
        rest = [k for k in keys if k != x_name and len(
            {_key(p["params"].get(k)) for p in pts}) < len(set(xs))]
    else:
        rest = list(group_by)
    groups: dict[str, list[int]] = {}
    for i, p in enumerate(pts):
        groups.setdefault(params_text({k: p["params"][k] for k in rest}) or "grid points",
                          []).append(i)
    items = []
    for g, idx in groups.items():
        idx = sorted(idx, key=lambda i: xs[i])
        gx = [xs[i] for i in idx]

        def col(key: str, idx: list[int] = idx) -> list[float]:
            return [float(np.ravel(pts[i][key])[0]) if key in pts[i] else math.nan
                    for i in idx]

        items.append(series("measured", gx, col("mean"), "measured", col("lo") if all(
            "lo" in pts[i] for i in idx) else None, col("hi") if all(
            "hi" in pts[i] for i in idx) else None, group=g))
        for key in _bound_keys(outcome, pts[idx[0]]):
            items.append(series(_label(outcome, key), gx, col(key), _style(outcome, key),
                                group=g))
    fixed = {k: v for k, v in pts[0]["params"].items() if k not in keys}
    caption = f"One value per grid point. Fixed: {params_text(fixed)}." if fixed else \
        "One value per grid point."
    return [figure("curves", _title(outcome), xlabel or x_name, ylabel,
                   items, caption=caption)]


# ---------------------------------------------------------------------------------------------
# scatter
# ---------------------------------------------------------------------------------------------
def scatter_figures(outcome: Outcome, *, by: str = "bound",
                    categories: Sequence[str] | None = None, xlabel: str = "",
                    ylabel: str = "") -> list[dict[str, Any]]:
    """Every recorded value of every grid point against its bound (one point per instance):
    one series per bound (``by="bound"``: as printed, corrected), per grid point
    (``by="point"``) or per recorded entry named by ``categories`` (entry k of every point is
    ``categories[k]``)."""
    pts = [p for p in outcome.evidence if "mean" in p and _bound_keys(outcome, p)]
    if not pts:
        return []
    names, caption = point_names(pts)
    acc: dict[str, tuple[list[float], list[float], str]] = {}
    for p, name in zip(pts, names, strict=True):
        mean = np.asarray(p["mean"], dtype=float)
        for key in _bound_keys(outcome, p):
            b = np.broadcast_to(np.asarray(p[key], dtype=float), mean.shape)
            label = _label(outcome, key)
            if categories is not None:
                for k, cat in enumerate(categories):
                    m_k, b_k = mean[..., k].ravel(), b[..., k].ravel()
                    tag = cat if len(_bound_keys(outcome, p)) == 1 else f"{cat}, {label}"
                    xs, ys, _ = acc.setdefault(tag, ([], [], _style(outcome, key)))
                    xs.extend(b_k.tolist())
                    ys.extend(m_k.tolist())
                continue
            if by == "point":
                tag = ", ".join(v for v in (name or "instances", "" if len(
                    _bound_keys(outcome, p)) == 1 else label) if v)
            else:
                tag = {"bound": "instances", "lower bound": "instances"}.get(
                    label, f"against the {label}")
            xs, ys, _ = acc.setdefault(tag, ([], [], _style(outcome, key)))
            xs.extend(b.ravel().tolist())
            ys.extend(mean.ravel().tolist())
    items = [series(tag, xs, ys, "measured" if st in ("bound", "lower_bound") else st,
                    group=tag) for tag, (xs, ys, st) in acc.items()]
    n = sum(len(s["x"]) for s in items)
    head = f"{n} instances"
    if len(pts) > 1:
        head += f" from {len(pts)} grid points"
    return [figure("scatter", _title(outcome), xlabel, ylabel, items,
                   caption=f"{head}. {caption}".strip())]


# ---------------------------------------------------------------------------------------------
# dots
# ---------------------------------------------------------------------------------------------
def dot_figures(outcome: Outcome, *, categories: Sequence[str] | None = None,
                xlabel: str = "", ylabel: str = "", max_groups: int = MAX_GROUPS
                ) -> list[dict[str, Any]]:
    """Categories as dots: entry k of every grid point is ``categories[k]`` (each point a
    group); without ``categories``, each grid point is a category (one value each) or, for
    points with several entries, the recorded x values are."""
    pts = [p for p in outcome.evidence if "mean" in p]
    if not pts:
        return []
    single = all(np.size(p["mean"]) == 1 for p in pts)
    if categories is None and single:
        names, caption = point_names(pts)
        cats = names if all(names) else [f"point {p['point']}" for p in pts]
        items = []
        for key in ("mean", *_bound_keys(outcome, pts[0])):
            vals = [float(np.ravel(p[key])[0]) for p in pts]
            lo = [float(np.ravel(p["lo"])[0]) for p in pts] if key == "mean" and all(
                "lo" in p for p in pts) else None
            hi = [float(np.ravel(p["hi"])[0]) for p in pts] if lo is not None else None
            items.append(series("measured" if key == "mean" else _label(outcome, key), cats,
                                vals, "measured" if key == "mean" else _style(outcome, key),
                                lo, hi, group="grid points"))
        return [figure("dots", _title(outcome), xlabel or "grid point", ylabel, items,
                       caption=caption)]
    if len(pts) > max_groups:
        pts = pts[:max_groups]
    names, caption = point_names(pts)
    items = []
    for p, name in zip(pts, names, strict=True):
        name = name or f"point {p['point']}"
        mean = np.asarray(p["mean"], dtype=float).ravel()
        if categories is not None:
            cats = [str(c) for c in categories][: mean.size]
        else:
            ks = np.asarray(p.get("ks", np.arange(mean.size)), dtype=float).ravel()
            cats = [fmt(float(k)) for k in ks]
        n = len(cats)

        def arr(key: str, p: dict = p, n: int = n, size: int = mean.size) -> list | None:
            if key not in p:
                return None
            return np.broadcast_to(np.asarray(p[key], float).ravel(), (size,))[:n].tolist()

        items.append(series("measured", cats, mean[:n], "measured", arr("lo"), arr("hi"),
                            group=name))
        for key in _bound_keys(outcome, p):
            items.append(series(_label(outcome, key), cats, arr(key), _style(outcome, key),
                                group=name))
    return [figure("dots", _title(outcome), xlabel, ylabel, items, caption=caption)]


# ---------------------------------------------------------------------------------------------
# tail probabilities
# ---------------------------------------------------------------------------------------------
def tail_figures(outcome: Outcome, *, xlabel: str = "", ylabel: str = "",
                 names: Callable[[dict[str, Any]], str] | None = None) -> list[dict]:
    """Violation rates (``rate`` with its Clopper-Pearson interval ``rate_lo``/``rate_hi``)
    of the grid points against the allowed ``delta``, a category per grid point (named by
    ``names(params)``, by default by the parameters that differ); or probabilities recorded
    as curves (``mean``, ``lo``, ``hi`` against ``ks``) against their bound."""
    rated = [p for p in outcome.evidence if "rate" in p]
    if rated:
        default, caption = point_names(rated)
        cats = [names(p["params"]) for p in rated] if names is not None else default
        if not all(cats) or len(set(cats)) < len(cats):
            cats = [f"point {p['point']}" for p in rated]

        def col(key: str) -> list[float]:
            return [float(np.ravel(p[key])[0]) if key in p else math.nan for p in rated]

        items = [series("violation rate", cats, col("rate"), "measured", col("rate_lo"),
                        col("rate_hi"), group="rate"),
                 series("delta (allowed rate)", cats, col("delta"), "bound", group="rate")]
        return [figure("tail", _title(outcome), xlabel or "grid point",
                       ylabel or "P(violation)", items, logx=False,
                       caption=(caption + " Intervals: Clopper-Pearson.").strip())]
    figs = curve_figures(outcome, xlabel=xlabel, ylabel=ylabel)
    for f in figs:
        f["kind"] = "tail"
        f["caption"] = (f.get("caption", "") + " Intervals: the check's confidence "
                        "limits.").strip()
    return figs


# ---------------------------------------------------------------------------------------------
# rates and scaling
# ---------------------------------------------------------------------------------------------
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
    fig = figure("scaling", _title(outcome), xlabel, ylabel, items, logx=not semilog,
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
        figs.append(figure("scaling", _title(outcome), xlabel, ylabel, items, logx=True,
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
    return [table(_title(outcome), ["point", "parameters", "max |residual|", "tolerance"], rows,
                  "Largest absolute residual of the identity at each grid point.")]


# ---------------------------------------------------------------------------------------------
# choosing and finishing
# ---------------------------------------------------------------------------------------------
_KIND_FUNCTIONS: dict[str, Callable[..., list[dict[str, Any]]]] = {
    "curves": curve_figures, "scatter": scatter_figures, "dots": dot_figures,
    "tail": tail_figures, "scaling": scaling_figures,
}


def figures_of_kind(kind: str, outcome: Outcome, **options: Any) -> list[dict[str, Any]]:
    """The specs of ``kind`` built from ``outcome`` by that kind's function (``scaling`` of
    a rate check: :func:`rate_figures`; ``curves`` of one value per grid point:
    :func:`point_figures`)."""
    if not outcome.evidence:
        return []
    if kind == "scaling" and outcome.kind is CheckKind.RATE:
        return rate_figures(outcome, **options)
    if kind == "curves" and all(np.size(p.get("mean", [])) == 1 for p in outcome.evidence):
        return point_figures(outcome, **options)
    return _KIND_FUNCTIONS[kind](outcome, **options)


def default_figures(outcome: Outcome, check: Check | None = None) -> list[dict[str, Any]]:
    """The figures of an outcome by its check's kind and the shape of its evidence (none
    without evidence): identity, a table of residuals; scaling, the slope figure; a
    probability, the tail figure; a rate, the slope figure and the curves with their bound;
    bounds, the curves against K, or against the grid parameter when each point has one
    value."""
    if not outcome.evidence:
        return []
    kind = outcome.kind
    if kind is CheckKind.IDENTITY:
        return identity_tables(outcome)
    if kind is CheckKind.SCALING:
        return scaling_figures(outcome)
    if kind is CheckKind.HOLDS_WITH_PROBABILITY:
        return tail_figures(outcome)
    figs = []
    if kind is CheckKind.RATE:
        figs += rate_figures(outcome)
        if not any("bound" in p for p in outcome.evidence):
            return figs or curve_figures(outcome)
    with_mean = [p for p in outcome.evidence if "mean" in p]
    if with_mean and all(np.size(p["mean"]) == 1 for p in with_mean):
        return figs + point_figures(outcome)
    return figs + curve_figures(outcome)


def _finite_points(s: dict[str, Any], logx: bool = False, logy: bool = False) -> list:
    out = []
    for x, y in zip(s.get("x") or [], s.get("y") or [], strict=False):
        if y is None or not math.isfinite(y) or (logy and y <= 0):
            continue
        if not isinstance(x, str) and (x is None or not math.isfinite(x) or (logx and x <= 0)):
            continue
        out.append((x, y))
    return out


def _main_series(fig: dict[str, Any]) -> list[dict[str, Any]]:
    main = [s for s in fig.get("series", []) if s.get("style") == "measured"]
    return main or list(fig.get("series", []))


def n_points(fig: dict[str, Any]) -> int:
    """The points a figure shows: the most in one measured series (a scatter: all its
    instances; a slope figure: its measured points)."""
    if fig.get("kind") == "table":
        return len(fig.get("rows", []))
    counts = [len(_finite_points(s)) for s in _main_series(fig)]
    if fig.get("kind") == "scatter":
        return sum(counts)
    return max(counts, default=0)


def informative(fig: dict[str, Any]) -> bool:
    """Whether a figure shows more than a table would: some series has two or more distinct
    x values, and not every drawn value is the same."""
    if fig.get("kind") == "table":
        return True
    if fig.get("kind") == "scatter":  # instances vary in their bound or in their value
        pts = [xy for s in fig.get("series", []) for xy in _finite_points(s)]
        return len({x for x, _ in pts}) >= 2 or len({y for _, y in pts}) >= 2
    logx = bool(fig.get("logx")) and fig.get("kind") != "dots"
    pts = [_finite_points(s, logx, bool(fig.get("logy"))) for s in fig.get("series", [])]
    if not any(len({x for x, _ in p}) >= 2 for p in pts):
        return False
    ys = {y for p in pts for _, y in p}
    return len(ys) >= 2


MAX_ROWS = 40
"""Rows of a table made from a figure (the CSV of the results holds every value)."""


def as_table(fig: dict[str, Any]) -> dict[str, Any]:
    """The values of a figure as a table: one row per drawn point of each series (at most
    :data:`MAX_ROWS`, the caption says how many more)."""
    xlabel = fig.get("xlabel") or "x"
    ylabel = fig.get("ylabel") or "value"
    grouped = len({s.get("group", "") for s in fig.get("series", [])}) > 1
    columns = ["series", xlabel, ylabel]
    rows = []
    for s in fig.get("series", []):
        if s.get("style") in ("fit", "reference") and fig.get("kind") == "scaling":
            continue  # a fitted or predicted line: its points are not values
        name = s.get("label", "")
        if grouped and s.get("group") and not name.endswith(f"({s['group']})"):
            name = f"{name} ({s['group']})"
        for x, y in _finite_points(s):
            rows.append([name, fmt(x) if not isinstance(x, str) else x, fmt(y)])
    caption = fig.get("caption", "")
    if len(rows) > MAX_ROWS:
        caption = f"{caption} The first {MAX_ROWS} of {len(rows)} values.".strip()
        rows = rows[:MAX_ROWS]
    return table(fig.get("title", ""), columns, rows, caption)


_READING = {
    "scatter": "One point per instance: its bound (x) and its measured value (y); above the "
               "line y = x (shaded) the bound fails.",
    "histogram": "Histogram over the instances of measured/bound; right of the line at 1 "
                 "(shaded) the bound fails.",
    "histogram_difference": "Histogram over the instances of measured - bound; right of the "
                            "line at 0 (shaded) the bound fails.",
    "tail": "Points: empirical probabilities with their intervals; dashed: the bound.",
    "scaling": "Points: measured; solid line: least-squares fit; dashed: the predicted slope "
               "(shaded: its tolerance).",
}


def _reading(fig: dict[str, Any]) -> str:
    """A sentence saying how to read the figure (what its marks and panels are)."""
    kind = fig["kind"]
    if kind == "scatter":
        if n_points(fig) > HISTOGRAM_ABOVE:
            negative = any(v <= 0 for s in fig["series"] for v in (s["x"] or []) if
                           math.isfinite(v)) or any(v < 0 for s in fig["series"]
                                                    for v in (s["y"] or []) if math.isfinite(v))
            return _READING["histogram_difference" if negative else "histogram"]
        return _READING["scatter"]
    if kind in ("tail", "scaling"):
        return _READING[kind]
    spec = PlotSpec.from_dict(fig)
    pairs = ratio_pairs(spec)
    marks = "Solid: measured; dashed: its bound, in the same colour." if kind == "curves" \
        else "Dots: measured (with intervals); bars: the bound, in the same colour."
    if not pairs:
        return ("Solid: measured." if kind == "curves" else "Dots: measured.") \
            if not any(s.is_bound for s in spec.series) else marks
    lower = all(p.style == "lower_bound" for p in pairs)
    mixed = not lower and any(p.style == "lower_bound" for p in pairs)
    if any(p.difference for p in pairs):
        what = "bound - measured" if lower else "measured - bound"
        where = "above 0"
    else:
        what = "bound/measured" if lower else "measured/bound"
        where = "above 1"
    if mixed:
        what += " (for a lower bound, the reverse)"
    fails = "the lower bound fails" if lower else "the bound fails"
    return f"{marks} Lower panel: {what}; {where} (shaded) {fails}."


def finish(fig: dict[str, Any], outcome: Outcome | None = None, check: Check | None = None
           ) -> dict[str, Any]:
    """Apply the rules every figure obeys: a known kind (category names make dots, never a
    line), both axes labelled (from the check when the spec has none), a caption saying
    what it shows, and a table instead when it has fewer than :data:`MIN_POINTS` points or
    no variation."""
    if fig.get("kind") == "table":
        fig = dict(fig)
        fig.setdefault("caption", "")
        return fig
    fig = dict(fig)
    fig["kind"] = {"bars": "dots"}.get(fig.get("kind", "curves"), fig.get("kind", "curves"))
    categorical = any(s.get("x") and all(isinstance(v, str) for v in s["x"])
                      for s in fig.get("series", []))
    if categorical and fig["kind"] in ("curves", "scaling"):
        fig["kind"] = "dots"
    if fig["kind"] == "dots":
        fig["logx"] = False
        for s in fig.get("series", []):
            if s.get("x") and not all(isinstance(v, str) for v in s["x"]):
                s["x"] = [fmt(float(v)) for v in s["x"]]
    xl = (check.xlabel if check is not None else "") or ""
    yl = (check.ylabel if check is not None else "") or ""
    if fig["kind"] == "scatter":
        fig["xlabel"] = fig.get("xlabel") or (f"bound on {yl}" if yl else "bound")
        fig["ylabel"] = fig.get("ylabel") or yl or "measured"
    else:
        fallback = {"dots": "case", "tail": "grid point", "curves": "K"}.get(fig["kind"], "x")
        x_param = (check.x_param if check is not None else "") or ""
        fig["xlabel"] = fig.get("xlabel") or xl or x_param or fallback
        fig["ylabel"] = fig.get("ylabel") or yl or "measured value"
    if not fig.get("title"):
        fig["title"] = _title(outcome) if outcome is not None else "figure"
    if n_points(fig) < MIN_POINTS or not informative(fig):
        return as_table(fig)
    fig["caption"] = " ".join(v for v in (fig.get("caption", "").strip(), _reading(fig)) if v)
    return fig


def figures_for(outcome: Outcome, check: Check | None) -> list[dict[str, Any]]:
    """What the report shows for ``outcome``: the check's declared or custom figures when it
    has a ``plot`` (the defaults, with a warning, when that fails), otherwise the default
    figures of its kind; every figure :func:`finish`-ed (labels, caption, a table when it
    would carry no information)."""
    figs = None
    if check is not None and check.plot is not None:
        try:
            figs = list(check.plot(outcome))
        except Exception as exc:  # noqa: BLE001 - a report must still be produced
            warnings.warn(f"custom figures of {outcome.check_id} failed ({exc!r}); "
                          "using defaults", stacklevel=2)
    if figs is None:
        figs = default_figures(outcome, check)
    return [finish(f, outcome, check) for f in figs]
