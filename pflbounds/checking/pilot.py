"""Draws planned from a pilot: the rule that turns a pilot run of a comparison (its paired
differences' mean and standard deviation per pair) into a predicted verdict and the draws
that make the check's verdict the same at any seed.

A comparison check's verdict is stable over seeds only when its power for the true
difference is near 1 (it decides) or near 0 (it stays INCONCLUSIVE). A plan that takes the
paper's difference where the run's (synthetic) difference is much smaller sits in between,
and reruns at other seeds disagree. The rule, applied to a pilot of ``n0`` draws on streams
other than the check's:

* per pair, the lower ``1 - level`` limit of the pilot mean's magnitude,
  ``|m| - t_{1-level}(n0 - 1) s / sqrt(n0)``, and the sd to plan with, ``s`` times
  ``sqrt((n0 - 1) / chi2_{level}(n0 - 1))`` (the upper ``1 - level`` limit of a normal sd);
* a pair whose limit is above 0 is *settled* on the side of its mean;
* some pair settled against the claim: predicted VIOLATED, with the draws that give
  ``power`` to the pair needing fewest (one decided pair makes the verdict);
* every pair settled on the claimed side: predicted HOLDS, with the draws that give
  ``power`` to the pair needing most;
* otherwise predicted INCONCLUSIVE (the pilot does not settle a pair), no draw count.

The power is the exact one-sided t-test power of :func:`pflbounds.checking.draws.t_power`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from pflbounds.checking.draws import DrawPlan, draws_for
from pflbounds.checking.kinds import Verdict

__all__ = ["PilotPlan", "pilot_draw_plan", "plan_from_pilot", "sd_inflation"]


@dataclass(frozen=True)
class PilotPlan:
    """What :func:`plan_from_pilot` gives: the predicted verdict, the pair that decides it
    (index into the pairs, None when INCONCLUSIVE), that pair's planned effect and sd, and
    the draws for the target power (None when INCONCLUSIVE or beyond the search)."""

    predicted: Verdict
    pair: int | None
    effect: float | None
    sd: float | None
    draws: int | None


def sd_inflation(n0: int, level: float = 0.10) -> float:
    """``sqrt((n0 - 1) / chi2_level(n0 - 1))``: the upper ``1 - level`` limit of a normal
    standard deviation estimated from ``n0`` draws, over the estimate."""
    from scipy.stats import chi2

    return math.sqrt((n0 - 1) / float(chi2.ppf(level, n0 - 1)))


def plan_from_pilot(pairs: Sequence[tuple[float, float]], n0: int, alpha: float, *,
                    power: float = 0.99, level: float = 0.10) -> PilotPlan:
    """The plan of a comparison from its pilot (module docstring): ``pairs`` holds, per pair,
    the pilot mean and sd of the claimed difference (> 0: on the claimed side) over ``n0``
    draws; ``alpha`` is the check's one-sided per-comparison level."""
    from scipy.stats import t as student

    if n0 < 3:
        raise ValueError(f"a pilot needs at least 3 draws, got n0 = {n0}")
    if not pairs:
        raise ValueError("a pilot needs at least one pair")
    q = float(student.ppf(1.0 - level, n0 - 1))
    k = sd_inflation(n0, level)
    rows = []
    for i, (m, s) in enumerate(pairs):
        if not (math.isfinite(m) and math.isfinite(s) and s >= 0):
            raise ValueError(f"pair {i}: mean and sd must be finite (sd >= 0), got {m}, {s}")
        lower = abs(m) - q * s / math.sqrt(n0)
        sd = s * k
        need = None
        if lower > 0:
            need = draws_for(lower, sd, alpha, power) if sd > 0 else 2
        rows.append((i, m, lower, sd, need))
    against = [r for r in rows if r[1] < 0 and r[2] > 0]
    if against:
        i, _, lower, sd, need = min(against, key=lambda r: math.inf if r[4] is None else r[4])
        return PilotPlan(Verdict.VIOLATED, i, lower, sd, need)
    if all(r[1] > 0 and r[2] > 0 for r in rows):
        i, _, lower, sd, need = max(rows, key=lambda r: math.inf if r[4] is None else r[4])
        return PilotPlan(Verdict.HOLDS, i, lower, sd, need)
    return PilotPlan(Verdict.INCONCLUSIVE, None, None, None, None)


def pilot_draw_plan(draws: int, pair: str, mean: float, lower: float, sd: float, *, n0: int,
                    seed: int, budget_draws: int, budget_note: str, power: float = 0.99,
                    level: float = 0.10) -> DrawPlan:
    """The declaration of a comparison planned from a pilot of ``n0`` draws at base seed
    ``seed`` (streams other than the suite's): ``draws`` to run, the effect ``lower`` (the
    lower ``1 - level`` limit of ``pair``'s pilot mean ``mean`` in magnitude) and ``sd`` (its
    pilot sd times :func:`sd_inflation`), as :func:`plan_from_pilot` gives them, with the
    target ``power``. ``draws`` may be below what the power needs (draws shared with checks
    that need fewer, or a budget that cannot reach it): the plan then says it is not powered,
    and the comparison's verdict is INCONCLUSIVE."""
    k = sd_inflation(n0, level)
    return DrawPlan(
        draws=draws, effect=lower, sd=sd, target_power=power,
        sd_source=(f"effect and sd: {pair} in a {n0}-draw pilot at base seed {seed} "
                   f"(streams other than the suite seeds'), the lower {100 * (1 - level):g}% "
                   f"limit of its mean difference ({mean:.3g} in the pilot) and its paired sd "
                   f"times {k:.3g} (the upper {100 * (1 - level):g}% limit from {n0} draws); "
                   f"power {power:g} so that reruns at other seeds give the same verdict"),
        budget_draws=budget_draws, budget_note=budget_note)
