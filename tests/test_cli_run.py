"""End-to-end: check, validate and report through the command line, down to the PDF pages."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from pflbounds.cli import main

SUITE = """
name = "mini"
seed = 11
grid = "quick"
[[checks]]
id = "even2022.P1"
[[checks]]
id = "even2022.P11"
"""


@pytest.fixture()
def suite(tmp_path: Path) -> Path:
    p = tmp_path / "mini.toml"
    p.write_text(SUITE)
    return p


def test_check_json(capsys):
    assert main(["check", "even2022.P11", "--quick", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["check_id"] == "even2022.P11"
    assert doc["verdict"] == "CONFIRMED" and doc["expected"] == "CONFIRMED"


def test_check_unknown_id(capsys):
    assert main(["check", "even2022.P111"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "even2022.P11" in err[0]


def test_validate_then_report(tmp_path, suite, capsys):
    out = tmp_path / "results"
    assert main(["validate", str(suite), "--out", str(out), "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["unexpected"] == []
    assert {o["check_id"] for o in doc["outcomes"]} == {"even2022.P1", "even2022.P11"}
    assert (out / "outcomes.json").exists() and (out / "results.csv").exists()

    pdf = tmp_path / "rep" / "mini.pdf"
    pdf.parent.mkdir()
    assert main(["report", str(out), "--out", str(pdf)]) == 0
    assert pdf.read_bytes()[:5] == b"%PDF-"
    typ = (tmp_path / "rep" / "mini" / "mini.typ").read_text()
    for needle in ("even2022.P11", "VIOLATED", "HOLDS", "even2022.erratum13",
                   "even2022.theorem3"):
        assert needle in typ
    csvs = list((tmp_path / "rep" / "mini" / "figures").glob("even2022.P11-*.csv"))
    assert csvs and "measured" in csvs[0].read_text()

    from pflbounds.reporting.pdf import render_pages_png

    pages = render_pages_png(pdf, tmp_path / "png", ppi=30)
    assert len(pages) >= 3 and all(p.stat().st_size > 1000 for p in pages)


def test_validate_exits_1_on_unexpected_verdict(tmp_path, monkeypatch):
    import dataclasses

    from pflbounds.checking import Verdict, registry

    c = registry.get("even2022.P10")
    registry.register(dataclasses.replace(c, expected=Verdict.VIOLATED), replace=True)
    try:
        p = tmp_path / "s.toml"
        p.write_text('name = "s"\nseed = 1\n[[checks]]\nid = "even2022.P10"\ngrid = "quick"\n')
        assert main(["validate", str(p), "--out", str(tmp_path / "o")]) == 1
    finally:
        registry.register(c, replace=True)


def test_bad_suite_is_one_line_exit_2(tmp_path, capsys):
    p = tmp_path / "bad.toml"
    p.write_text('name = "bad"\n[[checks]]\nid = "even2022.P99"\n')
    assert main(["validate", str(p), "--out", str(tmp_path / "o")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "even2022.P99" in err[0]


def test_console_script_runs():
    r = subprocess.run([sys.executable, "-m", "pflbounds.cli", "eval", "even2022.lemma4",
                        "b=2", "mu=1", "--json"], capture_output=True, text=True, check=False)
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["value"] == pytest.approx(2.0)


def test_eval_elasticities_json(capsys):
    assert main(["eval", "even2022.lemma6", "eta=0.1", "mu=1", "L=2", "T=10", "Delta0=1",
                 "sigma2=1", "--elasticities", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    el = doc["elasticities"]
    # f = e^{-eta mu T} Delta0 + eta L sigma2/mu: d log f/d log sigma2 = (eta L s/mu)/f
    f = doc["value"]
    assert el["sigma2"] == pytest.approx(0.1 * 2 * 1 / 1 / f, rel=1e-9)
    assert el["Delta0"] == pytest.approx(pytest.approx(2.718281828 ** -1 / f, rel=1e-6))
    assert el["L"] == pytest.approx(el["sigma2"], rel=1e-12)


def test_scheduler_is_a_clear_error(capsys):
    assert main(["validate", "--scheduler", "tcp://127.0.0.1:1"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "--jobs" in err[0]


def test_report_runs_a_suite_file(tmp_path, suite, capsys):
    """`pflbounds report SUITE.toml`, the README run command, runs the suite to a PDF."""
    pdf = tmp_path / "mini.pdf"
    assert main(["report", str(suite), "--out", str(pdf), "--no-cache"]) == 0
    assert pdf.read_bytes()[:5] == b"%PDF-"
    err = capsys.readouterr().err
    assert "Traceback" not in err
    assert "even2022.P11" in (tmp_path / "mini" / "mini.typ").read_text()
