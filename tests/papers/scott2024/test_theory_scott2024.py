"""scott2024 theory: results, assumptions and errata are registered, every erratum names a
registered check (or none, for the notational ones), the printed forms that must fail the
dimension check do."""

from __future__ import annotations

import pytest

from pflbounds.checking.registry import get as get_check
from pflbounds.checking.registry import load_papers
from pflbounds.papers.scott2024.errata import ERRATA
from pflbounds.symbolic.catalog import get, results
from pflbounds.symbolic.units import DimensionError


def test_results_and_forms():
    RESULTS = {r.id: r for r in results("scott2024")}
    assert {"scott2024.lemmaC1", "scott2024.lemmaC2", "scott2024.lemmaC3", "scott2024.lemmaC4",
            "scott2024.lemmaC5", "scott2024.theorem3_1", "scott2024.theoremB1",
            "scott2024.theoremB1_part1", "scott2024.theoremB1_part2",
            "scott2024.theorem3_2"} <= set(RESULTS)
    assert set(get("scott2024.theorem3_1").forms) == {
        "printed", "appendix", "proof", "rederived", "explicit", "corrected"}
    assert len(get("scott2024.theorem3_1").form("corrected").conditions) == 5
    for r in RESULTS.values():
        assert r.source and r.statement


def test_every_erratum_names_a_registered_check():
    load_papers()
    linked = [e for e in ERRATA.values() if e.check_id]
    assert len(linked) >= 19
    for e in linked:
        assert get_check(e.check_id).paper == "scott2024", e.id
    assert {k for k, e in ERRATA.items() if not e.check_id} == {
        "erratum10", "erratum11", "erratum24"}


@pytest.mark.parametrize("rid, bad, good", [
    ("scott2024.kl_gaussian", "printed", "corrected"),
    ("scott2024.theorem3_2", "appendix", "corrected"),
    ("scott2024.lemmaC3_iterate", "printed", "corrected")])
def test_dimension_check_flags_the_errata(rid, bad, good):
    with pytest.raises(DimensionError):
        get(rid).dimension_check(bad)
    get(rid).dimension_check(good)


def test_general_beta_form_is_unit_consistent_and_the_fixed_beta_forms_are_not():
    get("scott2024.theorem3_1").dimension_check("explicit")
    get("scott2024.theorem3_1").dimension_check("corrected")
    with pytest.raises(DimensionError):
        get("scott2024.theorem3_1").dimension_check("printed")
