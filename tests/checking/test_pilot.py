"""Draws planned from a pilot (pflbounds.checking.pilot): the predicted verdict follows the
pairs the pilot settles, the draws reach the target power for the deciding pair, and a run at
those draws on normal differences decides as predicted at the planned rate."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy.stats import chi2
from scipy.stats import t as student

from pflbounds.checking.draws import t_power
from pflbounds.checking.kinds import Verdict
from pflbounds.checking.pilot import pilot_draw_plan, plan_from_pilot, sd_inflation

ALPHA = 0.001


def test_sd_inflation_is_the_upper_limit_of_a_normal_sd():
    assert sd_inflation(16) == pytest.approx(math.sqrt(15 / chi2.ppf(0.1, 15)), rel=1e-12)
    assert sd_inflation(3) == pytest.approx(3.08, abs=0.01)  # the three-draw pilots' factor
    assert sd_inflation(100) < sd_inflation(16) < sd_inflation(3)


def test_every_pair_settled_on_the_claimed_side_predicts_holds_for_the_hardest_pair():
    plan = plan_from_pilot([(3.0, 1.0), (1.0, 0.5), (5.0, 1.0)], 16, ALPHA)
    assert plan.predicted is Verdict.HOLDS and plan.pair == 1  # smallest effect per sd
    q = student.ppf(0.9, 15)
    assert plan.effect == pytest.approx(1.0 - q * 0.5 / 4.0)
    assert plan.sd == pytest.approx(0.5 * sd_inflation(16))
    n = plan.draws
    assert t_power(n, plan.effect, plan.sd, ALPHA) >= 0.99 > t_power(n - 1, plan.effect,
                                                                      plan.sd, ALPHA)


def test_one_pair_settled_against_the_claim_predicts_violated_with_the_fewest_draws():
    plan = plan_from_pilot([(2.0, 1.0), (-0.5, 0.4), (-3.0, 1.0)], 16, ALPHA)
    assert plan.predicted is Verdict.VIOLATED and plan.pair == 2  # -3 +- 1 decides soonest
    other = plan_from_pilot([(-0.5, 0.4)], 16, ALPHA)
    assert plan.draws < other.draws


@pytest.mark.parametrize("pairs", [[(0.05, 1.0)], [(2.0, 1.0), (0.1, 1.0)],
                                   [(-0.1, 1.0), (3.0, 1.0)]])
def test_a_pair_the_pilot_does_not_settle_predicts_inconclusive(pairs):
    plan = plan_from_pilot(pairs, 16, ALPHA)
    assert plan.predicted is Verdict.INCONCLUSIVE and plan.draws is None


def test_a_pilot_draw_plan_is_powered_exactly_when_it_runs_the_rules_draws():
    """The declaration built from a pilot's plan reaches power 0.99 at the rule's draws and
    not one draw below; its text names the pilot, its seed and the inflation."""
    alpha = 0.002
    plan = plan_from_pilot([(-0.43, 0.57)], 16, alpha)
    assert plan.predicted is Verdict.VIOLATED and plan.draws is not None
    full = pilot_draw_plan(plan.draws, "B - A", -0.43, plan.effect, plan.sd, n0=16, seed=7,
                           budget_draws=10 * plan.draws, budget_note="b")
    assert full.powered(alpha) and full.target_power == 0.99
    short = pilot_draw_plan(plan.draws - 1, "B - A", -0.43, plan.effect, plan.sd, n0=16,
                            seed=7, budget_draws=10 * plan.draws, budget_note="b")
    assert not short.powered(alpha)
    assert "B - A in a 16-draw pilot at base seed 7" in full.sd_source
    assert f"times {sd_inflation(16):.3g}" in full.sd_source


def test_bad_pilots_are_refused():
    with pytest.raises(ValueError, match="at least 3 draws"):
        plan_from_pilot([(1.0, 1.0)], 2, ALPHA)
    with pytest.raises(ValueError, match="at least one pair"):
        plan_from_pilot([], 16, ALPHA)
    with pytest.raises(ValueError, match="pair 0"):
        plan_from_pilot([(float("nan"), 1.0)], 16, ALPHA)


def test_the_planned_draws_decide_as_predicted_at_the_planned_rate():
    """Normal paired differences with the pilot's mean and sd: t intervals at the planned
    draws give the predicted verdict in at least 99% of 4000 runs (the planned effect is a
    lower limit, so the rate is higher); at a tenth of the draws they often do not."""
    rng = np.random.default_rng(3)
    mean, sd = -0.3, 0.3
    plan = plan_from_pilot([(mean, sd)], 16, ALPHA)
    assert plan.predicted is Verdict.VIOLATED

    def violated_rate(n: int) -> float:
        d = rng.normal(mean, sd, size=(4000, n))
        hi = d.mean(1) + student.ppf(1 - ALPHA, n - 1) * d.std(1, ddof=1) / math.sqrt(n)
        return float(np.mean(hi < 0))

    assert violated_rate(plan.draws) >= 0.99
    assert violated_rate(max(3, plan.draws // 10)) < 0.9


def _toy(params, n, ss):
    """Two methods, B ahead of A by ``params["gap"]`` with unit noise, from the seed."""
    rng = np.random.default_rng(ss)
    a = rng.normal(0.0, 1.0, n)
    return {"draws": np.stack([a, a + params["gap"] + rng.normal(0.0, 1.0, n)], axis=1)}


def _toy_check(**kw):
    from pflbounds.checking import Check, CheckKind
    from pflbounds.checking.draws import DrawPlan

    base = {"id": "unitpilot.c", "title": "A below B", "kind": CheckKind.COMPARISON,
            "expected": Verdict.HOLDS, "simulate": _toy,
            "grid": ({"gap": 2.0}, {"gap": -1.0}), "engine": "mc", "methods": ("A", "B"),
            "plan": DrawPlan(5, 1.0, 1.0, "planted", 5, "test")}
    return Check(**{**base, **kw})


def test_a_pilot_gives_each_points_claimed_difference_and_feeds_the_plan():
    from pflbounds.running.pilot import pilot_of

    pilot = pilot_of(_toy_check(), 400, 7)
    assert pilot["seed"] == 7 and pilot["draws"] == 400 and pilot["seconds_per_draw"] > 0
    (m0, s0), (m1, s1) = pilot["pairs"]
    assert m0 == pytest.approx(2.0, abs=0.2) and m1 == pytest.approx(-1.0, abs=0.2)
    assert s0 == pytest.approx(1.0, abs=0.15) and s1 == pytest.approx(1.0, abs=0.15)
    flipped = pilot_of(_toy_check(order="decreasing"), 400, 7)["pairs"]
    assert flipped[0][0] == pytest.approx(-m0) and flipped[1][1] == pytest.approx(s1)
    assert pilot_of(_toy_check(), 400, 7)["pairs"] == pilot["pairs"]  # same seed, same bits
    assert plan_from_pilot(pilot["pairs"], 400, ALPHA).predicted is Verdict.VIOLATED


def test_a_pilot_refuses_what_it_cannot_plan():
    from pflbounds.checking import CheckKind
    from pflbounds.running.pilot import pilot_of

    with pytest.raises(ValueError, match="at least 3 draws"):
        pilot_of(_toy_check(), 2, 7)
    with pytest.raises(ValueError, match="plans the draws of a comparison"):
        pilot_of(_toy_check(kind=CheckKind.BOUND_HOLDS, methods=(), plan=None), 10, 7)


def test_plans_from_a_pilot_record_are_planned_at_the_level_a_run_applies(extra_paper):
    """plans_from_record plans each recorded check at the level its run applies (the run's
    config records the same alpha), and refuses a record that does not fit the checks."""
    from pflbounds.checking import registry
    from pflbounds.running.executor import run_check
    from pflbounds.running.pilot import pilot_of, plans_from_record

    extra_paper("comparepaper")
    row, better = registry.get("comparepaper.row"), registry.get("comparepaper.better")
    record = {"checks": {c.id: pilot_of(c, 16, 5) for c in (row, better)}}
    plans = plans_from_record(record, "comparepaper")
    for c in (row, better):
        plan, alpha = plans[c.id]
        assert alpha == pytest.approx(run_check(c, progress=False).config["plan"]["alpha"])
        assert plan == plan_from_pilot(record["checks"][c.id]["pairs"], 16, alpha)
    assert len(record["checks"][row.id]["pairs"]) == 4  # two pairs at each of two points
    bad = {"checks": {row.id: {**record["checks"][row.id], "pairs": [[1.0, 0.1]]}}}
    with pytest.raises(ValueError, match="holds 1 pairs, the check makes 4"):
        plans_from_record(bad, "comparepaper")
    with pytest.raises(ValueError, match="is not a comparison check of comparepaper"):
        plans_from_record({"checks": {"comparepaper.bound": {}}}, "comparepaper")
