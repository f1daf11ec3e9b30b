"""A paper's error family: the family-wise level of its Monte Carlo verdicts, declared once.

Every Monte Carlo verdict can be wrong by chance. A paper bounds the probability that any of
its Monte Carlo verdicts is wrong (the family-wise error) by a level it declares, shared among
its Monte Carlo checks in fixed parts: check c gets the share ``s_c`` (its weight over the
family's total weight) and, inside, splits ``level * s_c`` equally among its own comparisons
(Bonferroni over its grid points and recorded K, fits, or pairs of methods). By the union
bound, the probability of a wrong verdict somewhere in the paper is at most ``level``.

The shares depend on the paper's declaration only, never on what else a run holds: one check
alone, the paper's suite and a suite of several papers give the same limits for the same check
and seed (:mod:`pflbounds.running.multiplicity` resolves a check's share at run time).

A paper declares its family as ``ERROR_FAMILY`` in its ``checks`` package (``checks/__init__.py``,
or ``checks.py`` for a one-module paper). Without a declaration the family is every Monte Carlo
check the paper registers, with equal shares, at the level ``1 - confidence`` of the most
confident of them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

DEFAULT_LEVEL = 0.01
"""The family-wise level of a paper that declares none and has no Monte Carlo check."""


@dataclass(frozen=True)
class ErrorFamily:
    """The declaration of a paper's error family.

    ``level``: the family-wise error level of the paper's Monte Carlo verdicts (0 < level < 1).
    ``checks``: the ids of the Monte Carlo checks in the family; None: every Monte Carlo check
    of the paper except those in ``without_comparisons``. ``weights``: relative weights (default
    1 each; a check's share is its weight over the family's total). ``without_comparisons``:
    Monte Carlo checks that make no statistical comparison (e.g. an identity on a residual that
    is exact whatever the draws), each with the reason: they take no share; a run in which such
    a check does make a comparison says ERROR.
    """

    level: float = DEFAULT_LEVEL
    checks: tuple[str, ...] | None = None
    weights: Mapping[str, float] = field(default_factory=dict)
    without_comparisons: Mapping[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not 0.0 < float(self.level) < 1.0:
            raise ValueError(f"ErrorFamily level must lie in (0, 1), got {self.level}")
        if self.checks is not None:
            if isinstance(self.checks, str):
                raise ValueError("ErrorFamily checks must be a tuple of check ids, got a string")
            object.__setattr__(self, "checks", tuple(self.checks))
            dup = sorted({c for c in self.checks if self.checks.count(c) > 1})
            if dup:
                raise ValueError(f"ErrorFamily checks lists {dup} twice")
        bad = {c: w for c, w in self.weights.items() if not float(w) > 0.0}
        if bad:
            raise ValueError(f"ErrorFamily weights must be > 0, got {bad}")
        both = sorted(set(self.without_comparisons) & set(self.checks or ()))
        if both:
            raise ValueError(f"ErrorFamily: {both} both in checks and without_comparisons")
        empty = [c for c, why in self.without_comparisons.items() if not str(why).strip()]
        if empty:
            raise ValueError(f"ErrorFamily without_comparisons needs a reason for {empty}")
