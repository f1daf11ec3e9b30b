"""Figures for the report: matplotlib SVGs and their data as CSV.

:func:`render_plot` draws one :class:`~pflbounds.reporting.model.PlotSpec` and writes the
SVG and, beside it, a tidy CSV (``series,x,y,lo,hi``) holding exactly the plotted numbers.

How a figure reads:

* series of one group (a measured curve and its bounds, fits and references; see
  :attr:`~pflbounds.reporting.model.Series.colour_key`) share one colour, so each bound is
  paired with its curve; the style says what a line is: measured solid (with a shaded
  confidence band), bound dashed, bound as printed dashed, corrected bound dash-dot, fit
  dotted, reference thin dash-dot;
* the axis labels are typeset (plain notation through
  :func:`~pflbounds.reporting.plainmath.to_mathtext`);
* the legend sits below the axes, never over a curve; the figure has no title (the caption
  in the report says what it shows), so nothing is clipped;
* the layout is computed once from the measured size of the tick labels, axis labels and
  legend (no constrained-layout iterations), and :func:`texts_outside` checks that every
  text lies inside the figure.
"""

from __future__ import annotations

import csv
import functools
import io
import re
from collections.abc import Iterable
from pathlib import Path

import matplotlib
import matplotlib.mathtext
import matplotlib.text
import numpy as np
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.backends.backend_mixed import MixedModeRenderer
from matplotlib.backends.backend_svg import RendererSVG
from matplotlib.figure import Figure
from matplotlib.ticker import Formatter, LogLocator, NullFormatter

from pflbounds.reporting.model import PlotSpec, Report
from pflbounds.reporting.plainmath import to_mathtext

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

#: Width of a figure and height of its axes, in inches (the A4 text width at 100 %).
FIGSIZE: tuple[float, float] = (6.5, 2.7)

#: One colour per group of series, in order of first appearance.
PALETTE: tuple[str, ...] = (
    "#1f5fbf", "#c62828", "#2e7d32", "#6a3d9a", "#ef6c00", "#00838f", "#8c564b",
    "#ad1457", "#455a64", "#9e9d24",
)

#: Line style and width of each series style (the colour comes from the series' group).
STYLES: dict[str, dict] = {
    "measured": {"ls": "-", "lw": 1.6},
    "bound": {"ls": (0, (5, 2.5)), "lw": 1.5},
    "bound_printed": {"ls": (0, (5, 2.5)), "lw": 1.5},
    "bound_corrected": {"ls": (0, (6, 2, 1.5, 2)), "lw": 1.5},
    "fit": {"ls": (0, (1, 1.5)), "lw": 1.9},
    "reference": {"ls": (0, (3, 1.5, 1, 1.5, 1, 1.5)), "lw": 1.0},
}

_PAD = 0.06  # inches around the figure content
_LEGEND_GAP = 0.08  # inches between the x label and the legend

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

    Numbers are written with ``repr`` so they read back exactly; a missing band is empty.
    """
    path = Path(path)
    with path.open("w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh, lineterminator="\n")
        w.writerow(["series", "x", "y", "lo", "hi"])
        for s in spec.series:
            for k in range(len(s.x)):
                lo = s.lo[k] if s.lo is not None else None
                hi = s.hi[k] if s.hi is not None else None
                w.writerow([s.label, _fmt(s.x[k]), _fmt(s.y[k]), _fmt(lo), _fmt(hi)])
    return path


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


def _draw_lines(ax, spec: PlotSpec, colors: list[str]) -> bool:
    drawn = False
    for s, color in zip(spec.series, colors, strict=True):
        st = STYLES[s.style]
        x = _clean(s.x, spec.logx)
        y = _clean(s.y, spec.logy)
        ok = ~np.isnan(x) & ~np.isnan(y)
        if not ok.any():
            continue
        drawn = True
        marker = "o" if s.style == "measured" and ok.sum() <= 25 else None
        if spec.kind == "scaling" and s.style == "measured":
            marker = "o"
        if ok.sum() == 1 and marker is None:
            marker = "_"  # a line through a single point would be invisible
        ax.plot(
            x[ok], y[ok], linestyle=st["ls"], linewidth=st["lw"], color=color,
            marker=marker, markersize=3.5 if marker != "_" else 14, markeredgewidth=1.6,
            label=s.label, zorder=3 if s.style == "measured" else 2,
            alpha=0.75 if s.style == "reference" else 1.0,
        )  # fmt: skip
        if s.lo is not None and s.hi is not None:
            lo = _clean(s.lo, spec.logy)
            hi = _clean(s.hi, spec.logy)
            band = ~np.isnan(x) & ~np.isnan(lo) & ~np.isnan(hi)
            if band.any():
                alpha = 0.22 if s.style == "measured" else 0.12
                ax.fill_between(x[band], lo[band], hi[band], color=color, alpha=alpha, lw=0)
    return drawn


def _draw_bars(ax, spec: PlotSpec, colors: list[str]) -> bool:
    cats: list[str] = []
    for s in spec.series:
        for v in s.x:
            label = v if isinstance(v, str) else f"{v:g}"
            if label not in cats:
                cats.append(label)
    if not cats:
        return False
    n = len(spec.series)
    width = 0.8 / max(n, 1)
    centers = np.arange(len(cats), dtype=float)
    for k, (s, color) in enumerate(zip(spec.series, colors, strict=True)):
        labels = [v if isinstance(v, str) else f"{v:g}" for v in s.x]
        pos = np.array([cats.index(c) for c in labels], dtype=float) + (k - (n - 1) / 2) * width
        y = _clean(s.y, spec.logy)
        yerr = None
        if s.lo is not None and s.hi is not None:
            lo = _clean(s.lo, spec.logy)
            hi = _clean(s.hi, spec.logy)
            yerr = np.vstack([np.clip(y - lo, 0, None), np.clip(hi - y, 0, None)])
            yerr[np.isnan(yerr)] = 0.0
        hatch = None if s.style == "measured" else "//"
        ax.bar(
            pos, np.nan_to_num(y, nan=0.0), width=width * 0.92, color=color,
            alpha=0.85 if s.style == "measured" else 0.5, hatch=hatch, label=s.label,
            yerr=yerr, capsize=2.5, error_kw={"elinewidth": 0.9},
        )  # fmt: skip
    ax.set_xticks(centers)
    long = max(len(c) for c in cats) > 8 or len(cats) > 8
    ax.set_xticklabels(cats, rotation=30 if long else 0, ha="right" if long else "center")
    return True


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
    if decades < 2.5:
        subs = (2.0, 3.0, 5.0) if decades < 1.2 else (2.0, 5.0)
        axis.set_minor_locator(LogLocator(base=10, subs=subs))
        axis.set_minor_formatter(_LogTickFormatter())
    else:  # unlabelled minor ticks at 2 and 5 only: fewer tick objects to lay out
        axis.set_minor_locator(LogLocator(base=10, subs=(2.0, 5.0)))
        axis.set_minor_formatter(NullFormatter())


_CORNERS = (  # (x, y, ha, va) in axes coordinates, in order of preference
    (0.02, 0.03, "left", "bottom"),
    (0.98, 0.03, "right", "bottom"),
    (0.02, 0.97, "left", "top"),
    (0.98, 0.97, "right", "top"),
)


def _emptiest_corner(ax) -> tuple[float, float, str, str]:
    """The corner of the axes with the fewest plotted points, for the annotation box.

    The legend is placed afterwards with ``loc="best"``, which avoids the box.
    """
    to_axes = ax.transAxes.inverted()
    chunks = []
    t = np.linspace(0, 1, 8)[:, None, None]
    for line in ax.get_lines():
        xy = np.asarray(line.get_xydata(), dtype=float)
        xy = xy[np.all(np.isfinite(xy), axis=1)]
        if not len(xy):
            continue
        axy = to_axes.transform(line.get_transform().transform(xy))
        if len(axy) > 1:  # densify, so long segments between few points still count
            axy = (axy[:-1][None] * (1 - t) + axy[1:][None] * t).reshape(-1, 2)
        chunks.append(axy)
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


@functools.lru_cache(maxsize=512)
def _label(text: str) -> str:
    """``text`` as a mathtext label. Plain notation is converted (always valid mathtext); a
    label given as mathtext that does not parse is shown as plain text (``$`` escaped)."""
    label = to_mathtext(text or "")
    if "$" not in (text or ""):
        return label
    try:
        _MATHTEXT.parse(label)
    except ValueError:
        return (text or "").replace("$", r"\$")
    return label


_MATHTEXT = matplotlib.mathtext.MathTextParser("path")


def _legend_columns(labels: list[str]) -> int:
    longest = max(len(re.sub(r"[${}\\]", "", lab)) for lab in labels)
    if longest <= 24 and len(labels) > 2:
        return 3
    if longest <= 42 and len(labels) > 1:
        return 2
    return 1


def _draw(spec: PlotSpec, fig: Figure):
    """Draw ``spec`` on a fresh axes of ``fig``; return the axes."""
    ax = fig.add_axes((0.1, 0.2, 0.85, 0.7))
    colors = _colors(spec)
    if spec.kind == "bars":
        drawn = _draw_bars(ax, spec, colors)
        if not spec.logy:
            ax.set_ylim(bottom=0)  # bar lengths are read from zero
        else:  # on a log axis, start a decade below the shortest bar
            ys = [v for ser in spec.series for v in _clean(ser.y, True) if v == v]
            if ys:
                ax.set_ylim(bottom=min(ys) / 10)
    else:
        drawn = _draw_lines(ax, spec, colors)
    if spec.logx and spec.kind != "bars":
        ax.set_xscale("log")
    if spec.logy:
        ax.set_yscale("log")
    for line in spec.hlines:
        if not (spec.logy and line.value <= 0):
            ax.axhline(line.value, color="#555555", lw=0.9, ls=(0, (4, 2, 1, 2)),
                       label=line.label or None, zorder=1)  # fmt: skip
    for line in spec.vlines:
        if not (spec.logx and line.value <= 0):
            ax.axvline(line.value, color="#555555", lw=0.9, ls=(0, (4, 2, 1, 2)),
                       label=line.label or None, zorder=1)  # fmt: skip
    if not drawn:
        ax.text(0.5, 0.5, "no finite data to draw", transform=ax.transAxes,
                ha="center", va="center", color="#c62828")  # fmt: skip
    if spec.logx and spec.kind != "bars":
        _format_log_axis(ax.xaxis, ax.get_xlim())
        xs = sorted({v for ser in spec.series for v in _clean(ser.x, True) if v == v})
        if spec.kind == "scaling" and 2 <= len(xs) <= 12:
            # A sweep has few parameter values: label exactly those.
            ax.set_xticks(xs, [_tick_label(v) for v in xs])
            ax.xaxis.set_minor_formatter(NullFormatter())
    if spec.logy:
        _format_log_axis(ax.yaxis, ax.get_ylim())
    ax.set_xlabel(_label(spec.xlabel))
    ax.set_ylabel(_label(spec.ylabel))
    ax.grid(True, which="major", alpha=0.3, lw=0.6)
    if spec.logy or spec.logx:
        ax.grid(True, which="minor", alpha=0.12, lw=0.4)
    if spec.annotations:
        (x0, y0, ha, va) = _emptiest_corner(ax)
        ax.text(
            x0, y0, "\n".join(_label(a) for a in spec.annotations), transform=ax.transAxes,
            ha=ha, va=va, fontsize=8,
            bbox={"boxstyle": "round,pad=0.3", "fc": "white", "ec": "#bbbbbb", "alpha": 0.9},
        )  # fmt: skip
    return ax


def build_figure(spec: PlotSpec) -> Figure:
    """The laid-out matplotlib figure of ``spec`` (Agg canvas; call inside
    ``matplotlib.rc_context`` of :data:`_RC`, as :func:`render_plot` does).

    The axes are :data:`FIGSIZE` [1] inches high and as wide as the figure allows once the
    tick labels and axis labels are measured; the legend goes below them, in as many columns
    as fit.
    """
    width, axes_h = FIGSIZE
    # 72 dpi, the SVG's own: the layout pass and the SVG then share matplotlib's cache of
    # parsed mathtext and text extents (each label is parsed once, not once per dpi).
    fig = Figure(figsize=(width, axes_h + 1.0), dpi=72)
    FigureCanvasAgg(fig)
    ax = _draw(spec, fig)
    # Measure with an SVG renderer whose text-to-path converter the SVG output reuses, so
    # every label is laid out (and its mathtext parsed) once.
    renderer = _svg_renderer(fig, io.StringIO())
    fig._pflbounds_text2path = renderer._renderer._text2path
    dpi = fig.dpi
    tight = ax.get_tightbbox(renderer)
    inner = ax.get_window_extent(renderer)
    left = max(inner.x0 - tight.x0, 0) / dpi + _PAD
    right = max(tight.x1 - inner.x1, 0) / dpi + _PAD + 0.05
    below = max(inner.y0 - tight.y0, 0) / dpi
    above = max(tight.y1 - inner.y1, 0) / dpi + _PAD
    handles, labels = ax.get_legend_handles_labels()
    legend_h = 0.0
    legend = None
    if handles:
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
    height = _PAD + above + axes_h + below + legend_h + _PAD
    fig.set_size_inches(width, height)
    ax.set_position((left / width, (_PAD + legend_h + below) / height,
                     (width - left - right) / width, axes_h / height))
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


def render_plot(spec: PlotSpec, path_svg: Path | str, write_csv: bool = True) -> Path:
    """Draw ``spec`` to an SVG file (and its data to ``<same stem>.csv``); return the SVG path.

    Matplotlib is used through its object API with the Agg/SVG canvases only, so no display
    and no global pyplot state are involved.
    """
    path_svg = Path(path_svg)
    path_svg.parent.mkdir(parents=True, exist_ok=True)
    # Huge values (a diverging run) may overflow in axis-margin arithmetic; that is harmless.
    with matplotlib.rc_context(_RC), np.errstate(over="ignore", invalid="ignore"):
        fig = build_figure(spec)
        buf = io.StringIO()
        renderer = _svg_renderer(fig, buf, getattr(fig, "_pflbounds_text2path", None))
        fig.draw(renderer)
        renderer.finalize()
        path_svg.write_text(buf.getvalue(), encoding="utf-8")
    if write_csv:
        write_plot_csv(spec, path_svg.with_suffix(".csv"))
    return path_svg
