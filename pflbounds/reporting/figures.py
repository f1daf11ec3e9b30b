"""Figures for the report: matplotlib SVGs and their data as CSV.

:func:`render_plot` draws one :class:`~pflbounds.reporting.model.PlotSpec` and writes the
SVG and, beside it, a tidy CSV (``series,x,y,lo,hi``) holding exactly the plotted numbers.
Styles are fixed per series style so that every figure of a report reads the same way:

* measured: solid, blue family, with a shaded confidence band;
* bound: dashed, dark grey; bound_printed: dashed, red; bound_corrected: dash-dot, green;
* fit: dotted, orange; reference: thin dotted, grey.
"""

from __future__ import annotations

import csv
import re
from collections.abc import Iterable
from pathlib import Path

import matplotlib
import numpy as np
from matplotlib.figure import Figure
from matplotlib.ticker import Formatter, LogLocator, NullFormatter

from pflbounds.reporting.model import PlotSpec, Report

__all__ = ["FIGSIZE", "STYLES", "plan_figures", "render_plot", "write_plot_csv"]

#: Figure size in inches: fits the A4 text width of the report at 100 %.
FIGSIZE: tuple[float, float] = (6.5, 3.6)

#: Line style, width and colour cycle for each series style.
STYLES: dict[str, dict] = {
    "measured": {"ls": "-", "lw": 1.6, "colors": ["#1f5fbf", "#6a3d9a", "#00838f", "#8c564b"]},
    "bound": {"ls": "--", "lw": 1.5, "colors": ["#333333", "#757575"]},
    "bound_printed": {"ls": "--", "lw": 1.6, "colors": ["#c62828", "#ef6c6c"]},
    "bound_corrected": {"ls": "-.", "lw": 1.6, "colors": ["#2e7d32", "#66bb6a"]},
    "fit": {"ls": ":", "lw": 1.8, "colors": ["#ef6c00", "#ffa726"]},
    "reference": {"ls": (0, (1, 2)), "lw": 1.1, "colors": ["#8a8a8a", "#b0b0b0"]},
}

_RC = {
    "font.size": 9,
    "axes.titlesize": 10,
    "axes.labelsize": 9,
    "legend.fontsize": 8,
    "xtick.labelsize": 8,
    "ytick.labelsize": 8,
    "svg.fonttype": "path",  # glyphs as paths: the SVG renders identically everywhere
    "svg.hashsalt": "pflbounds",  # deterministic element ids
    "axes.spines.top": False,
    "axes.spines.right": False,
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
    counts: dict[str, int] = {}
    out = []
    for s in spec.series:
        k = counts.get(s.style, 0)
        counts[s.style] = k + 1
        palette = STYLES[s.style]["colors"]
        out.append(palette[k % len(palette)])
    return out


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
    """A tick label: plain (``0.05``, ``200``) or, with ``powers``, ``10^k`` / ``2×10^k``."""
    if v == 0:
        return "0"
    if not powers:
        return f"{v:g}"
    exponent = int(np.floor(np.log10(abs(v)) + 1e-9))
    mantissa = v / 10.0**exponent
    if abs(mantissa - round(mantissa)) < 1e-9 and round(mantissa) == 1:
        return f"$10^{{{exponent}}}$"
    return f"${mantissa:.2g}\\times10^{{{exponent}}}$"


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
    else:
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


def render_plot(spec: PlotSpec, path_svg: Path | str, write_csv: bool = True) -> Path:
    """Draw ``spec`` to an SVG file (and its data to ``<same stem>.csv``); return the SVG path.

    Matplotlib is used through its object API with the Agg/SVG canvases only, so no display
    and no global pyplot state are involved.
    """
    path_svg = Path(path_svg)
    path_svg.parent.mkdir(parents=True, exist_ok=True)
    # Huge values (a diverging run) may overflow in axis-margin arithmetic; that is harmless.
    with matplotlib.rc_context(_RC), np.errstate(over="ignore", invalid="ignore"):
        fig = Figure(figsize=FIGSIZE, layout="constrained")
        ax = fig.add_subplot()
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
        ax.set_title(spec.title)
        ax.set_xlabel(spec.xlabel)
        ax.set_ylabel(spec.ylabel)
        ax.grid(True, which="major", alpha=0.3, lw=0.6)
        if spec.logy or spec.logx:
            ax.grid(True, which="minor", alpha=0.12, lw=0.4)
        if spec.annotations:
            (x0, y0, ha, va) = _emptiest_corner(ax)
            ax.text(
                x0, y0, "\n".join(spec.annotations), transform=ax.transAxes, ha=ha,
                va=va, fontsize=8,
                bbox={"boxstyle": "round,pad=0.3", "fc": "white", "ec": "#bbbbbb", "alpha": 0.9},
            )  # fmt: skip
        handles, labels = ax.get_legend_handles_labels()
        if handles:
            ax.legend(loc="best", framealpha=0.9, ncols=1 if len(handles) <= 4 else 2)
        fig.savefig(path_svg, format="svg", metadata={"Date": None})
    if write_csv:
        write_plot_csv(spec, path_svg.with_suffix(".csv"))
    return path_svg
