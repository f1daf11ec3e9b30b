"""One drawing function per figure kind (:mod:`pflbounds.reporting.figures`): curves, scatter
(or its histogram), dots, tail and scaling."""

from __future__ import annotations

import math

import numpy as np
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.ticker import NullFormatter

from pflbounds.reporting.figure_axes import (
    FAIL,
    FIGSIZE,
    PANELS,
    SCATTER_WIDTH,
    STYLES,
    emptiest_corner,
    finite_values,
    format_axes,
    group_colors,
    label_text,
    tick_label,
    value_text,
    wrapped,
)
from pflbounds.reporting.figure_model import HISTOGRAM_ABOVE, PlotSpec
from pflbounds.reporting.figure_panels import (
    Panels,
    axis_limits,
    legend_entries,
    legit_values,
    off_chart,
    ratio_panel,
    reference_lines,
)


def _draw_curves(spec: PlotSpec, fig: Figure, colors: list[str]) -> Panels:
    """Measured curves (solid, markers when few points, band from lo/hi), bounds in their
    curve's colour, fits and references; the ratio panel below."""
    out = Panels()
    ax = fig.add_axes((0.1, 0.3, 0.85, 0.6))
    logx, logy = spec.logx, spec.logy
    everything = np.concatenate([finite_values(v, logy) for s in spec.series
                                 for v in (s.y, s.lo or (), s.hi or ())] or [np.array([])])
    lims = axis_limits(everything, logy, legit_values(spec, logy), [h.value for h in spec.hlines])
    beyond = []
    drawn = False
    for s, color in zip(spec.series, colors, strict=True):
        st = STYLES[s.style]
        x = finite_values(s.x, logx)
        y = finite_values(s.y, logy)
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
            lo = finite_values(s.lo, logy)
            hi = finite_values(s.hi, logy)
            band = ~np.isnan(x) & ~np.isnan(lo) & ~np.isnan(hi)
            if band.any():
                alpha = 0.22 if s.style == "measured" else 0.12
                ax.fill_between(x[band], lo[band], hi[band], color=color, alpha=alpha, lw=0)
        if lims is not None:
            raw = np.asarray(s.y, dtype=float)
            top = off_chart(ax, np.asarray(finite_values(s.x, logx)), raw, lims, logy, color,
                             s.style == "measured")
            if top is not None:
                beyond.append(top)
    if lims is not None:
        ax.set_ylim(*lims)
    if beyond:
        worst = max(beyond)
        what = "beyond the chart" + ("" if not math.isfinite(worst)
                                     else f" (up to {value_text(worst)})")
        out.notes.append(f"▲ {what}")
    if logx:
        ax.set_xscale("log")
    if logy:
        ax.set_yscale("log")
    out.legend = legend_entries(spec, colors)
    reference_lines(ax, spec, out.legend, logx, logy)
    if not drawn:
        ax.text(0.5, 0.5, "no finite data to draw", transform=ax.transAxes,
                ha="center", va="center", color=FAIL)  # fmt: skip
    ratio = ratio_panel(fig, ax, spec, colors)
    ax.set_ylabel(wrapped(spec.ylabel, 30 if ratio is not None else 44))
    format_axes(ax, logx, logy)
    out.axes, out.heights = [ax], [FIGSIZE[1]]
    if ratio is not None:
        ax.tick_params(which="both", labelbottom=False)
        reference_lines(ratio, spec, [], logx, False, horizontal=False, labelled=False)
        ratio.set_xlabel(label_text(spec.xlabel))
        format_axes(ratio, logx, ratio.get_yscale() == "log", minor_labels=False)
        out.axes.append(ratio)
        out.heights = list(PANELS)
    else:
        ax.set_xlabel(label_text(spec.xlabel))
    return out


def _draw_scatter(spec: PlotSpec, fig: Figure, colors: list[str]) -> Panels:
    """Each instance's measured value (y) against its bound (x) with y = x, the failing side
    shaded; a histogram of measured/bound (or measured - bound) when there are many."""
    out = Panels()
    ax = fig.add_axes((0.1, 0.2, 0.85, 0.7))
    log = spec.logx and spec.logy
    clouds = []
    for s, color in zip(spec.series, colors, strict=True):
        x = finite_values(s.x, log)
        y = finite_values(s.y, log)
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
    lims = axis_limits(allv, log) or (0.0, 1.0)
    size = 16 if n <= 60 else 9 if n <= 600 else 5 if n <= 2000 else 2.5
    alpha = 1.0 if n <= 200 else 0.55
    for s, color, x, y in clouds:
        if not len(x):
            continue
        ax.scatter(x, y, s=size, color=color, alpha=alpha, lw=0, zorder=3,
                   marker="o" if s.style in ("measured", "bound", "bound_corrected") else "v")
        out.legend.append((Line2D([], [], ls="none", marker="o" if s.style != "bound_printed"
                                  else "v", color=color, ms=5), label_text(s.label)))
    diag = np.geomspace(*lims, 50) if log else np.linspace(*lims, 50)
    ax.plot(diag, diag, color="black", lw=0.9, zorder=2)
    ax.fill_between(diag, diag, lims[1] * (10 if log else 1) + (0 if log else 1),
                    color=FAIL, alpha=0.07, lw=0, zorder=0)
    out.legend.append((Line2D([], [], color="black", lw=0.9), "$y = x$ (measured = bound)"))
    if log:
        ax.set_xscale("log")
        ax.set_yscale("log")
    ax.set_xlim(*lims)
    ax.set_ylim(*lims)
    reference_lines(ax, spec, out.legend, log, log)
    ax.set_xlabel(wrapped(spec.xlabel, 90))
    ax.set_ylabel(wrapped(spec.ylabel, 44))
    format_axes(ax, log, log)
    out.axes, out.heights = [ax], [min(FIGSIZE[1] + 0.5, SCATTER_WIDTH)]
    return out


def _draw_histogram(spec: PlotSpec, fig: Figure, ax, clouds, out: Panels) -> Panels:
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
                               label_text(f"{s.label} ({v.size} instances)")))
    ax.axvline(ref, color="black", lw=0.9, zorder=2)
    ax.axvspan(ref, bins[-1], color=FAIL, alpha=0.07, lw=0, zorder=0)
    if log:
        ax.set_xscale("log")
    if peak > 30 * low:  # a spike (instances on the bound) next to a few others
        ax.set_yscale("log")
    ax.set_xlim(bins[0], bins[-1])
    what = "measured - bound" if difference else "measured / bound"
    ax.set_xlabel(wrapped(f"{what} ({spec.ylabel})" if spec.ylabel else what, 90))
    ax.set_ylabel("instances")
    format_axes(ax, bool(log), False)
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
               ) -> Panels:
    """One dot per category and series (interval from lo/hi), bounds as bars in the colour of
    their group, never a line; the ratio panel below."""
    out = Panels()
    ax = fig.add_axes((0.1, 0.3, 0.85, 0.6))
    cats = _categories(spec)
    logy = spec.logy
    groups: list[str] = []
    for s in spec.series:
        if s.colour_key not in groups:
            groups.append(s.colour_key)
    width = min(0.7 / max(len(groups), 1), 0.22)
    offsets = {g: (k - (len(groups) - 1) / 2) * width for k, g in enumerate(groups)}
    everything = np.concatenate([finite_values(v, logy) for s in spec.series
                                 for v in (s.y, s.lo or (), s.hi or ())] or [np.array([])])
    lims = axis_limits(everything, logy, legit_values(spec, logy), [h.value for h in spec.hlines])
    beyond = []
    for s, color in zip(spec.series, colors, strict=True):
        labels = [v if isinstance(v, str) else f"{v:g}" for v in s.x]
        pos = np.array([cats.index(c) for c in labels], dtype=float) + offsets[s.colour_key]
        y = finite_values(s.y, logy)
        st = STYLES[s.style]
        ok = ~np.isnan(y)
        if s.style == "measured":
            if s.lo is not None and s.hi is not None:
                lo, hi = finite_values(s.lo, logy), finite_values(s.hi, logy)
                band = ok & ~np.isnan(lo) & ~np.isnan(hi)
                ax.vlines(pos[band], lo[band], hi[band], color=color, lw=1.3, zorder=3)
            ax.plot(pos[ok], y[ok], ls="none", marker="o", ms=5, color=color, zorder=4)
        else:
            ax.plot(pos[ok], y[ok], ls="none", marker=st["marker"],
                    ms=13 if st["marker"] == "_" else 5.5, mew=2.0, color=color, zorder=3,
                    mfc="none" if st["marker"] == "v" else color)
            if s.lo is not None and s.hi is not None:
                lo, hi = finite_values(s.lo, logy), finite_values(s.hi, logy)
                band = ok & ~np.isnan(lo) & ~np.isnan(hi)
                ax.vlines(pos[band], lo[band], hi[band], color=color, lw=0.8, zorder=2,
                          linestyles="dashed")
        if lims is not None:
            top = off_chart(ax, pos, np.asarray(s.y, dtype=float), lims, logy, color,
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
    out.legend = legend_entries(spec, colors, line=False)
    reference_lines(ax, spec, out.legend, False, logy)
    format_axes(ax, False, logy)
    ax.grid(False, axis="x")
    long = max((len(c) for c in cats), default=0) > 10 or len(cats) > 8
    ticks = [label_text(c) for c in cats]
    panel = ratio_panel(fig, ax, spec, colors, categorical=cats, offsets=offsets) \
        if ratio else None
    ax.set_ylabel(wrapped(spec.ylabel, 30 if panel is not None else 44))
    bottom = panel if panel is not None else ax
    bottom.set_xticks(range(len(cats)), ticks, rotation=30 if long else 0,
                      ha="right" if long else "center")
    bottom.set_xlabel(label_text(spec.xlabel))
    out.axes, out.heights = [ax], [FIGSIZE[1]]
    if panel is not None:
        ax.tick_params(which="both", labelbottom=False)
        format_axes(panel, False, panel.get_yscale() == "log", minor_labels=False)
        panel.grid(False, axis="x")
        out.axes.append(panel)
        out.heights = list(PANELS)
    return out


def _draw_tail(spec: PlotSpec, fig: Figure, colors: list[str]) -> Panels:
    """Empirical probabilities as points with their intervals against the bound: a line for
    an ordered parameter, bars for categories. A zero probability keeps a linear axis."""
    if any(s.categorical for s in spec.series):
        return _draw_dots(spec, fig, colors, ratio=False)
    out = Panels()
    ax = fig.add_axes((0.1, 0.2, 0.85, 0.7))
    logx = spec.logx
    measured = [np.asarray(s.y, dtype=float) for s in spec.series if s.style == "measured"]
    zeros = any((m[np.isfinite(m)] <= 0).any() for m in measured)
    logy = spec.logy and not zeros
    for s, color in zip(spec.series, colors, strict=True):
        st = STYLES[s.style]
        x = finite_values(s.x, logx)
        y = finite_values(s.y, logy)
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
    out.legend = legend_entries(spec, colors, points=True)
    reference_lines(ax, spec, out.legend, logx, logy)
    ax.set_xlabel(wrapped(spec.xlabel, 90))
    ax.set_ylabel(wrapped(spec.ylabel, 44))
    format_axes(ax, logx, logy)
    out.axes, out.heights = [ax], [FIGSIZE[1]]
    return out


def _draw_scaling(spec: PlotSpec, fig: Figure, colors: list[str]) -> Panels:
    """Measured points (no line) with their intervals, the fitted line (solid) and the
    predicted slope (dashed, its tolerance band shaded)."""
    out = Panels()
    ax = fig.add_axes((0.1, 0.2, 0.85, 0.7))
    logx, logy = spec.logx, spec.logy
    for s, color in zip(spec.series, colors, strict=True):
        st = STYLES[s.style]
        x = finite_values(s.x, logx)
        y = finite_values(s.y, logy)
        ok = ~np.isnan(x) & ~np.isnan(y)
        if not ok.any():
            continue
        if s.style == "measured":
            yerr = None
            if s.lo is not None and s.hi is not None:
                lo, hi = finite_values(s.lo, logy), finite_values(s.hi, logy)
                lo = np.where(np.isnan(lo), y, lo)
                hi = np.where(np.isnan(hi), y, hi)
                yerr = np.vstack([np.clip(y - lo, 0, None), np.clip(hi - y, 0, None)])[:, ok]
            ax.errorbar(x[ok], y[ok], yerr=yerr, ls="none", marker="o", ms=4.5, color=color,
                        elinewidth=1.2, capsize=2.5, zorder=4)
            continue
        ax.plot(x[ok], y[ok], ls=st["ls"], lw=st["lw"] + (0.3 if s.style == "fit" else 0),
                color=color, zorder=3 if s.style == "fit" else 2)
        if s.lo is not None and s.hi is not None:
            lo, hi = finite_values(s.lo, logy), finite_values(s.hi, logy)
            band = ok & ~np.isnan(lo) & ~np.isnan(hi)
            ax.fill_between(x[band], lo[band], hi[band], color=color, alpha=0.13, lw=0,
                            zorder=1)
    if logx:
        ax.set_xscale("log")
    if logy:
        ax.set_yscale("log")
    out.legend = legend_entries(spec, colors, points=True)
    reference_lines(ax, spec, out.legend, logx, logy)
    ax.set_xlabel(wrapped(spec.xlabel, 90))
    ax.set_ylabel(wrapped(spec.ylabel, 44))
    format_axes(ax, logx, logy)
    if logx:
        xs = sorted({v for s in spec.series if s.style == "measured"
                     for v in finite_values(s.x, True) if v == v})
        if 2 <= len(xs) <= 7:  # a sweep has few parameter values: label exactly those
            ax.set_xticks(xs, [tick_label(v) for v in xs])
            ax.xaxis.set_minor_formatter(NullFormatter())
    out.axes, out.heights = [ax], [FIGSIZE[1]]
    return out


_DRAW = {"curves": _draw_curves, "scatter": _draw_scatter, "dots": _draw_dots,
         "tail": _draw_tail, "scaling": _draw_scaling}


def draw_spec(spec: PlotSpec, fig: Figure) -> Panels:
    """Draw ``spec`` on fresh axes of ``fig`` with the function of its kind, then the
    annotation box (the spec's annotations and the drawing's notes)."""
    panels = _DRAW[spec.kind](spec, fig, group_colors(spec))
    notes = [*spec.annotations, *panels.notes]
    if notes:
        ax = panels.axes[0]
        (x0, y0, ha, va) = emptiest_corner(ax)
        ax.text(
            x0, y0, "\n".join(label_text(a) for a in notes), transform=ax.transAxes,
            ha=ha, va=va, fontsize=8, zorder=6,
            bbox={"boxstyle": "round,pad=0.3", "fc": "white", "ec": "#bbbbbb", "alpha": 0.9},
        )  # fmt: skip
    return panels
