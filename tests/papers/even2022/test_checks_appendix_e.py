"""Checks of Appendix E, the baselines, Corollary 2's agent count and Figure 1: planted wrong
claims are caught, and the evidence holds the numbers the descriptions state."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from pflbounds.checking import Verdict, registry
from pflbounds.papers.even2022.checks import concentration, speedup
from pflbounds.papers.even2022.experiments import figure1
from pflbounds.reporting.outcome_figures import figures_for
from pflbounds.running.executor import run_check


def quick(check_id, **changes):
    c = registry.get(check_id)
    if changes:
        c = dataclasses.replace(c, **changes)
    return run_check(c, quick=True, base_seed=3, progress=False)


def _planted(check_id, transform):
    c = registry.get(check_id)

    def simulate(params, R, seed):
        return transform(dict(c.simulate(params, R, seed)))

    return run_check(dataclasses.replace(c, simulate=simulate), quick=True, progress=False)


@pytest.mark.parametrize("check_id", ["even2022.P12_hkz", "even2022.P12_norm_tail"])
def test_planted_too_small_delta_is_violated(check_id):
    o = quick(check_id)
    assert o.verdict is Verdict.HOLDS and o.margin > 1
    worst = max(float(p["rate"]) for p in o.evidence)
    assert worst > 0
    planted = quick(check_id, delta=worst / 5)
    assert planted.verdict is Verdict.VIOLATED, planted.detail


def test_hkz_rates_and_the_printed_threshold():
    o = quick("even2022.P12_hkz")
    rates = [float(p["rate"]) for p in o.evidence]
    assert all(r <= 0.1 for r in rates)
    e20 = quick("even2022.E20")
    assert e20.verdict is Verdict.VIOLATED
    assert 0.3 < float(e20.evidence[0]["rate"]) < 0.36  # Sigma = 100 I_100, t = ln 10


def test_recovery_with_a_planted_small_threshold_is_violated():
    assert quick("even2022.P12_recovery").verdict is Verdict.HOLDS
    c = registry.get("even2022.P12_recovery")
    grid = tuple(dict(p, u_scale=1 / 16) for p in c.grid)
    o = run_check(dataclasses.replace(c, grid=grid, quick_grid=None), progress=False)
    assert o.verdict is Verdict.VIOLATED, o.detail


def test_recovery_and_tail_points_have_the_checks_delta():
    p = dict(concentration._RECOVERY[0])
    p["C"] = 3  # the bound still equals delta: u is solved from it
    ev = concentration.simulate_recovery(p, 10, np.random.SeedSequence(0))
    assert ev["violations"].shape == (10,)
    with pytest.raises(Exception, match="u >= d_eff\\*nu2"):
        concentration.simulate_norm_tail({"dim": 10, "scale": 1.0}, 10,
                                         np.random.SeedSequence(0))


def test_bias_erratum_numbers_and_planted_correction():
    o = quick("even2022.E18")
    assert o.verdict is Verdict.CONFIRMED
    ev = o.evidence[0]
    measured = float(np.ravel(ev["mean"])[0])
    assert measured > 3 * float(np.ravel(ev["bound_printed"])[0])
    assert measured < float(np.ravel(ev["bound_corrected"])[0])

    def shrink(block):
        block["bound_corrected"] = np.asarray(block["bound_corrected"]) / 1e5
        return block

    assert _planted("even2022.E18", shrink).verdict is not Verdict.CONFIRMED
    assert _planted("even2022.E24", shrink).verdict is not Verdict.CONFIRMED


def test_e24_floor_of_the_single_model_on_a_simplex():
    """Three groups of three with centres 6 apart (h = 1): the floor is 1/2 * 36/3 = 6, the
    printed term (2/3) 6 = 4 and the corrected one (2/3) 36/2 = 12."""
    o = quick("even2022.E24")
    assert o.verdict is Verdict.CONFIRMED
    ev = o.evidence[0]
    assert float(np.ravel(ev["mean"])[0]) == pytest.approx(6.0, rel=1e-12)
    assert float(np.ravel(ev["bound_printed"])[0]) == pytest.approx(4.0, rel=1e-12)
    assert float(np.ravel(ev["bound_corrected"])[0]) == pytest.approx(12.0, rel=1e-12)


def test_c2_agents_grow_like_m_over_eps_and_the_clusters_are_recovered():
    base = dict(speedup._C2, eps=0.01)
    outs = {m: speedup.simulate_c2(dict(base, M=m, instance=640 + m), 1,
                                   np.random.SeedSequence(1)) for m in (2, 5)}
    assert float(outs[2]["C_eps"]) == float(outs[5]["C_eps"])
    assert float(outs[5]["cost"]) == pytest.approx(2.5 * float(outs[2]["cost"]))
    assert all(float(o["recovered"]) == 1.0 for o in outs.values())
    # mini-batch SGD per cluster at eta = 1/2: E[F^K] ~ Tr(Sigma)/(6 C) = 1/(3 C)
    assert float(outs[2]["C_eps"]) == pytest.approx(1 / (3 * 0.01), rel=0.05)
    with pytest.raises(ValueError, match="u >= 4 nu\\^2 d_eff/S"):
        speedup.simulate_c2(dict(base, M=2, S=4), 1, np.random.SeedSequence(1))


@pytest.fixture(scope="module")
def figure1_outcome():
    return quick("even2022.A1")


def test_figure1_claims_and_evidence(figure1_outcome):
    o = figure1_outcome
    assert o.verdict is Verdict.HOLDS, o.detail
    for ev in o.evidence:
        assert np.all(np.asarray(ev["mean"]) < 1)
        x = np.asarray(ev["samples_axis"])
        assert x[0] == 0 and x[-1] == ev["params"]["N"] * ev["params"]["K"]
        for m in figure1.METHODS:
            F = np.asarray(ev[f"sum_F_{m}"]) / float(ev["count"])
            assert F[0] == pytest.approx(1.0)  # F^0/F^0
    cluster = o.evidence[0]
    assert float(cluster["same_cluster_oracle"]) == 1.0  # the quantile threshold finds them


def test_figure1_figure_has_the_six_curves_and_a_caption(figure1_outcome):
    figs = figures_for(figure1_outcome, registry.get("even2022.A1"))
    assert len(figs) == 2
    for fig in figs:
        assert fig["kind"] == "curves" and "Figure 1" in fig["title"]
        labels = [s["label"] for s in fig["series"]]
        assert len(labels) == 6 and any("S = 5" in lab for lab in labels)
        assert "Regenerates Figure 1" in fig["caption"]
        assert len(fig["series"][0]["x"]) == 11


def test_figure1_personalisation_claim_fails():
    o = quick("even2022.A1_personalisation")
    assert o.verdict is Verdict.VIOLATED
    assert all(float(np.ravel(p["mean"])[0]) > 1.2 for p in o.evidence)


def test_nearest_pairs_weights_give_the_mean_neighbour_count():
    rng = np.random.default_rng(0)
    x = rng.standard_normal((30, 2))
    c = ((x[:, None] - x[None]) ** 2).sum(-1)
    lam = figure1.nearest_pairs_weights(c, 4)
    assert np.allclose(lam.sum(axis=1), 1.0)
    assert (lam > 0).sum() == 30 * 4
    stack = figure1.nearest_pairs_weights(np.stack([c, 2 * c]), 4)
    assert np.array_equal(stack[0], stack[1])
    with pytest.raises(ValueError, match="mean neighbour count"):
        figure1.nearest_pairs_weights(c, 0)
