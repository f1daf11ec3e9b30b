"""The quick report as a reader copies it out of the PDF: no math set as code anywhere.

Typst math extracts as Unicode (≤, ‖, √, 𝐿): any ASCII spelling of the plain notation
(``<=``, ``||x||``, ``sqrt(``, ``L1^2``, ``lam_h``) or a Python repr (``(0,)``, ``True``) in the
text of a page is notation that reached the PDF as prose. Figures are drawn as paths, so
their labels are checked before matplotlib sees them.
"""

from __future__ import annotations

import re
from pathlib import Path

import matplotlib.mathtext as mathtext
import pytest
from code_math import code_math

from pflbounds.cli import main
from pflbounds.reporting.assemble import build_report
from pflbounds.reporting.plainmath import to_mathtext
from pflbounds.running.results import load_outcomes

pypdf = pytest.importorskip("pypdf")

QUICK = Path(__file__).resolve().parents[2] / "validation" / "quick.toml"


@pytest.fixture(scope="module")
def quick_report(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``pflbounds report validation/quick.toml`` into a temporary folder (built once)."""
    out = tmp_path_factory.mktemp("quick-report") / "quick.pdf"
    assert main(["report", str(QUICK), "--out", str(out), "--no-cache"]) == 0
    return out


def test_no_page_of_the_quick_report_sets_math_as_code(quick_report):
    pages = [p.extract_text() for p in pypdf.PdfReader(quick_report).pages]
    assert len(pages) > 20
    text = "\n".join(pages)
    # the extraction reads Typst's math: Unicode relations and italic letters are there
    assert "≤" in text and "‖" in text and "𝐾" in text
    found = [(n, hit) for n, page in enumerate(pages, 1) for hit in code_math(page)]
    assert not found, found[:10]


def test_every_figure_label_of_the_quick_report_is_typeset(quick_report):
    results = quick_report.parent / quick_report.stem
    report = build_report(load_outcomes(results), suite="quick")
    parser = mathtext.MathTextParser("path")
    labels = {(v.check_id.split(".")[0], label) for _, v in report.all_verdicts()
              for plot in v.plots
              for label in (plot.xlabel, plot.ylabel, *(s.label for s in plot.series))
              if label}
    assert len(labels) > 50
    for paper, label in sorted(labels):
        typeset = to_mathtext(label, paper)
        parser.parse(typeset)
        outside = re.sub(r"\$[^$]*\$", " ", typeset)
        assert not code_math(outside), (paper, label, typeset)
