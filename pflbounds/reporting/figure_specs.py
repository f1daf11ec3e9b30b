"""The vocabulary of figure specs: plain dicts that a check's ``plot`` function returns.

A figure is ``{"kind": "curves"|"scaling"|"bars", "title", "xlabel", "ylabel", "logx",
"logy", "series": [...]}`` plus optional ``caption`` and ``annotations`` (short text lines).
A series is ``{"label", "x", "y", "lo", "hi", "style", "group"}``: ``style`` is one of
:data:`STYLES`; ``lo``/``hi`` are None when there is no band; series with the same ``group``
(e.g. ``"point 0"``) are drawn in one colour, so a bound is paired with its measured curve.
Labels and titles are plain text in the notation of the papers' digests (``E[f_i(x_i^K)]``,
``eps``, ``b_ij^2/mu``); the report typesets them (:mod:`pflbounds.reporting.plainmath`).

This module needs numpy only, so paper packages can build figures without loading
matplotlib or Typst.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

__all__ = ["STYLES", "figure", "series"]

STYLES = ("measured", "bound", "bound_printed", "bound_corrected", "fit", "reference")


def series(
    label: str, x: Any, y: Any, style: str, lo: Any = None, hi: Any = None, group: str = ""
) -> dict[str, Any]:
    """One series of a figure spec (numpy arrays converted to lists).

    ``group`` pairs series drawn in one colour (a measured curve and its bound); when empty,
    the report takes the parenthesised tail of the label (``"bound (point 0)"``).
    """
    if style not in STYLES:
        raise ValueError(f"unknown series style {style!r}; expected one of {STYLES}")

    def lst(v: Any) -> list[float] | None:
        return None if v is None else [float(u) for u in np.asarray(v, dtype=float).ravel()]

    return {"label": label, "x": lst(x), "y": lst(y), "lo": lst(lo), "hi": lst(hi),
            "style": style, "group": group}


def figure(
    kind: str, title: str, xlabel: str, ylabel: str, items: list[dict[str, Any]],
    *, logx: bool | None = None, logy: bool | None = None,
) -> dict[str, Any]:
    """A figure spec; log axes default to True when every value on that axis is > 0 and
    they span more than a factor 10."""
    def positive(key: str) -> bool:
        vals = [v for s in items for v in (s[key] or []) if math.isfinite(v)]
        return bool(vals) and min(vals) > 0 and max(vals) / min(vals) > 10

    return {
        "kind": kind, "title": title, "xlabel": xlabel, "ylabel": ylabel,
        "logx": positive("x") if logx is None else logx,
        "logy": positive("y") if logy is None else logy,
        "series": items,
    }
