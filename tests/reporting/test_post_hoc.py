"""A claim narrowed after a run had been seen (``Check.post_hoc``) is labelled post hoc in the
report and kept out of the claims that hold; the original prediction still decides the claim.

The evidence is synthetic; the verdicts come from the real evaluation of registered checks."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
from test_findings import KS, synthetic

from pflbounds.checking import registry
from pflbounds.checking.check import Check
from pflbounds.checking.kinds import CheckKind, Verdict
from pflbounds.reporting.assemble import build_report
from pflbounds.reporting.claims import paper_findings
from pflbounds.reporting.document import build_document
from pflbounds.reporting.figures import plan_figures
from pflbounds.symbolic import loader

REASON = "the grid was narrowed after the first run had failed on its largest point"


def _check(cid: str, expected: Verdict, post_hoc: str = "") -> Check:
    return Check(cid, f"Lemma 3 on a test grid ({cid})", CheckKind.BOUND_HOLDS, expected,
                 lambda p, n, s: {}, grid=({"n": 2},), result_id="even2022.lemma3",
                 form="printed", post_hoc=post_hoc)


@pytest.fixture(scope="module")
def registered():
    loader.load_paper("even2022", checks=True)
    ids = ["even2022.TEST_original", "even2022.TEST_narrowed"]
    registry.register(_check(ids[0], Verdict.VIOLATED), replace=True, module=__name__)
    registry.register(_check(ids[1], Verdict.HOLDS, REASON), replace=True, module=__name__)
    try:
        yield ids
    finally:
        for cid in ids:
            registry.unregister(cid)


def _holds(cid: str):
    return synthetic(cid, [{"ks": KS, "mean": np.full(3, 0.5), "bound": np.ones(3)}])


def _fails(cid: str):
    return synthetic(cid, [{"ks": KS, "mean": np.array([0.5, 0.5, 2.0]), "bound": np.ones(3)}])


def _lemma3(outcomes):
    report = build_report(outcomes, suite="synthetic")
    section = next(s for s in report.sections if s.paper_id == "even2022")
    return report, {f.name: f for f in paper_findings(section)}["Lemma 3"]


def test_a_claim_holding_only_post_hoc_is_not_counted_as_holding(registered):
    report, f = _lemma3([_holds(registered[1])])
    assert f.printed.word == "holds post hoc"
    assert f.post_hoc and f.tabled and f.in_quick  # a row of its own in the findings table
    src = build_document(report, plan_figures(report))
    first = src[:src.index("= Findings")]
    assert "0 hold as printed" in first and "1 hold only post hoc" in first
    assert "#status(\"holds post hoc\", [post hoc])" in src
    assert f"is *post hoc*, outside the predictions confirmed: {REASON}" in src


def test_the_original_prediction_still_decides_the_claim(registered):
    _, f = _lemma3([_fails(registered[0]), _holds(registered[1])])
    assert f.printed.word == "fails"
    assert f.rows and {r.check_id: bool(r.post_hoc) for r in f.rows} == {
        registered[0]: False, registered[1]: True}


def test_a_planned_holds_is_a_plain_holds(registered):
    planned = dataclasses.replace(registry.get(registered[1]), post_hoc="")
    registry.register(planned, replace=True, module=__name__)
    try:
        _, f = _lemma3([_holds(registered[1])])
        assert f.printed.word == "holds" and not f.post_hoc
    finally:
        registry.register(_check(registered[1], Verdict.HOLDS, REASON), replace=True,
                          module=__name__)


def test_post_hoc_must_say_why_in_words():
    with pytest.raises(ValueError, match="post_hoc must be a string"):
        _check("even2022.TEST_bad", Verdict.HOLDS, post_hoc=True)  # type: ignore[arg-type]


def test_the_vocabulary_says_post_hoc_only_where_it_occurs(registered):
    said = "HOLDS only as narrowed after a run was seen"
    report, _ = _lemma3([_holds(registered[1])])
    assert said in build_document(report, plan_figures(report))
    report, _ = _lemma3([_fails(registered[0])])
    assert said not in build_document(report, plan_figures(report))
