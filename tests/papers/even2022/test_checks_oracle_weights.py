"""even2022 Corollary 1 checks (P14, P15_beats, P15_global, E16; P15 checks Lemma 5, P14_theory
the remark after Corollary 1): expected verdicts on the quick grids, planted wrong bounds are
caught, and the building blocks behave as documented."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from pflbounds.checking import Verdict, evaluate, registry
from pflbounds.papers.even2022.checks import afa, common, oracle_weights, speedup
from pflbounds.running.executor import run_check

CHECKS = [*oracle_weights.CHECKS, *(c for c in [*afa.CHECKS, *speedup.CHECKS]
                                if c.id in ("even2022.P15", "even2022.P14_theory"))]
BY_ID = {c.id: c for c in CHECKS}


@pytest.mark.parametrize("check_id", sorted(BY_ID))
def test_quick_verdict_is_the_expected_one(check_id):
    check = BY_ID[check_id]
    o = run_check(check, quick=True, progress=False)
    assert o.error is None, o.error
    assert o.verdict == check.expected, o.detail


def test_checks_are_registered_with_their_results():
    ids = {c.id for c in registry.all_checks("even2022")}
    for check in CHECKS:
        assert check.id in ids
        assert check.result_id and check.form and check.description
        assert check.quick_grid is not None and len(check.quick_grid) < len(check.grid)


def test_planted_bound_divided_by_ten_is_violated():
    check = BY_ID["even2022.P14_cor1"]
    params = check.quick_grid
    evidence = [dict(check.simulate(p, 1, np.random.SeedSequence(0))) for p in params]
    assert evaluate(check, evidence, params).verdict is Verdict.HOLDS
    for ev in evidence:
        ev["bound"] = np.asarray(ev["bound"]) / 10
    assert evaluate(check, evidence, params).verdict is Verdict.VIOLATED


def test_planted_beats_bound_is_violated():
    check = BY_ID["even2022.P15_beats"]

    def simulate(params, R, seed):
        block = dict(check.simulate(params, R, seed))
        block["bound"] = np.asarray(block["mean"]) / 2
        return block

    o = run_check(dataclasses.replace(check, simulate=simulate), quick=True, progress=False)
    assert o.verdict is Verdict.VIOLATED, o.detail


def test_e16_not_confirmed_when_the_correction_is_planted_wrong():
    check = BY_ID["even2022.E16"]

    def simulate(params, R, seed):
        block = dict(check.simulate(params, R, seed))
        block["bound_corrected"] = np.asarray(block["bound_corrected"]) / 1e3
        return block

    o = run_check(dataclasses.replace(check, simulate=simulate), quick=True, progress=False)
    assert o.verdict is not Verdict.CONFIRMED


def test_p14_ratio_equal_budgets_near_one():
    """With the same variance budget (eps/2) in both step rules, on H = I the measured
    K_AFA / mean_i K_AFO(i) is close to 1 (clusters: AFA averages exactly like AFO)."""
    p = oracle_weights.P14_QUICK[0]
    ev = oracle_weights.simulate_p14(p, 1, np.random.SeedSequence(0))
    assert 0.8 < float(ev["ratio"]) < 1.25
    assert float(ev["bound"][0]) == pytest.approx(2 * float(ev["afo_mean"]))


def test_p15_global_floor_matches_the_mean_of_the_optima():
    ev = afa.simulate_p15(afa.P15_GRID[0], 1, np.random.SeedSequence(0))
    assert float(ev["residual"]) < 1e-12
    assert float(ev["target"]) > 0


def test_e16_printed_fails_only_at_the_integer_edge():
    """At K_printed = 1.999 one step is allowed and leaves more than eps; K_printed = 40 holds."""
    edge = oracle_weights.simulate_e16(oracle_weights.E16_GRID[0], 1, np.random.SeedSequence(0))
    far = oracle_weights.simulate_e16(oracle_weights.E16_GRID[-1], 1, np.random.SeedSequence(0))
    eps_edge, eps_far = oracle_weights.E16_GRID[0]["eps"], oracle_weights.E16_GRID[-1]["eps"]
    assert edge["ks"][0] == 1.0 and edge["mean"][0] > eps_edge
    assert far["mean"][0] < eps_far
    assert edge["mean"][1] <= eps_edge and far["mean"][1] <= eps_far
    assert float(edge["rho_W"]) == pytest.approx(1.0)


def test_first_hits_scans_past_the_first_chunk():
    def curve(ks):
        return np.stack([1.0 / (1.0 + ks), 1.0 / (1.0 + ks / 10)], axis=1)

    hits = common.first_hits(curve, 1e-3, K_max=100_000, chunk=16)
    assert hits.tolist() == [999.0, 9990.0]
    assert np.isinf(common.first_hits(curve, 1e-3, K_max=500, chunk=16)).all()


def test_cor1_weights_refuse_ties_on_the_threshold():
    b2 = np.array([[0.0, 1.0], [1.0, 0.0]])
    with pytest.raises(ValueError):
        common.cor1_weights(b2, 1.0)
    assert np.allclose(common.cor1_weights(b2, 1.5), 0.5)
    assert np.allclose(common.cor1_weights(b2, 0.5), np.eye(2))
