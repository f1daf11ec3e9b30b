"""The user guide's paper pages come from the code: every result, check and erratum of a
paper is on its page, with the counts the code gives (``pflbounds.docsgen``)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from pflbounds import docsgen
from pflbounds.checking import registry
from pflbounds.symbolic import catalog

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def suites() -> dict[str, list[str]]:
    return docsgen.suite_membership(ROOT / "validation")


def test_every_paper_has_a_hand_written_page_with_the_marker():
    for paper in docsgen.paper_ids():
        page = ROOT / "docs" / "papers" / f"{paper}.md"
        assert page.is_file(), f"no hand-written page for {paper}"
        assert page.read_text().count(docsgen.MARKER) == 1


@pytest.mark.parametrize("paper", ["even2022", "scott2024"])
def test_a_paper_page_lists_every_result_check_and_erratum(paper, suites):
    md = docsgen.paper_markdown(paper, suites)
    results = catalog.results(paper)
    checks = registry.all_checks(paper)
    errata = docsgen.paper_errata(paper)
    for r in results:
        assert f"{{#r-{r.id.split('.', 1)[1]}}}" in md, r.id
        for form in r.forms:
            assert f"- **{form}**: " in md
    for c in checks:
        row = re.search(rf"^\| \[`{re.escape(c.id.split('.', 1)[1])}`\].*$", md, re.M)
        assert row, c.id
        assert f"| {c.kind.value} | {c.expected.value} |" in row.group(0)
    for e, _ in errata:
        assert f"### `{e.id}`" in md
    assert f"| results | {len(results)} (" in md
    assert f"| checks | {len(checks)} (" in md
    assert f"| errata | {len(errata)} (" in md


def test_errata_that_no_result_carries_are_listed_too(monkeypatch):
    from pflbounds.papers.scott2024 import errata
    from pflbounds.symbolic.result import Erratum

    # every erratum of the papers is carried by a result; a stray one must still be listed
    stray = Erratum("scott2024.stray", "Nowhere", "what", "fix")
    monkeypatch.setattr(errata, "ERRATA", {**errata.ERRATA, "stray": stray})
    carried = {e.id for r in catalog.results("scott2024") for e in r.errata}
    listed = [e.id for e, rids in docsgen.paper_errata("scott2024") if not rids]
    assert listed == ["scott2024.stray"] and not set(listed) & carried


def test_suites_are_read_from_the_suite_files(suites):
    assert "quick" in suites["even2022.P11"] and "even2022" in suites["even2022.P11"]


def test_text_is_escaped_and_the_marker_replaced():
    assert docsgen.text("E[f_i(x^*)] <= 1") == r"E\[f\_i(x^\*)\] &lt;= 1"
    assert docsgen.code("a | b") == "`a | b`"
    page = docsgen.page("even2022", "# even2022\n\nintro\n\n" + docsgen.MARKER + "\n")
    assert page.startswith("# even2022\n\nintro\n\n## From the code")
    assert docsgen.MARKER not in page
    assert docsgen.page("even2022", "# even2022\n").startswith("# even2022\n\n## From")


def test_a_new_paper_gets_a_page_of_its_own(extra_paper):
    extra_paper("toypaper")
    assert "toypaper" in docsgen.paper_ids()
    page = docsgen.page("toypaper", None)
    assert page.startswith("# toypaper: A toy paper for the engine tests")
    assert "{#r-theorem1}" in page and "[`sure`](#c-sure)" in page
    assert "| `B` | minibatch size |" in page
