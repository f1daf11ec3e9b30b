"""The figure part of the report model: what a figure or a value table shows, independent of
how it is drawn.

:class:`PlotSpec` (with its :class:`Series` and :class:`RefLine`) is drawn by
:func:`pflbounds.reporting.figures.render_plot`; :class:`ValueTable` replaces a figure that would
carry no information. Like :mod:`pflbounds.reporting.model`, this module imports nothing from
the rest of the package. Labels are plain text in the notation of the papers' digests (or
mathtext between ``$``); see :mod:`pflbounds.reporting.model` for the conventions.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

__all__ = ["PlotSpec", "RefLine", "Series", "ValueTable"]

PlotKind = Literal["curves", "scaling", "bars"]
SeriesStyle = Literal["measured", "bound", "bound_printed", "bound_corrected", "fit", "reference"]
_PLOT_KINDS = ("curves", "scaling", "bars")
_STYLES = ("measured", "bound", "bound_printed", "bound_corrected", "fit", "reference")


def _floats(values: Sequence[float] | None, what: str) -> tuple[float, ...] | None:
    if values is None:
        return None
    try:
        return tuple(float(v) for v in values)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"{what} must be a sequence of numbers: {exc}") from None


@dataclass
class Series:
    """One line (or one group of bars) of a plot.

    Attributes:
        label: legend entry.
        x: abscissae. Numbers for ``curves`` and ``scaling`` plots; category names (strings)
            or numbers for ``bars``.
        y: ordinates, same length as ``x``. NaN and inf are allowed (a diverging run); they
            are written to the CSV as ``nan``/``inf`` and skipped in the drawing.
        lo: lower end of a confidence band (or error bar), same length as ``y``; optional.
        hi: upper end of the band; optional, but given together with ``lo``.
        style: how the series is drawn:
            ``measured`` (solid, with a shaded band from lo/hi),
            ``bound`` (dashed), ``bound_printed`` (the bound as printed in the paper: dashed,
            red), ``bound_corrected`` (the bound after errata: dash-dot, green),
            ``fit`` (a fitted line, dotted) and ``reference`` (a predicted slope or a
            baseline, thin).
        group: series drawn in one colour, e.g. a measured curve and its bounds
            (``"point 0"``). Empty: the parenthesised tail of the label (``"bound (point 0)"``)
            or, without one, the label itself.
    """

    label: str
    x: Sequence[float | str]
    y: Sequence[float]
    lo: Sequence[float] | None = None
    hi: Sequence[float] | None = None
    style: SeriesStyle = "measured"
    group: str = ""

    def __post_init__(self) -> None:
        if self.style not in _STYLES:
            raise ValueError(f"series style {self.style!r} is not one of {', '.join(_STYLES)}")
        if all(isinstance(v, str) for v in self.x) and len(self.x):
            self.x = tuple(str(v) for v in self.x)
        else:
            self.x = _floats(self.x, f"series {self.label!r}: x") or ()
        self.y = _floats(self.y, f"series {self.label!r}: y") or ()
        self.lo = _floats(self.lo, f"series {self.label!r}: lo")
        self.hi = _floats(self.hi, f"series {self.label!r}: hi")
        n = len(self.x)
        if len(self.y) != n:
            raise ValueError(f"series {self.label!r}: len(y)={len(self.y)} but len(x)={n}")
        for name in ("lo", "hi"):
            band = getattr(self, name)
            if band is not None and len(band) != n:
                raise ValueError(f"series {self.label!r}: len({name})={len(band)} but len(x)={n}")
        if (self.lo is None) != (self.hi is None):
            raise ValueError(f"series {self.label!r}: give both lo and hi, or neither")

    @property
    def categorical(self) -> bool:
        """True when ``x`` holds category names."""
        return bool(self.x) and isinstance(self.x[0], str)

    @property
    def colour_key(self) -> str:
        """The series sharing this key share a colour (see ``group``)."""
        if self.group:
            return self.group
        m = re.search(r"\(([^()]*)\)\s*$", self.label)
        return m.group(1) if m else self.label


@dataclass
class RefLine:
    """A horizontal or vertical reference line (e.g. a target ε or a threshold K)."""

    value: float
    label: str = ""

    def __post_init__(self) -> None:
        self.value = float(self.value)
        if not math.isfinite(self.value):
            raise ValueError(f"reference line {self.label!r} must be finite, got {self.value}")


def _reflines(lines: Sequence[RefLine | tuple[float, str] | float]) -> list[RefLine]:
    out = []
    for item in lines:
        if isinstance(item, RefLine):
            out.append(item)
        elif isinstance(item, tuple):
            out.append(RefLine(*item))
        else:
            out.append(RefLine(float(item)))
    return out


@dataclass
class PlotSpec:
    """A figure: what to draw, independent of how.

    Attributes:
        kind: ``curves`` (metric against K, typically measured vs bound), ``scaling`` (cost
            against a swept parameter, with fitted and predicted slopes) or ``bars``
            (one value per category, e.g. margins per check).
        title: what the figure shows; it opens the caption (the figure itself has no title,
            so nothing is clipped).
        xlabel, ylabel: axis labels in plain notation (typeset with mathtext); a label that
            holds ``$`` is taken as mathtext already.
        logx, logy: logarithmic axes. Non-positive values are not drawn on a log axis.
        series: the lines or bar groups.
        annotations: short text lines shown in a box inside the axes (e.g. a fitted slope).
        hlines, vlines: reference lines; ``RefLine`` objects, ``(value, label)`` tuples or
            bare numbers.
        caption: figure caption in the report; defaults to ``title``.
        name: file stem for ``figures/<name>.svg`` and ``.csv``; derived from the owning
            check or erratum id when empty.
    """

    kind: PlotKind
    title: str
    xlabel: str = ""
    ylabel: str = ""
    logx: bool = False
    logy: bool = False
    series: list[Series] = field(default_factory=list)
    annotations: list[str] = field(default_factory=list)
    hlines: list[RefLine] = field(default_factory=list)
    vlines: list[RefLine] = field(default_factory=list)
    caption: str = ""
    name: str = ""

    def __post_init__(self) -> None:
        if self.kind not in _PLOT_KINDS:
            raise ValueError(f"plot kind {self.kind!r} is not one of {', '.join(_PLOT_KINDS)}")
        self.hlines = _reflines(self.hlines)
        self.vlines = _reflines(self.vlines)


@dataclass
class ValueTable:
    """A few values shown as a table where a figure would carry no information (one x value,
    one bar, all values equal).

    Attributes:
        title: what the values are; it opens the caption.
        columns: column headers (plain notation).
        rows: cells as strings, one list per row, as long as ``columns``.
        caption: the rest of the caption (e.g. the grid points).
    """

    title: str
    columns: list[str]
    rows: list[list[str]] = field(default_factory=list)
    caption: str = ""

    def __post_init__(self) -> None:
        self.rows = [[str(c) for c in row] for row in self.rows]
        for row in self.rows:
            if len(row) != len(self.columns):
                raise ValueError(f"table {self.title!r}: a row has {len(row)} cells for "
                                 f"{len(self.columns)} columns")
