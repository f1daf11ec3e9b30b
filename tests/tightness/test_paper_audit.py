"""The tightness audit of a paper and the mutation audit's re-run on its worst instances, on
the fixture paper ``tightpaper`` (tests/fixtures/papers): a bound tight only on a special
instance, loose on the checks' default instance, is found tight by the search; its half,
wrong only near that instance, passes the checks and is reported as a counterexample; the
mutants the checks let through are caught or shown true at the worst instance."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pflbounds.cli import main


@pytest.fixture
def tightpaper(extra_paper) -> str:
    from pflbounds.checking import registry

    extra_paper("tightpaper")
    registry.load_papers()
    return "tightpaper"


def _entries(doc: dict, result: str, form: str) -> list[dict]:
    return [e for e in doc["entries"] if (e["result"], e["form"]) == (result, form)]


@pytest.fixture
def audited(tightpaper, tmp_path, capsys) -> tuple[Path, dict, str, str]:
    out = tmp_path / "audit"
    # the mutation audit first: the tightness audit's coverage reads the forms it recorded
    assert main(["audit", "mutants", "--paper", tightpaper, "--out", str(out),
                 "--no-worst"]) == 0
    capsys.readouterr()
    code = main(["audit", "tightness", "--paper", tightpaper, "--out", str(out), "--json"])
    cap = capsys.readouterr()
    assert code == 1  # a counterexample nobody expects: a finding
    return out, json.loads(cap.out), cap.out, cap.err


def test_the_checks_default_instance_passes_both_planted_forms(tightpaper):
    from pflbounds.checking import registry
    from pflbounds.running.executor import run_check

    for form in ("printed", "explicit"):
        o = run_check(registry.get(f"tightpaper.planted_{form}"), progress=False)
        assert o.verdict.value == "HOLDS", form


def test_a_bound_tight_only_on_a_special_instance_is_found_tight(audited):
    _, doc, _, _ = audited
    found = _entries(doc, "tightpaper.planted", "printed")
    assert {e["how"] for e in found} == {"exact", "searched"}
    for e in found:
        assert e["ratio"] == pytest.approx(1.0, rel=0.01), e["search"]
        assert not e["counterexample"]
        assert e["default_ratio"] < 0.2  # what the check's instance shows
        assert "initial error on eigenvalue" in e["instance"] and "K=" in e["instance"]
    exact = next(e for e in found if e["how"] == "exact")
    assert exact["worst_is"] == "exact" and exact["ratio"] == pytest.approx(1.0, rel=1e-6)


def test_a_bound_wrong_only_on_that_instance_is_a_counterexample(audited):
    out, doc, text, err = audited
    (e,) = _entries(doc, "tightpaper.planted", "explicit")
    assert e["ratio"] == pytest.approx(2.0, rel=1e-6) and e["counterexample"]
    assert e["default_ratio"] < 0.3  # the check's instance does not see it
    assert [c["form"] for c in doc["counterexamples"]] == ["explicit"]
    assert doc["counterexamples"][0]["expected"] == ""
    # progress on stderr, one line per case; the document is what --json printed
    assert err.count("tightness tightpaper [") == 4
    assert json.loads((out / "tightness-tightpaper.json").read_text())["entries"] == \
        doc["entries"]


def test_coverage_lists_the_forms_no_case_covers_with_the_papers_reason(audited):
    _, doc, _, _ = audited
    assert doc["forms_from"].startswith("recorded by the mutation audit")
    assert [(u["result"], u["form"]) for u in doc["uncovered"]] == \
        [("tightpaper.unsearched", "printed")]
    assert doc["uncovered"][0]["why"] == "planted without a search, for the tests."
    assert {(c["result"], c["form"]) for c in doc["covered"]} == {
        ("tightpaper.planted", "printed"), ("tightpaper.planted", "explicit"),
        ("tightpaper.loose", "printed")}


def test_a_second_run_is_served_from_the_cache(audited, capsys):
    out, doc, _, _ = audited
    assert main(["audit", "tightness", "--paper", "tightpaper", "--out", str(out)]) == 1
    cap = capsys.readouterr()
    assert cap.err.count("cached") == 4 and "COUNTEREXAMPLE" in cap.out
    assert "uncovered (no case):" in cap.out and "tightpaper.unsearched [printed]" in cap.out


def test_survivors_are_caught_or_shown_true_at_the_worst_instance(audited, capsys):
    out, _, _, _ = audited
    assert main(["audit", "mutants", "--paper", "tightpaper", "--out", str(out), "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    surv = doc["survivors"]
    halved = [m for m in surv if (m["result"], m["form"]) == ("tightpaper.planted", "printed")
              and "x 1/2" in m["change"]]
    assert halved, "the default instance lets a halved term of the tight bound through"
    for m in halved:
        assert m["worst"]["status"] == "caught at the worst instance"
        assert m["worst"]["ratio_to_mutant"] > 1
    loose = [m for m in surv if m["result"] == "tightpaper.loose"]
    status = {m["change"]: m["worst"]["status"] for m in loose}
    true = [m for m in loose if m["worst"]["status"] == "true at the worst instance"]
    assert true and all(m["worst"]["factor"] > 1 for m in true)
    tenth = [c for c in status if c.endswith(" x 1/10") and " + " in c]  # the whole bound
    assert tenth and all(status[c] == "caught at the worst instance" for c in tenth)
    # a mutant smaller only where the checks look, not at the searched points, claims
    # nothing more there: unreached, and said so
    squared = [m for m in loose if m["worst"]["status"] == "unreached"]
    assert all("At no point searched" in m["worst"]["why"] for m in squared)
    assert all(m["note"] == "" for m in true)  # a measurement replaces prose
    unsearched = [m for m in surv if m["result"] == "tightpaper.unsearched"]
    assert unsearched and all(m["worst"]["status"] == "unreached" for m in unsearched)
    assert all(m["note"] == "no search covers it on purpose." for m in unsearched)
    w = doc["worst_instances"]
    assert w["source"] == "tightness-tightpaper.json"
    assert w["unreached"] == len(unsearched) + len(squared)
    assert w["accounted"] == w["stronger"] - w["unreached"]


def test_without_tightness_records_every_survivor_is_unreached(tightpaper, tmp_path, capsys):
    assert main(["audit", "mutants", "--paper", tightpaper, "--out", str(tmp_path)]) == 0
    text = capsys.readouterr().out
    assert "none (run `pflbounds audit tightness --paper tightpaper`)" in text
    doc = json.loads((tmp_path / "mutants-tightpaper.json").read_text())
    assert all(m["worst"]["status"] == "unreached" for m in doc["survivors"])
    assert doc["worst_instances"]["accounted"] == doc["totals"]["caught"] + \
        doc["totals"]["refuted"]


def test_a_run_restricted_to_some_results_keeps_the_others_entries(audited, capsys):
    out, doc, _, _ = audited
    assert main(["audit", "tightness", "--paper", "tightpaper", "--out", str(out),
                 "--only", "tightpaper.loose", "--json"]) == 1
    cap = capsys.readouterr()
    assert cap.err.count("tightness tightpaper [") == 1  # only the loose bound's case ran
    again = json.loads(cap.out)
    assert sorted((e["result"], e["form"], e["source"]) for e in again["entries"]) == \
        sorted((e["result"], e["form"], e["source"]) for e in doc["entries"])
    assert again["uncovered"] == doc["uncovered"]
    assert main(["audit", "tightness", "--paper", "tightpaper", "--only", "tightpaper.nope",
                 "--out", str(out)]) == 2
    assert "not a result of tightpaper" in capsys.readouterr().err
