"""Figures of curves: measured values against K or a grid parameter with their bounds
(``curves``), and probabilities against their bound (``tail``)."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from pflbounds.checking.kinds import CheckKind
from pflbounds.reporting.figure_common import (
    MAX_GROUPS,
    MIN_POINTS,
    bound_keys,
    bound_label,
    bound_style,
    outcome_title,
    param_key,
    params_text,
    point_names,
    tightness,
)
from pflbounds.reporting.instance_figures import dot_figures
from pflbounds.reporting.spec_builders import figure, series

if TYPE_CHECKING:  # pragma: no cover
    from pflbounds.checking.outcome import Outcome


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
        keys = ["lo", "hi", "bound_lo", "bound_hi", *bound_keys(outcome, p)]
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
        keys = bound_keys(outcome, c[2])
        return tightness(c[2]["mean"], c[2][keys[0]] if keys else None, lower)

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
        for key in bound_keys(outcome, p):
            band = (q.get("bound_lo"), q.get("bound_hi")) if key == "bound" else (None, None)
            items.append(series(bound_label(outcome, key), q["ks"], q[key],
                                bound_style(outcome, key), *band, group=group))
    if len(chosen) < len(curves):
        caption += (f" {len(chosen)} of the {len(curves)} curves are drawn: those closest to "
                    "their bound.")
    return [figure("curves", outcome_title(outcome), xlabel, ylabel, items, logx=logx,
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
            if len({param_key(p["params"].get(k)) for p in pts}) > 1]
    numeric = [k for k in keys if all(isinstance(p["params"].get(k), (int, float))
                                      and not isinstance(p["params"].get(k), bool)
                                      for p in pts)]
    finite = all(math.isfinite(v) for v in ks)
    named = [k for k in keys if k not in numeric
             and len({param_key(p["params"].get(k)) for p in pts}) == len(pts)]
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
            {param_key(p["params"].get(k)) for p in pts}) < len(set(xs))]
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
        for key in bound_keys(outcome, pts[idx[0]]):
            items.append(series(bound_label(outcome, key), gx, col(key), bound_style(outcome, key),
                                group=g))
    fixed = {k: v for k, v in pts[0]["params"].items() if k not in keys}
    caption = f"One value per grid point. Fixed: {params_text(fixed)}." if fixed else \
        "One value per grid point."
    return [figure("curves", outcome_title(outcome), xlabel or x_name, ylabel,
                   items, caption=caption)]


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
        return [figure("tail", outcome_title(outcome), xlabel or "grid point",
                       ylabel or "P(violation)", items, logx=False,
                       caption=(caption + " Intervals: Clopper-Pearson.").strip())]
    figs = curve_figures(outcome, xlabel=xlabel, ylabel=ylabel)
    for f in figs:
        f["kind"] = "tail"
        f["caption"] = (f.get("caption", "") + " Intervals: the check's confidence "
                        "limits.").strip()
    return figs
