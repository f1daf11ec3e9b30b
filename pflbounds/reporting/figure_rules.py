"""The rules every figure obeys (:func:`finish`): a known kind, labelled axes, a caption
that says how to read it, and a table instead when it would carry no information."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from pflbounds.reporting.figure_common import MIN_POINTS, outcome_title
from pflbounds.reporting.figure_model import HISTOGRAM_ABOVE, PlotSpec, ratio_pairs
from pflbounds.reporting.numbers import fmt
from pflbounds.reporting.spec_builders import table

if TYPE_CHECKING:  # pragma: no cover
    from pflbounds.checking.check import Check
    from pflbounds.checking.outcome import Outcome


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
    shown = fig.get("series", []) if fig.get("kind") == "dots" else _main_series(fig)
    counts = [len(_finite_points(s)) for s in shown]  # dots: a strip of draws counts too
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
    strip = fig.get("kind") == "dots" and any(  # several dots in one category (draws)
        len(p) >= MIN_POINTS and len({x for x, _ in p}) < len(p) for p in pts)
    if not strip and not any(len({x for x, _ in p}) >= 2 for p in pts):
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
        fig["title"] = outcome_title(outcome) if outcome is not None else "figure"
    if n_points(fig) < MIN_POINTS or not informative(fig):
        return as_table(fig)
    reading = fig.pop("reading", None) or _reading(fig)
    fig["caption"] = " ".join(v for v in (fig.get("caption", "").strip(), reading) if v)
    return fig
