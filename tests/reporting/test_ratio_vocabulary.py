"""The one margin (measured/bound, 3 significant figures, clipped) and the declared words."""

from __future__ import annotations

import math

import numpy as np
import pytest

from pflbounds.checking.check import Check
from pflbounds.checking.kinds import CheckKind, Verdict
from pflbounds.checking.lines import outcome_line
from pflbounds.checking.outcome import Outcome
from pflbounds.checking.ratio import format_ratio, kind_statistic, outcome_ratios
from pflbounds.checking.verdicts import evaluate
from pflbounds.checking.vocabulary import (
    CLAIM_STATUS,
    CLAIM_VERDICTS,
    ERRATUM_STATUS,
    claims_of,
    claims_text,
    derive_claims,
    erratum_status,
    expected_claims,
)


@pytest.mark.parametrize(("ratio", "text"), [
    (1.0, "1"), (1.0666, "1.07"), (0.123456, "0.123"), (2.5e-5, "2.5e-5"), (123456.0, "1.23e5"),
    (1e6, "1e6"), (1.0000001e6, ">1e6"), (math.inf, ">1e6"), (1e-6, "1e-6"), (9.99e-7, "<1e-6"),
    (0.0, "<1e-6"), (None, "—"), (math.nan, "—"),
])
def test_format_ratio_has_3_significant_figures_and_clips(ratio, text):
    assert format_ratio(ratio) == text


def _outcome(kind: CheckKind, points: list[dict], form: str = "printed",
             engine: str = "exact", **config) -> Outcome:
    return Outcome(check_id="toy.X", kind=kind, verdict=Verdict.HOLDS, expected=Verdict.HOLDS,
                   evidence=points, config={"form": form, "engine": engine, "rel_tol": 1e-9,
                                            "abs_tol": 0.0, **config})


def test_an_upper_bound_is_measured_over_bound_at_its_worst_point():
    ks = np.array([1.0, 2.0, 3.0])
    pts = [{"point": 0, "params": {"n": 2}, "ks": ks, "mean": np.array([1.0, 1.0, 1.0]),
            "bound": np.array([2.0, 4.0, 8.0])},
           {"point": 1, "params": {"n": 3}, "ks": ks, "mean": np.array([1.0, 1.07, 1.0]),
            "bound": np.array([2.0, 1.0, 2.0])}]
    r = outcome_ratios(_outcome(CheckKind.BOUND_HOLDS, pts))["printed"]
    assert r.ratio == pytest.approx(1.07)  # above 1: the bound fails there
    assert r.where == "K = 2, n = 3"


def test_a_lower_bound_is_bound_over_measured():
    pts = [{"point": 0, "params": {}, "ks": np.array([1.0]), "mean": np.array([4.0]),
            "bound": np.array([1.0])}]
    r = outcome_ratios(_outcome(CheckKind.LOWER_BOUND, pts, form="explicit"))
    assert r["explicit"].ratio == pytest.approx(0.25)  # below 1: the lower bound holds
    pts[0]["mean"] = np.array([0.5])
    r = outcome_ratios(_outcome(CheckKind.LOWER_BOUND, pts, form="explicit"))
    assert r["explicit"].ratio == pytest.approx(2.0)


def test_an_erratum_check_has_a_ratio_per_claim_and_its_printed_side_is_named():
    pts = [{"point": 0, "params": {}, "ks": np.array([1.0, 2.0]), "mean": np.array([1.0, 2.0]),
            "bound_printed": np.array([0.5, 1.0]), "bound_corrected": np.array([4.0, 4.0])}]
    r = outcome_ratios(_outcome(CheckKind.ERRATUM, pts, form="corrected"))
    assert set(r) == {"printed", "corrected"}  # the check names the corrected form
    assert r["printed"].ratio == pytest.approx(2.0) and r["corrected"].ratio == 0.5
    r = outcome_ratios(_outcome(CheckKind.ERRATUM, pts, form="proof"))
    assert set(r) == {"proof", "corrected"}


def test_a_zero_bound_met_within_tolerance_has_no_ratio_and_one_crossed_is_infinite():
    pts = [{"point": 0, "params": {}, "ks": np.array([1.0]), "mean": np.array([1e-17]),
            "bound": np.array([0.0])}]
    assert outcome_ratios(_outcome(CheckKind.BOUND_HOLDS, pts, abs_tol=1e-12))[
        "printed"].ratio is None
    pts[0]["mean"] = np.array([1e-3])
    r = outcome_ratios(_outcome(CheckKind.BOUND_HOLDS, pts, abs_tol=1e-12))["printed"]
    assert r.ratio == math.inf and format_ratio(r.ratio) == ">1e6"


def test_a_per_replica_bound_inverts_the_smallest_bound_over_metric():
    o = _outcome(CheckKind.BOUND_HOLDS, [], engine="mc", bound_mode="per_replica")
    o.margin = 4.0
    assert outcome_ratios(o)["printed"].ratio == 0.25


def test_other_kinds_have_a_statistic_not_a_ratio():
    fit = {"point": 0, "estimate": -0.52, "lo": -0.6, "hi": -0.45, "predicted": -1.0,
           "tolerance": 0.1, "side": "both", "axis": "loglog"}
    rate = _outcome(CheckKind.RATE, [{"point": 0, "params": {}}])
    rate.fits = [fit]
    assert outcome_ratios(rate) == {}
    assert kind_statistic(rate) == "slope -0.52 [-0.6, -0.45] vs predicted -1 ± 0.1"
    ident = _outcome(CheckKind.IDENTITY, [{"point": 0, "params": {}, "residual": np.array(
        [1e-12, -3e-12])}], tolerance=1e-9)
    assert kind_statistic(ident) == "max |residual| 3e-12 vs tolerance 1e-9"
    prob = _outcome(CheckKind.HOLDS_WITH_PROBABILITY, [{
        "point": 0, "params": {}, "violations": np.asarray(10.0), "count": np.asarray(10.0),
        "rate_lo": np.asarray(0.466), "rate_hi": np.asarray(1.0), "delta": np.asarray(0.05)}])
    assert kind_statistic(prob) == "10 of 10 draws fail (rate in [0.466, 1]) vs delta 0.05"


def test_claim_verdicts_of_every_kind_and_what_an_erratum_check_expects():
    assert claims_of("bound_holds", "explicit", "HOLDS") == {"explicit": Verdict.HOLDS}
    assert claims_of("erratum", "printed", "CONFIRMED") == {
        "printed": Verdict.VIOLATED, "corrected": Verdict.HOLDS}
    assert claims_of("erratum", "corrected", "NOT_CONFIRMED", "HOLDS", "HOLDS") == {
        "printed": Verdict.HOLDS, "corrected": Verdict.HOLDS}
    assert claims_of("erratum", "proof", "ERROR") == {"proof": Verdict.ERROR,
                                                      "corrected": Verdict.ERROR}
    assert expected_claims("erratum", "appendix", "CONFIRMED") == {
        "appendix": "VIOLATED", "corrected": "HOLDS"}
    assert expected_claims("identity", None, "HOLDS") == {"printed": "HOLDS"}
    detail = ("printed bound HOLDS: max measured/printed bound = 0.5; corrected bound "
              "INCONCLUSIVE: straddles")
    assert derive_claims("erratum", "printed", "NOT_CONFIRMED", detail) == {
        "printed": Verdict.HOLDS, "corrected": Verdict.INCONCLUSIVE}
    assert claims_text({"printed": Verdict.VIOLATED, "corrected": "HOLDS"}) == \
        "printed VIOLATED, corrected HOLDS"
    words = set(CLAIM_VERDICTS)
    assert words == {"HOLDS", "VIOLATED", "INCONCLUSIVE", "ERROR"}
    assert {v.value for d in (claims_of("erratum", "printed", v) for v in Verdict)
            for v in d.values()} <= words


@pytest.mark.parametrize(("known", "check", "ran", "ok", "status"), [
    ("run", "p.E1", True, True, "shown by a run"),
    ("counterexample", "p.E1", True, True, "shown by a counterexample"),
    ("run", "p.E1", True, False, "check disagrees"),
    ("run", "p.E1", False, False, "not run"),
    ("text", "", False, False, "argued from the text"),
    ("text", "p.E1", True, True, "argued from the text"),
])
def test_erratum_status(known, check, ran, ok, status):
    assert erratum_status(known, check, ran, ok) == status
    assert status in ERRATUM_STATUS
    assert "fails" in CLAIM_STATUS and "not unit-consistent" in CLAIM_STATUS


def _erratum_check(expected: Verdict = Verdict.CONFIRMED) -> Check:
    return Check("toy.E1", "printed too small", CheckKind.ERRATUM, expected,
                 lambda p, n, s: {}, grid=({"a": 1},), result_id="toy.theorem1", form="printed")


def test_evaluate_gives_an_erratum_check_two_claim_verdicts_and_the_outcome_keeps_them():
    ev = {"ks": np.array([1.0, 2.0]), "mean": np.array([1.0, 2.0]),
          "bound_printed": np.array([0.5, 3.0]), "bound_corrected": np.array([2.0, 4.0])}
    check = _erratum_check()
    e = evaluate(check, [ev], [{"a": 1}])
    assert e.verdict is Verdict.CONFIRMED
    assert e.claims == {"printed": Verdict.VIOLATED, "corrected": Verdict.HOLDS}
    o = Outcome(check.id, check.kind, e.verdict, check.expected, evidence=e.points,
                claims=e.claims, config={"form": "printed", "engine": "exact"})
    back = Outcome.from_dict(o.to_dict())
    assert back.claims == e.claims
    saved = o.to_dict()
    del saved["claims"]  # a results file written before outcomes carried claims
    saved["detail"] = e.detail
    assert Outcome.from_dict(saved).claims == e.claims
    line = outcome_line(back)
    assert line.startswith("ok toy.E1  printed VIOLATED, corrected HOLDS  printed ratio 2")
    assert "CONFIRMED" not in line and "expected" not in line


def test_an_unexpected_outcome_line_says_what_was_expected():
    o = Outcome("toy.E1", CheckKind.ERRATUM, Verdict.NOT_CONFIRMED, Verdict.CONFIRMED,
                claims={"printed": "HOLDS", "corrected": "HOLDS"}, config={"form": "printed"})
    line = outcome_line(o)
    assert line.startswith("!! toy.E1  printed HOLDS, corrected HOLDS (expected printed "
                           "VIOLATED, corrected HOLDS)")
