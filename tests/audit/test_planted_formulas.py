"""Planted wrong formulas on the audit test paper: the checks whose verdict a planted formula
changes, the ones no planted formula reaches (declared blind, or reported), and the choice of
the formulas (the farthest first, each direction)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import pytest
import sympy as sp

from pflbounds.audit.planted import (
    Planted,
    distance,
    plant_in_check,
    plant_in_paper,
    planted_formulas,
    unexplained,
)
from pflbounds.audit.record import FormKey
from pflbounds.checking import Check, CheckKind, Verdict, registry


def _figure_only(p: Mapping[str, Any], R: int, ss: np.random.SeedSequence) -> dict:
    """Measured (1 - eta mu)^(2K) Delta0 against 1 (typed here); Lemma 4 drawn beside it."""
    from auditpaper.checks import KS, _bound, _measured

    return {"ks": KS, "mean": _measured(p), "bound": np.ones_like(KS),
            "shown": _bound("auditpaper.shown", "printed", p)}


def _no_form(p: Mapping[str, Any], R: int, ss: np.random.SeedSequence) -> dict:
    return {"residual": np.asarray(0.0)}


@pytest.fixture
def paper(audit_paper):
    from auditpaper.checks import POINT

    registry.register(Check("auditpaper.figure_only", "a bound typed in the check",
                            CheckKind.BOUND_HOLDS, Verdict.HOLDS, _figure_only, grid=(POINT,),
                            engine="exact", result_id="auditpaper.shown", form="printed"))
    registry.register(Check("auditpaper.no_form", "an identity", CheckKind.IDENTITY,
                            Verdict.HOLDS, _no_form, grid=({},), engine="exact", tolerance=0.0))
    return audit_paper


def test_planted_formulas_change_the_verdicts_of_the_checks_that_read_them(paper):
    found = plant_in_paper(paper)
    assert set(found) == {"auditpaper.tight", "auditpaper.loose", "auditpaper.E1",
                          "auditpaper.figure_only", "auditpaper.no_form"}
    for cid in ("auditpaper.tight", "auditpaper.loose", "auditpaper.E1"):
        assert found[cid].sees, found[cid]
        assert found[cid].changed_to != found[cid].baseline
    # the tight bound fails with the farthest smaller formula: the first one tried
    assert found["auditpaper.tight"].tried == [found["auditpaper.tight"].seen_by]
    fig = found["auditpaper.figure_only"]
    assert not fig.sees and fig.forms == ["auditpaper.shown [printed]"] and fig.tried
    assert fig.why_blind() == f"{len(fig.tried)} planted formulas left its verdict HOLDS"
    nof = found["auditpaper.no_form"]
    assert not nof.sees and nof.forms == [] and nof.why_blind() == \
        "evaluates no form of its paper"
    unseen, stale = unexplained(found, {"auditpaper.no_form": "an identity typed in code"})
    assert unseen == ["auditpaper.figure_only"]
    assert stale == []
    _, stale = unexplained(found, {"auditpaper.tight": "wrongly declared"})
    assert stale == ["auditpaper.tight"]


def test_an_erratum_check_sees_a_larger_printed_side(paper):
    # the printed side is refuted; a planted formula that makes it hold changes the verdict
    p = plant_in_check("auditpaper.E1", paper)
    assert p.sees and p.baseline == "CONFIRMED"


def test_planted_formulas_come_farthest_first_in_each_direction(paper):
    key = FormKey("auditpaper.tight", "printed")
    inputs = [{"eta": np.array(0.1), "mu": np.array(1.0), "K": np.arange(1.0, 21.0),
               "Delta0": np.array(1.0)}]
    chosen = planted_formulas(key, inputs, per_form=2)
    scored = [distance(key.expr(), m.expr, inputs) for m in chosen]
    ways = [w for _, w in scored]
    assert ways[0] == -1 and 1 in ways  # the farthest smaller one first, larger ones too
    for way in set(ways):
        ds = [d for d, w in scored if w == way]
        assert len(ds) <= 2 and ds == sorted(ds, reverse=True)
    assert all(d > 0 for d, _ in scored)


def test_distance_and_direction():
    x = sp.Symbol("x", positive=True)
    vals = [{"x": np.array([0.5, 2.0, 4.0])}]
    assert distance(x, x / 10, vals) == (pytest.approx(np.log(10)), -1)
    assert distance(x, x**2, vals) == (pytest.approx(np.log(4)), 0)  # 0.5 -> 0.25, 4 -> 16
    assert distance(x, 2 * x, vals)[1] == 1
    assert distance(x, x + 0 * x, vals) == (0.0, 0)
    assert distance(x, x - x, vals)[0] == np.inf


def test_a_planted_record_says_why_it_is_blind():
    p = Planted("a.b", "quick", "HOLDS", "HOLDS", forms=["a.r [printed]"], tried=["x", "y"])
    assert not p.sees and p.why_blind() == "2 planted formulas left its verdict HOLDS"
