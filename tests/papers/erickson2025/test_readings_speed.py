"""erickson2025 P13: Readings A and B of the gradient table, their shared limit and their speed
to ||G_eta||^2 <= 1e-8 (rounds per replica, wall time of Karula alone), and P13's figures."""

from __future__ import annotations

import numpy as np

from pflbounds.checking import CheckKind, Verdict
from pflbounds.checking.outcome import Outcome
from pflbounds.papers.erickson2025.checks import ALL
from pflbounds.papers.erickson2025.checks.karula_runs import run
from pflbounds.papers.erickson2025.checks.readings import (
    P13,
    plot_p13,
    simulate_p13,
    timed_karula,
)
from pflbounds.reporting.outcome_figures import figures_for

_P = {"n": 4, "d": 2, "s": 2, "cond": 2.0, "rho": 0.5, "inst": 1}


def test_the_timed_run_is_the_run_whose_rounds_are_counted():
    """Same seed, same iterates: the timing measures the very trajectory the rounds come
    from, without the certification."""
    ss = np.random.SeedSequence(5)
    for reading in ("A", "B"):
        secs, theta = timed_karula(_P, 3, ss, K=30, reading=reading)
        np.testing.assert_array_equal(theta, run(_P, 3, ss, K=30, reading=reading)["theta"])
        assert 0 < secs < 60


def test_full_participation_reading_b_needs_more_rounds_and_both_share_the_limit():
    """s = n, sigma = 0: the replicas coincide (every client every round); Reading B (step
    eta/n per client) needs more rounds than Reading A; both end at theta*."""
    ev = simulate_p13(dict(_P, s=4, K=200), 2, np.random.SeedSequence(0))
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
    assert [dict(p) for p in P13.quick_grid] == [dict(_P, K=250)]
    pts = {(p["n"], p["s"]) for p in P13.grid}
    assert pts == {(4, 2), (6, 2), (6, 6), (12, 4), (12, 12), (30, 10), (30, 30)}
    assert all(p["K"] >= 100 * p["n"] / 4 for p in P13.grid if p["s"] == p["n"])
    ids = [c.id for c in ALL]
    assert ids.count("erickson2025.P13") == 1
    assert ids.index("erickson2025.P13") > ids.index("erickson2025.P5_linear")


def _evidence(n: int, s: int, a: list[float], b: list[float], point: int) -> dict:
    return {"point": point, "params": dict(_P, n=n, s=s, K=100), "residual": 1e-7,
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
