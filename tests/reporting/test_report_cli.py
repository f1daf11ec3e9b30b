"""`pflbounds report`: every bad source or output is one line (exit 2) checked before any
work; a full disk or Ctrl-C leaves the previous report as it was."""

from __future__ import annotations

import errno
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from pflbounds.cli import main
from pflbounds.reporting.pdf import report_folder, report_source


def _one_line_error(capsys, code: int, *needles: str) -> str:
    err = capsys.readouterr().err
    assert code == 2, err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("pflbounds report: error: ")
    assert "Traceback" not in err
    for n in needles:
        assert n in lines[0], lines[0]
    return lines[0]


def _snapshot(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*"))
            if p.is_file()}


@pytest.fixture
def written(small_report):
    """A report written once; tests copy it before changing anything."""
    return small_report


@pytest.mark.parametrize(
    ("out", "needle"),
    [
        ("missing-folder/r.pdf", "does not exist"),
        ("/proc/pflbounds-report.pdf", "cannot write in folder /proc"),
        ("r.txt", "must name a .pdf file"),
        ("folder.pdf", "is an existing folder"),
        ("notes.pdf", "is an existing file that pflbounds did not write"),
    ],
)
def test_bad_out_is_one_line_before_any_work(small_results, tmp_path, capsys, out, needle):
    results, _ = small_results
    (tmp_path / "folder.pdf").mkdir()
    (tmp_path / "notes.pdf").write_bytes(b"%PDF-1.7 somebody's paper")
    target = out if out.startswith("/") else str(tmp_path / out)
    code = main(["report", str(results), "--out", target])
    _one_line_error(capsys, code, needle)
    assert (tmp_path / "notes.pdf").read_bytes() == b"%PDF-1.7 somebody's paper"
    assert not (tmp_path / "figures").exists()


def test_a_foreign_figures_folder_is_not_replaced(small_results, tmp_path, capsys):
    results, _ = small_results
    (tmp_path / "r" / "figures").mkdir(parents=True)
    (tmp_path / "r" / "figures" / "photo.jpg").write_bytes(b"jpg")
    code = main(["report", str(results), "--out", str(tmp_path / "r.pdf")])
    _one_line_error(capsys, code, "figures/photo.jpg", "holds files the report did not write")
    assert (tmp_path / "r" / "figures" / "photo.jpg").exists()


@pytest.mark.parametrize(
    ("files", "needle"),
    [
        ({}, "is empty"),
        ({"results.csv": "check_id\n"}, "holds results.csv but no outcomes.json"),
        ({"outcomes.json": '{"format": "pflbounds.outcomes/1", "outc'}, "truncated"),
        ({"outcomes.json": '{"format": "pflbounds.outcomes/1", "outcomes": []}'},
         "holds no outcomes"),
        ({"outcomes.json": '{"outcomes": [{"check_id": "x"}]}'},
         "not a pflbounds results file"),
    ],
)
def test_empty_or_partial_results_folder(tmp_path, capsys, files, needle):
    folder = tmp_path / "results"
    folder.mkdir()
    for name, text in files.items():
        (folder / name).write_text(text, encoding="utf-8")
    code = main(["report", str(folder), "--out", str(tmp_path / "r.pdf")])
    _one_line_error(capsys, code, str(folder), needle)
    assert not (tmp_path / "r.pdf").exists()


def test_report_files_follow_the_umask(written):
    mask = os.umask(0o022)
    os.umask(mask)
    for p in (written, report_source(written), report_folder(written) / "figures"):
        base = 0o777 if p.is_dir() else 0o666
        assert p.stat().st_mode & 0o777 == base & ~mask, p
    svg = next((report_folder(written) / "figures").glob("*.svg"))
    assert svg.stat().st_mode & 0o777 == 0o666 & ~mask


def test_full_disk_leaves_the_previous_report(small_results, written, tmp_path, capsys,
                                              monkeypatch):
    import pflbounds.reporting.pdf as pdf

    results, _ = small_results
    shutil.copytree(written.parent, tmp_path / "r")
    out = tmp_path / "r" / written.name
    before = _snapshot(out.parent)

    def full(path, data):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(pdf, "_atomic_write", full)
    code = main(["report", str(results), "--out", str(out), "--detail", "full"])
    _one_line_error(capsys, code, "No space left on device", str(out))
    after = _snapshot(out.parent)
    assert after.keys() == before.keys()
    assert all(after[k] == before[k] for k in before if not k.startswith("small/"))
    assert not [p for p in out.parent.iterdir() if p.name.startswith(".")]


def test_interrupt_half_way_keeps_the_previous_figures(small_results, written, tmp_path,
                                                       capsys, monkeypatch):
    import pflbounds.reporting.pdf as pdf

    results, _ = small_results
    shutil.copytree(written.parent, tmp_path / "r")
    out = tmp_path / "r" / written.name
    figures_before = _snapshot(report_folder(out) / "figures")
    pdf_before = out.read_bytes()
    real = pdf.render_plot
    calls = []

    def render_then_interrupt(*args, **kwargs):
        calls.append(1)
        if len(calls) == 3:
            raise KeyboardInterrupt
        return real(*args, **kwargs)

    monkeypatch.setattr(pdf, "render_plot", render_then_interrupt)
    code = main(["report", str(results), "--out", str(out), "--detail", "full"])
    err = capsys.readouterr().err
    assert code == 130
    assert err.strip().splitlines() == [
        f"pflbounds report: interrupted; {out} and its figures are as they were"]
    assert _snapshot(report_folder(out) / "figures") == figures_before
    assert out.read_bytes() == pdf_before
    assert not [p for p in out.parent.iterdir() if p.name.startswith(".")]


_HOLD_AFTER_COMPILE = """\
import signal, sys, time
from pathlib import Path

# a Ctrl-C reaches the program as in a terminal, even when the tests run as a background job
# (whose children inherit SIGINT ignored, and Python then installs no handler of its own)
signal.signal(signal.SIGINT, signal.default_int_handler)
import pflbounds.reporting.pdf as pdf
from pflbounds.cli import main

real = pdf.compile_typst


def compile_then_hold(*args, **kwargs):
    out = real(*args, **kwargs)
    Path(sys.argv[1]).write_text("compiled", encoding="utf-8")
    time.sleep(600)
    return out


pdf.compile_typst = compile_then_hold
sys.exit(main(sys.argv[2:]))
"""


def test_sigint_is_one_line_and_exit_130(small_results, tmp_path):
    """A real Ctrl-C while the report is being written: the child process compiles the PDF
    in its staging folder, says so through a marker file and then holds before anything is
    moved into place, so the signal always arrives mid-write (a fast report cannot finish
    first)."""
    results, _ = small_results
    out = tmp_path / "out" / "r.pdf"
    out.parent.mkdir()
    marker = tmp_path / "compiled"
    proc = subprocess.Popen([sys.executable, "-c", _HOLD_AFTER_COMPILE, str(marker), "report",
                             str(results), "--out", str(out)], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and proc.poll() is None and not marker.exists():
        time.sleep(0.05)
    assert proc.poll() is None and marker.exists(), proc.communicate()
    assert [p for p in out.parent.iterdir() if p.name.startswith(".r-staging-")]
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert err.strip().splitlines() == [
        f"pflbounds report: interrupted; {out} and its figures are as they were"]
    assert not out.exists() and not (report_folder(out) / "figures").exists()
    assert not report_source(out).exists()
    assert not [p for p in out.parent.iterdir() if p.name.startswith(".")]


def test_a_report_of_one_papers_results_loads_only_that_paper(small_results, tmp_path):
    """The report of even2022 results builds neither the other papers nor their checks."""
    results, _ = small_results
    out = tmp_path / "r.pdf"
    code = (
        "import sys\nfrom pflbounds.cli import main\n"
        f"assert main(['report', {str(results)!r}, '--out', {str(out)!r}]) == 0\n"
        "print(sorted({m.split('.')[2] for m in sys.modules\n"
        "              if m.startswith('pflbounds.papers.') and m.count('.') >= 2}))\n")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                       timeout=600, check=False)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip().splitlines()[-1] == "['even2022']"
    assert out.stat().st_size > 10_000


def test_a_second_report_never_touches_the_first(small_results, tmp_path, capsys):
    """Each report owns reports/NAME/: two reports into one folder under different names
    leave the first's files byte-identical, and its source still compiles."""
    from pflbounds.reporting.pdf import compile_typst

    results, _ = small_results
    first = tmp_path / "first.pdf"
    assert main(["report", str(results), "--out", str(first)]) == 0
    before = _snapshot(tmp_path)
    assert any(k.startswith("first/figures/") and k.endswith(".svg") for k in before)
    assert "first/first.typ" in before and "first/outcomes.json" in before
    assert main(["report", str(results), "--out", str(tmp_path / "second.pdf")]) == 0
    capsys.readouterr()
    after = _snapshot(tmp_path)
    assert {k: v for k, v in after.items() if not k.startswith("second")} == before
    assert any(k.startswith("second/figures/") for k in after)
    assert compile_typst(report_source(first))[:5] == b"%PDF-"


@pytest.mark.parametrize("user_file", ["notes.txt", "figures/photo.jpg", "figures/sub/x.svg"])
def test_a_report_folder_holding_a_users_file_is_refused(small_results, tmp_path, capsys,
                                                         user_file):
    results, _ = small_results
    (tmp_path / "r" / user_file).parent.mkdir(parents=True)
    (tmp_path / "r" / user_file).write_bytes(b"mine")
    before = _snapshot(tmp_path)
    code = main(["report", str(results), "--out", str(tmp_path / "r.pdf")])
    _one_line_error(capsys, code, user_file.split("/sub")[0].replace("/x.svg", ""),
                    "holds files the report did not write")
    assert _snapshot(tmp_path) == before


def test_validate_into_a_reports_folder_keeps_the_report(small_results, tmp_path, capsys):
    """Results saved again into reports/NAME/ keep the report's source and figures there."""
    from pflbounds.running.results import load_outcomes, save_outcomes

    results, _ = small_results
    out = tmp_path / "small.pdf"
    assert main(["report", str(results), "--out", str(out)]) == 0
    capsys.readouterr()
    figures = _snapshot(report_folder(out) / "figures")
    source = report_source(out).read_bytes()
    save_outcomes(load_outcomes(results), report_folder(out))
    assert _snapshot(report_folder(out) / "figures") == figures
    assert report_source(out).read_bytes() == source


def test_outcomes_of_an_unknown_paper_are_refused(small_results, tmp_path, capsys):
    import json

    results, _ = small_results
    doc = json.loads((results / "outcomes.json").read_text())
    doc["outcomes"][0]["check_id"] = "nopaper2031.P1"
    (tmp_path / "res").mkdir()
    (tmp_path / "res" / "outcomes.json").write_text(json.dumps(doc))
    code = main(["report", str(tmp_path / "res"), "--out", str(tmp_path / "r.pdf")])
    _one_line_error(capsys, code, "'nopaper2031.P1'", "paper 'nopaper2031'",
                    "not in the catalog")
    assert not (tmp_path / "r.pdf").exists() and not (tmp_path / "r").exists()
