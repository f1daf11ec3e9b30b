"""What every figure kind draws with (:mod:`pflbounds.reporting.figures`): the panels of a
figure, axis limits, values off the chart, legend entries, reference lines and the
measured/bound panel."""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field

import numpy as np
from matplotlib.lines import Line2D
from matplotlib.patches import Patch

from pflbounds.reporting.figure_axes import (
    DECADES_ABOVE,
    DECADES_BELOW,
    FAIL,
    MAX_DECADES,
    NEUTRAL,
    RATIO_RANGE,
    STYLES,
    base_label,
    finite_values,
    label_text,
)
from pflbounds.reporting.figure_model import PlotSpec, Series, ratio_pairs


@dataclass
class Panels:
    """What a drawing function made: the axes (main first), their heights, legend entries
    and notes for the annotation box."""

    axes: list = field(default_factory=list)
    heights: list[float] = field(default_factory=list)
    legend: list[tuple[object, str]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    width: float | None = None  # axes width in inches; None: as wide as the figure allows


def axis_limits(values: np.ndarray, log: bool, bounds: np.ndarray | None = None,
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


def legit_values(spec: PlotSpec, log: bool) -> np.ndarray | None:
    """The values an axis must show: every bound and reference, and the measured values of
    groups that no upper bound caps (a lower bound's curve lies above it by right). Only the
    measured values of upper-bounded groups may run off the chart (a divergence). None when
    no group has an upper bound (nothing is cut)."""
    upper = {s.colour_key for s in spec.series if s.is_bound and s.style != "lower_bound"}
    if not upper:
        return None
    vals = [finite_values(s.y, log) for s in spec.series
            if s.style != "measured" or s.colour_key not in upper]
    return np.concatenate(vals) if vals else None


def off_chart(ax, x: np.ndarray, y: np.ndarray, lims: tuple[float, float], log: bool,
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


def legend_entries(spec: PlotSpec, colors: list[str], line: bool = True, points: bool = False
            ) -> list[tuple[object, str]]:
    """Legend entries: one per series, or, when several groups hold the same series, one per
    series kind (grey) and one per group (its colour)."""
    groups: dict[str, list[Series]] = {}
    color_of: dict[str, str] = {}
    for s, c in zip(spec.series, colors, strict=True):
        groups.setdefault(s.colour_key, []).append(s)
        color_of[s.colour_key] = c
    labels = {g: [(base_label(s), s.style) for s in ss] for g, ss in groups.items()}
    same = len({tuple(v) for v in labels.values()}) == 1
    if len(groups) >= 2 and same and all(g.strip() for g in groups):
        marked = max(len(s.x) for s in spec.series) <= 25
        out = [(_proxy(st, NEUTRAL, line=line, points=points, marked=marked), label_text(lab))
               for lab, st in next(iter(labels.values())) if lab]
        for g in groups:
            out.append((Patch(color=color_of[g]), label_text(g)))
        return out
    out, seen = [], set()
    for s, c in zip(spec.series, colors, strict=True):
        key = (s.label, c)
        if s.label and key not in seen:
            seen.add(key)
            out.append((_proxy(s.style, c, line=line, points=points, marked=len(s.x) <= 25),
                        label_text(s.label)))
    return out


def reference_lines(ax, spec: PlotSpec, legend: list, logx: bool, logy: bool, *,
              horizontal: bool = True, labelled: bool = True) -> None:
    for line in spec.hlines if horizontal else []:
        if not (logy and line.value <= 0):
            ax.axhline(line.value, color=NEUTRAL, lw=0.9, ls=(0, (4, 2, 1, 2)), zorder=1)
            if line.label and labelled:
                legend.append((Line2D([], [], color=NEUTRAL, lw=0.9, ls=(0, (4, 2, 1, 2))),
                               label_text(line.label)))
    for line in spec.vlines:
        if not (logx and line.value <= 0):
            ax.axvline(line.value, color=NEUTRAL, lw=0.9, ls=(0, (1, 1.5)), zorder=1)
            if line.label and labelled:
                legend.append((Line2D([], [], color=NEUTRAL, lw=0.9, ls=(0, (1, 1.5))),
                               label_text(line.label)))


def ratio_panel(fig, main, spec: PlotSpec, colors: list[str], *, categorical: list | None
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
        lims = axis_limits(allv, False, include=(ref,)) or (ref - 1, ref + 1)
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
        off_chart(ax, xs, r, lims, bool(log), color)
    ax.axhline(ref, color="black", lw=0.9, zorder=2)
    top = lims[1] if lims[1] > ref else ref
    ax.axhspan(ref, top * (10 if log else 1) + (0 if log else abs(top) + 1), color=FAIL,
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
