"""The quick report of the quick suite, as a reviewer gets it: at most 30 pages, the findings
of all five papers on pages 1-2 in the papers' own names, one vocabulary, nothing outside the
margins; and the ``--detail full`` report made from the same results.

The only test that runs the quick suite (about half a minute on 2 cores); everything else
reads the PDFs it writes.
"""

from __future__ import annotations

import io
import re
import shutil
import subprocess
from pathlib import Path

import matplotlib.image as mpimg
import numpy as np
import pytest

from pflbounds.checking.vocabulary import CLAIM_STATUS, CLAIM_VERDICTS
from pflbounds.reporting.pdf import render_pages_png

PAPERS = ("erickson2025", "even2022", "hanzely2023", "philippenko2025", "scott2024")
MARGIN_CM = 1.7  # the page margins of the report (x)
A4_WIDTH_CM = 21.0

pytestmark = pytest.mark.skipif(shutil.which("pdftotext") is None,
                                reason="pdftotext (poppler) extracts the PDF's text")


def _text(pdf: Path, first: int | None = None, last: int | None = None,
          layout: bool = True) -> str:
    args = ["pdftotext", *(["-layout"] if layout else [])]
    if first is not None:
        args += ["-f", str(first), "-l", str(last or first)]
    out = subprocess.run([*args, str(pdf), "-"], capture_output=True, check=True, timeout=120)
    return out.stdout.decode("utf-8")


@pytest.fixture(scope="module")
def quick(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from pflbounds.cli import main

    pdf = tmp_path_factory.mktemp("quick") / "quick.pdf"
    # the task cache of the working copy, shared with `pflbounds validate` (a rerun is bitwise
    # identical, so its tasks can be reused)
    assert main(["report", "validation/quick.toml", "--out", str(pdf), "--jobs", "2"]) == 0
    return pdf


@pytest.fixture(scope="module")
def full(quick: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    from pflbounds.cli import main

    pdf = tmp_path_factory.mktemp("full") / "full.pdf"
    assert main(["report", str(quick.with_suffix("")), "--out", str(pdf),
                 "--detail", "full"]) == 0
    return pdf


@pytest.fixture(scope="module")
def model(quick: Path):
    from pflbounds.reporting.assemble import build_report
    from pflbounds.running.results import load_outcomes

    return build_report(load_outcomes(quick.with_suffix("")), suite="quick")


def _pages(pdf: Path) -> int:
    info = subprocess.run(["pdfinfo", str(pdf)], capture_output=True, check=True, timeout=60)
    return int(re.search(rb"Pages:\s+(\d+)", info.stdout).group(1))


def test_at_most_30_pages_and_the_findings_of_all_five_papers_on_pages_1_and_2(quick, model):
    from pflbounds.reporting.claims import paper_findings

    assert _pages(quick) <= 30
    first = _text(quick, 1, 2)
    flowing = " ".join(_text(quick, 1, 2, layout=False).split())
    assert "1 Findings" in first
    for section in model.sections:
        assert section.paper_id in first
        for f in paper_findings(section):  # every claim, in a row or a summary line
            assert f.name in flowing, (section.paper_id, f.name)
    for name in ("Theorem 4.3", "Lemma C.5", "Table 3", "Theorem 3.1", "Corollary 1",
                 "Lemma A.2", "Definition 2"):
        assert name in first
    assert re.search(r"fails: ratio [\d.]+ at", first)
    # the failures of each paper come before the claims that hold
    for pid in PAPERS:
        part = first[first.index(pid):]
        assert part.index("fails") < part.index("Hold as printed")


def test_one_vocabulary_and_no_expected_marker(quick, model):
    text = _text(quick)
    assert "(expected)" not in text
    used = set(re.findall(r"\b(HOLDS|VIOLATED|INCONCLUSIVE|ERROR|CONFIRMED|NOT_CONFIRMED|"
                          r"DEMONSTRATED|NOT DEMONSTRATED)\b", text))
    assert used <= set(CLAIM_VERDICTS) and {"HOLDS", "VIOLATED"} <= used
    assert "REGRESSION" not in text[text.index("1 Findings"):]  # 132 of 132 as expected
    assert "No regression: all 132 verdicts" in text
    first = _text(quick, 1, 1)
    for word in (*CLAIM_VERDICTS, *CLAIM_STATUS, "Ratio", "shown by a run",
                 "argued from the text"):
        assert word.split(" ")[0] in first, word
    for name in ("digest", "CONFIRMED", "DEMONSTRATED"):
        assert name not in text, name


def test_figures_say_what_they_show_and_number_only_the_parts_there_are(quick, full, model):
    plots = [(v, p) for s in model.sections for v in s.verdicts for p in v.plots]
    assert plots
    for v, p in plots:
        assert not re.search(r"\(\d+/\d+\)\s*$", p.title), p.title
        m = re.search(r"\(part (\d+) of (\d+)\)$", p.title)
        if m:
            assert int(m.group(2)) == len(v.plots) >= int(m.group(1)) >= 1
    for pdf in (quick, full):
        text = " ".join(_text(pdf, layout=False).split())
        captions = re.findall(r"Figure\.? ?\d*:? Check (\S+) \(", text)
        assert captions and all(c in {v.check_id for v, _ in plots} or "." in c
                                for c in captions)
        assert not re.search(r"\(\d+/\d+\)\. point", text)


def test_the_findings_speak_of_claims_and_controls_are_apart(quick, model):
    from pflbounds.reporting.claims import controls

    text = _text(quick)
    assert [v.check_id for _, v in controls(model)] == ["scott2024.P8_planted"]
    found = text[text.index("1 Findings"):text.index("2 Controls")]
    assert "P8_planted" not in found
    ctl = text[text.index("2 Controls"):text.index("3 Errata")]
    assert "scott2024.P8_planted" in ctl
    # even2022's P15_global (a claim of the paper that fails) is a failure of Corollary 1
    even = found[found.index("even2022"):found.index("hanzely2023")]
    row = next(line for line in even.splitlines() if line.startswith("Corollary 1"))
    assert "fails: ratio" in row


def test_provenance_names_versions_commit_papers_and_the_seed(quick, model):
    text = _text(quick)
    prov = text[text.rindex("Provenance"):]
    for lib in ("numpy", "SciPy", "SymPy", "CVXPY", "Clarabel", "JAX", "PEPit", "Typst"):
        assert lib in prov
    assert "commit" in prov and ("not a git checkout" in prov or re.search(r"[0-9a-f]{40}",
                                                                           prov))
    assert "2022" in prov and "Seed" in prov
    for s in model.sections:
        assert s.citation and s.citation.split(".")[0] in prov.replace("\n", " ")


def _ink_outside(png: Path, ppi: float) -> list[str]:
    img = np.asarray(mpimg.imread(io.BytesIO(png.read_bytes()), format="png"), float)
    ink = img[..., :3].min(axis=-1) < 0.85
    h, w = ink.shape
    assert w == pytest.approx(A4_WIDTH_CM / 2.54 * ppi, abs=2)
    margin = int(round((MARGIN_CM - 0.15) / 2.54 * ppi))
    edge = int(round(0.4 / 2.54 * ppi))
    out = []
    if ink[:, :margin].any():
        out.append("left")
    if ink[:, w - margin:].any():
        out.append("right")
    if ink[:edge].any() or ink[h - edge:].any():
        out.append("top or bottom")
    return out


@pytest.mark.parametrize("which", ["quick", "full"])
def test_no_ink_outside_the_margins_on_any_page(which, request, tmp_path):
    pdf = request.getfixturevalue(which)
    ppi = 30
    pages = render_pages_png(pdf, tmp_path, ppi=ppi)
    assert len(pages) == _pages(pdf)
    bad = {p.name: where for p in pages if (where := _ink_outside(p, ppi))}
    assert not bad, bad


def test_the_full_report_adds_a_detail_appendix_with_every_other_claim(quick, full, model):
    from pflbounds.reporting.claims import paper_findings

    assert _pages(full) > _pages(quick)
    text = _text(full)
    detail = text[text.rindex("Detail: every other claim"):]
    for section in model.sections:
        for f in paper_findings(section):
            if not f.in_quick:
                assert f"{section.paper_id} · {f.name}" in detail, f.name
    assert "Seeds and configuration hashes" in detail
