"""even2022's worst-case searches (``WORST_CASES`` in its audit.py): every case is well
formed and names a bound form a check evaluates or a result of the paper; the exact ones
(identical agents, decoupled by eigen-direction) find no counterexample, and their worst
instance is the one the decoupling predicts: the initial error on mu, the noise on L."""

from __future__ import annotations

import pytest

from pflbounds.symbolic import catalog
from pflbounds.tightness import paper_cases, run_case
from pflbounds.tightness.engine import case_key
from pflbounds.tightness.registry import get_model


@pytest.fixture(scope="module")
def cases():
    return paper_cases("even2022")


def test_every_case_names_a_form_and_a_model(cases):
    assert len(cases) >= 20
    for c in cases:
        assert c.form in catalog.get(c.result).forms, c.label
        get_model(c.model)
        assert len(case_key(c)) == 64
        assert c.title, c.label


def test_the_exact_cases_hold_and_put_the_error_on_mu_and_the_noise_on_l(cases):
    exact = [c for c in cases if c.search.mode == "exact"]
    assert {c.result for c in exact} >= {"even2022.theorem3", "even2022.baseline_local",
                                         "even2022.lemma6"}
    for c in exact:
        rec = run_case(c)
        assert rec.verdict == "HOLDS", c.label
        for p in rec.points:
            assert p.worst_is == "exact" and 0 < p.ratio <= 1, c.label
            h = sorted(p.instance["spectrum"])
            assert h == pytest.approx([0.05, 1.0]), c.label


def test_the_expected_counterexample_and_the_reasons_name_real_forms():
    from pflbounds.audit.declarations import declared

    for key in [*declared("even2022", "WORST_EXPECTED", {}),
                *declared("even2022", "UNSEARCHED", {})]:
        rid, _, form = key.partition(":")
        r = catalog.get(rid)
        assert not form or form in r.forms, key


@pytest.mark.slow
def test_the_audits_account_for_90_percent_of_the_stronger_mutants(tmp_path, capsys):
    """The mutation audit, the tightness audit, and the mutation audit again on the worst
    instances: at least 90% of the stronger mutants are caught, refuted, or caught or true
    at the worst instance, and the only counterexample is the expected one (minutes: the
    PEPit solves up to K = 50)."""
    import json

    from pflbounds.cli import main

    out = str(tmp_path)
    assert main(["audit", "mutants", "--paper", "even2022", "--out", out, "--no-worst"]) == 0
    assert main(["audit", "tightness", "--paper", "even2022", "--out", out, "--quiet"]) == 0
    assert main(["audit", "mutants", "--paper", "even2022", "--out", out]) == 0
    capsys.readouterr()
    tight = json.loads((tmp_path / "tightness-even2022.json").read_text())
    assert [(c["result"], c["form"]) for c in tight["counterexamples"]] == [
        ("even2022.theorem4_bias", "printed")]
    assert all(u["why"] for u in tight["uncovered"])
    w = json.loads((tmp_path / "mutants-even2022.json").read_text())["worst_instances"]
    assert w["accounted_fraction"] >= 0.9
