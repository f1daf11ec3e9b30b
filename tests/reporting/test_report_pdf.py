"""End-to-end: a realistic report is written, compiled and rendered."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import matplotlib.image as mpimg
import numpy as np
import pytest
from report_sample import (
    AFA_HI,
    AFA_LO,
    AFA_MEAN,
    K_GRID,
    THM3_BOUND,
    THM3_CORRECTED,
    make_sample_report,
)

from pflbounds.reporting import (
    FormBlock,
    ReportCompileError,
    build_document,
    plan_figures,
    render_pages_png,
    write_report,
)
from pflbounds.reporting.pdf import report_folder, report_source
from pflbounds.symbolic.typst_printer import typst_math


def _ink(png: Path) -> float:
    img = np.asarray(mpimg.imread(io.BytesIO(png.read_bytes()), format="png"), dtype=float)
    return float(np.mean(img[..., :3].min(axis=-1) < 0.9))


@pytest.fixture(scope="module")
def written(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, object]:
    report = make_sample_report()
    out = tmp_path_factory.mktemp("report") / "even2022.pdf"
    return write_report(report, out), report


def test_pdf_typ_and_figures_exist(written) -> None:
    pdf, report = written
    assert pdf.exists()
    assert pdf.read_bytes()[:5] == b"%PDF-"
    assert report_source(pdf).exists()
    stems = sorted(plan_figures(report).values())
    assert stems == [
        "even2022.E13-1",
        "even2022.corollary2.scaling_C-1",
        "even2022.theorem3.star_divergence-1",
    ]
    for stem in stems:
        svg = report_folder(pdf) / "figures" / f"{stem}.svg"
        assert svg.read_text(encoding="utf-8").lstrip().startswith("<?xml")
        assert (report_folder(pdf) / "figures" / f"{stem}.csv").exists()


def test_csv_matches_input_numbers(written) -> None:
    pdf, _ = written
    path = report_folder(pdf) / "figures" / "even2022.theorem3.star_divergence-1.csv"
    with path.open(newline="", encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh))
    assert list(rows[0]) == ["series", "x", "y", "lo", "hi"]
    measured = [r for r in rows if r["series"] == "measured E[F^K]"]
    printed = [r for r in rows if r["series"] == "Theorem 3, printed"]
    assert len(measured) == len(K_GRID) == len(printed)
    np.testing.assert_array_equal([float(r["x"]) for r in measured], K_GRID)
    np.testing.assert_array_equal([float(r["y"]) for r in measured], AFA_MEAN)
    np.testing.assert_array_equal([float(r["lo"]) for r in measured], AFA_LO)
    np.testing.assert_array_equal([float(r["hi"]) for r in measured], AFA_HI)
    np.testing.assert_array_equal([float(r["y"]) for r in printed], THM3_BOUND)
    assert all(r["lo"] == "" and r["hi"] == "" for r in printed)
    bars = report_folder(pdf) / "figures" / "even2022.E13-1.csv"
    text = bars.read_text(encoding="utf-8").splitlines()
    assert text == [
        "series,x,y,lo,hi",
        "rho(W),clusters,1.0,,",
        "rho(W),ring,1.0,,",
        "rho(W),star,5.01,,",
    ]


def test_typ_source_has_claim_verdicts_marks_a_regression_and_has_no_expected(written) -> None:
    pdf, report = written
    typ = report_source(pdf).read_text(encoding="utf-8")
    # the erratum check speaks of its two claims, never of CONFIRMED
    assert '#claimv("printed", "VIOLATED") #claimv("corrected", "HOLDS")' in typ
    assert "CONFIRMED" not in typ and "(expected)" not in typ
    # the INCONCLUSIVE scaling check expects HOLDS: a regression, said on page 1 and marked
    first = typ[:typ.index("= Findings")]
    assert "REGRESSION: 1 verdict of 3 differs" in first
    assert '#ident("even2022.corollary2.scaling_C")' in first
    assert typ.count("#unexpected[expected printed HOLDS]") == 1
    # Theorem 3 fails as printed, with its ratio, and its block shows the erratum in full
    assert '#status("fails", [fails: ratio \\>1e6 at $K = 30$])' in typ  # clipped
    assert "<erratum-even2022-E13>" in typ and "<claim-even2022-Theorem-3>" in typ
    assert "\u200b" not in typ  # check ids copy cleanly: no zero-width spaces
    assert "pflbounds validate even2022 --jobs 2 --out reports/" in typ


def test_a_full_report_shows_every_form_and_check(tmp_path: Path) -> None:
    report = make_sample_report()
    report.detail = "full"
    pdf = write_report(report, tmp_path / "full.pdf")
    typ = report_source(pdf).read_text(encoding="utf-8")
    section = report.sections[0]
    for v in section.verdicts:
        assert f'"{v.check_id}"' in typ
        assert v.config_hash in typ
    for res in section.results:
        assert f'"{res.id}"' in typ
        for form in res.forms:
            assert f"$ {form.typst} $" in typ
    # the hidden-constant sentence is said once, with the markers used
    assert typ.count("hidden constant set to 1") == 1
    # the marker typeset as math, so that its accent survives the font
    assert "$tilde(cal(O)) (dot.c)$: up to constant and logarithmic factors" in typ
    assert typst_math(THM3_CORRECTED, {"F0": "F^0"}) not in typ  # the report used NAMES
    assert "figures/even2022.theorem3.star_divergence-1.svg" in typ


def test_pages_render(written, tmp_path: Path) -> None:
    pdf, _ = written
    pages = render_pages_png(pdf, tmp_path / "png", ppi=30)
    assert 2 <= len(pages) <= 8
    for page in pages:
        assert page.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        assert _ink(page) > 0.001


def test_compile_error_shows_typst_message(tmp_path: Path) -> None:
    report = make_sample_report()
    report.sections[0].results[1].forms.append(FormBlock("explicit", "frac(a, "))
    report.detail = "full"
    with pytest.raises(ReportCompileError) as info:
        write_report(report, tmp_path / "bad.pdf")
    msg = str(info.value)
    assert "bad.typ" in msg
    assert "unclosed" in msg or "expected" in msg


def test_output_must_be_pdf(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match=r"\.pdf"):
        write_report(make_sample_report(), tmp_path / "report.txt")


def test_build_document_without_provenance_or_checks() -> None:
    report = make_sample_report()
    report.provenance = None
    report.sections[0].verdicts = []
    report.sections[0].errata = []
    src = build_document(report, plan_figures(report))
    assert "No provenance was recorded" in src
    assert "No control (planted claim or power check) was run" in src
    assert "No claim fails, is undecided or has an erratum shown" in src
    assert "*Not checked*" in src and "No regression" not in src


def test_empty_report_compiles(tmp_path: Path) -> None:
    from pflbounds.reporting import Report

    pdf = write_report(Report(title="Empty"), tmp_path / "empty.pdf")
    assert pdf.read_bytes().startswith(b"%PDF")
    assert not (tmp_path / "empty" / "figures").exists()


def test_long_formula_and_many_rows(tmp_path: Path) -> None:
    import sympy as sp

    from pflbounds.reporting import ResultBlock, VerdictRow

    report = make_sample_report()
    xs = sp.symbols("x1:25")
    long_sum = sum(sp.Symbol(f"a_{k}") * x**2 / (1 + x) for k, x in enumerate(xs))
    report.sections[0].results.append(
        ResultBlock(
            "even2022.long",
            "Long",
            "identity",
            "x",
            forms=[FormBlock("printed", typst_math(long_sum))],
        )
    )
    for k in range(40):
        report.sections[0].verdicts.append(
            VerdictRow(
                f"even2022.many.check_{k}",
                "t",
                "identity",
                "even2022.long",
                "printed",
                "HOLDS",
                "HOLDS",
                True,
                margin=1.0 + k,
                config_hash=f"h{k}",
            )  # fmt: skip
        )
    report.detail = "full"
    pdf = write_report(report, tmp_path / "long.pdf")
    assert pdf.read_bytes().startswith(b"%PDF")
    assert len(render_pages_png(pdf, tmp_path / "png", ppi=20)) >= 3


def test_output_is_reproducible(tmp_path: Path) -> None:
    a = write_report(make_sample_report(), tmp_path / "a" / "r.pdf")
    b = write_report(make_sample_report(), tmp_path / "b" / "r.pdf")
    assert a.read_bytes() == b.read_bytes()
    for svg in (report_folder(a) / "figures").glob("*.svg"):
        assert svg.read_bytes() == (report_folder(b) / "figures" / svg.name).read_bytes()
