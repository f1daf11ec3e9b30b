"""What the report shows for a check outcome: figure specs, tables, custom plots."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import pytest

from pflbounds.checking import Check, CheckKind, Verdict, register, unregister
from pflbounds.reporting.figure_specs import STYLES, figure, series
from pflbounds.reporting.outcome_figures import as_table, figures_for, informative
from pflbounds.running import run_check, run_checks

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "checking"))
import toy_checks  # noqa: E402


@pytest.fixture
def toys():
    toy_checks.register_all()
    yield {c.id: c for c in toy_checks.CHECKS}
    toy_checks.unregister_all()


def _sim(params, n, ss):  # pragma: no cover - never simulated here
    return {}


def make(**kw):
    base = {"id": "unit.m", "title": "t", "kind": CheckKind.BOUND_HOLDS,
            "expected": Verdict.HOLDS, "simulate": _sim, "grid": ({"a": 1},)}
    return Check(**{**base, **kw})


def _assert_figure_shape(fig):
    assert fig["kind"] in ("curves", "scaling", "bars")
    for key in ("title", "xlabel", "ylabel", "logx", "logy", "series", "caption"):
        assert key in fig
    assert fig["series"]
    for s in fig["series"]:
        assert set(s) >= {"label", "x", "y", "lo", "hi", "style", "group"}
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
        ("toy.erratum", {"measured", "bound_printed", "bound_corrected"}),
    ],
)
def test_default_figures(toys, check_id, styles):
    check = toys[check_id]
    figs = figures_for(run_check(check, base_seed=0, progress=False), check)
    assert figs
    for fig in figs:
        _assert_figure_shape(fig)
    found = {s["style"] for f in figs for s in f["series"]}
    assert found >= styles
    assert found - styles <= {"bound"}  # a bound in rate evidence is drawn too


def test_a_bound_shares_the_group_of_its_measured_curve(toys):
    check = toys["toy.mc_true"]
    fig = figures_for(run_check(check, base_seed=0, progress=False), check)[0]
    groups = {}
    for s in fig["series"]:
        groups.setdefault(s["group"], set()).add(s["style"])
    assert groups == {"point 0": {"measured", "bound"}, "point 1": {"measured", "bound"}}


def test_identity_residuals_are_a_table_not_bars(toys):
    check = toys["toy.identity"]
    (table,) = figures_for(run_check(check, progress=False), check)
    assert table["kind"] == "table"
    assert table["columns"] == ["point", "parameters", "max |residual|", "tolerance"]
    assert [r[2] for r in table["rows"]] == ["1e-15", "3e-14"]
    assert all(r[3] == "1e-12" for r in table["rows"])


def test_measured_band_comes_from_the_interval(toys):
    check = toys["toy.mc_true"]
    fig = figures_for(run_check(check, base_seed=0, progress=False), check)[0]
    s = next(s for s in fig["series"] if s["style"] == "measured")
    assert all(lo < y < hi for lo, y, hi in zip(s["lo"], s["y"], s["hi"], strict=True))


def test_many_points_are_split_over_a_few_figures():
    def sim(params, n, ss):
        ks = np.arange(1.0, 5.0)
        return {"ks": ks, "mean": 1.0 / ks, "bound": params["c"] / ks}

    c = make(id="unit.many", simulate=sim, grid=tuple({"c": 1.0 + i} for i in range(20)))
    figs = figures_for(run_check(c, progress=False), c)
    assert 1 < len(figs) <= 4
    measured = [s for f in figs for s in f["series"] if s["style"] == "measured"]
    assert len(measured) <= 12
    assert any("point 0)" in s["label"] for s in measured)  # the tightest point is kept


def test_captions_list_every_parameter_rounded_and_uncut():
    def sim(params, n, ss):
        ks = np.arange(1.0, 5.0)
        return {"ks": ks, "mean": 1.0 / ks, "bound": 2.0 / ks}

    point = {"instance": 0, "offset": 2 ** 0.5, "kappa": 1.0, "sigma2": 0.1, "spread": 1.0,
             "name": "a-long-parameter-value-that-must-not-be-cut"}
    c = make(id="unit.caption", simulate=sim, grid=(point,))
    (fig,) = figures_for(run_check(c, progress=False), c)
    assert fig["caption"] == ("point 0: instance=0, offset=1.414, kappa=1, sigma2=0.1, "
                              "spread=1, name=a-long-parameter-value-that-must-not-be-cut.")


def test_custom_plot_is_used_when_registered():
    def plot(outcome):
        return [figure("curves", outcome.check_id, "eps", "K_eps",
                       [series("measured", [1, 2], [3, 4], "measured")])]

    def sim(params, n, ss):
        return {"mean": np.array([1.0]), "bound": np.array([2.0])}

    c = register(make(id="unit.custom", simulate=sim, plot=plot))
    try:
        figs = figures_for(run_check(c, progress=False), c)
        assert figs[0]["title"] == "unit.custom" and figs[0]["xlabel"] == "eps"
    finally:
        unregister("unit.custom")


def test_failing_custom_plot_falls_back_to_the_defaults_with_a_warning():
    def plot(outcome):
        raise RuntimeError("broken plot")

    def sim(params, n, ss):
        ks = np.arange(1.0, 5.0)
        return {"ks": ks, "mean": 1.0 / ks, "bound": 2.0 / ks}

    c = make(id="unit.broken", simulate=sim, plot=plot, xlabel="K (steps)")
    o = run_check(c, progress=False)
    with pytest.warns(UserWarning, match="custom figures of unit.broken failed"):
        figs = figures_for(o, c)
    assert figs[0]["xlabel"] == "K (steps)"


def test_error_outcome_has_no_figures(toys):
    check = toys["toy.boom"]
    assert figures_for(run_check(check, progress=False), check) == []


def test_per_agent_rows_are_separate_curves(toys):
    check = toys["toy.mc_agents_bad"]
    o = run_checks([check], base_seed=2, progress=False)[0]
    figs = figures_for(o, check)
    labels = [s["label"] for f in figs for s in f["series"]]
    assert "measured (point 0, entry (2,))" in labels
    assert all(len(s["x"]) == 7 for f in figs for s in f["series"])


@pytest.mark.parametrize(
    ("xs", "ys", "expected"),
    [
        ([1.0, 2.0], [3.0, 4.0], True),
        ([0.1], [8.0], False),            # one x value per series (P14 on its quick grid)
        ([1.0, 1.0], [3.0, 4.0], False),
        ([1.0, 2.0], [0.0, 0.0], False),  # every value the same (an all-zero chart)
        ([1.0, 2.0], [3.0, float("nan")], False),
    ],
)
def test_informative(xs, ys, expected):
    fig = figure("curves", "t", "x", "y", [series("m", xs, ys, "measured")])
    assert informative(fig) is expected


def test_a_figure_without_information_becomes_a_table_of_its_values():
    fig = figure("curves", "t", "eps", "K_eps",
                 [series("measured (point 0)", [0.1], [8.0], "measured"),
                  series("bound (point 0)", [0.1], [15.142857], "bound")])
    fig["caption"] = "point 0: kappa=1."
    table = as_table(fig)
    assert table["columns"] == ["series", "eps", "K_eps"]
    assert table["rows"] == [["measured (point 0)", "0.1", "8"],
                             ["bound (point 0)", "0.1", "15.14"]]
    assert table["caption"] == "point 0: kappa=1."
