"""The papers' audit declarations name real results, forms and checks: a note keyed by a
typo would never reach a survivor, an AUDIT_CHECKS entry that matches nothing would fail
the audit."""

from __future__ import annotations

import fnmatch

import pytest

from pflbounds.audit.declarations import declared
from pflbounds.audit.mutants import paper_checks
from pflbounds.symbolic import catalog

PAPERS = ["even2022", "hanzely2023", "philippenko2025", "erickson2025", "scott2024"]


@pytest.mark.parametrize("paper", PAPERS)
def test_notes_name_existing_results_and_forms(paper):
    notes = declared(paper, "MUTANT_NOTES", {})
    assert notes, f"{paper} explains no survivor"
    for key, text in notes.items():
        rid, _, rest = key.partition(":")
        form = rest.split(":", 1)[0]
        result = catalog.get(rid)  # KeyError for an unknown result
        assert result.paper == paper
        if form:
            assert form in result.forms, key
        assert len(text) > 40, key


@pytest.mark.parametrize("paper", PAPERS)
def test_audited_checks_exist(paper):
    patterns = declared(paper, "AUDIT_CHECKS", None)
    if patterns is None:
        return
    ids = [c.id for c in paper_checks(paper)]
    for p in patterns:
        assert fnmatch.filter(ids, p), p
