"""The vocabulary of figure specs: plain dicts that say WHAT a figure shows, never how.

A check says what to plot in one of two ways:

* it names a figure kind and the evidence to draw with a :class:`Plot` declaration, e.g.
  ``plot=Plot("scatter")`` (every recorded value of every grid point against its bound) or
  ``plot=Plot("dots", categories=("1/mu", "L^w"))`` (one category per recorded entry); the
  kind's function in :mod:`pflbounds.reporting.outcome_figures` builds the spec;
* or its ``plot`` function returns specs built with :func:`figure` (or :func:`curves`,
  :func:`scatter`, :func:`dots`, :func:`tail`, :func:`scaling`) and :func:`series`.

A figure is ``{"kind", "title", "xlabel", "ylabel", "logx", "logy", "series": [...]}`` plus
optional ``caption``, ``annotations`` (short text lines), ``hlines`` and ``vlines``
(``(value, label)`` pairs). ``kind`` is one of :data:`KINDS` (described in
:class:`pflbounds.reporting.figure_model.PlotSpec`). A series is ``{"label", "x", "y", "lo",
"hi", "style", "group"}``: ``style`` is one of :data:`STYLES` and says what the series is
(measured, a bound, a fit, a reference); series of one ``group`` (an instance, e.g.
``"kappa = 4"``) share one colour, so a bound is paired with its measured curve. A table is
``{"kind": "table", "title", "columns", "rows", "caption"}``.

Labels, titles and captions are plain text in the notation of the papers' digests
(``E[f_i(x_i^K)]``, ``eps``, ``b_ij^2/mu``, ``sqrt(2)``) or mathtext between ``$``; the report
typesets them (:mod:`pflbounds.reporting.plainmath`).

This module needs numpy only, so paper packages can declare figures without loading
matplotlib or Typst.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pflbounds.reporting.figure_model import BOUND_STYLES, KINDS, STYLES
from pflbounds.reporting.spec_builders import (
    ALIASES,
    curves,
    dots,
    figure,
    scaling,
    scatter,
    series,
    table,
    tail,
)

if TYPE_CHECKING:  # pragma: no cover
    from pflbounds.checking.outcome import Outcome

__all__ = [
    "BOUND_STYLES",
    "KINDS",
    "STYLES",
    "Plot",
    "curves",
    "dots",
    "figure",
    "scaling",
    "scatter",
    "series",
    "table",
    "tail",
]


class Plot:
    """A check's declaration of what to plot: a figure kind and the evidence to draw.

    ``Plot(kind, **options)`` is a check's ``plot`` function: called with an outcome, it
    returns the specs that the kind's function of :mod:`pflbounds.reporting.outcome_figures`
    builds from the evidence (see there for the options of each kind). Examples::

        plot=Plot("scatter")                          # every instance against its bound
        plot=Plot("dots", categories=("1/mu", "L^w"))  # entry k of every point is category k
        plot=Plot("tail")                             # probabilities with intervals
    """

    def __init__(self, kind: str, **options: Any) -> None:
        kind = ALIASES.get(kind, kind)
        if kind not in KINDS:
            raise ValueError(f"unknown figure kind {kind!r}; expected one of {KINDS}")
        self.kind = kind
        self.options = options

    def __call__(self, outcome: Outcome) -> list[dict[str, Any]]:
        from pflbounds.reporting.outcome_figures import figures_of_kind

        return figures_of_kind(self.kind, outcome, **self.options)

    def __repr__(self) -> str:
        opts = ", ".join(f"{k}={v!r}" for k, v in self.options.items())
        return f"Plot({self.kind!r}{', ' if opts else ''}{opts})"
