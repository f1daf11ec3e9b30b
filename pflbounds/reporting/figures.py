"""Figures for the report: matplotlib SVGs and their data as CSV.

:func:`render_plot` draws one :class:`~pflbounds.reporting.figure_model.PlotSpec` and writes
the SVG and, beside it, a tidy CSV (``series,x,y,lo,hi``) holding exactly the plotted
numbers. There is one drawing function per figure kind
(:mod:`~pflbounds.reporting.figure_drawing`):

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
import io
import re
from pathlib import Path

import matplotlib
import matplotlib.text
import numpy as np
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.backends.backend_mixed import MixedModeRenderer
from matplotlib.backends.backend_svg import RendererSVG
from matplotlib.figure import Figure

from pflbounds.reporting.figure_axes import (
    FIGSIZE,
    LEGEND_GAP,
    PAD,
    PALETTE,
    PANEL_GAP,
    RC,
    STYLES,
    emptiest_corner,
)
from pflbounds.reporting.figure_drawing import draw_spec
from pflbounds.reporting.figure_model import PlotSpec
from pflbounds.reporting.model import Report

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

_RC = RC
"""The matplotlib settings of every figure (:data:`pflbounds.reporting.figure_axes.RC`)."""
_emptiest_corner = emptiest_corner


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


def _legend_columns(labels: list[str]) -> int:
    longest = max(len(re.sub(r"[${}\\]", "", lab)) for lab in labels)
    if longest <= 24 and len(labels) > 2:
        return 3
    if longest <= 42 and len(labels) > 1:
        return 2
    return 1


def build_figure(spec: PlotSpec) -> Figure:
    """The laid-out matplotlib figure of ``spec`` (Agg canvas; call inside
    ``matplotlib.rc_context`` of :data:`RC`, as :func:`render_plot` does).

    The panels are stacked (main panel first) at their heights, as wide as the figure allows
    once the tick labels and axis labels are measured (a scatter's axes about square); the
    legend goes below them, in as many columns as fit.
    """
    width = FIGSIZE[0]
    # 72 dpi, the SVG's own: the layout pass and the SVG then share matplotlib's cache of
    # parsed mathtext and text extents (each label is parsed once, not once per dpi).
    fig = Figure(figsize=(width, FIGSIZE[1] + 1.5), dpi=72)
    FigureCanvasAgg(fig)
    panels = draw_spec(spec, fig)
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
    left = max(e[0] for e in extents) + PAD
    right = max(e[1] for e in extents) + PAD + 0.05
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
            if ext.width / dpi <= width - 2 * PAD or ncols == 1:
                break
            legend.remove()
            ncols -= 1
        legend_h = ext.height / dpi + LEGEND_GAP
    # stack the panels from the top: above, height, below (tick labels), gap
    n = len(panels.axes)
    below = [extents[k][2] if k == n - 1 else min(extents[k][2], 0.05) for k in range(n)]
    above = [extents[k][3] + (PAD if k == 0 else 0.0) for k in range(n)]
    height = PAD + legend_h + sum(panels.heights) + sum(below) + sum(above) \
        + PANEL_GAP * (n - 1) + PAD
    fig.set_size_inches(width, height)
    top = height - PAD
    for k, ax in enumerate(panels.axes):
        top -= above[k]
        bottom = top - panels.heights[k]
        ax.set_position((x0 / width, bottom / height, ax_w / width, panels.heights[k] / height))
        top = bottom - below[k] - PANEL_GAP
    if legend is not None:
        legend.set_bbox_to_anchor((0.5, PAD / height), transform=fig.transFigure)
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
    with matplotlib.rc_context(RC), np.errstate(over="ignore", invalid="ignore",
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
