"""Comparison claims: the power of a draw plan against a simulation of the decision rule, the t
interval on planted paired differences, the verdicts of the comparison test paper, and the
draw count fixed by the declaration."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy.special import ndtr, ndtri, stdtrit

from pflbounds.checking import Check, CheckKind, Verdict
from pflbounds.checking.comparison import comparison_points, pair_names
from pflbounds.checking.draws import DrawPlan, t_power
from pflbounds.running.executor import run_check, run_checks


def _decisions(n: int, effect: float, sd: float, alpha: float, runs: int, seed: int) -> float:
    """The share of simulated runs whose lower t limit lies above 0 (the HOLDS decision)."""
    d = effect + sd * np.random.default_rng(seed).standard_normal((runs, n))
    lo = d.mean(1) - stdtrit(n - 1.0, 1.0 - alpha) * d.std(1, ddof=1) / math.sqrt(n)
    return float(np.mean(lo > 0))


@pytest.mark.parametrize(("n", "effect", "sd", "alpha"), [
    (8, 0.3, 0.5, 0.01), (4, 1.0, 0.6, 0.005), (20, 0.1, 0.4, 0.05), (3, 2.0, 1.0, 0.001)])
def test_t_power_is_the_rate_of_the_decision_on_normal_differences(n, effect, sd, alpha):
    runs = 40_000
    power = t_power(n, effect, sd, alpha)
    rate = _decisions(n, effect, sd, alpha, runs, seed=n)
    assert 0.0 < power < 1.0
    assert abs(rate - power) <= 5 * math.sqrt(power * (1 - power) / runs) + 1e-3


def test_t_power_approaches_the_normal_formula_for_many_draws():
    # n = ((z_{1-alpha} + z_{1-beta}) sd/effect)^2 for large n: power = Phi(delta sqrt n - z)
    n, effect, sd, alpha = 4000, 0.05, 1.0, 0.01
    normal = float(ndtr(effect / sd * math.sqrt(n) + ndtri(alpha)))
    assert t_power(n, effect, sd, alpha) == pytest.approx(normal, abs=2e-3)
    assert t_power(1, effect, sd, alpha) == 0.0


def test_draws_for_is_the_fewest_draws_that_reach_the_power():
    plan = DrawPlan(5, 0.3, 0.5, "pilot", 100, "budget")
    for alpha, want in ((0.01, 0.8), (0.001, 0.9), (0.05, 0.5)):
        n = plan.draws_for(alpha, want)
        assert plan.power(alpha, n) >= want > plan.power(alpha, n - 1)
    tiny = DrawPlan(5, 1e-4, 10.0, "pilot", 100, "budget")
    assert tiny.draws_for(0.01) is None
    rec = plan.record(0.01)
    assert rec["draws_for_target"] == plan.draws_for(0.01)
    assert rec["budget_reaches_target"] is (rec["draws_for_target"] <= 100)
    assert rec["power"] == pytest.approx(t_power(5, 0.3, 0.5, 0.01))


def test_a_plan_that_the_budget_cannot_power_says_so():
    plan = DrawPlan(6, 0.1, 0.5, "a pilot of 6 draws", 6, "6 draws of 10 minutes")
    text = plan.text(0.01)
    assert "the budget (6 draws of 10 minutes) allows 6: not powered, so INCONCLUSIVE" in text
    assert "power 0.8 would need" in text
    assert not plan.powered(0.01) and plan.record(0.01)["powered"] is False


def test_a_plans_sentence_is_the_same_from_the_plan_and_from_a_saved_record():
    """The verdict's detail and the report's caption say the same; a record saved before
    ``powered`` was recorded is read by whether the budget reaches the target."""
    from pflbounds.checking.draws import plan_sentence

    plan = DrawPlan(6, 0.1, 0.5, "a pilot of 6 draws", 6, "6 draws of 10 minutes")
    rec = plan.record(0.01)
    assert plan.text(0.01) == plan_sentence(rec)
    old = {k: v for k, v in rec.items() if k != "powered"}
    assert plan_sentence(old) == plan_sentence(rec)  # the budget cannot reach the target
    strong = DrawPlan(9, 1.0, 0.8, "planted", 9, "test").record(0.025)
    assert "not powered" not in plan_sentence({k: v for k, v in strong.items()
                                               if k != "powered"})


def test_powered_is_the_power_of_the_draws_against_the_target():
    plan = DrawPlan(12, 0.5, 1.0, "pilot", 100, "100 draws", target_power=0.9)
    need = plan.draws_for(0.01)
    assert need is not None and need > 12  # the budget reaches the target, the plan does not
    assert not plan.powered(0.01) and plan.powered(0.01, need)
    assert not plan.powered(0.01, need - 1)
    assert plan.record(0.01)["budget_reaches_target"] and not plan.record(0.01)["powered"]
    assert "the plan runs 12: not powered" in plan.text(0.01)


@pytest.mark.parametrize(("kw", "message"), [
    ({"draws": 1}, "draws must be >= 2"), ({"effect": 0.0}, "effect must be > 0"),
    ({"sd": -1.0}, "sd must be > 0"), ({"budget_draws": 3}, "exceed what the budget allows"),
    ({"sd_source": " "}, "must say where the sd comes from")])
def test_plan_refuses_bad_declarations(kw, message):
    base = {"draws": 5, "effect": 0.2, "sd": 0.3, "sd_source": "pilot", "budget_draws": 10,
            "budget_note": "b"}
    with pytest.raises(ValueError, match=message):
        DrawPlan(**{**base, **kw})


def _planted(params, n, ss):
    """Differences B - A fixed to mean 1 and sd 1 exactly, whatever the seed."""
    z = np.linspace(-1.0, 1.0, n)
    z = (z - z.mean()) / z.std(ddof=1)
    a = np.full(n, 5.0)
    return {"draws": np.stack([a, a + params["mean"] + z], axis=1)}


def _check(**kw) -> Check:
    base = {"id": "unitcmp.c", "title": "A below B", "kind": CheckKind.COMPARISON,
            "expected": Verdict.HOLDS, "simulate": _planted, "grid": ({"mean": 1.0},),
            "engine": "mc", "methods": ("A", "B"),
            "plan": DrawPlan(9, 1.0, 0.8, "planted", 9, "test")}
    return Check(**{**base, **kw})


def test_interval_is_the_t_interval_of_the_paired_differences():
    c = _check(confidence=0.975)  # one comparison: each limit one-sided at 97.5%
    assert c.replicas == 9
    ev = [_planted({"mean": 1.0}, 9, None)]
    verdict, margin, detail, pts = comparison_points(c, ev, c.grid)
    half = stdtrit(8.0, 0.975) / 3.0
    assert pts[0]["lo"][0] == pytest.approx(1.0 - half, rel=1e-12)
    assert pts[0]["hi"][0] == pytest.approx(1.0 + half, rel=1e-12)
    assert verdict is Verdict.HOLDS and margin == pytest.approx(1.0 - half)
    assert pts[0]["draws"].shape == (9, 2) and pts[0]["differences"].shape == (9, 1)
    assert "B - A at point 0" in detail and "9 draws fixed before the run" in detail
    # the same draws, claimed the other way, and straddling 0
    v2, *_ = comparison_points(_check(order="decreasing", confidence=0.975), ev, c.grid)
    assert v2 is Verdict.VIOLATED
    ev0 = [_planted({"mean": 0.1}, 9, None)]
    v3, *_ = comparison_points(c, ev0, c.grid)
    assert v3 is Verdict.INCONCLUSIVE


def test_an_unpowered_plan_makes_a_decided_interval_inconclusive():
    """The same draws: HOLDS under a plan powered for them, INCONCLUSIVE under one that is
    not (its detail keeps what the intervals alone say), and VIOLATED turns INCONCLUSIVE
    too; fewer draws than declared are judged at the power of the draws run."""
    ev = [_planted({"mean": 1.0}, 9, None)]
    powered = _check(confidence=0.975)
    assert powered.plan.powered(0.025)
    v, *_ = comparison_points(powered, ev, powered.grid)
    assert v is Verdict.HOLDS
    weak = _check(confidence=0.975, plan=DrawPlan(9, 0.2, 1.0, "planted", 9, "test"))
    assert not weak.plan.powered(0.025)
    v, margin, detail, pts = comparison_points(weak, ev, weak.grid)
    assert v is Verdict.INCONCLUSIVE and margin > 0  # the interval is on the claimed side
    assert detail.startswith("the intervals alone say HOLDS;")
    assert "not powered, so INCONCLUSIVE" in detail
    v, _, detail, _ = comparison_points(_check(confidence=0.975, order="decreasing",
                                               plan=weak.plan), ev, weak.grid)
    assert v is Verdict.INCONCLUSIVE and detail.startswith("the intervals alone say VIOLATED")
    # a plan powered at its 9 declared draws, but the point ran 4: judged at 4
    four = [_planted({"mean": 1.0}, 4, None)]
    strong = DrawPlan(9, 1.0, 0.8, "planted", 9, "test", target_power=0.8)
    assert strong.powered(0.025) and not strong.powered(0.025, 4)
    v, *_ = comparison_points(_check(confidence=0.975, plan=strong), four, weak.grid)
    assert v is Verdict.INCONCLUSIVE


def test_a_points_other_evidence_is_kept_beside_the_interval():
    """Curves or constants a simulation returns with its draws reach the outcome (a figure
    reads them); the interval's own keys are the comparison's, not the simulation's."""
    c = _check()
    ev = [{**_planted({"mean": 1.0}, 9, None), "curve": np.arange(3.0), "mean": np.zeros(1)}]
    *_, pts = comparison_points(c, ev, c.grid)
    assert np.array_equal(pts[0]["curve"], np.arange(3.0))
    assert pts[0]["mean"][0] == pytest.approx(pts[0]["differences"].mean())


def test_pair_names_put_the_claimed_larger_side_first():
    assert pair_names(["A", "B", "C"], "increasing") == ["B - A", "C - B"]
    assert pair_names(["C", "B"], "decreasing") == ["C - B"]


@pytest.mark.parametrize(("kw", "message"), [
    ({"plan": None}, "declares its draws before the run"),
    ({"engine": "exact"}, "engine 'mc'"),
    ({"methods": ("A",)}, "two or more distinct methods"),
    ({"order": "up"}, "order must be one of"),
    ({"replicas": 12}, "must equal the plan's draws"),
])
def test_comparison_checks_refuse_an_incomplete_declaration(kw, message):
    with pytest.raises(ValueError, match=message):
        _check(**kw)
    with pytest.raises(ValueError, match="belong to comparison checks"):
        Check("unitcmp.b", "b", CheckKind.BOUND_HOLDS, Verdict.HOLDS, _planted, grid=({},),
              methods=("A", "B"))


@pytest.fixture
def comparepaper(extra_paper):
    from pflbounds.checking import registry

    extra_paper("comparepaper")
    return {c.id.split(".")[1]: c for c in registry.all_checks("comparepaper")}


def test_comparison_paper_verdicts_follow_from_the_declarations(comparepaper):
    outs = {o.check_id.split(".")[1]: o for o in run_checks(
        [comparepaper[k] for k in ("better", "close", "reversed", "row")], progress=False)}
    for o in outs.values():
        assert o.as_expected, (o.check_id, o.verdict, o.detail)
    plans = {k: o.config["plan"] for k, o in outs.items()}
    assert plans["better"]["budget_reaches_target"] and plans["row"]["budget_reaches_target"]
    assert not plans["close"]["budget_reaches_target"]  # and the verdict is INCONCLUSIVE
    assert "not powered, so INCONCLUSIVE" in outs["close"].detail
    row = outs["row"]
    assert [p["draws"].shape for p in row.evidence] == [(32, 3), (32, 3)]  # 4 blocks each
    assert row.config["methods"] == ["C", "B", "A"] and row.config["order"] == "decreasing"
    assert row.replicas == 32
    # every draw is kept: the saved outcome gives them back
    from pflbounds.checking import Outcome

    back = Outcome.from_dict(row.to_dict())
    assert np.array_equal(back.evidence[1]["draws"], row.evidence[1]["draws"])


def test_a_comparison_runs_its_declared_draws_only(comparepaper, capsys):
    from pflbounds.cli import main

    with pytest.raises(ValueError, match="runs the 8 draws its declaration fixes"):
        run_check(comparepaper["better"], replicas=20, progress=False)
    assert main(["check", "comparepaper.better", "--replicas", "20"]) == 2
    err = capsys.readouterr().err
    assert "8 draws its declaration fixes before the run, not 20" in err
    assert err.count("\n") == 1


def test_a_suite_cannot_change_a_comparisons_draws(comparepaper, tmp_path):
    from pflbounds.running.suite import SuiteError, load_suite

    f = tmp_path / "s.toml"
    f.write_text('name = "s"\n[[checks]]\nid = "comparepaper.better"\nreplicas = 9\n')
    with pytest.raises(SuiteError, match="8 draws its declaration fixes"):
        load_suite(f)
    f.write_text('name = "s"\n[[checks]]\nid = "comparepaper.better"\nreplicas = 8\n')
    assert load_suite(f).entries[0].replicas == 8


def test_comparison_figure_shows_the_draws_and_the_interval(comparepaper, tmp_path):
    from pflbounds.reporting.outcome_figures import figures_for

    o = run_check(comparepaper["better"], progress=False)
    (fig,) = figures_for(o, comparepaper["better"])
    assert fig["kind"] == "dots"  # a strip of 8 draws: a figure, not a table
    draws, mean = fig["series"]
    assert draws["x"] == ["B - A"] * 8 and len(draws["y"]) == 8
    assert mean["lo"] == pytest.approx(list(o.evidence[0]["lo"]))
    assert fig["hlines"] == [(0.0, "no difference")]
    from pflbounds.reporting.figure_model import PlotSpec
    from pflbounds.reporting.figures import render_plot

    svg = render_plot(PlotSpec.from_dict(fig), tmp_path / "better.svg")
    assert svg.stat().st_size > 1000 and "B - A" in (tmp_path / "better.csv").read_text()
    assert "8 draws fixed before the run, for a difference of 0.5" in fig["caption"]
    assert "whole interval lies above the line at 0" in fig["caption"]
    from pflbounds.checking.ratio import kind_statistic

    assert kind_statistic(o).startswith("B - A ") and "over 8 draws vs 0" in kind_statistic(o)
    assert "not powered" not in kind_statistic(o)
    close = run_check(comparepaper["close"], progress=False)  # its plan is not powered
    assert close.verdict is Verdict.INCONCLUSIVE
    assert "; not powered (power " in kind_statistic(close)
    assert "not powered, so INCONCLUSIVE" in figures_for(close, comparepaper["close"])[0][
        "caption"]


def test_comparison_rows_in_the_results_table(comparepaper):
    from pflbounds.running.results import results_rows

    o = run_check(comparepaper["row"], quick=True, progress=False)
    rows = results_rows([o])
    assert [r["entry"] for r in rows] == ["[0]", "[1]"] * 2
    assert rows[0]["measured"] == pytest.approx(float(o.evidence[0]["mean"][0]))
