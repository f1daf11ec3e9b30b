"""Tightness against PEPit: the worst case of gradient descent against its closed form, the
deterministic special case of Theorem 2, the verdicts (holds, planted violation, refused),
the cache, and the command line. The full even2022 table (up to K = 50) is slow-marked."""

from __future__ import annotations

import json
import math

import pytest

from pflbounds.audit.tightness import (
    MAX_GAP,
    Cache,
    TightnessCase,
    WorstCase,
    audit_case,
    audit_tightness,
    deterministic_value,
    gd_worst_case,
)
from pflbounds.cli import main
from pflbounds.symbolic.evaluate import HypothesisError


@pytest.mark.parametrize("K", [1, 2, 3])
def test_pepit_worst_case_of_gradient_descent_is_the_known_rate(K):
    # eta <= 1/L: the worst case of f(x_K) - f* is (1 - eta mu)^(2K) (f(x_0) - f*)
    wc = gd_worst_case(0.25, 0.5, K)
    assert wc.dual == pytest.approx((1 - 0.125) ** (2 * K), rel=1e-6)
    assert wc.accepted and abs(wc.relative_gap) < 1e-6 and wc.psd_error < 1e-6
    assert len(wc.f_gap) == K + 1 and wc.f_gap[0] == pytest.approx(1.0, rel=1e-6)
    assert wc.f_gap[-1] == pytest.approx(wc.primal, rel=1e-6)  # the worst-case function


def test_theorem2_without_noise_and_bias_is_the_gradient_descent_bound():
    vals = {"mu": 1.0, "L": 20.0, "K": 7.0, "Delta0": 1.0, "eta": 0.025}
    fixed = {"sigma2": 0.0, "B": 0.0, "V": 1.0}
    assert deterministic_value("even2022.theorem2", "explicit", vals, fixed) == \
        pytest.approx((1 - 0.025) ** 7, rel=1e-12)
    # sigma^2 (1 + ln(1/sigma^2)) -> 0: the limit, not 0 * inf
    assert deterministic_value("even2022.theorem2", "corrected", vals, fixed) == \
        pytest.approx(math.exp(-7 / 40), rel=1e-12)
    assert deterministic_value("even2022.theorem2", "proof", vals, fixed) == \
        pytest.approx(math.exp(-7 / 20), rel=1e-12)
    # the step of Eq. (6) without noise is 1/(2L)
    assert deterministic_value("even2022.eq6", "printed", vals, fixed) == pytest.approx(1 / 40)
    with pytest.raises(HypothesisError, match="eta <= 1/L"):
        deterministic_value("even2022.theorem2", "explicit", dict(vals, eta=0.1), fixed)


def test_even2022_case_at_small_horizons_holds_with_growing_ratio(tmp_path):
    from pflbounds.papers.even2022.audit import TIGHTNESS

    rows = audit_case(TIGHTNESS[0], Cache(tmp_path / "c.json"), horizons=(1, 2, 5))
    assert {r.verdict for r in rows} == {"HOLDS"}
    explicit = [r for r in rows if r.form == "explicit" and r.eta == pytest.approx(1 / 20)]
    # (1 - eta mu)^K against the worst case (1 - eta mu)^(2K): ratio (1 - eta mu)^(-K)
    assert [r.ratio for r in explicit] == pytest.approx([0.95**-k for k in (1, 2, 5)], rel=1e-6)
    proof = [r for r in rows if r.form == "proof"]
    assert [r.eta for r in proof] == pytest.approx([1 / 40] * 3)  # Eq. (6) without noise
    assert all(1 < r.ratio < 1.01 for r in proof)  # exp(-K/kappa): nearly attained


def test_a_planted_bound_below_the_worst_case_is_violated_with_evidence(audit_paper,
                                                                          tmp_path):
    from pflbounds.audit.declarations import declared

    cases = declared("auditpaper", "TIGHTNESS", [])
    a = audit_tightness("auditpaper", cases, cache_path=tmp_path / "c.json")
    assert a.verdict == "VIOLATED"
    tight = [r.verdict for r in a.cases[0][1]]
    assert tight == ["HOLDS"] * 3  # exact: bound = worst case
    wrong = {r.form: r for r in a.cases[1][1]}
    assert wrong["printed"].verdict == "VIOLATED" and wrong["corrected"].verdict == "HOLDS"
    assert wrong["printed"].ratio == pytest.approx(0.875**2, rel=1e-6)  # (1-a)^6 / (1-a)^4
    (ev,) = a.evidence.values()
    assert ev["f_gap"][-1] == pytest.approx(0.875**4, rel=1e-6)  # the function that beats it


def _fake(gap: float):
    def solve(mu_over_L, eta_L, K, solver):
        v = (1 - mu_over_L * eta_L) ** (2 * K)
        return WorstCase(mu_over_L, eta_L, K, v * (1 + gap), v, gap, 0.0, 0.0, "optimal",
                         solver, 0.0)
    return solve


def test_a_number_with_a_large_duality_gap_is_refused(tmp_path):
    case = TightnessCase("even2022.theorem2", {"explicit": None}, {"sigma2": 0.0, "B": 0.0,
                                                                    "V": 1.0},
                         ({"mu": 1.0, "L": 4.0, "eta": 0.25},), horizons=(3,))
    (row,) = audit_case(case, Cache(None), solve=_fake(10 * MAX_GAP))
    assert row.verdict == "REFUSED" and row.ratio is None and row.worst is None
    (row,) = audit_case(case, Cache(None), solve=_fake(MAX_GAP / 10))
    assert row.verdict == "HOLDS" and row.ratio == pytest.approx(0.75**-3 / 1.0001)


def test_cache_serves_solved_values_and_ignores_a_corrupt_file(tmp_path):
    path = tmp_path / "pepit-cache.json"
    cache = Cache(path)
    wc, cached = cache.get(0.25, 0.5, 2, "CLARABEL", _fake(0.0))
    assert not cached and json.loads(path.read_text())

    def fail(*a):
        raise AssertionError("solved again")

    again, cached = Cache(path).get(0.25, 0.5, 2, "CLARABEL", fail)
    assert cached and again.dual == wc.dual
    path.write_text("{truncated")
    _, cached = Cache(path).get(0.25, 0.5, 2, "CLARABEL", _fake(0.0))
    assert not cached


def test_case_refuses_a_point_outside_its_class():
    with pytest.raises(ValueError, match="0 < mu <= L"):
        TightnessCase("even2022.theorem2", {"explicit": None}, {}, ({"mu": 2.0, "L": 1.0,
                                                                    "eta": 0.1},))
    with pytest.raises(ValueError, match="PEPit cases model"):
        TightnessCase("even2022.theorem2", {"explicit": None}, {}, (), method="heavy_ball")


def test_cli_tightness(audit_paper, extra_paper, tmp_path, capsys):
    assert main(["audit", "tightness", "--paper", "auditpaper", "--out", str(tmp_path)]) == 1
    out = capsys.readouterr().out
    assert "COUNTEREXAMPLE" in out and (tmp_path / "tightness-auditpaper.json").is_file()
    assert (tmp_path / "pepit-cache.json").is_file()
    extra_paper("toypaper")  # a paper without an audit module: its gap is listed, no error
    assert main(["audit", "tightness", "--paper", "toypaper", "--out",
                 str(tmp_path / "toy")]) == 0
    out = capsys.readouterr().out
    assert "declares no worst-case search" in out and "uncovered (no case):" in out
    afile = tmp_path / "afile"
    afile.write_text("")
    assert main(["audit", "tightness", "--paper", "auditpaper", "--out", str(afile)]) == 2
    err = capsys.readouterr().err
    assert "is a file; expected a folder" in err and err.count("\n") == 1


@pytest.mark.slow
def test_even2022_full_table_up_to_k50(tmp_path):
    """K in {1, 2, 5, 10, 20, 50} at three (mu, L, eta): every number accepted, the encoded
    bound never below PEPit's worst case, the explicit form's ratio (1 - eta mu)^(-K)."""
    from pflbounds.papers.even2022.audit import TIGHTNESS

    a = audit_tightness("even2022", TIGHTNESS, cache_path=tmp_path / "c.json")
    rows = a.cases[0][1]
    assert a.verdict == "HOLDS" and {r.verdict for r in rows} == {"HOLDS"}
    assert {r.K for r in rows} == {1, 2, 5, 10, 20, 50}
    assert len({(r.mu, r.L, r.eta) for r in rows if r.form == "explicit"}) == 3
    for r in rows:
        if r.form == "explicit":
            assert r.ratio == pytest.approx((1 - r.eta * r.mu) ** -r.K, rel=1e-3)


@pytest.mark.parametrize("sub, module, name", [
    (["tightness", "--paper", "even2022"], "pflbounds.audit.tightness", "audit_tightness"),
    (["mutants", "--paper", "even2022"], "pflbounds.audit.mutants", "audit_mutants"),
    (["false-alarms", "validation/quick.toml"], "pflbounds.audit.false_alarms",
     "false_alarms"),
])
def test_an_unwritable_out_is_refused_before_the_audit_runs(sub, module, name, tmp_path,
                                                            capsys, monkeypatch):
    import importlib

    def never(*args, **kwargs):
        raise AssertionError("the audit ran before its output place was checked")

    monkeypatch.setattr(importlib.import_module(module), name, never)
    (tmp_path / "f").write_text("x")
    for target, piece in [(tmp_path / "f" / "sub", "is a file, not a folder"),
                          (tmp_path / "missing" / "sub", "does not exist"),
                          ("/proc/pflbounds-audit", "cannot write in folder /proc")]:
        assert main(["audit", *sub, "--out", str(target)]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and piece in err and "Traceback" not in err, err
