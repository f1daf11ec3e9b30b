"""The report as a reader sees it (a --detail full report of a few even2022 checks): every page
rendered, every figure labelled, captioned and inside its page, claim verdicts, errata with
how they are known, clean ids."""

from __future__ import annotations

import io
import re
import zlib
from pathlib import Path

import matplotlib
import matplotlib.image as mpimg
import numpy as np
import pytest
from report_sample import SMALL_CHECKS

from pflbounds.reporting import render_pages_png
from pflbounds.reporting.assemble import build_report, data_command
from pflbounds.reporting.figures import _RC, build_figure, texts_outside
from pflbounds.reporting.pdf import report_source
from pflbounds.reporting.plainmath import to_mathtext
from pflbounds.running.results import load_outcomes

A4_CM = (21.0, 29.7)
MARGIN_CM = 1.7


@pytest.fixture(scope="module")
def typ(small_report) -> str:
    return report_source(small_report).read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def model(small_results):
    results, _ = small_results
    return build_report(load_outcomes(results), suite="small", detail="full")


def _plots(model):
    return [(v, p) for _, v in model.all_verdicts() for p in v.plots]


def test_every_page_renders_with_nothing_outside_the_margins(small_report, tmp_path):
    ppi = 40
    pages = render_pages_png(small_report, tmp_path, ppi=ppi)
    assert len(pages) >= 5
    margin = int(round((MARGIN_CM - 0.15) / 2.54 * ppi))
    edge = int(round(0.4 / 2.54 * ppi))
    for page in pages:
        img = np.asarray(mpimg.imread(io.BytesIO(page.read_bytes()), format="png"), float)
        ink = img[..., :3].min(axis=-1) < 0.85
        h, w = ink.shape
        assert w == pytest.approx(A4_CM[0] / 2.54 * ppi, abs=2)
        assert ink.mean() > 0.002, page  # not blank
        # text, tables, equations and figures stay inside the text width (left and right
        # margins blank) and off the very top and bottom of the page
        assert not ink[:, :margin].any(), f"{page.name}: ink in the left margin"
        assert not ink[:, w - margin:].any(), f"{page.name}: ink in the right margin"
        assert not ink[:edge].any() and not ink[h - edge:].any(), page.name


def test_every_figure_has_typeset_labelled_axes_a_caption_and_no_text_outside(model):
    plots = _plots(model)
    assert len(plots) >= 6
    for row, plot in plots:
        for label in (plot.xlabel, plot.ylabel):
            assert label and label not in ("metric", "measured", "value"), row.check_id
            typeset = to_mathtext(label)
            outside_math = re.sub(r"\$[^$]*\$", "", typeset)
            assert "_" not in outside_math and "^" not in outside_math, typeset
        assert plot.title.startswith(row.check_id) and plot.caption, row.check_id
        with matplotlib.rc_context(_RC):
            fig = build_figure(plot)
            assert fig.axes[0].get_title() == ""  # the caption says what it shows
            assert texts_outside(fig) == [], row.check_id


def test_every_figure_in_the_source_is_captioned_and_errata_do_not_reprint_them(model, typ):
    images = re.findall(r'image\("figures/([^"]+)\.svg"', typ)
    assert len(images) == len(_plots(model)) == len(set(images))
    for stem in images:  # a caption that says which check and what it shows
        after = typ[typ.index(f'figures/{stem}.svg'):][:900]
        assert re.search(r'Check #ident\("even2022\.[\w.]+"\) \((printed|explicit|corrected|'
                         r'proof) [A-Z]+', after), stem
    for box in typ.split("#erratum-box(")[1:]:
        assert "image(" not in box.split("<erratum-")[0]


def test_figures_without_information_are_tables(model, typ):
    rows = {v.check_id: v for _, v in model.all_verdicts()}
    for cid in ("even2022.P9_lemma5", "even2022.P14", "even2022.P10", "even2022.E17"):
        assert not rows[cid].plots and rows[cid].tables, cid
    assert "max |residual|" not in " ".join(p.ylabel for _, p in _plots(model))
    p14 = rows["even2022.P14"].tables[0]
    assert p14.columns == ["series", "eps (target accuracy)", "K_eps (oracle calls)"]


def test_claim_verdicts_and_errata_say_how_they_are_known(model, typ):
    assert "(expected)" not in typ and "CONFIRMED" not in typ
    # P15_global: a claim of the paper that fails, shown as the paper's failure, unmarked
    assert '#claimv("corrected", "VIOLATED")' in typ and "#unexpected[expected" not in typ
    errata = {e.id: e for s in model.sections for e in s.errata}
    assert errata["even2022.erratum17"].status == "shown by a run"  # E17: identity HOLDS
    assert errata["even2022.erratum11"].status == "shown by a run"  # via P10
    assert errata["even2022.erratum20"].status == "argued from the text"
    assert errata["even2022.erratum6"].status == "not run"  # E6 is not in this run
    box = typ[typ.index("#erratum-box"):]
    box = box[box.index("even2022.erratum17"):]
    box = box[:box.index("<erratum-even2022-erratum17>")]
    assert '#status("shown by a run", [shown by a run])' in box
    assert typ.count("hidden constant set to 1") == 1


def test_every_erratum_of_the_paper_is_reported():
    from pflbounds.papers.even2022.errata import ERRATA
    from pflbounds.reporting.assemble import build_report as build

    report = build([])
    even = next(s for s in report.sections if s.paper_id == "even2022")
    assert {e.id for e in even.errata} == {e.id for e in ERRATA.values()}


def test_numbers_are_rounded_and_ids_copy_cleanly(small_report, typ):
    for line in typ.splitlines():
        if line.lstrip().startswith("caption:") or line.startswith("#block("):
            for number in re.findall(r"(?<![\w.])\d+\.\d+", line):
                assert len(number.replace(".", "").lstrip("0")) <= 4, (number, line)
    assert "\u200b" not in typ
    # no zero-width space in any font's ToUnicode map of the PDF
    pdf = small_report.read_bytes()
    for m in re.finditer(rb"stream\r?\n(.*?)\r?\nendstream", pdf, re.S):
        try:
            data = zlib.decompress(m.group(1))
        except zlib.error:
            continue
        if b"beginbfchar" in data or b"beginbfrange" in data:
            assert b"<200B>" not in data.upper()
    for cid in SMALL_CHECKS:
        assert f'#ident("{cid}")' in typ


def test_provenance_names_the_validate_command(small_results, small_report, typ):
    results, suite = small_results
    outcomes = load_outcomes(results)
    assert data_command(outcomes, results, suites_dir=suite.parent) == \
        f"pflbounds validate {suite} --out {results}"
    other = Path(suite.parent / "elsewhere")
    other.mkdir(exist_ok=True)
    assert data_command(outcomes, results, suites_dir=other).startswith(
        f"pflbounds validate SUITE --out {results}, with a suite of these "
        f"{len(SMALL_CHECKS)} checks, seed = 2022")
    prov = typ[typ.index("= Provenance"):]
    assert "Data made by" in prov and "pflbounds validate" in prov
    assert f"pflbounds report {results} --out {small_report}" in prov
