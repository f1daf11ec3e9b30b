"""Kinds of checks and their verdicts."""

from __future__ import annotations

from enum import StrEnum


class CheckKind(StrEnum):
    """What a check asserts about its evidence (a ``str`` enum: members equal their values).

    * ``BOUND_HOLDS``: E[metric] <= bound at every recorded K.
    * ``RATE``: the fitted slope of the metric (log-log or semi-log) matches a prediction.
    * ``SCALING``: the log-log slope of a cost across a swept parameter matches a prediction.
    * ``LOWER_BOUND``: E[metric] >= an explicit lower bound everywhere.
    * ``IDENTITY``: an exact equality, up to a stated tolerance.
    * ``ERRATUM``: the printed bound is violated and the corrected one holds.
    * ``HOLDS_WITH_PROBABILITY``: a per-draw bound (data-dependent, high-probability) fails in
      at most a fraction delta of independent draws (Clopper-Pearson limits).
    * ``COMPARISON``: one method's metric is below (or above) another's, or several methods
      order as the paper prints them, judged on paired differences over independent draws
      (t intervals; :mod:`pflbounds.checking.comparison`).
    """

    BOUND_HOLDS = "bound_holds"
    RATE = "rate"
    SCALING = "scaling"
    LOWER_BOUND = "lower_bound_respected"
    IDENTITY = "identity"
    ERRATUM = "erratum"
    HOLDS_WITH_PROBABILITY = "holds_with_probability"
    COMPARISON = "comparison"


class Verdict(StrEnum):
    """The conclusion drawn from a check's evidence.

    ``CONFIRMED`` and ``NOT_CONFIRMED`` are the verdicts of erratum checks: the printed form
    is violated while the corrected form holds (confirmed), or the printed form holds (not
    confirmed). ``ERROR`` means the evidence could not be produced or read.
    """

    HOLDS = "HOLDS"
    VIOLATED = "VIOLATED"
    INCONCLUSIVE = "INCONCLUSIVE"
    CONFIRMED = "CONFIRMED"
    NOT_CONFIRMED = "NOT_CONFIRMED"
    ERROR = "ERROR"


ENGINES = ("exact", "mc", "symbolic")
"""Evidence engines: ``exact`` and ``symbolic`` are deterministic, ``mc`` is Monte Carlo."""

BOUND_MODES = ("expectation", "paired", "per_replica")
"""How a bound_holds check compares a Monte Carlo metric with its bound: ``expectation``,
E[metric] <= bound (one bound for every replica); ``paired``, E[bound - metric] >= 0 with a
bound computed in each replica (data-dependent constants); ``per_replica``, metric <= bound
in every replica (an almost-sure claim)."""

RATE_AXES = ("loglog", "semilog")
"""Axes of a rate fit: log metric vs log K, or log metric vs K (linear convergence)."""

SIDES = ("both", "at_most", "at_least")
"""What a rate or scaling claim says of its estimate: within predicted ± tolerance, or at most
predicted + tolerance, or at least predicted - tolerance (one-sided claims)."""
ORDERS = ("increasing", "decreasing")
"""The claimed order of a comparison's methods: ``increasing``, the metric grows along them
(an error, the best first); ``decreasing``, it falls (an accuracy, the best first)."""
COSTS = ("cheap", "minutes", "long")
"""The cost classes of a check (:mod:`pflbounds.checking.cost`)."""
