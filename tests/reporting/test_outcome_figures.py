"""What the report shows for a check outcome: one function per figure kind, built from the
evidence once, and the rules every figure obeys (pairs of colours, a ratio panel with its
line at 1, categories as dots, fewer than 3 points as a table, a capped y-range)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import matplotlib
import numpy as np
import pytest
from figure_rules import assert_figure_rules, code_math

from pflbounds.checking import Check, CheckKind, Outcome, Verdict
from pflbounds.reporting.figure_model import PlotSpec, ratio_pairs
from pflbounds.reporting.figure_specs import STYLES, Plot, figure, series
from pflbounds.reporting.figures import _RC, PALETTE, build_figure, figure_texts
from pflbounds.reporting.outcome_figures import (
    as_table,
    figures_for,
    finish,
    informative,
    params_text,
)
from pflbounds.running import run_check

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "checking"))
import toy_checks  # noqa: E402

K = np.array([1.0, 2.0, 4.0, 8.0, 16.0, 32.0])


@pytest.fixture
def toys():
    toy_checks.register_all()
    yield {c.id: c for c in toy_checks.CHECKS}
    toy_checks.unregister_all()


def _sim(params, n, ss):  # pragma: no cover - never simulated here
    return {}


def make(**kw) -> Check:
    base = {"id": "unit.m", "title": "t", "kind": CheckKind.BOUND_HOLDS,
            "expected": Verdict.HOLDS, "simulate": _sim, "grid": ({"a": 1},),
            "xlabel": "K (steps)", "ylabel": "E[F^K]"}
    return Check(**{**base, **kw})


def outcome(evidence: list[dict], kind: CheckKind = CheckKind.BOUND_HOLDS, **kw) -> Outcome:
    """A synthetic outcome: evidence points numbered in order."""
    pts = [{"point": i, "params": {"c": float(i)}, **e} for i, e in enumerate(evidence)]
    for p, e in zip(pts, evidence, strict=True):
        p["params"] = e.get("params", p["params"])
    verdict = Verdict.CONFIRMED if kind is CheckKind.ERRATUM else Verdict.HOLDS
    return Outcome(kw.pop("check_id", "unit.m"), kind, verdict, verdict, evidence=pts,
                   title="a claim", **kw)


def draw(spec: dict):
    with matplotlib.rc_context(_RC):
        return build_figure(PlotSpec.from_dict(spec))


def _data_lines(ax):
    """Lines that draw data (not the reference lines at 1 or y = x, nor edge markers)."""
    return [ln for ln in ax.get_lines() if len(ln.get_xdata()) > 1
            and ln.get_color() != "black" and ln.get_marker() not in ("^", "v")]


# ---------------------------------------------------------------------------------------------
# curves: a bound in its curve's colour, the ratio panel with its line at 1
# ---------------------------------------------------------------------------------------------
def test_each_bound_is_in_its_curves_group_and_colour():
    o = outcome([{"ks": K, "mean": 1 / K, "bound": 2 / K, "params": {"kappa": 1.0}},
                 {"ks": K, "mean": 3 / K, "bound": 5 / K, "params": {"kappa": 4.0}}])
    (fig,) = figures_for(o, make())
    assert fig["kind"] == "curves"
    groups: dict[str, set] = {}
    for s in fig["series"]:
        groups.setdefault(s["group"], set()).add(s["style"])
    assert groups == {"kappa = 1": {"measured", "bound"}, "kappa = 4": {"measured", "bound"}}
    ax = draw(fig).axes[0]
    colours = [ln.get_color() for ln in _data_lines(ax)]
    assert colours == [PALETTE[0], PALETTE[0], PALETTE[1], PALETTE[1]]


def test_the_ratio_panel_has_a_line_at_one_and_the_ratio_of_each_pair():
    o = outcome([{"ks": K, "mean": 1 / K, "bound": 4 / K}])
    (fig,) = figures_for(o, make())
    f = draw(fig)
    main, ratio = f.axes
    assert ratio.get_ylabel() == "measured/bound"
    at_one = [ln for ln in ratio.get_lines() if ln.get_color() == "black"]
    assert at_one and all(np.allclose(ln.get_ydata(), 1.0) for ln in at_one)
    (curve,) = _data_lines(ratio)
    np.testing.assert_allclose(curve.get_ydata(), 0.25)
    assert "Lower panel: measured/bound; above 1 (shaded) the bound fails." in fig["caption"]
    # the main panel's x axis is the ratio panel's: its tick labels are not repeated
    assert not any(t.get_visible() and t.get_text() for t in main.get_xticklabels())
    assert ratio.get_xlabel() == "$K$ (steps)"


def test_a_planted_wrong_bound_shows_above_one_in_the_ratio_panel():
    """A bound below the measured curve (the planted error): the ratio panel is above 1, on
    the chart, in the shaded region."""
    o = outcome([{"ks": K, "mean": 1 / K, "bound": 0.5 / K}])
    (fig,) = figures_for(o, make())
    pairs = ratio_pairs(PlotSpec.from_dict(fig))
    np.testing.assert_allclose(pairs[0].ratio_values(), 2.0)
    ratio = draw(fig).axes[1]
    (curve,) = _data_lines(ratio)
    lo, hi = ratio.get_ylim()
    assert (curve.get_ydata() > 1).all() and lo < 2.0 < hi


def test_an_erratum_has_a_ratio_per_form_and_a_lower_bound_its_own_ratio():
    o = outcome([{"ks": K, "mean": 1 / K, "bound_printed": 0.5 / K,
                  "bound_corrected": 2 / K}], CheckKind.ERRATUM)
    (fig,) = figures_for(o, make(kind=CheckKind.ERRATUM, expected=Verdict.CONFIRMED))
    styles = sorted(p.style for p in ratio_pairs(PlotSpec.from_dict(fig)))
    assert styles == ["bound_corrected", "bound_printed"]
    low = outcome([{"ks": K, "mean": 2 / K, "bound": 1 / K}], CheckKind.LOWER_BOUND)
    (fig,) = figures_for(low, make(kind=CheckKind.LOWER_BOUND))
    assert {s["style"] for s in fig["series"]} == {"measured", "lower_bound"}
    (pair,) = ratio_pairs(PlotSpec.from_dict(fig))
    np.testing.assert_allclose(pair.ratio_values(), 0.5)  # bound/measured
    assert draw(fig).axes[1].get_ylabel() == "bound/measured"
    assert "bound/measured; above 1 (shaded) the lower bound fails" in fig["caption"]


def test_negative_values_give_a_difference_panel_at_zero():
    o = outcome([{"ks": K, "mean": -1 / K, "bound": -0.5 / K}])
    (fig,) = figures_for(o, make())
    ratio = draw(fig).axes[1]
    assert ratio.get_ylabel() == "measured − bound"
    assert any(np.allclose(ln.get_ydata(), 0.0) for ln in ratio.get_lines()
               if ln.get_color() == "black")
    assert "measured - bound; above 0" in fig["caption"]


def test_a_divergence_is_capped_and_marked_and_read_in_the_ratio_panel():
    ks = np.arange(1.0, 41.0)
    o = outcome([{"ks": ks, "mean": 10.0 ** (3 * ks), "bound": np.ones_like(ks)},
                 {"ks": ks, "mean": 0.5 / ks, "bound": np.ones_like(ks)}])
    (fig,) = figures_for(o, make())
    assert fig["logy"]
    f = draw(fig)
    main, ratio = f.axes
    top = main.get_ylim()[1]
    assert top <= 1e3 * 2  # three decades above the bound (and a margin), not 1e120
    edge = [ln for ln in main.get_lines() if ln.get_marker() == "^"]
    assert edge and len(edge[0].get_xdata()) >= 30  # every value beyond is marked
    assert any("beyond the chart" in t.get_text() for t in main.texts)
    assert ratio.get_yscale() == "log" and ratio.get_ylim()[1] <= 1e6 * 10


def test_many_points_keep_the_closest_to_their_bound_in_one_figure():
    o = outcome([{"ks": K, "mean": 1 / K, "bound": (1.0 + i) / K,
                  "params": {"c": 1.0 + i, "instance": i}} for i in range(12)])
    figs = figures_for(o, make())
    assert len(figs) == 1
    groups = {s["group"] for s in figs[0]["series"]}
    assert groups == {f"c = {c:g}" for c in (1, 2, 3, 4, 5)}
    assert "5 of the 12 curves are drawn: those closest to their bound." in figs[0]["caption"]
    assert "(1/" not in figs[0]["title"]


def test_rows_of_a_grid_point_are_curves_named_by_the_check():
    mean = np.vstack([1 / K, 2 / K])
    o = outcome([{"ks": K, "mean": mean, "bound": np.vstack([3 / K, 3 / K])}])
    check = make(plot=Plot("curves", rows=("agent 0", "agent 1")))
    (fig,) = figures_for(o, check)
    assert {s["group"] for s in fig["series"]} == {"agent 0", "agent 1"}


def test_captions_name_the_fixed_parameters_uncut():
    point = {"instance": 0, "offset": 2 ** 0.5, "kappa": 1.0, "sigma2": 0.1,
             "name": "a-long-parameter-value-that-must-not-be-cut"}
    o = outcome([{"ks": K, "mean": 1 / K, "bound": 2 / K, "params": point}])
    (fig,) = figures_for(o, make())
    assert fig["caption"].startswith(
        "Grid point: instance = 0, offset = 1.414, kappa = 1, sigma2 = 0.1, "
        "name = a-long-parameter-value-that-must-not-be-cut.")
    assert params_text({"sizes": [2, 4], "x": 1e-7}) == "sizes = (2, 4), x = 1e-07"


# ---------------------------------------------------------------------------------------------
# fewer than 3 points, no information: a table
# ---------------------------------------------------------------------------------------------
def test_fewer_than_three_points_become_a_table():
    o = outcome([{"ks": K[:2], "mean": 1 / K[:2], "bound": 2 / K[:2]}])
    (table,) = figures_for(o, make())
    assert table["kind"] == "table"
    assert table["columns"] == ["series", "K (steps)", "E[F^K]"]
    assert table["rows"] == [["measured", "1", "1"], ["measured", "2", "0.5"],
                             ["bound", "1", "2"], ["bound", "2", "1"]]


def test_two_grid_points_at_one_x_are_a_table_by_point():
    o = outcome([{"ks": [0.1], "mean": [8.0], "bound": [15.142857],
                  "params": {"instance": 0, "kappa": 1}},
                 {"ks": [0.1], "mean": [9.0], "bound": [16.0],
                  "params": {"instance": 4, "kappa": 4}}])
    (table,) = figures_for(o, make(xlabel="eps"))
    assert table["columns"] == ["series", "eps", "E[F^K]"]
    assert ["bound (kappa = 1)", "0.1", "15.14"] in table["rows"]


@pytest.mark.parametrize(
    ("xs", "ys", "expected"),
    [
        ([1.0, 2.0], [3.0, 4.0], True),
        ([0.1], [8.0], False),            # one x value per series
        ([1.0, 1.0], [3.0, 4.0], False),
        ([1.0, 2.0], [0.0, 0.0], False),  # every value the same (an all-zero chart)
        ([1.0, 2.0], [3.0, float("nan")], False),
    ],
)
def test_informative(xs, ys, expected):
    fig = figure("curves", "t", "x", "y", [series("m", xs, ys, "measured")])
    assert informative(fig) is expected


def test_a_flat_figure_is_a_table_of_its_values():
    fig = figure("curves", "t", "K", "E[F^K]", [series("measured", K, np.ones_like(K),
                                                        "measured")])
    assert finish(fig)["kind"] == "table"
    big = as_table(figure("scatter", "t", "b", "m", [series("i", np.arange(100.0),
                                                           np.arange(100.0), "measured")]))
    assert len(big["rows"]) == 40 and "The first 40 of 100 values." in big["caption"]


# ---------------------------------------------------------------------------------------------
# categories: dots, never a line
# ---------------------------------------------------------------------------------------------
def test_named_entries_are_dots_never_a_line():
    consts = ("1/mu", "L^w", "L^beta", "Lcal^w")
    o = outcome([{"ks": np.arange(4.0), "mean": [2.0, 1.0, 0.5, 3.0],
                  "bound_printed": [1.0, 0.5, 0.5, 1.0], "bound_corrected": [3.0, 2.0, 1.0, 4.0]}],
                CheckKind.ERRATUM)
    check = make(kind=CheckKind.ERRATUM, expected=Verdict.CONFIRMED,
                 plot=Plot("dots", categories=consts, xlabel="constant"))
    (fig,) = figures_for(o, check)
    assert fig["kind"] == "dots" and fig["series"][0]["x"] == list(consts)
    f = draw(fig)
    for ax in f.axes:
        for ln in ax.get_lines():
            if len(ln.get_xdata()) > 1 and ln.get_color() != "black":
                assert ln.get_linestyle() == "None", ln  # markers only
    ticks = [t.get_text() for t in f.axes[-1].get_xticklabels()]
    assert ticks == ["$1/\\mu$", "$L^{w}$", "$L^{\\beta}$", "$\\mathcal{L}^{w}$"]
    assert len(f.axes) == 2  # with the ratio panel


def test_a_curve_over_category_names_becomes_dots():
    def plot(o):
        return [figure("curves", "methods", "method", "K_eps",
                       [series("measured", ["SGD", "AFO", "AFA"], [3.0, 2.0, 1.0],
                               "measured")])]

    (fig,) = figures_for(outcome([{"ks": K, "mean": 1 / K, "bound": 2 / K}]),
                         make(plot=plot))
    assert fig["kind"] == "dots" and not fig["logx"]


def test_one_value_per_grid_point_is_a_curve_over_the_ordered_parameter():
    o = outcome([{"ks": [float(k)], "mean": [1 / k], "bound": [2 / k],
                  "params": {"k": k, "eps": e}} for e in (0.1, 0.01) for k in (1, 2, 4)])
    (fig,) = figures_for(o, make(xlabel="k"))
    assert fig["kind"] == "curves"
    by_group = {s["group"]: s["x"] for s in fig["series"] if s["style"] == "measured"}
    assert by_group == {"eps = 0.1": [1.0, 2.0, 4.0], "eps = 0.01": [1.0, 2.0, 4.0]}


def test_named_cases_without_an_order_are_dots():
    o = outcome([{"ks": [0.0], "mean": [float(i + 1)], "bound": [5.0],
                  "params": {"graph": g, "n": n}}
                 for i, (g, n) in enumerate((("ring", 4), ("star", 6), ("clique", 8)))])
    (fig,) = figures_for(o, make())
    assert fig["kind"] == "dots"
    assert fig["series"][0]["x"] == ["graph = ring, n = 4", "graph = star, n = 6",
                                     "graph = clique, n = 8"]


# ---------------------------------------------------------------------------------------------
# scatter: instances against their bound
# ---------------------------------------------------------------------------------------------
def test_random_instances_are_a_scatter_with_the_line_y_equals_x():
    rng = np.random.default_rng(0)
    b = rng.uniform(1, 100, 300)
    o = outcome([{"ks": np.arange(300.0), "mean": b * rng.uniform(0.2, 1, 300), "bound": b}])
    (fig,) = figures_for(o, make(plot=Plot("scatter"), ylabel="E[R]"))
    assert fig["kind"] == "scatter" and fig["logx"] and fig["logy"]
    assert fig["xlabel"] == "bound on E[R]" and fig["ylabel"] == "E[R]"
    assert "above the line y = x (shaded) the bound fails" in fig["caption"]
    ax = draw(fig).axes[0]
    diag = [ln for ln in ax.get_lines() if ln.get_color() == "black"]
    assert diag and np.allclose(diag[0].get_xdata(), diag[0].get_ydata())
    assert ax.get_xlim() == ax.get_ylim()
    assert len(ax.collections[0].get_offsets()) == 300


def test_many_instances_are_a_histogram_of_the_ratio():
    rng = np.random.default_rng(1)
    b = rng.uniform(1, 2, 5000)
    o = outcome([{"ks": np.arange(5000.0), "mean": b * rng.uniform(0.1, 0.9, 5000),
                  "bound": b}])
    (fig,) = figures_for(o, make(plot=Plot("scatter")))
    assert "Histogram over the instances of measured/bound" in fig["caption"]
    ax = draw(fig).axes[0]
    assert ax.get_ylabel() == "instances" and "measured / bound" in ax.get_xlabel()


def test_an_erratum_scatter_has_a_series_per_form_and_entries_as_categories():
    o = outcome([{"ks": np.arange(3.0), "mean": [1.0, 2.0, 3.0], "bound_printed": [0.5] * 3,
                  "bound_corrected": [4.0] * 3}] * 2, CheckKind.ERRATUM)
    (fig,) = figures_for(o, make(kind=CheckKind.ERRATUM, expected=Verdict.CONFIRMED,
                                 plot=Plot("scatter")))
    labels = [s["label"] for s in fig["series"]]
    assert labels == ["against the bound as printed", "against the corrected bound"]
    pairs = outcome([{"ks": np.arange(2.0), "mean": [1, 2], "bound": [2, 3]}] * 3)
    (cat,) = figures_for(pairs, make(plot=Plot("scatter", categories=("(44)", "(45)"))))
    assert [s["label"] for s in cat["series"]] == ["(44)", "(45)"]
    assert [s["x"] for s in cat["series"]] == [[2.0] * 3, [3.0] * 3]


# ---------------------------------------------------------------------------------------------
# tail probabilities and slopes
# ---------------------------------------------------------------------------------------------
def test_violation_rates_are_points_with_intervals_against_delta():
    ev = [{"rate": r, "rate_lo": r / 2, "rate_hi": 2 * r, "delta": 0.1,
           "params": {"dim": d}} for r, d in ((0.01, 5), (0.02, 20), (0.005, 100))]
    o = outcome(ev, CheckKind.HOLDS_WITH_PROBABILITY)
    (fig,) = figures_for(o, make(kind=CheckKind.HOLDS_WITH_PROBABILITY, xlabel="", ylabel="",
                                 delta=0.1, engine="mc"))
    assert fig["kind"] == "tail" and fig["ylabel"] == "P(violation)"
    assert fig["series"][0]["x"] == ["dim = 5", "dim = 20", "dim = 100"]
    named = figures_for(o, make(plot=Plot("tail", names=lambda p: f"Sigma = I_{p['dim']}")))
    assert named[0]["series"][0]["x"][0] == "Sigma = I_5"
    ax = draw(fig).axes[0]
    assert ax.get_yscale() == "log"
    assert [ln for ln in ax.get_lines() if ln.get_marker() == "_"]  # delta as bars


def test_a_scaling_figure_has_points_the_fit_and_the_predicted_band(toys):
    check = toys["toy.mc_scaling"]
    (fig,) = figures_for(run_check(check, base_seed=0, progress=False), check)
    assert fig["kind"] == "scaling" and fig["logx"] and fig["logy"]
    styles = {s["style"]: s for s in fig["series"]}
    assert set(styles) == {"measured", "fit", "reference"}
    ref = styles["reference"]
    assert ref["lo"] is not None and all(lo <= y <= hi for lo, y, hi
                                         in zip(ref["lo"], ref["y"], ref["hi"], strict=True))
    ax = draw(fig).axes[0]
    assert not [ln for ln in ax.get_lines() if ln.get_marker() == "o"
                and ln.get_linestyle() != "None"]  # measured points are never joined


def test_a_rate_check_shows_its_fit_and_its_curve_with_the_bound(toys):
    check = toys["toy.mc_rate"]
    figs = figures_for(run_check(check, base_seed=0, progress=False), check)
    assert figs[0]["kind"] == "scaling"
    assert {s["style"] for s in figs[0]["series"]} >= {"measured", "fit", "reference"}


# ---------------------------------------------------------------------------------------------
# the outcome's own checks and the model
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("check_id", "styles"),
    [
        ("toy.mc_true", {"measured", "bound"}),
        ("toy.erratum", {"measured", "bound_printed", "bound_corrected"}),
    ],
)
def test_default_figures_of_toy_checks_are_plain_data(toys, check_id, styles):
    check = toys[check_id]
    figs = figures_for(run_check(check, base_seed=0, progress=False), check)
    assert figs and {s["style"] for f in figs for s in f["series"]} == styles
    for fig in figs:
        assert all(s["style"] in STYLES for s in fig["series"])
        json.dumps(fig)  # plain data only
        assert_figure_rules(fig, check_id)


def test_identity_residuals_are_a_table(toys):
    check = toys["toy.identity"]
    (table,) = figures_for(run_check(check, progress=False), check)
    assert table["kind"] == "table"
    assert table["columns"] == ["point", "parameters", "max |residual|", "tolerance"]
    assert [r[2] for r in table["rows"]] == ["1e-15", "3e-14"]


def test_failing_custom_plot_falls_back_to_the_defaults_with_a_warning():
    def plot(o):
        raise RuntimeError("broken plot")

    o = outcome([{"ks": K, "mean": 1 / K, "bound": 2 / K}])
    with pytest.warns(UserWarning, match="custom figures of unit.m failed"):
        figs = figures_for(o, make(plot=plot))
    assert figs[0]["xlabel"] == "K (steps)"


def test_error_outcome_has_no_figures(toys):
    check = toys["toy.boom"]
    assert figures_for(run_check(check, progress=False), check) == []


def test_labels_legends_and_ticks_are_mathtext_never_code():
    def plot(o):
        return [figure("curves", "t", "N_i (agents eps-close)", "sqrt(2) ||x||^2 <= b_ij",
                       [series("b = sqrt(2)||.|| (as in Figure 1)", K, 1 / K, "measured",
                               group="v = 0.1"),
                        series("bound sum_{k<K} x_k^2", K, 2 / K, "bound", group="v = 0.1")])]

    (fig,) = figures_for(outcome([{"ks": K, "mean": 1 / K, "bound": 2 / K}]),
                         make(plot=plot))
    texts = figure_texts(draw(fig))
    assert any("\\sqrt{2}" in t for t in texts) and any("\\sum" in t for t in texts)
    assert not [t for t in texts if code_math(t)]
    assert code_math("sqrt(2) $x_{i}$") == ["sqrt("] and code_math("$\\sqrt{2}$ a") == []


def test_every_kind_obeys_the_rules():
    rng = np.random.default_rng(2)
    specs = [
        figures_for(outcome([{"ks": K, "mean": 1 / K, "bound": 2 / K}]), make())[0],
        figures_for(outcome([{"ks": np.arange(50.0), "mean": rng.uniform(0, 1, 50),
                              "bound": np.ones(50)}]), make(plot=Plot("scatter")))[0],
        figures_for(outcome([{"ks": np.arange(3.0), "mean": [1.0, 2.0, 3.0],
                              "bound": [2.0, 3.0, 4.0]}]),
                    make(plot=Plot("dots", categories=("a", "b", "c"))))[0],
    ]
    assert [s["kind"] for s in specs] == ["curves", "scatter", "dots"]
    for spec in specs:
        assert_figure_rules(spec, spec["kind"])
