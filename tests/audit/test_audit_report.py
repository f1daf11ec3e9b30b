"""The audit page of the report and the overview's sentence on the family-wise level."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from pflbounds.checking import Check, CheckKind, Verdict, mc_block
from pflbounds.cli import main
from pflbounds.reporting.audit_page import error_control_sentence, load_audit
from pflbounds.reporting.pdf import report_folder, report_source
from pflbounds.running.executor import RunSpec, run_specs


def noisy(p, n, ss):
    x = 0.5 + np.random.default_rng(ss).standard_normal((n, 2))
    return {"ks": np.array([1.0, 2.0]), **mc_block(x), "bound": np.array([1.0, 1.0])}


CHECKS = [Check(f"rep.c{i}", "noisy", CheckKind.BOUND_HOLDS, Verdict.HOLDS, noisy,
                grid=({"i": i},), engine="mc", replicas=50) for i in range(3)]


def test_error_control_sentence_states_each_family_and_its_level(extra_paper):
    from pflbounds.checking import registry

    extra_paper("comparepaper")
    declared = [registry.get("comparepaper.bound"), registry.get("comparepaper.better")]
    run = run_specs([RunSpec(c) for c in [*declared, *CHECKS]], progress=False)
    text = error_control_sentence(run)
    assert "at a fixed share of the paper's family-wise level" in text
    assert "Error families: comparepaper at 5% over its 5 Monte Carlo checks." in text
    assert ("The other 3 Monte Carlo checks (of papers that declare no error family) each "
            "correct only their own comparisons.") in text
    per = run_specs([RunSpec(c) for c in CHECKS], progress=False, multiplicity="per-check")
    text = error_control_sentence(per)
    assert "Bonferroni at 1% per check" in text and "can reach 3%" in text
    assert error_control_sentence([]) == ""


@pytest.fixture
def audit_dir(audit_paper, tmp_path) -> Path:
    out = tmp_path / "audit"
    assert main(["audit", "mutants", "--paper", "auditpaper", "--out", str(out)]) == 0
    assert main(["audit", "tightness", "--paper", "auditpaper", "--out", str(out)]) == 1
    return out


def test_report_with_the_audit_chapter(audit_dir, tmp_path, capsys):
    from pflbounds.reporting.pdf import render_pages_png
    from pflbounds.running.results import save_outcomes

    page = load_audit(audit_dir)
    assert len(page.mutants) == 1 and len(page.tightness) == 1 and len(page.plots) == 1
    from pflbounds.checking import registry

    results = tmp_path / "results"
    specs = [RunSpec(registry.get(c), 100, True) for c in ("even2022.P1_mc", "even2022.P12")]
    save_outcomes(run_specs(specs, progress=False), results)
    pdf = tmp_path / "out" / "r.pdf"
    pdf.parent.mkdir()
    assert main(["report", str(results), "--out", str(pdf), "--audit", str(audit_dir)]) == 0
    typ = report_source(pdf).read_text()
    assert "Audits: how much to trust a verdict" in typ
    assert "Checker power: auditpaper" in typ and "Tightness against PEPit" in typ
    assert "Error families: even2022 at 1% over its 13 Monte Carlo checks" in typ  # overview
    assert "2 \\-\\> 1 in 2\\*Delta0" in typ  # a survivor of the loose lemma, with its change
    assert typ.count("Lemma 2 is loose by a factor 2 on purpose") == 1  # once per form
    fig = report_folder(pdf) / "figures" / "audit-tightness-auditpaper.csv"
    assert fig.is_file() and "printed" in fig.read_text()
    assert render_pages_png(pdf, tmp_path / "png", ppi=30)


def test_bad_audit_folder_is_one_line(tmp_path, capsys):
    import dataclasses

    from pflbounds.running.results import save_outcomes

    results = tmp_path / "results"
    # outcomes of a paper of the catalog (those of an unknown paper are refused first)
    known = dataclasses.replace(CHECKS[0], id="even2022.audit_report_probe")
    save_outcomes(run_specs([RunSpec(known)], progress=False), results)
    empty = tmp_path / "empty"
    empty.mkdir()
    (tmp_path / "bad").mkdir()
    (tmp_path / "bad" / "mutants-x.json").write_text("{trunc")
    for folder, message in ((tmp_path / "nope", "does not exist"),
                            (empty, "holds no audit file"),
                            (tmp_path / "bad", "cannot be read")):
        assert main(["report", str(results), "--out", str(tmp_path / "r.pdf"), "--audit",
                     str(folder)]) == 2
        err = capsys.readouterr().err
        assert message in err and err.count("\n") == 1


def test_false_alarm_document_renders(tmp_path):
    from pflbounds.reporting.audit_page import AuditPage, audit_typst

    doc = {"suite": "quick", "runs": 10, "within": True,
           "papers": [{"paper": "even2022", "family_level": 0.01, "checks": 1, "limit": 1,
                       "any_per_check": 2, "any_family": 0, "rate_per_check": 0.2,
                       "rate_family": 0.0, "within": True}],
           "checks": [{"check": "even2022.P7", "runs": 10, "violated": 2, "rate": 0.2,
                       "rate_95": [0.02, 0.56], "violated_family": 0,
                       "inconclusive_family": 1}]}
    lines = audit_typst(AuditPage(false_alarms=[json.loads(json.dumps(doc))]), {})
    text = "\n".join(lines)
    assert "False alarms: suite quick" in text and "#ident(\"even2022.P7\")" in text
    assert "even2022: 2 (20%) with each check at its own level, 0 (0%) with the paper" in text
    assert "0\\.200 \\[0.020, 0.560\\]" in text
