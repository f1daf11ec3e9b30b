"""erickson2025 Theorem 4.3 at eta = 3/(8L) (theory/convergence.py) and its checks: the
catalog's values against the paper's formulas, the errata, the K = 1 counterexample (P2), the
figures drawn from the checks' evidence, Karula's runs, and Readings A and B of the gradient
table with their shared limit and their speed to ||G_eta||^2 <= 1e-8 (P13)."""

from __future__ import annotations

import numpy as np
import pytest

from pflbounds.checking import CheckKind, Verdict
from pflbounds.checking.outcome import Outcome
from pflbounds.checking.registry import get as get_check
from pflbounds.checking.registry import load_papers
from pflbounds.papers.erickson2025.checks import convergence
from pflbounds.papers.erickson2025.checks.common import run, timed_karula
from pflbounds.papers.erickson2025.checks.convergence import (
    P13,
    plot_p13,
    simulate_p2,
    simulate_p13,
)
from pflbounds.reporting.outcome_figures import figures_for, informative
from pflbounds.running import run_check
from pflbounds.symbolic.catalog import get
from pflbounds.symbolic.evaluate import evaluate


def _val(rid: str, form: str, **kw: float) -> float:
    return float(evaluate(get(rid), form, **kw).value)


BASE = dict(L=2.0, n=30, s=10, K=50, Delta0=3.0, sigma2=0.4, delta=0.01)


def test_theorem4_3_forms_match_the_paper_formulas():
    L, n, s, K, D0, sig, dl = (BASE[k] for k in ("L", "n", "s", "K", "Delta0", "sigma2",
                                                  "delta"))
    eps = 4 * sig * (s + 1) / s + 2 * dl
    assert _val("erickson2025.theorem4_3_eta38", "printed", **BASE) == pytest.approx(
        8 * L / 3 * (D0 / K + eps), rel=1e-13)
    assert _val("erickson2025.theorem4_3_eta38", "explicit", **BASE) == pytest.approx(
        64 * L / 3 * (D0 / K + eps), rel=1e-13)
    eta = 3 / (8 * L)
    eps_c = 4 * eta * sig * (s + 1) / s + 2 * dl
    corr = _val("erickson2025.theorem4_3_eta38", "corrected", **BASE)
    assert corr == pytest.approx(64 * L / 3 * (D0 / K + eps_c), rel=1e-13)
    # the general-eta forms reduce to the eta = 3/(8L) ones
    gen = {**BASE, "eta": eta}
    assert _val("erickson2025.theorem4_3", "explicit", **gen) == pytest.approx(
        64 * L / 3 * (D0 / K + eps), rel=1e-13)
    assert _val("erickson2025.theorem4_3", "corrected", **gen) == pytest.approx(corr, rel=1e-13)
    # 2/(eta (1 - 2 eta L)) is 16L at eta = 1/(4L)
    e4 = 1 / (4 * L)
    assert _val("erickson2025.theorem4_3", "corrected", **{**BASE, "eta": e4, "sigma2": 0.0,
                                                           "delta": 0.0}) == pytest.approx(
        16 * L * D0 / K, rel=1e-13)


def test_corrected_theorem_refuses_s_below_the_admissible_range():
    from pflbounds.symbolic.evaluate import HypothesisError

    with pytest.raises(HypothesisError, match="10 s\\^4 >= 9 n\\^2"):
        evaluate(get("erickson2025.theorem4_3_eta38"), "corrected", **{**BASE, "s": 5})


def test_every_erratum_with_a_check_names_an_erickson_check_id():
    from pflbounds.papers.erickson2025.errata import ERRATA

    assert len(ERRATA) == 11
    for e in ERRATA.values():
        assert e.check_id is None or e.check_id.startswith("erickson2025.")


def test_p2_ratios_are_those_of_digest_5_4():
    ev = simulate_p2({"r12": 1.0}, 1, np.random.SeedSequence(0))
    assert float(ev["ratio_printed"]) == pytest.approx(16 / 15, rel=1e-9)
    assert float(ev["ratio_explicit"]) == pytest.approx(2 / 15, rel=1e-9)


def test_counterexample_family_violates_the_printed_envelope_only_near_one_seventh():
    ev = simulate_p2({"r12": 1.0}, 1, np.random.SeedSequence(0))
    t, rp = ev["sweep_t"], ev["sweep_ratio_printed"]
    assert rp[np.argmin(np.abs(t - 1 / 7))] == pytest.approx(16 / 15, rel=1e-6)
    bad = t[rp > 1]
    assert 0.13 < bad.min() and bad.max() < 0.16
    assert np.all(ev["sweep_ratio_explicit"] <= 2 / 15 + 1e-9)


def _series(fig: dict, start: str) -> dict:
    return next(s for s in fig["series"] if s["label"].startswith(start))


@pytest.mark.parametrize("cid", ["P1", "P2"])
def test_custom_figures_are_drawn(cid):
    load_papers()
    chk = get_check(f"erickson2025.{cid}")
    out = run_check(chk, quick=True, base_seed=0, progress=False)
    figs = chk.plot(out)
    assert figs and all(informative(f) for f in figs)
    assert figures_for(out, chk)[0]["kind"] == "curves"
    if cid == "P1":
        fig = figs[0]
        avg = np.asarray(_series(fig, "average")["y"])
        corr = np.asarray(_series(fig, "explicit = corrected")["y"])
        printed = np.asarray(_series(fig, "printed")["y"])
        np.testing.assert_allclose(corr, 8 * printed, rtol=1e-12)
        assert np.all(avg < corr)


@pytest.mark.parametrize("cid", ["P2", "E_dimension", "P1", "P1_printed"])
def test_checks_end_with_their_expected_verdicts(cid):
    load_papers()
    chk = get_check(f"erickson2025.{cid}")
    out = run_check(chk, quick=True, base_seed=0, progress=False)
    assert out.verdict == chk.expected, out.detail


_RUN = {"n": 5, "d": 2, "s": 3, "cond": 5.0, "rho": 0.5, "inst": 7}


@pytest.mark.slow
def test_runs_reach_stationarity_and_the_noise_floor_scales_with_sigma2():
    ss = np.random.SeedSequence(3)
    r = run(_RUN, 4, ss, K=250, record=[0, 250])
    assert float(r["G2hi"][:, -1].max()) < 1e-10 < float(r["G2lo"][:, 0].min())
    a = run(_RUN, 8, ss, K=60, sigma2=1e-4, start="optimum")
    b = run(_RUN, 8, ss, K=60, sigma2=1e-2, start="optimum")
    ratio = b["G2hi"][:, 30:].mean() / a["G2hi"][:, 30:].mean()
    assert 50 < ratio < 200  # linear in sigma^2 (100)
    again = run(_RUN, 8, ss, K=60, sigma2=1e-2, start="optimum")
    np.testing.assert_array_equal(again["G2hi"], b["G2hi"])  # same seed, same bits


@pytest.mark.slow
@pytest.mark.parametrize("cid", ["P3", "P3_plain", "P4_rescaled", "P13"])
def test_monte_carlo_checks_end_with_their_expected_verdicts(cid):
    load_papers()
    chk = get_check(f"erickson2025.{cid}")
    out = run_check(chk, quick=True, base_seed=0, progress=False)
    assert out.verdict == chk.expected, out.detail


_SMALL = {"n": 4, "d": 2, "s": 2, "cond": 2.0, "rho": 0.5, "inst": 1}


def test_the_timed_run_is_the_run_whose_rounds_are_counted():
    """Same seed, same iterates: the timing measures the very trajectory the rounds come
    from, without the certification."""
    ss = np.random.SeedSequence(5)
    for reading in ("A", "B"):
        secs, theta = timed_karula(_SMALL, 3, ss, K=30, reading=reading)
        np.testing.assert_array_equal(theta, run(_SMALL, 3, ss, K=30, reading=reading)["theta"])
        assert 0 < secs < 60


def test_full_participation_reading_b_needs_more_rounds_and_both_share_the_limit():
    """s = n, sigma = 0: the replicas coincide (every client every round); Reading B (step
    eta/n per client) needs more rounds than Reading A; both end at theta*."""
    ev = simulate_p13(dict(_SMALL, s=4, K=200), 2, np.random.SeedSequence(0))
    assert float(ev["residual"]) < 1e-6
    a, b = ev["rounds_A_replicas"], ev["rounds_B_replicas"]
    assert a.shape == b.shape == (2,) and a[0] == a[1] and b[0] == b[1]
    assert np.all(np.isfinite(a)) and b[0] > 3 * a[0]
    for r, rounds in (("A", a), ("B", b)):
        assert float(ev[f"batch_rounds_{r}"]) == rounds.max()
        assert float(ev[f"rounds_{r}"]) == rounds.mean()
        secs, per_round = float(ev[f"seconds_{r}"]), float(ev[f"seconds_per_round_{r}"])
        assert 0 < per_round < secs
        np.testing.assert_allclose(per_round * rounds.max(), secs)


def test_p13_grids_and_registration():
    """The quick grid is the one point it was; the full grid adds n in {6, 12, 30} with s =
    n/3 and s = n. P13 is registered once, after the floors."""
    assert [dict(p) for p in P13.quick_grid] == [dict(_SMALL, K=250)]
    pts = {(p["n"], p["s"]) for p in P13.grid}
    assert pts == {(4, 2), (6, 2), (6, 6), (12, 4), (12, 12), (30, 10), (30, 30)}
    assert all(p["K"] >= 100 * p["n"] / 4 for p in P13.grid if p["s"] == p["n"])
    ids = [c.id for c in convergence.CHECKS]
    assert ids.count("erickson2025.P13") == 1
    assert ids.index("erickson2025.P13") > ids.index("erickson2025.P5_linear")


def _evidence(n: int, s: int, a: list[float], b: list[float], point: int) -> dict:
    return {"point": point, "params": dict(_SMALL, n=n, s=s, K=100), "residual": 1e-7,
            "rounds_A_replicas": a, "rounds_B_replicas": b,
            "seconds_A": 0.01 * max(a), "seconds_B": 0.01 * max(b),
            "seconds_per_round_A": 0.01, "seconds_per_round_B": 0.01}


def _outcome(evidence: list[dict]) -> Outcome:
    return Outcome("erickson2025.P13", CheckKind.IDENTITY, Verdict.HOLDS, Verdict.HOLDS,
                   config={"tolerance": 1e-6}, evidence=evidence, title=P13.title)


def test_p13_figures_rounds_ratio_and_table():
    evidence = [_evidence(4, 2, [20, 30], [80, 90], 0),
                _evidence(6, 2, [40, 50, 44], [80, 100, 90], 1),
                _evidence(6, 6, [9, 9, 9], [68, 68, 68], 2),
                _evidence(12, 4, [30, 34, 38], [150, 170, 160], 3),
                _evidence(12, 12, [8, 8, 8], [120, 120, 120], 4)]
    outcome = _outcome(evidence)
    figs = plot_p13(outcome)
    assert [f["kind"] for f in figs] == ["table", "curves", "curves", "table"]
    residuals, rounds, ratio, table = figs
    assert len(residuals["rows"]) == 5
    by_label = {s["label"]: s for s in rounds["series"]}
    a3 = by_label["Reading A, s = n/3"]
    assert a3["x"] == [6.0, 12.0] and a3["y"] == [44.0, 34.0]
    assert a3["lo"] == [40.0, 30.0] and a3["hi"] == [50.0, 38.0]
    assert by_label["Reading B, s = n"]["y"] == [68.0, 120.0]
    ratios = {s["label"]: s for s in ratio["series"]}
    np.testing.assert_allclose(ratios["B/A, s = n"]["y"], [68 / 9, 120 / 8])
    np.testing.assert_allclose(ratios["B/A, s = n/3"]["y"], [90 / 44, 160 / 34])
    ref = next(s for s in ratio["series"] if s["style"] == "reference")
    assert ref["x"] == ref["y"] == [6.0, 12.0]
    # n = 4, s = 2 is neither s = n/3 nor s = n: in the table only
    assert len(table["rows"]) == 10 and table["rows"][0][:3] == ["4", "2", "A"]
    assert ["4", "2", "B", "85", "80 to 90", "0.9", "10"] in table["rows"]
    # two n per series are fewer than 3 points: the report shows tables; a third n makes
    # both figures curves
    assert [f["kind"] for f in figures_for(outcome, P13)] == ["table"] * 4
    more = _outcome([*evidence, _evidence(30, 10, [40, 44, 48], [300, 330, 360], 5),
                     _evidence(30, 30, [10, 10, 10], [300, 300, 300], 6)])
    assert [f["kind"] for f in figures_for(more, P13)] == ["table", "curves", "curves",
                                                              "table"]


def test_p13_quick_outcome_has_no_speed_curves():
    """A single grid point (the quick grid): the rounds figure has one n per series, so the
    report shows it as a table of values instead."""
    outcome = _outcome([_evidence(6, 6, [9, 9], [68, 68], 0)])
    figs = figures_for(outcome, P13)
    assert [f["kind"] for f in figs] == ["table"] * 4
