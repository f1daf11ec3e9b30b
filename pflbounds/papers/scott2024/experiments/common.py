"""Code scott2024's experiments share: the draw plans of their comparisons
(:mod:`pflbounds.checking.draws`), from the first plans' three-draw pilot (``PILOT_SD``) and
from the 16-draw pilot the re-planned comparisons take their draws from (``pilot_plan``; the
pilot is recorded in ``pilot16.json``)."""

from __future__ import annotations

from pflbounds.checking.draws import DrawPlan
from pflbounds.checking.pilot import pilot_draw_plan

PILOT_SD = ("sd: the largest paired sd of a pilot, the earlier three-seed version of this "
            "check at base seed 1 (other streams than the check's), {} points, times 3.08: "
            "its upper 90% limit from 3 draws (chi-square with 2 degrees of freedom)")

PILOT16_SEED = 11
"""The base seed of the 16-draw pilot the comparisons' draws are planned from (its streams are
not those of the suite seeds 2024-2027 the checks and their stability test run at)."""


def pilot_plan(draws: int, pair: str, mean: float, lower: float, sd: float, per_draw: float,
               budget_draws: int) -> DrawPlan:
    """The plan of a comparison from the 16-draw pilot at :data:`PILOT16_SEED`
    (:func:`pflbounds.checking.pilot.pilot_draw_plan`): ``draws`` for power 0.99 at the
    check's level to detect ``lower`` (the lower 90% limit of ``pair``'s pilot mean ``mean``
    in magnitude), with ``sd`` (its pilot sd times 1.32, the upper 90% limit from 16 draws),
    within a budget of 300 s of one core per check (``per_draw`` seconds per draw in the
    pilot). The pair is the one that decides the predicted verdict: for HOLDS the one that
    needs the most draws, for VIOLATED the one that needs the fewest."""
    return pilot_draw_plan(
        draws, pair, mean, lower, sd, n0=16, seed=PILOT16_SEED, budget_draws=budget_draws,
        budget_note=(f"about {per_draw:.2g} s per draw on one core in the pilot; 300 s per "
                     f"check: {budget_draws} draws"))
