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

__all__ = ["BOUND_STYLES", "HISTOGRAM_ABOVE", "KINDS", "STYLES", "PlotSpec", "RatioPair", "RefLine",
           "Series", "ValueTable", "ratio_pairs"]

PlotKind = Literal["curves", "scatter", "dots", "tail", "scaling"]
SeriesStyle = Literal["measured", "bound", "bound_printed", "bound_corrected", "lower_bound",
                      "fit", "reference"]

#: The five kinds of figure, one drawing function each (:mod:`pflbounds.reporting.figures`):
#: ``curves`` measured against an ordered parameter with each bound in its curve's colour and a
#: ratio panel; ``scatter`` measured against its bound over independent instances, with y = x;
#: ``dots`` one dot (with its interval) per category and series, never a line; ``tail``
#: empirical probabilities with their intervals against the bound; ``scaling`` log-log points
#: with the fitted line and the predicted slope.
KINDS: tuple[str, ...] = ("curves", "scatter", "dots", "tail", "scaling")
_KIND_ALIASES = {"bars": "dots"}
#: Series styles; the bound styles are paired with the measured series of their group.
STYLES: tuple[str, ...] = ("measured", "bound", "bound_printed", "bound_corrected",
                           "lower_bound", "fit", "reference")
BOUND_STYLES: tuple[str, ...] = ("bound", "bound_printed", "bound_corrected", "lower_bound")
_PLOT_KINDS = KINDS
_STYLES = STYLES


def _floats(values: Sequence[float] | None, what: str) -> tuple[float, ...] | None:
    if values is None:
        return None
    try:
        return tuple(float(v) for v in values)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"{what} must be a sequence of numbers: {exc}") from None


@dataclass
class Series:
    """One set of points of a plot (a curve, a set of dots, a cloud of instances).

    Attributes:
        label: legend entry: what the series is (``measured``, ``bound as printed``); the
            instance it belongs to is its ``group``.
        x: abscissae. Numbers for ``curves``, ``tail`` and ``scaling``; category names
            (strings) for ``dots``; for ``scatter``, the bound of each instance.
        y: ordinates, same length as ``x`` (for ``scatter``, the measured value of each
            instance). NaN and inf are allowed (a diverging run); they are written to the CSV
            as ``nan``/``inf`` and skipped in the drawing.
        lo: lower end of a confidence band (or error bar), same length as ``y``; optional.
        hi: upper end of the band; optional, but given together with ``lo``.
        style: what the series is, hence how it is drawn:
            ``measured`` (solid, with a shaded band from lo/hi), ``bound`` (an upper bound,
            dashed), ``bound_printed`` (the bound as printed in the paper, dashed),
            ``bound_corrected`` (the bound after errata, dash-dot), ``lower_bound`` (a lower
            bound, dashed; its ratio panel shows bound/measured), ``fit`` (a fitted line,
            dotted) and ``reference`` (a predicted value or slope; a band from lo/hi).
        group: the instance the series belongs to (e.g. ``"kappa = 4"``): the series of one
            group share one colour, so each bound is paired with its measured curve, and the
            legend names the group once. Empty: the parenthesised tail of the label (``"bound
            (point 0)"``) or, without one, the label itself.
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
    def is_bound(self) -> bool:
        """True for the bound styles (paired with the measured series of the group)."""
        return self.style in BOUND_STYLES

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
        kind: one of :data:`KINDS` (``bars``, an older name, is read as ``dots``):
            ``curves``: measured curves against an ordered parameter (K, T, eps, n), each bound
            in the colour of its curve, and a lower panel of measured/bound per pair with a
            line at 1 (above 1 the bound fails; measured - bound and a line at 0 when a value
            is not positive);
            ``scatter``: one point per instance, its bound on x and its measured value on y,
            with the line y = x (a histogram of measured/bound when there are many);
            ``dots``: categories on x (methods, constants, named cases), a dot with its
            interval per category and series, bounds as bars, and the ratio panel;
            ``tail``: empirical probabilities with their (Clopper-Pearson) intervals against
            the bound;
            ``scaling``: points on log-log (or semilog) axes with the fitted line and the
            predicted slope (a band from the ``reference`` series' lo/hi).
        title: what the figure shows; it opens the caption (the figure itself has no title,
            so nothing is clipped).
        xlabel, ylabel: axis labels in plain notation (typeset with mathtext); a label that
            holds ``$`` is taken as mathtext already.
        logx, logy: logarithmic axes. Non-positive values are not drawn on a log axis.
        series: the series.
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
        self.kind = _KIND_ALIASES.get(self.kind, self.kind)  # type: ignore[assignment]
        if self.kind not in _PLOT_KINDS:
            raise ValueError(f"plot kind {self.kind!r} is not one of {', '.join(_PLOT_KINDS)}")
        self.hlines = _reflines(self.hlines)
        self.vlines = _reflines(self.vlines)

    @classmethod
    def from_dict(cls, d: dict) -> PlotSpec:
        """A figure spec (the plain dict of :mod:`pflbounds.reporting.figure_specs`) as a
        PlotSpec; unknown keys are ignored."""
        series = [Series(label=s.get("label", ""), x=s["x"], y=s["y"], lo=s.get("lo"),
                         hi=s.get("hi"), style=s.get("style", "measured"),
                         group=s.get("group", "")) for s in d.get("series", [])]
        kw = {k: v for k, v in d.items() if k in _PLOT_FIELDS}
        return cls(series=series, **kw)


_PLOT_FIELDS = ("kind", "title", "xlabel", "ylabel", "logx", "logy", "annotations", "hlines",
                "vlines", "caption", "name")


@dataclass
class ValueTable:
    """A few values shown as a table where a figure would carry no information (fewer than 3
    points, all values equal).

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


#: A scatter with more instances than this is drawn as a histogram of measured/bound.
HISTOGRAM_ABOVE = 4000


@dataclass
class RatioPair:
    """A measured series and one bound of its group, at the measured series' x values."""

    group: str
    style: str
    x: tuple
    measured: tuple[float, ...]
    bound: tuple[float, ...]

    @property
    def difference(self) -> bool:
        """True when a ratio would mislead: a bound that is not positive or a negative
        measured value (the panel then shows the difference)."""
        return any(math.isfinite(b) and b <= 0 for b in self.bound) or any(
            math.isfinite(m) and m < 0 for m in self.measured)

    def ratio_values(self):
        """measured/bound (bound/measured for a lower bound), as a numpy array."""
        import numpy as np

        m = np.asarray(self.measured, dtype=float)
        b = np.asarray(self.bound, dtype=float)
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            return b / m if self.style == "lower_bound" else m / b

    def difference_values(self):
        """measured - bound (bound - measured for a lower bound), as a numpy array."""
        import numpy as np

        m = np.asarray(self.measured, dtype=float)
        b = np.asarray(self.bound, dtype=float)
        with np.errstate(invalid="ignore", over="ignore"):
            return b - m if self.style == "lower_bound" else m - b


def ratio_pairs(spec: PlotSpec) -> list[RatioPair]:
    """The (measured, bound) pairs of ``spec``: in every group with exactly one measured
    series, each bound series of the group, read at the measured x values (NaN where the
    bound has no value). Empty for scatter, tail and scaling figures (they show the bound
    otherwise)."""
    if spec.kind not in ("curves", "dots"):
        return []
    groups: dict[str, list[Series]] = {}
    for s in spec.series:
        groups.setdefault(s.colour_key, []).append(s)
    out = []
    for g, ss in groups.items():
        measured = [s for s in ss if s.style == "measured"]
        if len(measured) != 1:
            continue
        m = measured[0]
        for b in ss:
            if not b.is_bound:
                continue
            at = dict(zip(b.x, b.y, strict=True))
            bound = tuple(v if math.isfinite(v) else math.nan  # an infinite bound says nothing
                          for v in (float(at.get(x, math.nan)) for x in m.x))
            if not any(math.isfinite(v) for v in bound):
                continue
            out.append(RatioPair(g, b.style, tuple(m.x), tuple(m.y), bound))
    return out
