"""The interface a paper uses: ``WORST_CASES`` in its ``audit.py``, read without importing the
paper by name, run, and printed as a table."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from pflbounds.tightness import CaseError, SearchCase
from pflbounds.tightness.declared import format_table, paper_cases, run_paper

PAPERS = str(Path(__file__).parent / "papers")


@pytest.fixture
def worstpaper() -> Iterator[str]:
    from pflbounds.symbolic import catalog, loader

    sys.path.insert(0, PAPERS)
    loader.add_paper_package("worstpaper")
    try:
        yield "worstpaper"
    finally:
        loader.remove_paper_package("worstpaper")
        catalog.forget_paper("worstpaper")
        for mod in [m for m in sys.modules if m == "worstpaper" or m.startswith("worstpaper.")]:
            del sys.modules[mod]
            loader._LOADED.discard(mod)
        sys.path.remove(PAPERS)


def test_a_paper_declares_its_cases_and_they_run(worstpaper, tmp_path):
    cases = paper_cases(worstpaper)
    assert [c.result for c in cases] == ["worstpaper.rate", "worstpaper.half_rate"]
    records = run_paper(worstpaper, cache=tmp_path)
    rate, half = records
    assert [p.constants["K"] for p in rate.points] == [1.0, 4.0]
    assert all(p.how == "exact" and p.ratio == pytest.approx(1, rel=1e-12) for p in rate.points)
    assert half.verdict == "VIOLATED" and half.points[0].ratio == pytest.approx(2, rel=1e-6)
    table = format_table(records).splitlines()
    assert len(table) == 1 + 3
    assert "worstpaper.half_rate [printed]" in table[3] and "VIOLATED" in table[3]
    assert "K=4" in table[2] and "exact" in table[2]
    again = run_paper(worstpaper, cache=tmp_path)
    assert all(r.cached for r in again)


def test_a_paper_without_cases_has_none(tightfix):
    assert paper_cases(tightfix) == []  # no audit module at all


def test_a_wrong_declaration_is_named(worstpaper, tightfix, monkeypatch):
    import worstpaper.audit as audit

    monkeypatch.setattr(audit, "WORST_CASES", ["not a case"])
    with pytest.raises(CaseError, match=r"WORST_CASES\[0\] is a str, not a SearchCase"):
        paper_cases(worstpaper)
    monkeypatch.setattr(audit, "WORST_CASES", [SearchCase("tightfix.sgd_worst", "printed",
                                                          "quadratic_sgd", fixed={})])
    with pytest.raises(CaseError, match=r"is about tightfix.sgd_worst, a result of another"):
        paper_cases(worstpaper)
