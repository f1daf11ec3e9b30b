"""hanzely2023 as a whole: every numbered result of the paper is encoded and listed in the
manifest's order, every prediction of the digest has a check, every bound and complexity
result names its method, and the relation of each kind."""

from __future__ import annotations

import pytest

from pflbounds.checking import registry
from pflbounds.papers.hanzely2023 import MANIFEST
from pflbounds.symbolic import Kind, get, results
from pflbounds.symbolic.catalog import algorithms_of
from pflbounds.symbolic.loader import load_papers

load_papers(checks=True)
P = "hanzely2023."

SECTION5 = ([f"theorem{i}" for i in range(1, 10)]
            + [f"lemma{i}" for i in range(5, 17)] + ["proposition1"])

@pytest.mark.parametrize("key", ["lemma1", "lemma2", "lemma3", "lemma4", *SECTION5])
def test_every_numbered_result_of_the_paper_is_encoded(key):
    r = get(P + key)
    assert r.paper == "hanzely2023" and "printed" in r.forms and r.source

def test_the_catalog_lists_the_theory_topics_then_the_experiments():
    keys = [r.id.removeprefix(P) for r in results("hanzely2023")]
    assert keys[:4] == ["lemma1", "lemma2", "lemma3", "lemma4"]
    assert keys[-2:] == ["figure1", "figure2"]
    assert {f"table2_{k}" for k in ("fl", "full", "mt2", "mx2", "apfl2", "ws2", "residual")} \
        | {f"table1_{k}" for k in ("lsgd", "acd", "asvrcd")} <= set(keys)
    assert MANIFEST.theory[0] == "objectives" and MANIFEST.experiments == ("section5",)

def test_every_prediction_of_the_digest_has_a_check():
    ids = {c.id for c in registry.all_checks("hanzely2023")}
    for n in range(1, 13):
        assert any(i == f"{P}P{n}" or i.startswith(f"{P}P{n}_") for i in ids), f"P{n}"

@pytest.mark.parametrize("rid", ["theorem1", "theorem3", "theorem6", "eq54", "lemma15",
                                 "table3_mt2"])
def test_bounds_name_the_code_they_are_about(rid):
    assert algorithms_of(P + rid)

@pytest.mark.parametrize("rid", ["theorem1", "theorem7", "table3_mt2", "theorem6"])
def test_kinds_and_relations(rid):
    r = get(P + rid)
    assert r.relation == (">=" if r.kind is Kind.LOWER_BOUND else "=")
