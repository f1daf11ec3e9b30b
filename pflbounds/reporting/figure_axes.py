"""The look of a drawn figure (:mod:`pflbounds.reporting.figures`): its sizes, palette, line
styles and matplotlib settings, and the values, labels, ticks and empty corners of its axes."""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Iterable

import matplotlib
import matplotlib.mathtext
import matplotlib.text
import numpy as np
from matplotlib.ticker import Formatter, LogLocator, NullFormatter

from pflbounds.reporting.figure_model import PlotSpec, Series
from pflbounds.reporting.plainmath import current_paper, to_mathtext

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
FAIL = "#c62828"  # the region where a bound fails
NEUTRAL = "#555555"

PAD = 0.06  # inches around the figure content
LEGEND_GAP = 0.08  # inches between the x label and the legend
PANEL_GAP = 0.08  # inches between the main panel and the ratio panel

RC = {
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


def finite_values(values: Iterable[float], log: bool) -> np.ndarray:
    """Float array with inf -> NaN, and non-positive -> NaN on a log axis."""
    a = np.asarray(list(values), dtype=float)
    a[~np.isfinite(a)] = np.nan
    if log:
        a[a <= 0] = np.nan
    return a


def group_colors(spec: PlotSpec) -> list[str]:
    """The colour of each series: one per group, in order of first appearance."""
    keys: dict[str, str] = {}
    for ser in spec.series:
        keys.setdefault(ser.colour_key, PALETTE[len(keys) % len(PALETTE)])
    return [keys[ser.colour_key] for ser in spec.series]


def label_text(text: str) -> str:
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


def wrapped(text: str, width: int) -> str:
    """A mathtext label on two lines when its visible text is longer than ``width``
    characters: broken at the space outside ``$...$`` nearest to its middle."""
    label = label_text(text)
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


def base_label(s: Series) -> str:
    """A series' label without the ``(group)`` tail that names its group."""
    tail = f"({s.colour_key})"
    if s.label.endswith(tail) and s.label != tail:
        return s.label[: -len(tail)].rstrip()
    return s.label


def value_text(v: float) -> str:
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
def tick_label(v: float, _pos: object = None, powers: bool = False) -> str:
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
        return tick_label(x, pos, self.powers)


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


def format_axes(ax, logx: bool, logy: bool, *, minor_labels: bool = True) -> None:
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


def emptiest_corner(ax) -> tuple[float, float, str, str]:
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
