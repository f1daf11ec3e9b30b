"""Figures for the report: matplotlib SVGs and their data as CSV.

:func:`render_plot` draws one :class:`~pflbounds.reporting.figure_model.PlotSpec` and writes
the SVG and, beside it, a tidy CSV (``series,x,y,lo,hi``) holding exactly the plotted
numbers. There is one drawing function per figure kind:

* ``curves`` (:func:`_draw_curves`): measured curves against an ordered parameter; each bound
  in the colour of its curve (the series of one group share a colour) and a lower panel of
  measured/bound per pair with a line at 1 (above 1, shaded, the bound fails); measured -
  bound and a line at 0 when a value is not positive;
* ``scatter`` (:func:`_draw_scatter`): each instance's measured value against its bound with
  the line y = x (above it the bound fails), or a histogram of measured/bound when there are
  more than :data:`~pflbounds.reporting.figure_model.HISTOGRAM_ABOVE` instances;
* ``dots`` (:func:`_draw_dots`): one dot with its interval per category and series, bounds
  as bars, never a line, and the ratio panel;
* ``tail`` (:func:`_draw_tail`): empirical probabilities with their intervals against the
  bound's line (bars for categories);
* ``scaling`` (:func:`_draw_scaling`): points on log-log (or semilog) axes, the fitted line
  and the predicted slope with its tolerance band.

Common rules: labels, legend entries, tick categories and annotations are typeset as
mathtext (plain notation through :func:`~pflbounds.reporting.plainmath.to_mathtext`); the
y-range of a curve reaches at most a few decades beyond its bounds (values beyond are marked
at the edge with a triangle: a divergence reads in the ratio panel, not as 1e121); the legend
sits below the axes and names each group once when several groups share the same series;
the figure has no title (the caption in the report says what it shows); the layout is
computed once from the measured size of the labels, and :func:`texts_outside` checks that
every text lies inside the figure.
"""

from __future__ import annotations

import csv
import functools
import io
import math
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

import matplotlib
import matplotlib.mathtext
import matplotlib.text
import numpy as np
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.backends.backend_mixed import MixedModeRenderer
from matplotlib.backends.backend_svg import RendererSVG
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.patches import Patch
from matplotlib.ticker import Formatter, LogLocator, NullFormatter

from pflbounds.reporting.figure_model import HISTOGRAM_ABOVE, PlotSpec, Series, ratio_pairs
from pflbounds.reporting.model import Report
from pflbounds.reporting.plainmath import current_paper, to_mathtext

__all__ = [
    "FIGSIZE",
    "PALETTE",
    "STYLES",
    "build_figure",
    "plan_figures",
    "render_plot",
    "texts_outside",
    "write_plot_csv",
]

#: Width of a figure and height of its main axes, in inches (the A4 text width at 100 %).
FIGSIZE: tuple[float, float] = (6.5, 2.7)
#: Heights of the main panel and of the ratio panel when a figure has one, in inches.
PANELS: tuple[float, float] = (2.1, 1.05)
#: Width of a scatter's axes (about square, so that y = x is the diagonal), in inches.
SCATTER_WIDTH = 3.6
#: A log axis spanning more decades than this is cut: it reaches at most DECADES_ABOVE
#: above the highest bound and DECADES_BELOW below the lowest (values beyond are marked).
MAX_DECADES = 9.0
DECADES_ABOVE, DECADES_BELOW = 3.0, 6.0
#: Range of a ratio panel before values are marked at its edge.
RATIO_RANGE = (1e-6, 1e6)

#: One colour per group of series, in order of first appearance.
PALETTE: tuple[str, ...] = (
    "#1f5fbf", "#c62828", "#2e7d32", "#6a3d9a", "#ef6c00", "#00838f", "#8c564b",
    "#ad1457", "#455a64", "#9e9d24",
)

#: Line style and width of each series style (the colour comes from the series' group).
STYLES: dict[str, dict] = {
    "measured": {"ls": "-", "lw": 1.6, "marker": "o"},
    "bound": {"ls": (0, (5, 2.5)), "lw": 1.5, "marker": "_"},
    "lower_bound": {"ls": (0, (5, 2.5)), "lw": 1.5, "marker": "_"},
    "bound_printed": {"ls": (0, (2, 1.6)), "lw": 1.5, "marker": "v"},
    "bound_corrected": {"ls": (0, (6, 2, 1.5, 2)), "lw": 1.5, "marker": "_"},
    "fit": {"ls": "-", "lw": 1.0, "marker": "+"},
    "reference": {"ls": (0, (4, 2)), "lw": 1.1, "marker": "s"},
}
_FAIL = "#c62828"  # the region where a bound fails
_NEUTRAL = "#555555"

_PAD = 0.06  # inches around the figure content
_LEGEND_GAP = 0.08  # inches between the x label and the legend
_PANEL_GAP = 0.08  # inches between the main panel and the ratio panel

_RC = {
    "font.size": 9,
    "axes.labelsize": 9,
    "legend.fontsize": 8,
    "xtick.labelsize": 8,
    "ytick.labelsize": 8,
    "svg.fonttype": "path",  # glyphs as paths: the SVG renders identically everywhere
    "svg.hashsalt": "pflbounds",  # deterministic element ids
    "axes.spines.top": False,
    "axes.spines.right": False,
    "mathtext.fontset": "dejavusans",
}


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]+", "-", text).strip("-") or "figure"


def plan_figures(report: Report) -> dict[int, str]:
    """File stems for every plot of ``report``, keyed by ``id(plot)``.

    A plot's ``name`` is used when set; otherwise ``<check or erratum id>-<k>``. Stems are
    made unique by a numeric suffix, in report order, so the plan is deterministic.
    """
    stems: dict[int, str] = {}
    used: set[str] = set()

    def add(plot: PlotSpec, owner: str, k: int) -> None:
        base = _slug(plot.name) if plot.name else _slug(f"{owner}-{k}")
        stem, n = base, 2
        while stem.lower() in used:
            stem, n = f"{base}-{n}", n + 1
        used.add(stem.lower())
        stems[id(plot)] = stem

    for section in report.sections:
        for row in section.verdicts:
            for k, plot in enumerate(row.plots, 1):
                add(plot, row.check_id, k)
        for err in section.errata:
            for k, plot in enumerate(err.plots, 1):
                add(plot, err.id, k)
    return stems


def _fmt(v: float | str | None) -> str:
    if v is None:
        return ""
    if isinstance(v, str):
        return v
    return repr(float(v))


def write_plot_csv(spec: PlotSpec, path: Path | str) -> Path:
    """Write the plotted data as a tidy CSV with columns ``series,x,y,lo,hi``.

    Numbers are written with ``repr`` so they read back exactly; a missing band is empty. In
    a figure of several groups the series column names the group too (``measured (kappa =
    4)``).
    """
    path = Path(path)
    several = len({s.colour_key for s in spec.series}) > 1
    with path.open("w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh, lineterminator="\n")
        w.writerow(["series", "x", "y", "lo", "hi"])
        for s in spec.series:
            name = s.label
            if several and s.group and not s.label.endswith(f"({s.group})"):
                name = f"{s.label} ({s.group})"
            for k in range(len(s.x)):
                lo = s.lo[k] if s.lo is not None else None
                hi = s.hi[k] if s.hi is not None else None
                w.writerow([name, _fmt(s.x[k]), _fmt(s.y[k]), _fmt(lo), _fmt(hi)])
    return path


# ---------------------------------------------------------------------------------------------
# Values, colours and labels
# ---------------------------------------------------------------------------------------------
def _clean(values: Iterable[float], log: bool) -> np.ndarray:
    """Float array with inf -> NaN, and non-positive -> NaN on a log axis."""
    a = np.asarray(list(values), dtype=float)
    a[~np.isfinite(a)] = np.nan
    if log:
        a[a <= 0] = np.nan
    return a


def _colors(spec: PlotSpec) -> list[str]:
    """The colour of each series: one per group, in order of first appearance."""
    keys: dict[str, str] = {}
    for ser in spec.series:
        keys.setdefault(ser.colour_key, PALETTE[len(keys) % len(PALETTE)])
    return [keys[ser.colour_key] for ser in spec.series]


def _label(text: str) -> str:
    """``text`` as a mathtext label, with the constant names of the paper being drawn (see
    :func:`pflbounds.reporting.plainmath.notation_of`). Plain notation is converted (always
    valid mathtext); a label given as mathtext that does not parse is shown as plain text."""
    return _label_in(text, current_paper())


@functools.lru_cache(maxsize=1024)
def _label_in(text: str, paper: str | None) -> str:
    label = to_mathtext(text or "", paper)
    if "$" not in (text or ""):
        return label
    try:
        _MATHTEXT.parse(label)
    except ValueError:
        return (text or "").replace("$", r"\$")
    return label


_MATHTEXT = matplotlib.mathtext.MathTextParser("path")


def _wrapped(text: str, width: int) -> str:
    """A mathtext label on two lines when its visible text is longer than ``width``
    characters: broken at the space outside ``$...$`` nearest to its middle."""
    label = _label(text)
    visible = len(re.sub(r"\\[A-Za-z]+|[${}\\^_]", "", label))
    if visible <= width:
        return label
    spaces, inside = [], False
    for i, ch in enumerate(label):
        if ch == "$" and (i == 0 or label[i - 1] != "\\"):
            inside = not inside
        elif ch == " " and not inside:
            spaces.append(i)
    if not spaces:
        return label
    mid = len(label) / 2
    cut = min(spaces, key=lambda i: abs(i - mid))
    return label[:cut] + "\n" + label[cut + 1:]


def _base_label(s: Series) -> str:
    """A series' label without the ``(group)`` tail that names its group."""
    tail = f"({s.colour_key})"
    if s.label.endswith(tail) and s.label != tail:
        return s.label[: -len(tail)].rstrip()
    return s.label


def _fmt_value(v: float) -> str:
    """A number for an annotation: 3 significant digits, powers of ten as mathtext."""
    if v == 0 or not math.isfinite(v):
        return f"{v:g}"
    e = int(math.floor(math.log10(abs(v))))
    if -3 <= e < 5:
        return f"{v:.3g}"
    m = v / 10.0**e
    return f"$10^{{{e}}}$" if abs(m - 1) < 5e-3 else f"${m:.2g}\\times 10^{{{e}}}$"


# ---------------------------------------------------------------------------------------------
# Ticks
# ---------------------------------------------------------------------------------------------
def _tick_label(v: float, _pos: object = None, powers: bool = False) -> str:
    """A tick label: plain (``0.05``, ``200``) or, with ``powers``, ``10³`` / ``2×10⁻⁴``."""
    if v == 0:
        return "0"
    if not powers:
        return f"{v:g}"
    exponent = int(np.floor(np.log10(abs(v)) + 1e-9))
    mantissa = v / 10.0**exponent
    power = "10" + str(exponent).translate(_SUPERSCRIPT)  # unicode: no mathtext parse
    if abs(mantissa - round(mantissa)) < 1e-9 and round(mantissa) == 1:
        return power
    return f"{mantissa:.2g}×{power}"


_SUPERSCRIPT = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")


class _LogTickFormatter(Formatter):
    """Plain numbers when every tick lies in [1e-3, 1e5), powers of ten otherwise.

    Deciding per axis (not per tick) avoids mixing ``10000`` and ``10^5`` on one axis.
    """

    def __init__(self) -> None:
        self.powers = False

    def set_locs(self, locs) -> None:  # noqa: ANN001 - matplotlib API
        super().set_locs(locs)
        lo, hi = self.axis.get_view_interval() if self.axis is not None else (1.0, 1.0)
        lo, hi = min(lo, hi), max(lo, hi)
        vis = [abs(v) for v in locs if v != 0 and lo * (1 - 1e-9) <= v <= hi * (1 + 1e-9)]
        self.powers = any(v < 1e-3 or v >= 1e5 for v in vis)

    def __call__(self, x: float, pos: object = None) -> str:
        return _tick_label(x, pos, self.powers)


def _format_log_axis(axis, limits: tuple[float, float]) -> None:
    """Readable log ticks: plain numbers, and minor labels only over a narrow range."""
    lo, hi = sorted(limits)
    decades = np.log10(hi / lo) if lo > 0 else np.inf
    axis.set_major_formatter(_LogTickFormatter())
    if decades > 12:  # a label every few decades, not a crowd of powers of ten
        step = int(math.ceil(decades / 8))
        axis.set_major_locator(LogLocator(base=10.0**step, numticks=12))
        axis.set_minor_locator(LogLocator(base=10, subs=(1.0,), numticks=60))
        axis.set_minor_formatter(NullFormatter())
    elif decades < 2.5:
        subs = (2.0, 3.0, 5.0) if decades < 1.2 else (2.0, 5.0)
        axis.set_minor_locator(LogLocator(base=10, subs=subs))
        axis.set_minor_formatter(_LogTickFormatter())
    else:  # unlabelled minor ticks at 2 and 5 only: fewer tick objects to lay out
        axis.set_minor_locator(LogLocator(base=10, subs=(2.0, 5.0)))
        axis.set_minor_formatter(NullFormatter())


def _format_axes(ax, logx: bool, logy: bool, *, minor_labels: bool = True) -> None:
    if logx:
        _format_log_axis(ax.xaxis, ax.get_xlim())
    if logy:
        _format_log_axis(ax.yaxis, ax.get_ylim())
        if not minor_labels:
            ax.yaxis.set_minor_formatter(NullFormatter())
    ax.grid(True, which="major", alpha=0.3, lw=0.6)
    if logx or logy:
        ax.grid(True, which="minor", alpha=0.12, lw=0.4)


_CORNERS = (  # (x, y, ha, va) in axes coordinates, in order of preference
    (0.02, 0.03, "left", "bottom"),
    (0.98, 0.03, "right", "bottom"),
    (0.02, 0.97, "left", "top"),
    (0.98, 0.97, "right", "top"),
)


def _emptiest_corner(ax) -> tuple[float, float, str, str]:
    """The corner of the axes with the fewest plotted points, for the annotation box."""
    to_axes = ax.transAxes.inverted()
    chunks = []
    t = np.linspace(0, 1, 8)[:, None, None]
    for line in ax.get_lines():
        xy = np.asarray(line.get_xydata(), dtype=float)
        xy = xy[np.all(np.isfinite(xy), axis=1)]
        if not len(xy):
            continue
        axy = to_axes.transform(line.get_transform().transform(xy))
        if len(axy) > 1 and line.get_linestyle() not in ("None", "none", ""):
            axy = (axy[:-1][None] * (1 - t) + axy[1:][None] * t).reshape(-1, 2)
        chunks.append(axy)
    for coll in ax.collections:
        offsets = np.asarray(coll.get_offsets(), dtype=float)
        if offsets.ndim == 2 and len(offsets):
            offsets = offsets[np.all(np.isfinite(offsets), axis=1)]
            chunks.append(to_axes.transform(coll.get_offset_transform().transform(offsets)))
    if not chunks:
        return _CORNERS[0]
    axes_xy = np.concatenate(chunks)
    best, best_count = _CORNERS[0], None
    for corner in _CORNERS:
        cx = (0.0, 0.4) if corner[2] == "left" else (0.6, 1.0)
        cy = (0.0, 0.3) if corner[3] == "bottom" else (0.7, 1.0)
        inside = (
            (axes_xy[:, 0] >= cx[0]) & (axes_xy[:, 0] <= cx[1])
            & (axes_xy[:, 1] >= cy[0]) & (axes_xy[:, 1] <= cy[1])
        )  # fmt: skip
        count = int(inside.sum())
        if best_count is None or count < best_count:
            best, best_count = corner, count
    return best


# ---------------------------------------------------------------------------------------------
# Shared drawing helpers
# ---------------------------------------------------------------------------------------------
@dataclass
class _Panels:
    """What a drawing function made: the axes (main first), their heights, legend entries
    and notes for the annotation box."""

    axes: list = field(default_factory=list)
    heights: list[float] = field(default_factory=list)
    legend: list[tuple[object, str]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    width: float | None = None  # axes width in inches; None: as wide as the figure allows


def _limits(values: np.ndarray, log: bool, bounds: np.ndarray | None = None,
            include: Iterable[float] = ()) -> tuple[float, float] | None:
    """Axis limits for ``values``, reaching at most :data:`DECADES_ABOVE` above and
    :data:`DECADES_BELOW` below the range of ``bounds`` (log) or 20 bound-widths (linear)."""
    v = values[np.isfinite(values)]
    if log:
        v = v[v > 0]
    extra = [float(u) for u in include if math.isfinite(u) and (u > 0 or not log)]
    if not v.size and not extra:
        return None
    lo = min([*v.tolist(), *extra])
    hi = max([*v.tolist(), *extra])
    b = None if bounds is None else bounds[np.isfinite(bounds)]
    if b is not None and log:
        b = b[b > 0]
    wide = math.log10(hi / lo) > MAX_DECADES if log and lo > 0 else True
    if b is not None and b.size and wide:
        if log:
            lo = max(lo, float(b.min()) / 10**DECADES_BELOW)
            hi = min(hi, float(b.max()) * 10**DECADES_ABOVE)
        else:
            scale = max(float(b.max() - b.min()), float(np.abs(b).max()), 1e-300)
            lo = max(lo, float(b.min()) - 20 * scale)
            hi = min(hi, float(b.max()) + 20 * scale)
    if log:
        if hi <= lo:
            lo, hi = lo / 2, hi * 2
        pad = 10 ** min(0.05 * math.log10(hi / lo), 2.0)
        return max(lo / pad, 1e-300), min(hi * pad, 1e300)
    if hi <= lo:
        d = abs(lo) * 0.1 or 1.0
        return lo - d, hi + d
    pad = 0.05 * (hi - lo)
    return lo - pad, hi + pad


def _legit(spec: PlotSpec, log: bool) -> np.ndarray | None:
    """The values an axis must show: every bound and reference, and the measured values of
    groups that no upper bound caps (a lower bound's curve lies above it by right). Only the
    measured values of upper-bounded groups may run off the chart (a divergence). None when
    no group has an upper bound (nothing is cut)."""
    upper = {s.colour_key for s in spec.series if s.is_bound and s.style != "lower_bound"}
    if not upper:
        return None
    vals = [_clean(s.y, log) for s in spec.series
            if s.style != "measured" or s.colour_key not in upper]
    return np.concatenate(vals) if vals else None


def _off_chart(ax, x: np.ndarray, y: np.ndarray, lims: tuple[float, float], log: bool,
               color: str, infinite: bool = True) -> float | None:
    """Triangles at the top (bottom) edge for values above (below) the limits (+inf too when
    ``infinite``: a diverging measurement, not a bound that says nothing); returns the most
    extreme value marked above, if any."""
    lo, hi = lims
    finite = np.isfinite(x)
    above = finite & ((np.isfinite(y) & (y > hi)) | (infinite & np.isinf(y) & (y > 0)))
    below = finite & (np.isfinite(y) & ((y < lo) | (log & (y <= 0))))
    trans = ax.get_xaxis_transform()
    if above.any():
        ax.plot(x[above], np.full(above.sum(), 1.0), ls="none", marker="^", ms=5, color=color,
                transform=trans, clip_on=False, zorder=4)
    if below.any():
        ax.plot(x[below], np.full(below.sum(), 0.0), ls="none", marker="v", ms=5, color=color,
                transform=trans, clip_on=False, zorder=4)
    vals = y[above & np.isfinite(y)]
    return float(vals.max()) if vals.size else (math.inf if above.any() else None)


def _proxy(style: str, color: str, *, line: bool = True, points: bool = False,
           marked: bool = True) -> Line2D:
    """A legend handle for a series style: a line (with its marker for measured curves drawn
    with markers, ``marked``), a marker alone (``line=False``, dots), or points for measured
    values (``points``)."""
    st = STYLES[style]
    if points and style == "measured":
        line = False
    marker = st["marker"] if not line or (style == "measured" and marked) else None
    return Line2D([], [], color=color, ls=st["ls"] if line else "none", lw=st["lw"],
                  marker=marker, ms=5 if marker != "_" else 10, mew=1.6,
                  mfc="none" if marker == "v" else color)


def _legend(spec: PlotSpec, colors: list[str], line: bool = True, points: bool = False
            ) -> list[tuple[object, str]]:
    """Legend entries: one per series, or, when several groups hold the same series, one per
    series kind (grey) and one per group (its colour)."""
    groups: dict[str, list[Series]] = {}
    color_of: dict[str, str] = {}
    for s, c in zip(spec.series, colors, strict=True):
        groups.setdefault(s.colour_key, []).append(s)
        color_of[s.colour_key] = c
    labels = {g: [(_base_label(s), s.style) for s in ss] for g, ss in groups.items()}
    same = len({tuple(v) for v in labels.values()}) == 1
    if len(groups) >= 2 and same and all(g.strip() for g in groups):
        marked = max(len(s.x) for s in spec.series) <= 25
        out = [(_proxy(st, _NEUTRAL, line=line, points=points, marked=marked), _label(lab))
               for lab, st in next(iter(labels.values())) if lab]
        for g in groups:
            out.append((Patch(color=color_of[g]), _label(g)))
        return out
    out, seen = [], set()
    for s, c in zip(spec.series, colors, strict=True):
        key = (s.label, c)
        if s.label and key not in seen:
            seen.add(key)
            out.append((_proxy(s.style, c, line=line, points=points, marked=len(s.x) <= 25),
                        _label(s.label)))
    return out


def _reflines(ax, spec: PlotSpec, legend: list, logx: bool, logy: bool, *,
              horizontal: bool = True, labelled: bool = True) -> None:
    for line in spec.hlines if horizontal else []:
        if not (logy and line.value <= 0):
            ax.axhline(line.value, color=_NEUTRAL, lw=0.9, ls=(0, (4, 2, 1, 2)), zorder=1)
            if line.label and labelled:
                legend.append((Line2D([], [], color=_NEUTRAL, lw=0.9, ls=(0, (4, 2, 1, 2))),
                               _label(line.label)))
    for line in spec.vlines:
        if not (logx and line.value <= 0):
            ax.axvline(line.value, color=_NEUTRAL, lw=0.9, ls=(0, (1, 1.5)), zorder=1)
            if line.label and labelled:
                legend.append((Line2D([], [], color=_NEUTRAL, lw=0.9, ls=(0, (1, 1.5))),
                               _label(line.label)))


def _ratio_panel(fig, main, spec: PlotSpec, colors: list[str], *, categorical: list | None
                 = None, offsets: dict[str, float] | None = None) -> object | None:
    """The lower panel: measured/bound (bound/measured for a lower bound) of every pair of
    a group, with a line at 1 and the failing side shaded; measured - bound and a line at 0
    when a value is not positive. None when the figure pairs no bound with a measured
    series."""
    pairs = ratio_pairs(spec)
    if not pairs:
        return None
    ax = fig.add_axes((0.1, 0.05, 0.85, 0.2), sharex=main)
    difference = any(p.difference for p in pairs)
    values = []
    color_of = {s.colour_key: c for s, c in zip(spec.series, colors, strict=True)}
    for p in pairs:
        r = p.difference_values() if difference else p.ratio_values()
        values.append(r)
    allv = np.concatenate(values) if values else np.array([])
    finite = allv[np.isfinite(allv)]
    ref = 0.0 if difference else 1.0
    log = bool(not difference and finite.size and finite.min() > 0
               and max(finite.max(), 1.0) / min(finite.min(), 1.0) > 10)
    if log:
        lo = max(min(float(finite.min()), 1.0), RATIO_RANGE[0])
        hi = min(max(float(finite.max()), 1.0), RATIO_RANGE[1])
        pad = 10 ** (0.08 * math.log10(hi / lo))
        lims = (lo / pad, hi * pad)
    else:
        lims = _limits(allv, False, include=(ref,)) or (ref - 1, ref + 1)
    for p, r in zip(pairs, values, strict=True):
        color = color_of[p.group]
        x = np.asarray(p.x, dtype=object)
        if categorical is not None:
            pos = np.array([categorical.index(v) for v in p.x], dtype=float)
            pos = pos + (offsets or {}).get(p.group, 0.0)
            ax.plot(pos, np.clip(r, *lims), ls="none", marker="o" if p.style != "bound_printed"
                    else "v", ms=4.5, color=color, zorder=3)
            xs = pos
        else:
            xs = np.asarray(x, dtype=float)
            st = STYLES[p.style]
            ok = np.isfinite(r) & np.isfinite(xs)
            ax.plot(xs[ok], r[ok], ls=st["ls"], lw=1.3, color=color,
                    marker="o" if ok.sum() <= 25 else None, ms=3, zorder=3)
        _off_chart(ax, xs, r, lims, bool(log), color)
    ax.axhline(ref, color="black", lw=0.9, zorder=2)
    top = lims[1] if lims[1] > ref else ref
    ax.axhspan(ref, top * (10 if log else 1) + (0 if log else abs(top) + 1), color=_FAIL,
               alpha=0.07, lw=0, zorder=0)
    if log:
        ax.set_yscale("log")
    ax.set_ylim(*lims)
    lower = all(p.style == "lower_bound" for p in pairs)
    mixed = not lower and any(p.style == "lower_bound" for p in pairs)
    if difference:
        what = "bound − measured" if lower else "measured − bound"
    else:
        what = "bound/measured" if lower else "measured/bound"
    if mixed:
        what = "ratio to the bound"
    ax.set_ylabel(what, fontsize=7.5)
    return ax


# ---------------------------------------------------------------------------------------------
# One drawing function per kind
# ---------------------------------------------------------------------------------------------
def _draw_curves(spec: PlotSpec, fig: Figure, colors: list[str]) -> _Panels:
    """Measured curves (solid, markers when few points, band from lo/hi), bounds in their
    curve's colour, fits and references; the ratio panel below."""
    out = _Panels()
    ax = fig.add_axes((0.1, 0.3, 0.85, 0.6))
    logx, logy = spec.logx, spec.logy
    everything = np.concatenate([_clean(v, logy) for s in spec.series
                                 for v in (s.y, s.lo or (), s.hi or ())] or [np.array([])])
    lims = _limits(everything, logy, _legit(spec, logy), [h.value for h in spec.hlines])
    beyond = []
    drawn = False
    for s, color in zip(spec.series, colors, strict=True):
        st = STYLES[s.style]
        x = _clean(s.x, logx)
        y = _clean(s.y, logy)
        ok = ~np.isnan(x) & ~np.isnan(y)
        if not ok.any():
            continue
        drawn = True
        few = ok.sum() <= 25
        marker = None
        if s.style == "measured" and few:
            marker = "o"
        if ok.sum() == 1:
            marker = st["marker"]
        ax.plot(x[ok], y[ok], linestyle=st["ls"], linewidth=st["lw"], color=color,
                marker=marker, markersize=3.5 if marker != "_" else 12, markeredgewidth=1.4,
                zorder=3 if s.style == "measured" else 2)
        if s.lo is not None and s.hi is not None:
            lo = _clean(s.lo, logy)
            hi = _clean(s.hi, logy)
            band = ~np.isnan(x) & ~np.isnan(lo) & ~np.isnan(hi)
            if band.any():
                alpha = 0.22 if s.style == "measured" else 0.12
                ax.fill_between(x[band], lo[band], hi[band], color=color, alpha=alpha, lw=0)
        if lims is not None:
            raw = np.asarray(s.y, dtype=float)
            top = _off_chart(ax, np.asarray(_clean(s.x, logx)), raw, lims, logy, color,
                             s.style == "measured")
            if top is not None:
                beyond.append(top)
    if lims is not None:
        ax.set_ylim(*lims)
    if beyond:
        worst = max(beyond)
        what = "beyond the chart" + ("" if not math.isfinite(worst)
                                     else f" (up to {_fmt_value(worst)})")
        out.notes.append(f"▲ {what}")
    if logx:
        ax.set_xscale("log")
    if logy:
        ax.set_yscale("log")
    out.legend = _legend(spec, colors)
    _reflines(ax, spec, out.legend, logx, logy)
    if not drawn:
        ax.text(0.5, 0.5, "no finite data to draw", transform=ax.transAxes,
                ha="center", va="center", color=_FAIL)  # fmt: skip
    ratio = _ratio_panel(fig, ax, spec, colors)
    ax.set_ylabel(_wrapped(spec.ylabel, 30 if ratio is not None else 44))
    _format_axes(ax, logx, logy)
    out.axes, out.heights = [ax], [FIGSIZE[1]]
    if ratio is not None:
        ax.tick_params(which="both", labelbottom=False)
        _reflines(ratio, spec, [], logx, False, horizontal=False, labelled=False)
        ratio.set_xlabel(_label(spec.xlabel))
        _format_axes(ratio, logx, ratio.get_yscale() == "log", minor_labels=False)
        out.axes.append(ratio)
        out.heights = list(PANELS)
    else:
        ax.set_xlabel(_label(spec.xlabel))
    return out


def _draw_scatter(spec: PlotSpec, fig: Figure, colors: list[str]) -> _Panels:
    """Each instance's measured value (y) against its bound (x) with y = x, the failing side
    shaded; a histogram of measured/bound (or measured - bound) when there are many."""
    out = _Panels()
    ax = fig.add_axes((0.1, 0.2, 0.85, 0.7))
    log = spec.logx and spec.logy
    clouds = []
    for s, color in zip(spec.series, colors, strict=True):
        x = _clean(s.x, log)
        y = _clean(s.y, log)
        ok = ~np.isnan(x) & ~np.isnan(y)
        clouds.append((s, color, x[ok], y[ok]))
    n = sum(len(c[2]) for c in clouds)
    dropped = sum(int(((np.asarray(s.x, float) <= 0) | (np.asarray(s.y, float) <= 0)).sum())
                  for s in spec.series)
    if log and dropped:
        out.notes.append(f"{dropped} instances at 0 (not on the log axes)")
    if n > HISTOGRAM_ABOVE:
        return _draw_histogram(spec, fig, ax, clouds, out)
    out.width = SCATTER_WIDTH
    allv = np.concatenate([np.concatenate([c[2], c[3]]) for c in clouds] or [np.array([])])
    lims = _limits(allv, log) or (0.0, 1.0)
    size = 16 if n <= 60 else 9 if n <= 600 else 5 if n <= 2000 else 2.5
    alpha = 1.0 if n <= 200 else 0.55
    for s, color, x, y in clouds:
        if not len(x):
            continue
        ax.scatter(x, y, s=size, color=color, alpha=alpha, lw=0, zorder=3,
                   marker="o" if s.style in ("measured", "bound", "bound_corrected") else "v")
        out.legend.append((Line2D([], [], ls="none", marker="o" if s.style != "bound_printed"
                                  else "v", color=color, ms=5), _label(s.label)))
    diag = np.geomspace(*lims, 50) if log else np.linspace(*lims, 50)
    ax.plot(diag, diag, color="black", lw=0.9, zorder=2)
    ax.fill_between(diag, diag, lims[1] * (10 if log else 1) + (0 if log else 1),
                    color=_FAIL, alpha=0.07, lw=0, zorder=0)
    out.legend.append((Line2D([], [], color="black", lw=0.9), "$y = x$ (measured = bound)"))
    if log:
        ax.set_xscale("log")
        ax.set_yscale("log")
    ax.set_xlim(*lims)
    ax.set_ylim(*lims)
    _reflines(ax, spec, out.legend, log, log)
    ax.set_xlabel(_wrapped(spec.xlabel, 90))
    ax.set_ylabel(_wrapped(spec.ylabel, 44))
    _format_axes(ax, log, log)
    out.axes, out.heights = [ax], [min(FIGSIZE[1] + 0.5, SCATTER_WIDTH)]
    return out


def _draw_histogram(spec: PlotSpec, fig: Figure, ax, clouds, out: _Panels) -> _Panels:
    """Many instances: a histogram of measured/bound per series (measured - bound when a
    value is not positive), with the line at 1 (0) and the failing side shaded."""
    difference = any((c[2] <= 0).any() or (c[3] < 0).any() for c in clouds)
    vals = [(c[3] - c[2]) if difference else (c[3] / c[2]) for c in clouds]
    allv = np.concatenate(vals)
    allv = allv[np.isfinite(allv)]
    log = not difference and allv.size and allv.min() > 0 and allv.max() / allv.min() > 30
    ref = 0.0 if difference else 1.0
    if log:
        lo, hi = min(allv.min(), ref), max(allv.max(), ref)
        bins = np.geomspace(lo / 1.05, hi * 1.05, 41)
    else:
        lo, hi = min(allv.min(), ref), max(allv.max(), ref)
        d = (hi - lo) or 1.0
        bins = np.linspace(lo - 0.02 * d, hi + 0.02 * d, 41)
    peak, low = 0, math.inf
    for (s, color, _x, _y), v in zip(clouds, vals, strict=True):
        v = v[np.isfinite(v)]
        if v.size:
            counts, _, _ = ax.hist(v, bins=bins, histtype="step", color=color, lw=1.4, zorder=3)
            peak = max(peak, counts.max())
            low = min(low, counts[counts > 0].min())
            out.legend.append((Line2D([], [], color=color, lw=1.4),
                               _label(f"{s.label} ({v.size} instances)")))
    ax.axvline(ref, color="black", lw=0.9, zorder=2)
    ax.axvspan(ref, bins[-1], color=_FAIL, alpha=0.07, lw=0, zorder=0)
    if log:
        ax.set_xscale("log")
    if peak > 30 * low:  # a spike (instances on the bound) next to a few others
        ax.set_yscale("log")
    ax.set_xlim(bins[0], bins[-1])
    what = "measured - bound" if difference else "measured / bound"
    ax.set_xlabel(_wrapped(f"{what} ({spec.ylabel})" if spec.ylabel else what, 90))
    ax.set_ylabel("instances")
    _format_axes(ax, bool(log), False)
    out.axes, out.heights = [ax], [FIGSIZE[1]]
    return out


def _categories(spec: PlotSpec) -> list[str]:
    cats: list[str] = []
    for s in spec.series:
        for v in s.x:
            label = v if isinstance(v, str) else f"{v:g}"
            if label not in cats:
                cats.append(label)
    return cats


def _draw_dots(spec: PlotSpec, fig: Figure, colors: list[str], *, ratio: bool = True
               ) -> _Panels:
    """One dot per category and series (interval from lo/hi), bounds as bars in the colour of
    their group, never a line; the ratio panel below."""
    out = _Panels()
    ax = fig.add_axes((0.1, 0.3, 0.85, 0.6))
    cats = _categories(spec)
    logy = spec.logy
    groups: list[str] = []
    for s in spec.series:
        if s.colour_key not in groups:
            groups.append(s.colour_key)
    width = min(0.7 / max(len(groups), 1), 0.22)
    offsets = {g: (k - (len(groups) - 1) / 2) * width for k, g in enumerate(groups)}
    everything = np.concatenate([_clean(v, logy) for s in spec.series
                                 for v in (s.y, s.lo or (), s.hi or ())] or [np.array([])])
    lims = _limits(everything, logy, _legit(spec, logy), [h.value for h in spec.hlines])
    beyond = []
    for s, color in zip(spec.series, colors, strict=True):
        labels = [v if isinstance(v, str) else f"{v:g}" for v in s.x]
        pos = np.array([cats.index(c) for c in labels], dtype=float) + offsets[s.colour_key]
        y = _clean(s.y, logy)
        st = STYLES[s.style]
        ok = ~np.isnan(y)
        if s.style == "measured":
            if s.lo is not None and s.hi is not None:
                lo, hi = _clean(s.lo, logy), _clean(s.hi, logy)
                band = ok & ~np.isnan(lo) & ~np.isnan(hi)
                ax.vlines(pos[band], lo[band], hi[band], color=color, lw=1.3, zorder=3)
            ax.plot(pos[ok], y[ok], ls="none", marker="o", ms=5, color=color, zorder=4)
        else:
            ax.plot(pos[ok], y[ok], ls="none", marker=st["marker"],
                    ms=13 if st["marker"] == "_" else 5.5, mew=2.0, color=color, zorder=3,
                    mfc="none" if st["marker"] == "v" else color)
            if s.lo is not None and s.hi is not None:
                lo, hi = _clean(s.lo, logy), _clean(s.hi, logy)
                band = ok & ~np.isnan(lo) & ~np.isnan(hi)
                ax.vlines(pos[band], lo[band], hi[band], color=color, lw=0.8, zorder=2,
                          linestyles="dashed")
        if lims is not None:
            top = _off_chart(ax, pos, np.asarray(s.y, dtype=float), lims, logy, color,
                             s.style == "measured")
            if top is not None:
                beyond.append(top)
    if lims is not None:
        ax.set_ylim(*lims)
    if beyond:
        out.notes.append("▲ beyond the chart")
    if logy:
        ax.set_yscale("log")
    ax.set_xlim(-0.6, len(cats) - 0.4)
    out.legend = _legend(spec, colors, line=False)
    _reflines(ax, spec, out.legend, False, logy)
    _format_axes(ax, False, logy)
    ax.grid(False, axis="x")
    long = max((len(c) for c in cats), default=0) > 10 or len(cats) > 8
    ticks = [_label(c) for c in cats]
    panel = _ratio_panel(fig, ax, spec, colors, categorical=cats, offsets=offsets) \
        if ratio else None
    ax.set_ylabel(_wrapped(spec.ylabel, 30 if panel is not None else 44))
    bottom = panel if panel is not None else ax
    bottom.set_xticks(range(len(cats)), ticks, rotation=30 if long else 0,
                      ha="right" if long else "center")
    bottom.set_xlabel(_label(spec.xlabel))
    out.axes, out.heights = [ax], [FIGSIZE[1]]
    if panel is not None:
        ax.tick_params(which="both", labelbottom=False)
        _format_axes(panel, False, panel.get_yscale() == "log", minor_labels=False)
        panel.grid(False, axis="x")
        out.axes.append(panel)
        out.heights = list(PANELS)
    return out


def _draw_tail(spec: PlotSpec, fig: Figure, colors: list[str]) -> _Panels:
    """Empirical probabilities as points with their intervals against the bound: a line for
    an ordered parameter, bars for categories. A zero probability keeps a linear axis."""
    if any(s.categorical for s in spec.series):
        return _draw_dots(spec, fig, colors, ratio=False)
    out = _Panels()
    ax = fig.add_axes((0.1, 0.2, 0.85, 0.7))
    logx = spec.logx
    measured = [np.asarray(s.y, dtype=float) for s in spec.series if s.style == "measured"]
    zeros = any((m[np.isfinite(m)] <= 0).any() for m in measured)
    logy = spec.logy and not zeros
    for s, color in zip(spec.series, colors, strict=True):
        st = STYLES[s.style]
        x = _clean(s.x, logx)
        y = _clean(s.y, logy)
        ok = ~np.isnan(x) & ~np.isnan(y)
        if s.style == "measured":
            yerr = None
            if s.lo is not None and s.hi is not None:
                lo = np.nan_to_num(np.asarray(s.lo, dtype=float), nan=0.0)
                hi = np.nan_to_num(np.asarray(s.hi, dtype=float), nan=0.0)
                if logy:
                    lo = np.where(lo > 0, lo, y)
                yerr = np.vstack([np.clip(y - lo, 0, None), np.clip(hi - y, 0, None)])[:, ok]
            ax.errorbar(x[ok], y[ok], yerr=yerr, ls="none", marker="o", ms=4.5, color=color,
                        elinewidth=1.2, capsize=3, zorder=3)
        else:
            ax.plot(x[ok], y[ok], ls=st["ls"], lw=st["lw"], color=color,
                    marker=None if ok.sum() > 1 else st["marker"], zorder=2)
    if logx:
        ax.set_xscale("log")
    if logy:
        ax.set_yscale("log")
    else:
        ax.set_ylim(bottom=0)
    out.legend = _legend(spec, colors, points=True)
    _reflines(ax, spec, out.legend, logx, logy)
    ax.set_xlabel(_wrapped(spec.xlabel, 90))
    ax.set_ylabel(_wrapped(spec.ylabel, 44))
    _format_axes(ax, logx, logy)
    out.axes, out.heights = [ax], [FIGSIZE[1]]
    return out


def _draw_scaling(spec: PlotSpec, fig: Figure, colors: list[str]) -> _Panels:
    """Measured points (no line) with their intervals, the fitted line (solid) and the
    predicted slope (dashed, its tolerance band shaded)."""
    out = _Panels()
    ax = fig.add_axes((0.1, 0.2, 0.85, 0.7))
    logx, logy = spec.logx, spec.logy
    for s, color in zip(spec.series, colors, strict=True):
        st = STYLES[s.style]
        x = _clean(s.x, logx)
        y = _clean(s.y, logy)
        ok = ~np.isnan(x) & ~np.isnan(y)
        if not ok.any():
            continue
        if s.style == "measured":
            yerr = None
            if s.lo is not None and s.hi is not None:
                lo, hi = _clean(s.lo, logy), _clean(s.hi, logy)
                lo = np.where(np.isnan(lo), y, lo)
                hi = np.where(np.isnan(hi), y, hi)
                yerr = np.vstack([np.clip(y - lo, 0, None), np.clip(hi - y, 0, None)])[:, ok]
            ax.errorbar(x[ok], y[ok], yerr=yerr, ls="none", marker="o", ms=4.5, color=color,
                        elinewidth=1.2, capsize=2.5, zorder=4)
            continue
        ax.plot(x[ok], y[ok], ls=st["ls"], lw=st["lw"] + (0.3 if s.style == "fit" else 0),
                color=color, zorder=3 if s.style == "fit" else 2)
        if s.lo is not None and s.hi is not None:
            lo, hi = _clean(s.lo, logy), _clean(s.hi, logy)
            band = ok & ~np.isnan(lo) & ~np.isnan(hi)
            ax.fill_between(x[band], lo[band], hi[band], color=color, alpha=0.13, lw=0,
                            zorder=1)
    if logx:
        ax.set_xscale("log")
    if logy:
        ax.set_yscale("log")
    out.legend = _legend(spec, colors, points=True)
    _reflines(ax, spec, out.legend, logx, logy)
    ax.set_xlabel(_wrapped(spec.xlabel, 90))
    ax.set_ylabel(_wrapped(spec.ylabel, 44))
    _format_axes(ax, logx, logy)
    if logx:
        xs = sorted({v for s in spec.series if s.style == "measured"
                     for v in _clean(s.x, True) if v == v})
        if 2 <= len(xs) <= 7:  # a sweep has few parameter values: label exactly those
            ax.set_xticks(xs, [_tick_label(v) for v in xs])
            ax.xaxis.set_minor_formatter(NullFormatter())
    out.axes, out.heights = [ax], [FIGSIZE[1]]
    return out


_DRAW = {"curves": _draw_curves, "scatter": _draw_scatter, "dots": _draw_dots,
         "tail": _draw_tail, "scaling": _draw_scaling}


def _draw(spec: PlotSpec, fig: Figure) -> _Panels:
    """Draw ``spec`` on fresh axes of ``fig`` with the function of its kind, then the
    annotation box (the spec's annotations and the drawing's notes)."""
    panels = _DRAW[spec.kind](spec, fig, _colors(spec))
    notes = [*spec.annotations, *panels.notes]
    if notes:
        ax = panels.axes[0]
        (x0, y0, ha, va) = _emptiest_corner(ax)
        ax.text(
            x0, y0, "\n".join(_label(a) for a in notes), transform=ax.transAxes,
            ha=ha, va=va, fontsize=8, zorder=6,
            bbox={"boxstyle": "round,pad=0.3", "fc": "white", "ec": "#bbbbbb", "alpha": 0.9},
        )  # fmt: skip
    return panels


def _legend_columns(labels: list[str]) -> int:
    longest = max(len(re.sub(r"[${}\\]", "", lab)) for lab in labels)
    if longest <= 24 and len(labels) > 2:
        return 3
    if longest <= 42 and len(labels) > 1:
        return 2
    return 1


def build_figure(spec: PlotSpec) -> Figure:
    """The laid-out matplotlib figure of ``spec`` (Agg canvas; call inside
    ``matplotlib.rc_context`` of :data:`_RC`, as :func:`render_plot` does).

    The panels are stacked (main panel first) at their heights, as wide as the figure allows
    once the tick labels and axis labels are measured (a scatter's axes about square); the
    legend goes below them, in as many columns as fit.
    """
    width = FIGSIZE[0]
    # 72 dpi, the SVG's own: the layout pass and the SVG then share matplotlib's cache of
    # parsed mathtext and text extents (each label is parsed once, not once per dpi).
    fig = Figure(figsize=(width, FIGSIZE[1] + 1.5), dpi=72)
    FigureCanvasAgg(fig)
    panels = _draw(spec, fig)
    # Measure with an SVG renderer whose text-to-path converter the SVG output reuses, so
    # every label is laid out (and its mathtext parsed) once.
    renderer = _svg_renderer(fig, io.StringIO())
    fig._pflbounds_text2path = renderer._renderer._text2path
    dpi = fig.dpi
    extents = []
    for ax in panels.axes:
        tight = ax.get_tightbbox(renderer)
        inner = ax.get_window_extent(renderer)
        extents.append((max(inner.x0 - tight.x0, 0) / dpi, max(tight.x1 - inner.x1, 0) / dpi,
                        max(inner.y0 - tight.y0, 0) / dpi, max(tight.y1 - inner.y1, 0) / dpi))
    left = max(e[0] for e in extents) + _PAD
    right = max(e[1] for e in extents) + _PAD + 0.05
    avail = width - left - right
    ax_w = min(avail, panels.width) if panels.width else avail
    x0 = left + (avail - ax_w) / 2
    entries = panels.legend
    legend_h = 0.0
    legend = None
    if entries:
        handles, labels = [e[0] for e in entries], [e[1] for e in entries]
        ncols = _legend_columns(labels)
        while True:
            legend = fig.legend(handles, labels, loc="lower center", ncols=ncols,
                                frameon=False, bbox_to_anchor=(0.5, 0.0), borderaxespad=0.2,
                                handlelength=2.6, columnspacing=1.2)
            ext = legend.get_window_extent(renderer)
            if ext.width / dpi <= width - 2 * _PAD or ncols == 1:
                break
            legend.remove()
            ncols -= 1
        legend_h = ext.height / dpi + _LEGEND_GAP
    # stack the panels from the top: above, height, below (tick labels), gap
    n = len(panels.axes)
    below = [extents[k][2] if k == n - 1 else min(extents[k][2], 0.05) for k in range(n)]
    above = [extents[k][3] + (_PAD if k == 0 else 0.0) for k in range(n)]
    height = _PAD + legend_h + sum(panels.heights) + sum(below) + sum(above) \
        + _PANEL_GAP * (n - 1) + _PAD
    fig.set_size_inches(width, height)
    top = height - _PAD
    for k, ax in enumerate(panels.axes):
        top -= above[k]
        bottom = top - panels.heights[k]
        ax.set_position((x0 / width, bottom / height, ax_w / width, panels.heights[k] / height))
        top = bottom - below[k] - _PANEL_GAP
    if legend is not None:
        legend.set_bbox_to_anchor((0.5, _PAD / height), transform=fig.transFigure)
    return fig


def _svg_renderer(fig: Figure, fh, text2path=None) -> MixedModeRenderer:
    """The renderer ``savefig(format="svg")`` would use (72 dpi, no date in the metadata),
    optionally with the text-to-path converter of an earlier renderer (and its caches)."""
    width, height = fig.get_size_inches()
    svg = RendererSVG(width * 72, height * 72, fh, image_dpi=72, metadata={"Date": None})
    if text2path is not None:
        svg._text2path = text2path
    return MixedModeRenderer(fig, width, height, 72, svg)


def texts_outside(fig: Figure) -> list[str]:
    """The texts of ``fig`` (labels, ticks, legend, annotations) that reach outside it.

    Draws the figure first (text positions are final only then)."""
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    box = fig.bbox
    texts: list[matplotlib.text.Text] = list(fig.texts)
    for legend in fig.legends:
        texts += legend.get_texts()
    for ax in fig.axes:
        texts += [ax.xaxis.label, ax.yaxis.label, ax.title, *ax.texts]
        if ax.get_legend() is not None:
            texts += ax.get_legend().get_texts()
        for axis in (ax.xaxis, ax.yaxis):
            # the ticks drawn: those inside the view limits (others exist but are not shown)
            texts += [t.label1 for t in axis._update_ticks() if t.label1.get_visible()]
    out = []
    for t in texts:
        if not t.get_visible() or not t.get_text().strip():
            continue
        ext = t.get_window_extent(renderer)
        if ext.x0 < box.x0 - 1 or ext.y0 < box.y0 - 1 or ext.x1 > box.x1 + 1 \
                or ext.y1 > box.y1 + 1:
            out.append(t.get_text())
    return out


def figure_texts(fig: Figure) -> list[str]:
    """Every text a reader sees in ``fig``: axis labels, tick labels, legend entries and
    annotations (for checks on how they are typeset)."""
    fig.canvas.draw()
    texts: list[matplotlib.text.Text] = list(fig.texts)
    for legend in fig.legends:
        texts += legend.get_texts()
    for ax in fig.axes:
        texts += [ax.xaxis.label, ax.yaxis.label, *ax.texts]
        for axis in (ax.xaxis, ax.yaxis):
            texts += [t.label1 for t in axis._update_ticks() if t.label1.get_visible()]
    return [t.get_text() for t in texts if t.get_visible() and t.get_text().strip()]


def render_plot(spec: PlotSpec, path_svg: Path | str, write_csv: bool = True) -> Path:
    """Draw ``spec`` to an SVG file (and its data to ``<same stem>.csv``); return the SVG path.

    Matplotlib is used through its object API with the Agg/SVG canvases only, so no display
    and no global pyplot state are involved.
    """
    path_svg = Path(path_svg)
    path_svg.parent.mkdir(parents=True, exist_ok=True)
    # Huge values (a diverging run) may overflow in axis-margin arithmetic; that is harmless.
    with matplotlib.rc_context(_RC), np.errstate(over="ignore", invalid="ignore",
                                                 divide="ignore"):
        fig = build_figure(spec)
        buf = io.StringIO()
        renderer = _svg_renderer(fig, buf, getattr(fig, "_pflbounds_text2path", None))
        fig.draw(renderer)
        renderer.finalize()
        path_svg.write_text(buf.getvalue(), encoding="utf-8")
    if write_csv:
        write_plot_csv(spec, path_svg.with_suffix(".csv"))
    return path_svg
