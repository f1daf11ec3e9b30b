"""philippenko2025 checks: expected verdicts on quick grids, planted wrong bounds are caught,
errata link to registered checks, the exact recursion, and the figures."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from pflbounds.checking import CheckKind, Verdict, registry
from pflbounds.exact.linear_gaussian import afo_expected_excess
from pflbounds.papers.philippenko2025.checks import ALL
from pflbounds.papers.philippenko2025.checks import clusters as clusters_mod
from pflbounds.papers.philippenko2025.checks.common import uniform_weight_excess
from pflbounds.papers.philippenko2025.errata import ERRATA
from pflbounds.problems.quadratic import QuadraticFamily
from pflbounds.running.executor import run_check

BY_ID = {c.id: c for c in ALL}
P = "philippenko2025."
FAST = ["P1", "P2", "P2_S2", "E1", "P5", "P6", "P7", "P7_sets", "E4", "P8", "E12", "P9",
        "P9_asymptote", "P9_horizon", "E7", "E8", "P10", "E10", "E14", "P12", "P13_binary",
        "P13_continuous", "P16", "P17", "P18", "E20", "P20", "E18"]


def test_every_prediction_and_erratum_check_is_encoded():
    for n in range(1, 21):
        assert any(c.startswith(f"{P}P{n}") and (c == f"{P}P{n}" or c[len(P) + len(str(n))
                                                                    + 1] == "_")
                   for c in BY_ID), f"P{n} has no check"
    linked = {e.check_id for e in ERRATA.values() if e.check_id}
    for cid in linked:
        assert registry.get(cid).id == cid
    for c in ALL:
        assert c.expected in (Verdict.HOLDS, Verdict.CONFIRMED)
        assert c.result_id and c.result_id.startswith(P)


@pytest.fixture(scope="module")
def fast_outcomes():
    return {k: run_check(BY_ID[P + k], quick=True, base_seed=0, progress=False) for k in FAST}


@pytest.mark.parametrize("key", FAST)
def test_quick_verdict_is_the_expected_one(fast_outcomes, key):
    o = fast_outcomes[key]
    assert o.error is None, o.error
    assert o.verdict == BY_ID[P + key].expected, o.detail


def _planted(check, scale):
    def simulate(p, R, seed):
        ev = check.simulate(p, R, seed)
        for k in ("bound", "bound_corrected"):
            if k in ev:
                ev[k] = np.asarray(ev[k]) * scale
        return ev

    return dataclasses.replace(check, id=check.id + "_planted", simulate=simulate)


@pytest.mark.parametrize("key, scale, verdict", [
    ("P5", 0.5, Verdict.VIOLATED), ("P9", 0.3, Verdict.VIOLATED),
    # the tight points: P9's eps0 term within 1.08, P10's noise term within 3.0
    ("P9", 0.9, Verdict.VIOLATED), ("P10", 0.3, Verdict.VIOLATED),
    ("P13_binary", 0.4, Verdict.VIOLATED), ("E8", 0.2, Verdict.INCONCLUSIVE),
])
def test_planted_wrong_bounds_are_caught(key, scale, verdict):
    c = _planted(BY_ID[P + key], scale)
    o = run_check(c, quick=True, base_seed=0, progress=False)
    assert o.verdict == verdict, o.detail


def test_the_scalar_recursion_is_the_exact_engine_for_constant_steps():
    n, a, s2, e0, eta = 5, 0.7, 2.0, 3.0, 0.3
    fam = QuadraticFamily(h=np.full(2, a), m=np.zeros((n, 2)), s=np.full(2, s2 / 2))
    x0 = np.array([np.sqrt(2 * e0 / a), 0.0])
    ks = np.arange(0, 40)
    exact = afo_expected_excess(fam, np.full((n, n), 1 / n), eta, x0, ks)[:, 0]
    rec = uniform_weight_excess(a, s2 / n, e0, np.full(39, eta))
    assert np.allclose(rec, exact, rtol=1e-12)


def test_the_scalar_recursion_against_monte_carlo_for_a_decreasing_step():
    from pflbounds.algorithms.adaptive_afo import run_afo_adaptive
    from pflbounds.algorithms.similarity_weights import fixed_rule

    n, a, s2, e0 = 4, 1.0, 1.0, 1.0
    fam = QuadraticFamily(h=np.full(2, a), m=np.zeros((n, 2)), s=np.full(2, s2 / 2))
    steps = 2.0 / (a * (np.arange(1, 31) + 3))
    tr = run_afo_adaptive(fam, fixed_rule(np.full((n, n), 1 / n)), lambda t: 2.0 / (a * (t + 3)),
                          30, np.array([np.sqrt(2 * e0 / a), 0.0]), 20000,
                          np.random.default_rng(0), track_sets=False)
    rec = uniform_weight_excess(a, s2 / n, e0, steps)
    mc = tr.excess[:, :, 0].mean(0)
    sem = tr.excess[:, :, 0].std(0) / np.sqrt(20000)
    assert np.all(np.abs(mc - rec) <= 5 * sem + 1e-12)


def test_collaborator_figure_and_figure1(fast_outcomes):
    figs = clusters_mod.plot_p6(fast_outcomes["P6"])
    assert len(figs) == 2 and figs[0]["series"]
    shares = [s["y"] for s in figs[0]["series"]]
    assert all(0 <= min(y) and max(y) <= 1 for y in shares)
    # the far cluster is dropped: some peer's share falls from 1 to 0
    assert any(y[0] == 1.0 and y[-1] == 0.0 for y in shares)
    f8 = clusters_mod.plot_p8(fast_outcomes["P8"])
    sizes = [s["y"] for s in f8[0]["series"]]
    assert all(np.all(np.diff(y) >= 0) for y in sizes)
    ev = fast_outcomes["P8"].evidence[0]
    # Figure 1's constant (printed Property 1) puts the transition at half the tight one
    for v in (0.001, 0.01, 0.1, 1.0):
        t_pr = float(np.asarray(ev[f"transition_printed_v{v:g}"]))
        t_ti = float(np.asarray(ev[f"transition_tight_v{v:g}"]))
        assert t_pr < t_ti


def test_scaling_and_mc_checks_have_sane_settings():
    for c in ALL:
        if c.kind in (CheckKind.SCALING, CheckKind.RATE):
            assert c.predicted is not None and c.tolerance
        if c.engine == "mc":
            assert c.replicas >= 100
