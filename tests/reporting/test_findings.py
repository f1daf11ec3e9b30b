"""Findings per claim, built from synthetic outcomes of real even2022 checks.

The evidence is made up (a planted wrong bound, an erratum shown, a control); the verdicts
come from :func:`pflbounds.checking.verdicts.evaluate` on the real checks, and the report
model from :func:`pflbounds.reporting.assemble.build_report`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import pytest

from pflbounds.checking import registry
from pflbounds.checking.check import Check
from pflbounds.checking.kinds import CheckKind, Verdict
from pflbounds.checking.outcome import Outcome
from pflbounds.checking.verdicts import evaluate
from pflbounds.reporting.assemble import build_report
from pflbounds.reporting.claims import claim_name, controls, one_line, paper_findings
from pflbounds.reporting.document import build_document
from pflbounds.reporting.figures import plan_figures
from pflbounds.reporting.prose import for_reader
from pflbounds.symbolic import loader


def synthetic(check_id: str, points: Sequence[Mapping], params: Sequence[Mapping] | None = None
              ) -> Outcome:
    """The outcome a run of ``check_id`` would give on the evidence ``points``."""
    check = registry.get(check_id)
    params = list(params or [{"n": 2 + i} for i in range(len(points))])
    e = evaluate(check, [dict(p) for p in points], params)
    return Outcome(check.id, check.kind, e.verdict, check.expected, margin=e.margin, seed=7,
                   evidence=e.points, detail=e.detail, claims=e.claims, title=check.title,
                   config={"form": check.form, "engine": check.engine, "kind": check.kind.value,
                           "result_id": check.result_id, "rel_tol": check.rel_tol,
                           "abs_tol": check.abs_tol, "grid": params, "base_seed": 7})


KS = np.array([10.0, 20.0, 40.0])


@pytest.fixture(scope="module")
def report():
    loader.load_paper("even2022", checks=True)
    control = Check("even2022.TEST_planted", "Planted: Theorem 2 without its bias term",
                    CheckKind.BOUND_HOLDS, Verdict.VIOLATED, lambda p, n, s: {},
                    grid=({"n": 2},), result_id="even2022.theorem2", form="explicit",
                    role="control")
    registry.register(control, replace=True, module=__name__)
    try:
        outcomes = [
            # a planted wrong bound: the bound is below the measured curve at n = 3, K = 20
            synthetic("even2022.P14", [
                {"ks": KS, "mean": np.array([1.0, 0.5, 0.25]), "bound": np.array([2.0, 1.0, .5])},
                {"ks": KS, "mean": np.array([1.0, 1.07, 0.25]), "bound": np.ones(3)}]),
            # an erratum shown: the printed side below the curve, the corrected form above
            synthetic("even2022.E15", [{"ks": KS, "mean": np.array([1.0, 1.0, 1.0]),
                                        "bound_printed": np.array([2.0, 0.5, 2.0]),
                                        "bound_corrected": np.array([4.0, 4.0, 4.0])}]),
            # a claim that holds, with its ratio
            synthetic("even2022.P1", [{"ks": KS, "mean": np.array([0.5, 0.4, 0.3]),
                                       "bound": np.ones(3)}]),
            synthetic("even2022.TEST_planted", [{"ks": KS, "mean": np.ones(3),
                                                 "bound": np.full(3, 0.5)}]),
        ]
        yield build_report(outcomes, suite="synthetic")
    finally:
        registry.unregister("even2022.TEST_planted")


@pytest.fixture(scope="module")
def findings(report):
    section = next(s for s in report.sections if s.paper_id == "even2022")
    return {f.name: f for f in paper_findings(section)}


def test_a_planted_wrong_bound_fails_with_its_ratio_and_where(findings):
    f = findings["Corollary 1"]
    assert f.printed.word == "fails"
    assert f.printed.text == "fails: ratio 1.07 at K = 20, n = 3"
    assert f.reason == registry.get("even2022.P14").title  # the failing check's title
    assert f.rank == 0 and f.in_quick


def test_an_erratum_check_gives_printed_fails_and_corrected_holds(findings):
    f = findings["Lemma 6"]
    assert f.printed.text == "fails: ratio 2 at K = 20"
    assert f.corrected.word == "holds" and f.corrected.text == "holds: ratio ≤ 0.25"
    e = next(e for e in f.errata if e.id == "even2022.erratum15")
    assert e.status == "shown by a counterexample"  # E15: exact moments of SGD on x^2/2
    assert [(c.form, c.verdict, c.expected) for c in e.claims] == [
        ("printed", "VIOLATED", "VIOLATED"), ("corrected", "HOLDS", "HOLDS")]


def test_a_control_is_listed_apart_and_not_as_a_finding(report, findings):
    assert [v.check_id for _, v in controls(report)] == ["even2022.TEST_planted"]
    thm2 = findings["Theorem 2"]
    assert "even2022.TEST_planted" not in {v.check_id for v in thm2.rows}
    assert thm2.printed.word == "holds" and thm2.printed.text == "holds: ratio ≤ 0.5"
    src = build_document(report, plan_figures(report))
    controls_part = src[src.index("= Controls"):src.index("= Errata")]
    assert "even2022.TEST_planted" in controls_part
    # the planted P14 outcome differs from what P14 expects: marked, and said on page 1;
    # the control and the erratum check gave what they expect: unmarked
    assert src.count("#unexpected[expected") == 1
    assert '#unexpected[expected printed HOLDS]' in src
    first = src[:src.index("= Findings")]
    assert "REGRESSION: 1 verdict of 4 differs" in first and '"even2022.P14"' in first
    assert "even2022.TEST_planted" not in first and "even2022.E15" not in first


def test_results_without_a_check_go_to_the_appendix_with_their_reason(report, findings):
    section = next(s for s in report.sections if s.paper_id == "even2022")
    lemma3 = next(r for r in section.results if r.id == "even2022.lemma3")
    assert lemma3.checks == []
    assert findings["Lemma 3"].printed.word == "not checked"
    eq7 = next(r for r in section.results if r.id == "even2022.eq7")
    assert any("even2022.P11" in ids for ids, _ in eq7.exercised_by)  # through erratum13
    assert lemma3.unchecked.startswith("a proof step")  # the encoding's own reason
    lemma3.unchecked = "an auxiliary bound, exercised only inside Theorem 2's proof"
    eq6 = next(r for r in section.results if r.id == "even2022.eq6")
    eq6.unchecked = ""  # every result gives a reason; without one, its kind's default is said
    src = build_document(report, plan_figures(report))
    appendix = src[src.index("= Results without a check"):src.index("= Provenance")]
    assert "auxiliary bound, exercised only inside Theorem" in appendix
    assert "a step\\-size rule: no check yet" in appendix  # the default for Eq. (6)
    # the paper heads its rows once; each id is short enough for its column
    assert appendix.count("[*even2022*]") == 1
    assert '#ident("lemma3")' in appendix and '#ident("even2022.lemma3")' not in appendix


def test_claims_not_run_say_so(findings):
    # Theorem 4 has checks, none in this run
    assert findings["Theorem 4"].printed.word in ("not run", "not unit-consistent")
    assert findings["Lemma 5"].printed.word == "not run"


@pytest.mark.parametrize(("label", "claim"), [
    ("Theorem 4.3 at eta = 3/(8L)", "Theorem 4.3"),
    ("Theorem 4.3: noise and projection floor (K -> infinity)", "Theorem 4.3"),
    ("Lemma C.2 (client sampling), (44)", "Lemma C.2"),
    ("Table 2 (MT2 (multi-task, Li et al.))", "Table 2"),
    ("AFA step size, Eq. (7)", "Eq. (7)"),
    ("Equation (S2) (descent with Definition-1 weights)", "Equation (S2)"),
    ("§5.1: IFCA collapses to one cluster", "§5.1"),
    ("Figs. 8-14: accuracy during training", "Figs. 8-14"),
    ("Remark after Corollary 1", "Remark after Corollary 1"),
    ("Theorem 2, constant step (Table 1)", "Theorem 2"),
    ("Rescaling of w (derived)", "Rescaling of w"),
])
def test_claim_names_are_the_papers(label, claim):
    assert claim_name(label) == claim


def test_a_reason_is_cut_outside_formulas():
    text = ("Proof of Theorem B.1: lambda* = sqrt(8mn (sum KL + log(8mn/delta)) + 1) puts "
            "the +1 inside the root; the derivation works with another constant entirely")
    cut = one_line(text, 90)
    assert cut.endswith("…") and cut.count("(") == cut.count(")")


@pytest.mark.parametrize(("text", "clean"), [
    ("An informed prediction (digest §5.10), checked by P1.",
     "An informed prediction, checked by P1."),
    ("Typos 12-16 of digest §8", "Typos 12-16"),
    ("weights (Definition 2, digest §4.4) per client", "weights (Definition 2) per client"),
    ("slope <= -1/2 (digest P2: falsified if above -1/2)", "slope <= -1/2 (falsified if above "
                                                           "-1/2)"),
    ("no reference here", "no reference here"),
])
def test_references_to_the_digests_are_removed(text, clean):
    assert for_reader(text) == clean
