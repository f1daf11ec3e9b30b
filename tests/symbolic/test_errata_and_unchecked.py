"""Declarations the report reads: every erratum of a paper is attached to a result (the report
collects errata through results), and a result says why no check tests it exactly when no
check names it (so the reason cannot outlive a check added later, nor be missing): the walk
of the catalog fails on any upper bound, lower bound or complexity result of any paper with
neither a check nor a declared reason (``unchecked=``)."""

from __future__ import annotations

import importlib

import pytest

from pflbounds.checking.registry import all_checks, load_papers
from pflbounds.symbolic import results
from pflbounds.symbolic.catalog import loaded_papers
from pflbounds.symbolic.result import ERRATUM_KNOWN, ERRATUM_SEVERITIES, Kind

PAPERS = ("even2022", "hanzely2023", "philippenko2025", "erickson2025", "scott2024")


@pytest.fixture(scope="module")
def checked() -> set[str]:
    load_papers()
    return {c.result_id for c in all_checks() if c.result_id}


def _errata(paper: str) -> dict:
    return importlib.import_module(f"pflbounds.papers.{paper}.errata").ERRATA


def test_the_five_papers_are_the_loaded_ones():
    load_papers()
    assert set(PAPERS) <= set(loaded_papers())


@pytest.mark.parametrize("paper", PAPERS)
def test_every_erratum_of_the_errata_module_is_attached_to_a_result(paper):
    attached = {e.id for r in results(paper) for e in r.errata}
    missing = sorted(e.id for e in _errata(paper).values() if e.id not in attached)
    assert not missing, f"errata attached to no result of {paper}: {missing}"


@pytest.mark.parametrize("paper", PAPERS)
def test_attached_errata_are_the_modules_own(paper):
    declared = {e.id: e for e in _errata(paper).values()}
    for r in results(paper):
        for e in r.errata:
            assert declared.get(e.id) == e, f"{r.id} carries {e.id}, not in {paper}.errata"


@pytest.mark.parametrize("paper", PAPERS)
def test_every_erratum_declares_a_severity_and_how_it_is_known(paper):
    for e in _errata(paper).values():
        assert e.severity in ERRATUM_SEVERITIES, e.id
        assert e.known in ERRATUM_KNOWN, e.id


BOUND_KINDS = (Kind.UPPER_BOUND, Kind.LOWER_BOUND, Kind.COMPLEXITY)
"""The kinds whose every result needs a check of its own or a declared reason (step-size
rules and identities are usually checked through the theorem that uses them, and say so)."""


def silent(rs, checked: set[str]) -> list[str]:
    """The results of ``rs`` with neither a check (a check naming them) nor a reason."""
    return [r.id for r in rs if r.id not in checked and not r.unchecked.strip()]


def test_a_result_without_a_check_says_why(checked):
    # the shipped papers (a test paper another test loads for the session is not walked)
    bad = silent([r for p in PAPERS for r in results(p)], checked)
    assert not bad, f"results with no check and no reason: {bad}"


@pytest.mark.parametrize("kind", BOUND_KINDS, ids=lambda k: k.value.replace(" ", "_"))
@pytest.mark.parametrize("paper", PAPERS)
def test_every_bound_and_complexity_result_has_a_check_or_a_reason(paper, kind, checked):
    """The walk of the catalog, kind by kind: every upper bound, lower bound and complexity
    result of every paper is named by a check or declares why not (``unchecked=``)."""
    mine = [r for r in results(paper) if r.kind is kind]
    bad = silent(mine, checked)
    assert not bad, f"{paper}: {kind.value} results with no check and no reason: {bad}"


def test_the_walk_fails_on_a_result_with_neither():
    """The walk catches a result that has neither a check nor a reason, and accepts one
    with either."""
    import dataclasses

    r = next(r for r in results("even2022") if r.kind is Kind.UPPER_BOUND)
    bare = dataclasses.replace(r, id="even2022.planted_silent", unchecked="")
    reasoned = dataclasses.replace(bare, id="even2022.planted_reasoned",
                                   unchecked="no instance family yet.")
    assert silent([bare, reasoned], {r.id}) == ["even2022.planted_silent"]
    assert silent([bare], {"even2022.planted_silent"}) == []


def test_a_result_with_a_check_gives_no_reason_for_having_none(checked):
    stale = [r.id for r in results() if r.id in checked and r.unchecked]
    assert not stale, f"results with a check that still say why they have none: {stale}"


def test_a_reason_opens_with_a_short_sentence_the_findings_table_can_show():
    from pflbounds.reporting.claims import first_sentence

    for r in results():
        if r.unchecked:
            head = first_sentence(r.unchecked)
            assert head.endswith("."), r.id
            assert len(head) <= 48, f"{r.id}: {head!r} is cut in the findings table"
            # it follows "not checked: " there, as the kinds' defaults do
            assert head[0].islower(), f"{r.id}: {head!r}"
