"""The catalog: lookup by id, suggestions, listing by paper, registration rules."""

from __future__ import annotations

from dataclasses import replace

import pytest

from pflbounds.symbolic import catalog, get, papers, results
from pflbounds.symbolic.complexity import complexity_table
from pflbounds.symbolic.result import Kind, Result


def test_lookup_by_id():
    r = get("even2022.theorem3")
    assert isinstance(r, Result)
    assert r.id == "even2022.theorem3" and r.paper == "even2022" and r.label == "Theorem 3"
    assert get("even2022.theorem3") is r


@pytest.mark.parametrize(
    "typo, suggestion",
    [
        ("even2022.theorm3", "even2022.theorem3"),
        ("even2022.corollary3", "even2022.corollary1"),
        ("even2022.lema6", "even2022.lemma6"),
        ("even2021.eq6", "even2022.eq6"),
    ],
)
def test_unknown_id_suggests_close_matches(typo, suggestion):
    with pytest.raises(KeyError) as info:
        get(typo)
    msg = str(info.value.args[0])
    assert msg.startswith(f"unknown result {typo!r}; did you mean ")
    assert suggestion in msg


def test_unknown_id_without_close_match():
    with pytest.raises(KeyError) as info:
        get("zzzzzz")
    assert str(info.value.args[0]) == "unknown result 'zzzzzz'"


def test_list_by_paper():
    all_ids = [r.id for r in results()]
    even = [r.id for r in results("even2022")]
    assert len(all_ids) == len(set(all_ids))
    assert set(even) <= set(all_ids)
    assert all(i.startswith("even2022.") for i in even)
    assert len(even) >= 21
    with pytest.raises(KeyError, match="unknown paper 'nope'; known: .*even2022"):
        results("nope")


def test_papers_registry():
    p = papers()
    assert p["even2022"]["id"] == "even2022"
    assert "Sample Optimality" in p["even2022"]["title"]
    assert p["even2022"]["digest"] == "000_even2022_digest.md"
    # the returned mapping is a copy
    p.pop("even2022")
    assert "even2022" in papers()


def test_register_same_id_twice_is_refused():
    r = get("even2022.lemma4")
    assert catalog.register(r) is r  # the same object again is harmless
    with pytest.raises(ValueError, match="even2022.lemma4 registered twice"):
        catalog.register(replace(r, label="another"))
    assert get("even2022.lemma4") is r


def test_load_papers_is_idempotent():
    before = [r.id for r in results()]
    catalog.load_papers()
    catalog.load_papers()
    assert [r.id for r in results()] == before


def test_assumptions_by_paper():
    ids = {a.id for a in catalog.assumptions("even2022")}
    assert {"even2022.A1", "even2022.A2", "even2022.A3", "even2022.A4", "even2022.A5",
            "even2022.D"} <= ids
    assert catalog.assumptions("nope") == []


def test_every_result_is_well_formed():
    for r in results():
        assert r.id == f"{r.paper}.{r.id.split('.', 1)[1]}"
        assert isinstance(r.kind, Kind)
        assert r.relation in ("<=", ">=", "=")
        assert r.forms and all(name == f.name for name, f in r.forms.items())
        assert r.statement and r.quantity
        hyps = {a.id for a in catalog.assumptions(r.paper)}
        for h in r.hypotheses:
            assert h in hyps, (r.id, h)
        for f in r.forms:
            # every input is a declared constant with a meaning and a unit
            for name, meaning, unit in r.describe_inputs(f):
                assert name and meaning and unit


def test_complexity_table_unknown_paper():
    with pytest.raises(KeyError, match="no complexity comparison for paper 'nope'; available: "
                                       ".*even2022"):
        complexity_table("nope", {}, {})


def test_a_result_relates_to_its_forms_as_its_kind_says_unless_told():
    """The builder's default relation: >= for a lower bound, <= otherwise; an explicit one
    (an equality, a step-size rule's >=) is kept."""
    import sympy as sp

    from pflbounds.symbolic.builder import PaperBuilder

    P = PaperBuilder("relationtoy")
    x = sp.Symbol("x", positive=True)
    try:
        made = [P.result(f"r{i}", "r", kind, "q", "1", "s", [P.form("printed", x)], **kw)
                for i, (kind, kw) in enumerate([(Kind.LOWER_BOUND, {}), (Kind.UPPER_BOUND, {}),
                                                (Kind.STEP_SIZE, {"relation": ">="}),
                                                (Kind.LOWER_BOUND, {"relation": "="})])]
        assert [r.relation for r in made] == [">=", "<=", ">=", "="]
    finally:
        for i in range(4):
            catalog._RESULTS.pop(f"relationtoy.r{i}", None)
