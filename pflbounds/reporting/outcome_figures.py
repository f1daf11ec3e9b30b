"""The figures and value tables of a check outcome, as plain-dict specs.

An outcome becomes a figure spec once, by one function per figure kind:

* :func:`curve_figures` (``curves``): measured curves against K (or the grid's ordered
  parameter) with their bounds, the closest to their bound first;
* :func:`scatter_figures` (``scatter``): every recorded value of every grid point (many
  independent instances) against its bound;
* :func:`dot_figures` (``dots``): one category per recorded entry (constants, methods,
  readings) or per grid point;
* :func:`tail_figures` (``tail``): violation rates or probabilities with their intervals;
* :func:`~pflbounds.reporting.comparison_figures.comparison_figures`: the paired differences
  of a comparison's draws with their interval (a dot plot);
* :func:`scaling_figures` and :func:`rate_figures` (``scaling``): measured points, the fitted
  line and the predicted slope.

:func:`default_figures` picks the kind from the check's kind and the shape of its evidence; a
check may declare another (``plot=Plot("scatter")``,
:class:`~pflbounds.reporting.figure_specs.Plot`) or build its specs itself (its ``plot``
function). :func:`figures_for` then applies the rules every figure obeys (:func:`finish`):
labelled axes, a caption that says what is drawn, category names drawn as dots (never a
line), fewer than 3 points or no variation a table instead. Identity checks get a table of
residuals against the tolerance.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np

from pflbounds.checking.kinds import CheckKind
from pflbounds.reporting.comparison_figures import comparison_figures
from pflbounds.reporting.curve_figures import curve_figures, point_figures, tail_figures
from pflbounds.reporting.figure_common import MAX_GROUPS, MIN_POINTS, params_text, point_names
from pflbounds.reporting.figure_model import STYLES
from pflbounds.reporting.figure_rules import MAX_ROWS, as_table, finish, informative, n_points
from pflbounds.reporting.fit_figures import identity_tables, rate_figures, scaling_figures
from pflbounds.reporting.instance_figures import dot_figures, scatter_figures

if TYPE_CHECKING:  # pragma: no cover
    from pflbounds.checking.check import Check
    from pflbounds.checking.outcome import Outcome

__all__ = [
    "MAX_GROUPS",
    "MAX_ROWS",
    "MIN_POINTS",
    "STYLES",
    "as_table",
    "curve_figures",
    "default_figures",
    "dot_figures",
    "figures_for",
    "figures_of_kind",
    "finish",
    "identity_tables",
    "informative",
    "n_points",
    "params_text",
    "point_figures",
    "point_names",
    "rate_figures",
    "scaling_figures",
    "scatter_figures",
    "tail_figures",
]


_KIND_FUNCTIONS: dict[str, Callable[..., list[dict[str, Any]]]] = {
    "curves": curve_figures, "scatter": scatter_figures, "dots": dot_figures,
    "tail": tail_figures, "scaling": scaling_figures,
}


def figures_of_kind(kind: str, outcome: Outcome, **options: Any) -> list[dict[str, Any]]:
    """The specs of ``kind`` built from ``outcome`` by that kind's function (``scaling`` of
    a rate check: :func:`rate_figures`; ``curves`` of one value per grid point:
    :func:`point_figures`)."""
    if not outcome.evidence:
        return []
    if kind == "scaling" and outcome.kind is CheckKind.RATE:
        return rate_figures(outcome, **options)
    if kind == "curves" and all(np.size(p.get("mean", [])) == 1 for p in outcome.evidence):
        return point_figures(outcome, **options)
    return _KIND_FUNCTIONS[kind](outcome, **options)


def default_figures(outcome: Outcome, check: Check | None = None) -> list[dict[str, Any]]:
    """The figures of an outcome by its check's kind and the shape of its evidence (none
    without evidence): identity, a table of residuals; scaling, the slope figure; a
    probability, the tail figure; a rate, the slope figure and the curves with their bound;
    bounds, the curves against K, or against the grid parameter when each point has one
    value."""
    if not outcome.evidence:
        return []
    kind = outcome.kind
    if kind is CheckKind.IDENTITY:
        return identity_tables(outcome)
    if kind is CheckKind.SCALING:
        return scaling_figures(outcome)
    if kind is CheckKind.HOLDS_WITH_PROBABILITY:
        return tail_figures(outcome)
    if kind is CheckKind.COMPARISON:
        return comparison_figures(outcome)
    figs = []
    if kind is CheckKind.RATE:
        figs += rate_figures(outcome)
        if not any("bound" in p for p in outcome.evidence):
            return figs or curve_figures(outcome)
    with_mean = [p for p in outcome.evidence if "mean" in p]
    if with_mean and all(np.size(p["mean"]) == 1 for p in with_mean):
        return figs + point_figures(outcome)
    return figs + curve_figures(outcome)


def figures_for(outcome: Outcome, check: Check | None) -> list[dict[str, Any]]:
    """What the report shows for ``outcome``: the check's declared or custom figures when it
    has a ``plot`` (the defaults, with a warning, when that fails), otherwise the default
    figures of its kind; every figure :func:`finish`-ed (labels, caption, a table when it
    would carry no information)."""
    figs = None
    if check is not None and check.plot is not None:
        try:
            figs = list(check.plot(outcome))
        except Exception as exc:  # noqa: BLE001 - a report must still be produced
            warnings.warn(f"custom figures of {outcome.check_id} failed ({exc!r}); "
                          "using defaults", stacklevel=2)
    if figs is None:
        figs = default_figures(outcome, check)
    return [finish(f, outcome, check) for f in figs]
