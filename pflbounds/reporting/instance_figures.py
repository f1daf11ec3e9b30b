"""Figures of many instances and of categories: every instance against its bound
(``scatter``) and one dot per category or grid point (``dots``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from pflbounds.reporting.figure_common import (
    MAX_GROUPS,
    bound_keys,
    bound_label,
    bound_style,
    outcome_title,
    point_names,
)
from pflbounds.reporting.numbers import fmt
from pflbounds.reporting.spec_builders import figure, series

if TYPE_CHECKING:  # pragma: no cover
    from pflbounds.checking.outcome import Outcome


def scatter_figures(outcome: Outcome, *, by: str = "bound",
                    categories: Sequence[str] | None = None, xlabel: str = "",
                    ylabel: str = "") -> list[dict[str, Any]]:
    """Every recorded value of every grid point against its bound (one point per instance):
    one series per bound (``by="bound"``: as printed, corrected), per grid point
    (``by="point"``) or per recorded entry named by ``categories`` (entry k of every point is
    ``categories[k]``)."""
    pts = [p for p in outcome.evidence if "mean" in p and bound_keys(outcome, p)]
    if not pts:
        return []
    names, caption = point_names(pts)
    acc: dict[str, tuple[list[float], list[float], str]] = {}
    for p, name in zip(pts, names, strict=True):
        mean = np.asarray(p["mean"], dtype=float)
        for key in bound_keys(outcome, p):
            b = np.broadcast_to(np.asarray(p[key], dtype=float), mean.shape)
            label = bound_label(outcome, key)
            if categories is not None:
                for k, cat in enumerate(categories):
                    m_k, b_k = mean[..., k].ravel(), b[..., k].ravel()
                    tag = cat if len(bound_keys(outcome, p)) == 1 else f"{cat}, {label}"
                    xs, ys, _ = acc.setdefault(tag, ([], [], bound_style(outcome, key)))
                    xs.extend(b_k.tolist())
                    ys.extend(m_k.tolist())
                continue
            if by == "point":
                tag = ", ".join(v for v in (name or "instances", "" if len(
                    bound_keys(outcome, p)) == 1 else label) if v)
            else:
                tag = {"bound": "instances", "lower bound": "instances"}.get(
                    label, f"against the {label}")
            xs, ys, _ = acc.setdefault(tag, ([], [], bound_style(outcome, key)))
            xs.extend(b.ravel().tolist())
            ys.extend(mean.ravel().tolist())
    items = [series(tag, xs, ys, "measured" if st in ("bound", "lower_bound") else st,
                    group=tag) for tag, (xs, ys, st) in acc.items()]
    n = sum(len(s["x"]) for s in items)
    head = f"{n} instances"
    if len(pts) > 1:
        head += f" from {len(pts)} grid points"
    return [figure("scatter", outcome_title(outcome), xlabel, ylabel, items,
                   caption=f"{head}. {caption}".strip())]


def dot_figures(outcome: Outcome, *, categories: Sequence[str] | None = None,
                xlabel: str = "", ylabel: str = "", max_groups: int = MAX_GROUPS
                ) -> list[dict[str, Any]]:
    """Categories as dots: entry k of every grid point is ``categories[k]`` (each point a
    group); without ``categories``, each grid point is a category (one value each) or, for
    points with several entries, the recorded x values are."""
    pts = [p for p in outcome.evidence if "mean" in p]
    if not pts:
        return []
    single = all(np.size(p["mean"]) == 1 for p in pts)
    if categories is None and single:
        names, caption = point_names(pts)
        cats = names if all(names) else [f"point {p['point']}" for p in pts]
        items = []
        for key in ("mean", *bound_keys(outcome, pts[0])):
            vals = [float(np.ravel(p[key])[0]) for p in pts]
            lo = [float(np.ravel(p["lo"])[0]) for p in pts] if key == "mean" and all(
                "lo" in p for p in pts) else None
            hi = [float(np.ravel(p["hi"])[0]) for p in pts] if lo is not None else None
            items.append(series("measured" if key == "mean" else bound_label(outcome, key), cats,
                                vals, "measured" if key == "mean" else bound_style(outcome, key),
                                lo, hi, group="grid points"))
        return [figure("dots", outcome_title(outcome), xlabel or "grid point", ylabel, items,
                       caption=caption)]
    if len(pts) > max_groups:
        pts = pts[:max_groups]
    names, caption = point_names(pts)
    items = []
    for p, name in zip(pts, names, strict=True):
        name = name or f"point {p['point']}"
        mean = np.asarray(p["mean"], dtype=float).ravel()
        if categories is not None:
            cats = [str(c) for c in categories][: mean.size]
        else:
            ks = np.asarray(p.get("ks", np.arange(mean.size)), dtype=float).ravel()
            cats = [fmt(float(k)) for k in ks]
        n = len(cats)

        def arr(key: str, p: dict = p, n: int = n, size: int = mean.size) -> list | None:
            if key not in p:
                return None
            return np.broadcast_to(np.asarray(p[key], float).ravel(), (size,))[:n].tolist()

        items.append(series("measured", cats, mean[:n], "measured", arr("lo"), arr("hi"),
                            group=name))
        for key in bound_keys(outcome, p):
            items.append(series(bound_label(outcome, key), cats, arr(key),
                                bound_style(outcome, key), group=name))
    return [figure("dots", outcome_title(outcome), xlabel, ylabel, items, caption=caption)]
