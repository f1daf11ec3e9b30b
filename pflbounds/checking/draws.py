"""Draws chosen before the run: the declaration of a comparison's draw count, the effect to
detect (the paper's, or a pilot's), a standard deviation, the compute budget, and the power
they give.

The power of ``n`` draws for the planned effect at a one-sided per-comparison level alpha is
the exact power of the one-sided one-sample t test on paired differences (noncentral t; Cohen
1988, *Statistical Power Analysis for the Behavioral Sciences*, 2nd ed., §2.3, Eq. 2.3.1;
Owen 1965, Technometrics 7(1)): with ``delta = effect / sd``,

    power(n) = P(T'(n - 1, delta sqrt(n)) > t_{1-alpha}(n - 1)),

T'(df, ncp) a noncentral Student variable: the probability that the lower ``1 - alpha`` limit
of the mean difference lies above 0 when the true mean difference is the planned effect. It is
computed from declared numbers only, never from a run's data
(:mod:`pflbounds.checking.comparison` uses the plan).

A plan whose draws do not reach its target power (:meth:`DrawPlan.powered`) decides its
difference at some seeds and not at others: a comparison with such a plan reports its
interval and draws, and its verdict is INCONCLUSIVE whatever the interval says.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

MAX_DRAWS = 100_000
"""The largest draw count :meth:`DrawPlan.draws_for` searches."""


def t_power(n: int, effect: float, sd: float, alpha: float) -> float:
    """The power of the one-sided one-sample t test at level ``alpha`` on ``n`` paired
    differences of mean ``effect`` and standard deviation ``sd`` (module docstring): the
    probability that the lower ``1 - alpha`` limit lies above 0. 0 below 2 draws."""
    if n < 2 or not sd > 0 or not 0.0 < alpha < 1.0:
        return 0.0
    from scipy.special import nctdtr  # here: a check that declares a plan imports no scipy

    from pflbounds.checking.statistics import t_quantile

    q = t_quantile(alpha, n - 1.0)
    ncp = effect / sd * math.sqrt(n)
    return float(1.0 - nctdtr(n - 1.0, ncp, q))


def draws_for(effect: float, sd: float, alpha: float, power: float) -> int | None:
    """The fewest draws (>= 2) whose :func:`t_power` for ``effect`` and ``sd`` at ``alpha``
    reaches ``power``; None beyond :data:`MAX_DRAWS`."""
    if t_power(MAX_DRAWS, effect, sd, alpha) < power:
        return None
    lo, hi = 2, 2
    while t_power(hi, effect, sd, alpha) < power:
        lo, hi = hi, min(2 * hi, MAX_DRAWS)
    while lo < hi:  # the power grows with n: the smallest n in (lo, hi] that reaches it
        mid = (lo + hi) // 2
        if t_power(mid, effect, sd, alpha) >= power:
            hi = mid
        else:
            lo = mid + 1
    return hi


@dataclass(frozen=True)
class DrawPlan:
    """The draws of a comparison, chosen before the run.

    ``draws``: independent draws to run. ``effect``: the difference the draws are to detect
    (in the metric's units, > 0; with several pairs, the smallest): the paper's, or a pilot's
    on streams other than the check's where a synthetic analogue's effect is smaller than the
    paper's (``sd_source`` says which). ``sd``: the standard deviation
    of a paired difference, declared (> 0); ``sd_source`` says where it comes from (a pilot
    run and its seeds, or the paper's spread). ``budget_draws``: the most draws the compute
    budget allows (``draws`` may not exceed it); ``budget_note`` states the budget (e.g.
    "about 40 s per draw on 2 cores; 10 minutes per grid point"). ``target_power``: the power
    the plan aims at for the planned effect.
    """

    draws: int
    effect: float
    sd: float
    sd_source: str
    budget_draws: int
    budget_note: str
    target_power: float = 0.8

    def __post_init__(self) -> None:
        problems = []
        if int(self.draws) < 2:
            problems.append(f"draws must be >= 2 (a paired interval needs two), got "
                            f"{self.draws}")
        if not float(self.effect) > 0:
            problems.append(f"effect must be > 0 (the difference the paper reports), got "
                            f"{self.effect}")
        if not float(self.sd) > 0:
            problems.append(f"sd must be > 0, got {self.sd}")
        if int(self.budget_draws) < int(self.draws):
            problems.append(f"draws ({self.draws}) exceed what the budget allows "
                            f"({self.budget_draws})")
        if not 0.0 < float(self.target_power) < 1.0:
            problems.append(f"target_power must lie in (0, 1), got {self.target_power}")
        if not str(self.sd_source).strip() or not str(self.budget_note).strip():
            problems.append("sd_source and budget_note must say where the sd comes from and "
                            "what the budget is")
        if problems:
            raise ValueError("DrawPlan: " + "; ".join(problems))

    def power(self, alpha: float, n: int | None = None) -> float:
        """The power of ``n`` draws (default: the plan's) for the planned effect at the
        one-sided per-comparison level ``alpha``."""
        return t_power(int(self.draws if n is None else n), self.effect, self.sd, alpha)

    def powered(self, alpha: float, n: int | None = None) -> bool:
        """Whether ``n`` draws (default: the plan's) reach the target power at ``alpha``. A
        comparison whose plan is not powered cannot give a verdict that reruns at other seeds
        repeat: its verdict is INCONCLUSIVE whatever its interval
        (:mod:`pflbounds.checking.comparison`)."""
        return self.power(alpha, n) >= float(self.target_power)

    def draws_for(self, alpha: float, power: float | None = None) -> int | None:
        """The fewest draws whose power reaches ``power`` (default the target) at ``alpha``;
        None beyond :data:`MAX_DRAWS`."""
        return draws_for(self.effect, self.sd, alpha,
                         self.target_power if power is None else power)

    def record(self, alpha: float) -> dict[str, Any]:
        """The declaration with its power at ``alpha`` (what a run's config records)."""
        need = self.draws_for(alpha)
        power = self.power(alpha)
        return {"draws": int(self.draws), "effect": float(self.effect), "sd": float(self.sd),
                "sd_source": self.sd_source, "budget_draws": int(self.budget_draws),
                "budget_note": self.budget_note, "target_power": float(self.target_power),
                "alpha": float(alpha), "power": power, "draws_for_target": need,
                "budget_reaches_target": need is not None and need <= int(self.budget_draws),
                "powered": power >= float(self.target_power)}

    def text(self, alpha: float) -> str:
        """The declaration in one sentence, for a verdict's detail (:func:`plan_sentence`)."""
        return plan_sentence(self.record(alpha))


UNPOWERED = ("not powered, so INCONCLUSIVE whatever the interval (a decision another seed "
             "could undo is not a finding)")
"""What a comparison's detail says of a plan below its target power."""


def plan_sentence(r: Mapping[str, Any]) -> str:
    """A plan's record (:meth:`DrawPlan.record`, as a run's config keeps it) in one sentence:
    draws, effect, sd and their source, the power at the record's level, and, below the
    target power, what the target would need and that the verdict is INCONCLUSIVE. A record
    written before ``powered`` was recorded is judged by ``budget_reaches_target``."""
    head = (f"{r['draws']} draws fixed before the run, for a difference of "
            f"{_g(float(r['effect']))} with a standard deviation of {_g(float(r['sd']))} per "
            f"paired difference ({r['sd_source']}): power {float(r['power']):.2f} at "
            f"{_g(float(r['alpha']))} per side")
    need, target = r.get("draws_for_target"), float(r["target_power"])
    if r.get("powered", r.get("budget_reaches_target")):
        return f"{head} (power {target:g} needs {need})"
    want = "more than " + str(MAX_DRAWS) if need is None else str(need)
    why = (f"the budget ({r['budget_note']}) allows {r['budget_draws']}"
           if not r.get("budget_reaches_target") else f"the plan runs {r['draws']}")
    return f"{head}; power {target:g} would need {want} draws, {why}: {UNPOWERED}"


def _g(x: float) -> str:
    return f"{x:.4g}"
