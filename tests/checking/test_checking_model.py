"""The Check record's validation and Outcome serialization."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from pflbounds.checking import Check, CheckKind, Outcome, Verdict
from pflbounds.running import run_check


def _sim(params, n, ss):  # pragma: no cover - never simulated here
    return {}


def make(**kw):
    base = {"id": "unit.m", "title": "t", "kind": CheckKind.BOUND_HOLDS,
            "expected": Verdict.HOLDS, "simulate": _sim, "grid": ({"a": 1},)}
    return Check(**{**base, **kw})


def test_enums_are_strings():
    assert CheckKind.LOWER_BOUND == "lower_bound_respected"
    assert Verdict("HOLDS") is Verdict.HOLDS
    assert make(kind="rate", predicted=-1.0, tolerance=0.1).kind is CheckKind.RATE


@pytest.mark.parametrize(
    ("kw", "message"),
    [
        ({"kind": CheckKind.RATE}, "predicted and tolerance"),
        ({"kind": CheckKind.SCALING, "predicted": -1.0, "tolerance": 0.1}, "x_param"),
        ({"kind": CheckKind.SCALING, "predicted": -1.0, "tolerance": 0.1, "x_param": "n"},
         "lacks x_param"),
        ({"kind": CheckKind.IDENTITY}, "tolerance"),
        ({"engine": "gpu"}, "engine"),
        ({"grid": ()}, "empty"),
        ({"grid": ({"f": print},)}, "JSON-like"),
        ({"expected": Verdict.CONFIRMED}, "only erratum"),
        ({"kind": CheckKind.ERRATUM, "expected": Verdict.HOLDS}, "erratum check expects"),
        ({"confidence": 1.0}, "confidence"),
        ({"id": "has space"}, "id"),
    ],
)
def test_check_validation(kw, message):
    with pytest.raises(ValueError, match=message):
        make(**kw)


def test_grid_is_copied_and_quick_grid_selected():
    grid = [{"a": 1}, {"a": 2}]
    c = make(grid=grid, quick_grid=[{"a": 1}])
    grid[0]["a"] = 99
    assert c.grid == ({"a": 1}, {"a": 2})
    assert c.grid_for(quick=True) == ({"a": 1},)
    assert make().grid_for(quick=True) == ({"a": 1},)
    assert c.paper == "unit"


def test_outcome_json_round_trip_with_nonfinite_values(toys):
    o = run_check(toys["toy.mc_true"], base_seed=3, progress=False)
    o.evidence[0]["extra"] = np.array([np.nan, np.inf, -np.inf, 1.5])
    o.margin = math.inf
    d = o.to_dict()
    text = json.dumps(d, allow_nan=False)  # strict JSON
    back = Outcome.from_dict(json.loads(text))
    assert back.verdict is o.verdict and back.kind is o.kind and back.as_expected
    assert back.margin == math.inf
    e = back.evidence[0]["extra"]
    assert np.isnan(e[0]) and e[1] == np.inf and e[2] == -np.inf and e[3] == 1.5
    for key in ("ks", "mean", "lo", "hi", "bound", "sum", "sumsq"):
        assert np.array_equal(back.evidence[1][key], o.evidence[1][key]), key
    assert back.evidence[0]["params"] == {"c": 3.0}
    assert back.to_dict() == d
