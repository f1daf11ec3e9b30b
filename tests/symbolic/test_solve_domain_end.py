"""``solve`` over the unknown's whole domain: the closed end of a domain (0 for a number >= 0
or in [0, 1], 1 for a number >= 1, an integer's first value) is a candidate answer and is
reported as the domain's end; [0, 1] is never left above; a crossing below the grid's first
positive point is found; a real unknown is searched on both signs; and a set of solutions
that runs down to an excluded end has no smallest element and is refused. Uses a throw-away
paper, then scott2024's Theorem 3.2 through the command line.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
import sympy as sp

from pflbounds.cli import main
from pflbounds.symbolic import InputError, solve
from pflbounds.symbolic.builder import PaperBuilder
from pflbounds.symbolic.catalog import forget_paper, get
from pflbounds.symbolic.evaluate import TargetUnreachable
from pflbounds.symbolic.result import Kind


@pytest.fixture
def paper():
    P = PaperBuilder("endpaper")
    P.register("Domain ends", "Nobody (test fixture).")
    x = P.constant("x", "a nonnegative input", "1", "nonnegative")
    p = P.constant("p", "a probability", "1", "unit_interval")
    y = P.constant("y", "a positive input", "1")
    z = P.constant("z", "a real input", "1", "real")
    r = P.constant("r", "a ratio at least one", "1", "at_least_one")
    k = P.constant("k", "a count", "1", "positive_integer")

    def res(key, expr, conditions=()):
        return P.result(key, key, Kind.UPPER_BOUND, "q", "1", "q <= ...",
                        [P.form("printed", expr)], conditions=conditions)

    yield {
        "x_up": res("x_up", x + sp.Rational(1, 4)),
        "x_inv": res("x_inv", 1 / x),
        "x_open": res("x_open", x + 1, (P.cond(sp.Gt(x, 0), "x > 0"),)),
        "p_up": res("p_up", 10 * p),
        "p_down": res("p_down", 5 - p),
        "y_up": res("y_up", y),
        "y_log": res("y_log", -sp.log(y)),
        "z_exp": res("z_exp", sp.exp(-z)),
        "z_up": res("z_up", z),
        "r_up": res("r_up", r),
        "k_down": res("k_down", 1 / k),
        "w_minus_x": res("w_minus_x", P.constant("w", "a weight", "1") - x),
    }
    forget_paper("endpaper")


def test_nonnegative_unknown_answers_its_end_and_says_so(paper):
    ev = solve(paper["x_up"], "x", 0.5)
    assert ev.value == 0.0
    assert ev.boundary.startswith("the end of x's domain, a number >= 0")
    assert "the value there, 0.25, is already <= 0.5" in ev.boundary
    assert ev.to_json()["boundary"] == ev.boundary
    # below the value at the end nothing works: the floor is reported over [0, 1e15]
    with pytest.raises(TargetUnreachable, match=r"x in \[0, 1e\+15\] is 0.25"):
        solve(paper["x_up"], "x", 0.1)


def test_a_crossing_below_the_grid_is_found(paper):
    # 1/x <= 1e20 from x = 1e-20 on: the grid starts at 1e-15, the answer lies below it
    ev = solve(paper["x_inv"], "x", 1e20)
    assert ev.value == pytest.approx(1e-20, rel=1e-10)
    assert ev.boundary == ""
    # -log(y) <= 40 from y = e^-40 on (a positive unknown: its end 0 is open)
    assert solve(paper["y_log"], "y", 40.0).value == pytest.approx(math.exp(-40), rel=1e-10)


def test_unit_interval_unknown_stays_in_it(paper):
    assert solve(paper["p_up"], "p", 2.0).value == 0.0
    assert solve(paper["p_down"], "p", 4.5).value == pytest.approx(0.5, rel=1e-12)
    # 5 - p <= 3.9 needs p = 1.1, outside [0, 1]: unreachable, not an answer of 1.1
    with pytest.raises(TargetUnreachable, match=r"p in \[0, 1\] is 4 \(first reached at p=1\)"):
        solve(paper["p_down"], "p", 3.9)


def test_an_infimum_that_is_not_attained_is_refused(paper):
    # every y > 0 gives y <= 1, and y = 0 is not in the domain: no smallest y
    with pytest.raises(InputError, match=r"no smallest y .*every y > 0 down to 2.23e-308 gives "
                                         r"a value <= 1.*y = 0 is not in its domain"):
        solve(paper["y_up"], "y", 1.0)
    # x = 0 is in the domain but excluded by the condition x > 0
    with pytest.raises(InputError, match=r"no smallest x .*x = 0 gives no finite value within "
                                         r"the conditions"):
        solve(paper["x_open"], "x", 2.0)


def test_real_unknown_is_searched_on_both_signs(paper):
    ev = solve(paper["z_exp"], "z", 2.0)
    assert ev.value == pytest.approx(-math.log(2.0), rel=1e-12)
    with pytest.raises(InputError, match=r"no smallest z .*already at z=-1e\+15.*unbounded below"):
        solve(paper["z_up"], "z", 0.0)


def test_at_least_one_and_integer_ends(paper):
    ev = solve(paper["r_up"], "r", 5.0)
    assert ev.value == 1.0 and "the end of r's domain, a number >= 1" in ev.boundary
    ev = solve(paper["k_down"], "k", 2.0)
    assert ev.value == 1.0 and "an integer >= 1" in ev.boundary
    ev = solve(paper["k_down"], "k", 0.3)
    assert ev.value == 4.0 and ev.boundary == ""


def test_per_agent_answers_name_the_agents_at_the_end(paper):
    # w - x <= 1: x = 0 already works where w <= 1, x = w - 1 otherwise
    ev = solve(paper["w_minus_x"], "x", 1.0, w=np.array([0.5, 2.0, 1.0, 3.5]))
    np.testing.assert_allclose(ev.value, [0.0, 1.0, 0.0, 2.5], rtol=1e-12)
    assert "a number >= 0 for agents 0, 2:" in ev.boundary
    assert "the value there, 0.5, is already <= 1" in ev.boundary


T32 = ["eta_h2=1", "eta_v2=1", "alpha_h=1", "alpha_v=1", "n=100", "m=50", "theta2=1",
       "alpha_theta=100"]


def test_theorem3_2_empirical_loss_at_its_end(capsys):
    assert main(["solve", "scott2024.theorem3_2", "--for", "emp", "--target", "0.5", *T32,
                 "delta=0.05"]) == 0
    out = capsys.readouterr().out.strip()
    assert out.startswith("scott2024.theorem3_2 [printed]: smallest emp with value <= 0.5: 0 "
                          "(the end of emp's domain, a number in [0, 1]: the value there, ")
    ev = solve(get("scott2024.theorem3_2"), "emp", 0.5, eta_h2=1, eta_v2=1, alpha_h=1,
               alpha_v=1, n=100, m=50, theta2=1, alpha_theta=100, delta=0.05)
    assert ev.value == 0.0
    # the value at emp = 0 is the complexity terms alone
    meta = math.sqrt((1 + math.log(4 * 10 / 0.05)) / 200)
    sample = math.sqrt((100 / 200 + math.log(8 * 5000 / 0.05) + 1) / 10000)
    assert f"the value there, {meta + sample:.6g}" in ev.boundary


def test_theorem3_2_delta_below_the_grid_and_without_a_smallest(capsys):
    kw = dict(eta_h2=1, eta_v2=1, alpha_h=1, alpha_v=1, n=100, m=50, theta2=1,
              alpha_theta=100, emp=0.1)
    r = get("scott2024.theorem3_2")
    d = solve(r, "delta", 0.5, **kw).value
    assert 1e-12 < d < 1e-6

    def bound(delta):
        meta = math.sqrt((1 + math.log(40 / delta)) / 200)
        return 0.1 + meta + math.sqrt((0.5 + math.log(40000 / delta) + 1) / 10000)

    assert bound(d) <= 0.5 * (1 + 1e-12) and bound(d * (1 - 1e-9)) > 0.5
    # a crossing far below 1e-15 (the old search's first point)
    d = solve(r, "delta", 1.9, **kw).value
    assert d < 1e-100 and bound(d) <= 1.9 * (1 + 1e-12) and bound(d * (1 - 1e-6)) > 1.9
    assert main(["solve", "scott2024.theorem3_2", "--for", "delta", "--target", "5", *T32,
                 "emp=0.1"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "no smallest delta" in err[0] and "not attained" in err[0]
