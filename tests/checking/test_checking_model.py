"""The Check record's validation, Outcome serialization and figure specs."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from pflbounds.checking import Check, CheckKind, Outcome, Verdict, register, unregister
from pflbounds.checking.figures import STYLES
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


def _assert_figure_shape(fig):
    assert fig["kind"] in ("curves", "scaling", "bars")
    for key in ("title", "xlabel", "ylabel", "logx", "logy", "series"):
        assert key in fig
    assert fig["series"]
    for s in fig["series"]:
        assert set(s) >= {"label", "x", "y", "lo", "hi", "style"}
        assert s["style"] in STYLES
        assert len(s["x"]) == len(s["y"])
        if s["lo"] is not None:
            assert len(s["lo"]) == len(s["y"]) == len(s["hi"])
    json.dumps(fig)  # plain data only


@pytest.mark.parametrize(
    ("check_id", "styles"),
    [
        ("toy.mc_true", {"measured", "bound"}),
        ("toy.mc_rate", {"measured", "fit", "reference"}),
        ("toy.mc_scaling", {"measured", "fit", "reference"}),
        ("toy.identity", {"measured", "bound"}),
        ("toy.erratum", {"measured", "bound_printed", "bound_corrected"}),
    ],
)
def test_default_figures(toys, check_id, styles):
    o = run_check(toys[check_id], base_seed=0, progress=False)
    figs = o.plots()
    assert figs
    for fig in figs:
        _assert_figure_shape(fig)
    found = {s["style"] for f in figs for s in f["series"]}
    assert found >= styles
    assert found - styles <= {"bound"}  # a bound in rate evidence is drawn too


def test_measured_band_comes_from_the_interval(toys):
    o = run_check(toys["toy.mc_true"], base_seed=0, progress=False)
    s = next(s for s in o.plots()[0]["series"] if s["style"] == "measured")
    assert all(lo < y < hi for lo, y, hi in zip(s["lo"], s["y"], s["hi"], strict=True))


def test_many_points_are_split_over_a_few_figures():
    def sim(params, n, ss):
        ks = np.arange(1.0, 5.0)
        return {"ks": ks, "mean": 1.0 / ks, "bound": params["c"] / ks}

    c = make(id="unit.many", simulate=sim, grid=tuple({"c": 1.0 + i} for i in range(20)))
    figs = run_check(c, progress=False).plots()
    assert 1 < len(figs) <= 4
    measured = [s for f in figs for s in f["series"] if s["style"] == "measured"]
    assert len(measured) <= 12
    assert any("point 0)" in s["label"] for s in measured)  # the tightest point is kept


def test_custom_plot_is_used_when_registered():
    def plot(outcome):
        return [{"kind": "bars", "title": outcome.check_id, "xlabel": "", "ylabel": "",
                 "logx": False, "logy": False, "series": []}]

    def sim(params, n, ss):
        return {"mean": np.array([1.0]), "bound": np.array([2.0])}

    c = register(make(id="unit.custom", simulate=sim, plot=plot))
    try:
        figs = run_check(c, progress=False).plots()
        assert figs[0]["title"] == "unit.custom" and figs[0]["series"] == []
    finally:
        unregister("unit.custom")


def test_error_outcome_has_no_figures(toys):
    o = run_check(toys["toy.boom"], progress=False)
    assert o.plots() == []
