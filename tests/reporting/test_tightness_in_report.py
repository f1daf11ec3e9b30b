"""The report shows how tight each bound is from the tightness audit's documents: a line in
each searched result's block, and the findings table's column "tight to within"
(``not searched`` without a record). The report reads the documents; it runs no search."""

from __future__ import annotations

import json

import numpy as np
import pytest

from pflbounds.reporting.assemble import build_report
from pflbounds.reporting.document import build_document
from pflbounds.reporting.figures import plan_figures
from pflbounds.reporting.tightness_text import (
    NOT_SEARCHED,
    load_tightness_records,
    tight_within,
    tightness_lines,
)
from pflbounds.symbolic import loader

FORMAT = "pflbounds.tightness-audit/1"


def entry(result: str, form: str, ratio: float, how: str = "exact", **kw) -> dict:
    return {"result": result, "form": form, "part": "", "ratio": ratio, "how": how,
            "sense": "max", "search": "L-BFGS-B, 6 starts", "instance": "K=5: eigenvalues "
            "[0.05, 1]", "expected": "", **kw}


def test_the_cell_names_the_tightest_form_and_a_counterexample_first():
    assert tight_within([]) == NOT_SEARCHED
    es = [entry("p.r", "printed", 0.25), entry("p.r", "explicit", 0.8, how="searched")]
    assert tight_within(es) == "×1.25 explicit (searched)"
    es.append(entry("p.r", "corrected", 2.0, how="sdp"))
    assert tight_within(es) == "counterexample ×2.00 (corrected)"
    lower = [entry("p.lb", "printed", 4.0, sense="min")]  # the best method costs 4x the bound
    assert tight_within(lower) == "×4.00 printed (exact)"
    # a claim of several results names the result of the form
    assert tight_within(lower + [entry("p.r", "explicit", 0.5)]) == "×2.00 r explicit (exact)"


def test_one_line_per_form_the_worst_of_its_cases():
    es = [entry("p.r", "explicit", 0.5), entry("p.r", "explicit", 0.8, how="searched"),
          entry("p.r", "printed", 1.5, how="sdp", expected="erratum 3")]
    lines = tightness_lines(es)
    assert len(lines) == 2
    assert lines[0].startswith("explicit: worst ratio 0.8 (tight to within ×1.25) at K=5")
    assert "the true worst case is at least as bad" in lines[0]
    assert lines[1].startswith("printed: counterexample, ratio 1.5 (expected: erratum 3)")
    assert lines[1].endswith("[SDP]")


def test_records_are_read_from_the_folder_and_others_left_out(tmp_path):
    assert load_tightness_records(tmp_path / "missing") == {}
    (tmp_path / "tightness-p.json").write_text(json.dumps(
        {"format": FORMAT, "paper": "p", "entries": [entry("p.r", "printed", 0.5)]}))
    (tmp_path / "tightness-old.json").write_text(json.dumps({"paper": "old", "cases": []}))
    (tmp_path / "tightness-broken.json").write_text("{")
    got = load_tightness_records(tmp_path)
    assert list(got) == ["p.r"] and got["p.r"][0]["ratio"] == 0.5


def _outcomes():
    from test_findings import KS, synthetic

    loader.load_paper("even2022", checks=True)
    return [
        synthetic("even2022.P14", [{"ks": KS, "mean": np.array([1.0, 1.07, 0.25]),
                                    "bound": np.ones(3)}]),
        synthetic("even2022.E15", [{"ks": KS, "mean": np.ones(3),
                                    "bound_printed": np.array([2.0, 0.5, 2.0]),
                                    "bound_corrected": np.full(3, 4.0)}]),
    ]


@pytest.fixture(scope="module")
def source() -> str:
    outcomes = _outcomes()
    tight = {"even2022.lemma6_eps": [entry("even2022.lemma6_eps", "corrected", 0.4234,
                                           how="searched")]}
    report = build_report(outcomes, suite="synthetic", tightness=tight, detail="full")
    return build_document(report, plan_figures(report))


def test_the_findings_table_has_the_column(source):
    findings = source[source.index("= Findings"):source.index("= Controls")]
    assert "Tight to within" in findings
    assert "×2.36 corrected (searched)" in findings  # Lemma 6 (precision eps)
    assert f"#muted[{NOT_SEARCHED}]" in findings  # Corollary 1: no record


def test_a_searched_results_block_shows_its_tightness(source):
    at = source.index("*Tightness* (worst admissible instance found)")
    assert ("corrected: worst ratio 0.423 (tight to within $× 2.36$) at $K = 5$"  # as math
            in source[at:at + 400])
    assert source.count("*Tightness* (worst admissible instance found)") == 1


def test_a_paper_without_records_says_so_once_below_its_table():
    report = build_report(_outcomes(), suite="synthetic")
    src = build_document(report, plan_figures(report))
    findings = src[src.index("= Findings"):src.index("= Controls")]
    assert "Tight to within" not in findings.split("*Tight to within*")[0]  # no column
    assert findings.count(f"*Tight to within*: {NOT_SEARCHED}") == 1


def test_a_claim_of_several_results_names_the_closest_part_in_words():
    from pflbounds.reporting.document_chapters import _part_name

    es = [entry("p.theorem4_3", "printed", 0.5),
          entry("p.admissible_s", "printed", 66.1, expected="erratum 3")]
    names = {"p.theorem4_3": _part_name("Theorem 4.3 (general step)", "Theorem 4.3"),
             "p.admissible_s": _part_name("Theorem 4.3: admissible participation size",
                                          "Theorem 4.3")}
    assert tight_within(es, names) == \
        "counterexample ×66.1 (admissible participation size printed; expected)"
    assert tight_within(es) == "counterexample ×66.1 (admissible_s printed; expected)"
    assert names["p.theorem4_3"] == "general step"
