"""The builders of figure and table specs (:mod:`pflbounds.reporting.figure_specs` says what
the specs hold): a series, a figure of each kind, a table. They need numpy only."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from pflbounds.reporting.figure_model import KINDS, STYLES

ALIASES = {"bars": "dots"}
"""Other names of figure kinds."""


def series(
    label: str, x: Any, y: Any, style: str, lo: Any = None, hi: Any = None, group: str = ""
) -> dict[str, Any]:
    """One series of a figure spec (numpy arrays converted to lists; category names kept).

    ``group`` names the instance the series belongs to; series of one group are drawn in one
    colour. When empty, the report takes the parenthesised tail of the label (``"bound
    (point 0)"``).
    """
    if style not in STYLES:
        raise ValueError(f"unknown series style {style!r}; expected one of {STYLES}")

    def lst(v: Any) -> list[float] | None:
        return None if v is None else [float(u) for u in np.asarray(v, dtype=float).ravel()]

    xs = list(x) if isinstance(x, (list, tuple)) else None
    if xs and all(isinstance(v, str) for v in xs):
        xv: list[Any] = [str(v) for v in xs]
    else:
        xv = lst(x) or []
    return {"label": label, "x": xv, "y": lst(y), "lo": lst(lo), "hi": lst(hi),
            "style": style, "group": group}


def _wide(values: list[float]) -> bool:
    """Every value positive and spanning more than a factor 10 (a log axis reads better)."""
    return bool(values) and min(values) > 0 and max(values) / min(values) > 10


def figure(
    kind: str, title: str, xlabel: str, ylabel: str, items: list[dict[str, Any]],
    *, logx: bool | None = None, logy: bool | None = None, caption: str = "",
    annotations: Sequence[str] = (), hlines: Sequence[tuple[float, str]] = (),
    vlines: Sequence[tuple[float, str]] = (),
) -> dict[str, Any]:
    """A figure spec of one of :data:`KINDS`; log axes default to True when every value on
    that axis is > 0 and they span more than a factor 10 (a scatter's two axes together)."""
    kind = ALIASES.get(kind, kind)
    if kind not in KINDS:
        raise ValueError(f"unknown figure kind {kind!r}; expected one of {KINDS}")

    def values(key: str) -> list[float]:
        return [v for s in items for v in (s.get(key) or []) if not isinstance(v, str)
                and math.isfinite(v)]

    if kind == "scatter":  # zeros (equal to a zero bound) are left off a log scatter
        v = values("x") + values("y")
        pos = [u for u in v if u > 0]
        both = bool(v) and min(v) >= 0 and _wide(pos) and len(pos) >= 0.5 * len(v)
        logx = both if logx is None else logx
        logy = both if logy is None else logy
    fig: dict[str, Any] = {
        "kind": kind, "title": title, "xlabel": xlabel, "ylabel": ylabel,
        "logx": (_wide(values("x")) and kind not in ("dots",)) if logx is None else logx,
        "logy": _wide(values("y")) if logy is None else logy,
        "series": items,
    }
    if caption:
        fig["caption"] = caption
    if annotations:
        fig["annotations"] = list(annotations)
    if hlines:
        fig["hlines"] = [tuple(h) for h in hlines]
    if vlines:
        fig["vlines"] = [tuple(v) for v in vlines]
    return fig


def curves(title: str, xlabel: str, ylabel: str, items: list[dict[str, Any]],
           **kw: Any) -> dict[str, Any]:
    """Measured curves against an ordered parameter, each bound in its curve's group."""
    return figure("curves", title, xlabel, ylabel, items, **kw)


def scatter(title: str, xlabel: str, ylabel: str, items: list[dict[str, Any]],
            **kw: Any) -> dict[str, Any]:
    """Measured (y) against bound (x), one point per instance; series are families."""
    return figure("scatter", title, xlabel, ylabel, items, **kw)


def dots(title: str, xlabel: str, ylabel: str, items: list[dict[str, Any]],
         **kw: Any) -> dict[str, Any]:
    """One dot (with its interval) per category and series; category names as x."""
    return figure("dots", title, xlabel, ylabel, items, **kw)


def tail(title: str, xlabel: str, ylabel: str, items: list[dict[str, Any]],
         **kw: Any) -> dict[str, Any]:
    """Empirical probabilities (with lo/hi intervals) against the bound."""
    return figure("tail", title, xlabel, ylabel, items, **kw)


def scaling(title: str, xlabel: str, ylabel: str, items: list[dict[str, Any]],
            **kw: Any) -> dict[str, Any]:
    """Measured points, the fitted line and the predicted slope (a reference series)."""
    return figure("scaling", title, xlabel, ylabel, items, **kw)


def table(title: str, columns: Sequence[str], rows: Sequence[Sequence[Any]],
          caption: str = "") -> dict[str, Any]:
    """A table spec (cells converted to strings by the report)."""
    return {"kind": "table", "title": title, "columns": list(columns),
            "rows": [list(r) for r in rows], "caption": caption}
