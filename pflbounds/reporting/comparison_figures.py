"""The figure of a comparison claim: the paired differences of every draw, with their mean and
interval (:mod:`pflbounds.checking.comparison`), one dot plot per grid point.

Each claimed pair of methods is a category; its draws are dots (one per draw), beside them the
mean difference with its t interval, and a line at 0: the claim holds where the whole interval
lies above it. The caption states the draw plan declared before the run (draws, the paper's
difference, the power at the check's level)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from pflbounds.reporting.figure_common import MAX_GROUPS, outcome_title, point_names
from pflbounds.reporting.spec_builders import figure, series

if TYPE_CHECKING:  # pragma: no cover
    from pflbounds.checking.outcome import Outcome

READING = ("Squares: the claimed difference in each draw; dot and bar: their mean with its t "
           "interval. The claim holds where the whole interval lies above the line at 0, fails "
           "where it lies below.")


def pair_labels(outcome: Outcome, n_pairs: int) -> list[str]:
    """The claimed difference of each pair as a reader writes it (``FedAvg - Karula``)."""
    cfg = outcome.config or {}
    methods = [str(m) for m in cfg.get("methods") or []]
    if len(methods) != n_pairs + 1:
        return [f"pair {j + 1}" for j in range(n_pairs)]
    from pflbounds.checking.comparison import pair_names

    return pair_names(methods, str(cfg.get("order", "increasing")))


def plan_text(outcome: Outcome) -> str:
    """The draw plan of the run's config in one sentence (empty without one)."""
    from pflbounds.checking.draws import plan_sentence

    plan = (outcome.config or {}).get("plan")
    return plan_sentence(plan) + "." if isinstance(plan, dict) else ""


def comparison_figures(outcome: Outcome, *, xlabel: str = "", ylabel: str = ""
                       ) -> list[dict[str, Any]]:
    """One dot plot per grid point (at most :data:`MAX_GROUPS`): draws and interval of each
    claimed pair (module docstring)."""
    pts = [p for p in outcome.evidence if "differences" in p and "lo" in p]
    if not pts:
        return []
    names, shared = point_names(pts)
    figs = []
    for p, name in zip(pts[:MAX_GROUPS], names, strict=False):
        d = np.asarray(p["differences"], dtype=float)
        if d.ndim != 2:
            continue
        labels = pair_labels(outcome, d.shape[1])
        xs = [labels[j] for j in range(d.shape[1]) for _ in range(d.shape[0])]
        ys = d.T.ravel()
        items = [series("each draw", xs, ys, "reference", group="draws"),
                 series("mean and interval", labels, p["mean"], "measured", p["lo"], p["hi"],
                        group="mean")]
        title = outcome_title(outcome) + (f" ({name})" if name and len(pts) > 1 else "")
        caption = " ".join(v for v in (
            f"{d.shape[0]} draws; claimed differences, above 0 where the claim holds.",
            shared, plan_text(outcome)) if v)
        fig = figure("dots", title, xlabel or "claimed difference",
                     ylabel or "difference of the metric", items, caption=caption,
                     hlines=[(0.0, "no difference")], logy=False)
        fig["reading"] = READING
        figs.append(fig)
    return figs
