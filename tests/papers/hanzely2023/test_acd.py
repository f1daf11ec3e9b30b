"""hanzely2023 ACD-PFL (Theorem 7): its parameters and counts, what the instance relations
refuse and must not refuse (an absent block, the target against the initial error), planted
wrong claims the checks catch, and the regime map (its boundaries are where the calculator's
winner changes; the report gets them as a figure with labelled axes, plus the tables)."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from pflbounds.checking import Verdict, registry
from pflbounds.papers.hanzely2023.checks.acd import (
    _SCD_GRID,
    LAMS,
    NS,
    _acd_lead,
    boundary_n,
    plot_map,
    simulate_scd_comm,
)
from pflbounds.papers.hanzely2023.checks.common import P
from pflbounds.papers.hanzely2023.theory import acd
from pflbounds.running.executor import run_check
from pflbounds.symbolic import InputError, evaluate, get
from pflbounds.symbolic.evaluate import numeric
from pflbounds.symbolic.loader import load_papers

load_papers()
H = P
FAST = ["P1", "P2", "P2_scd", "E_acd_beta_scale"]
"""The checks of this topic cheap enough on their quick grids for the default test run."""

def _quick(check_id: str):
    check = registry.get(P + check_id)
    return check, run_check(check, quick=True, base_seed=0, progress=False)

@pytest.mark.parametrize("name", FAST)
def test_quick_verdict_is_the_expected_one(name):
    check, o = _quick(name)
    assert o.error is None, o.error
    assert o.verdict == check.expected, o.detail

def test_acd_parameters_solve_theta_squared_equals_nu_one_minus_theta():
    p = evaluate(get(P + "theorem7_parameters"), mu=0.01, Lw=4.0, Lb=9.0).value
    nu = 0.01 / (2 + 3) ** 2
    assert p["nu"] == pytest.approx(nu)
    assert p["theta"] ** 2 == pytest.approx(nu * (1 - p["theta"]), rel=1e-12)
    assert p["eta"] == pytest.approx(1 / p["theta"]) and p["p_w"] == pytest.approx(0.4)

def test_theorem7_counts_are_pw_and_pbeta_times_iterations():
    v = evaluate(get(P + "theorem7"), mu=0.01, Lw=4.0, Lb=9.0, Delta0=1, eps=1e-6).value
    log = np.log(1e6)
    assert v["communication"] == pytest.approx(np.sqrt(400) * log)
    assert v["grad_beta"] == pytest.approx(np.sqrt(900) * log)
    assert v["iterations"] == pytest.approx(np.sqrt(1300) * log)  # sqrt((L^w + L^beta)/mu)
    assert float(numeric(acd.ACD_ITERATIONS, {"mu": 0.01, "Lw": 4, "Lb": 9, "Delta0": 1,
                                                  "eps": 1e-6})) == pytest.approx(50 * log)

def _t7(**kw):
    return evaluate(get(H + "theorem7"), **{"Delta0": 1, "eps": 0.01, "mu": 1, **kw}).value

def test_an_absent_block_puts_no_bound_on_mu():
    # traditional FL has no beta-block (Table 2: L^beta = 0) and mu = mu' > 0
    v = _t7(Lw=4, Lb=0)
    assert v["grad_beta"] == 0 and v["iterations"] == pytest.approx(2 * np.log(100))
    # a present block with a constant below mu is no instance
    with pytest.raises(InputError, match=r"mu <= Lb unless Lb = 0\] fails: Lb=0.5, mu=1"):
        _t7(Lw=4, Lb=0.5)
    with pytest.raises(InputError, match=r"Lb=0, Lw=0"):
        _t7(Lw=0, Lb=0)

def test_eps_at_or_above_the_initial_error_is_refused():
    below = _t7(Lw=4, Lb=1, eps=0.999)
    assert all(x > 0 for x in below.values())
    for eps in (1.0, 3.0):
        with pytest.raises(InputError, match=rf"eps={eps:g} >= Delta0=1"):
            _t7(Lw=4, Lb=1, eps=eps)

def test_wrong_exponents_are_caught():
    p2 = registry.get(P + "P2")  # accelerated: slope 0.5, not 1
    o = run_check(dataclasses.replace(p2, predicted=1.0), quick=True, base_seed=0,
                  progress=False)
    assert o.verdict is Verdict.VIOLATED

def test_contraction_claim_is_not_vacuous():
    """P1 with a planted contraction factor of 0.5 in place of 1 - theta is violated."""
    p1 = registry.get(P + "P1")

    def halved(params, R, seed):
        block = dict(p1.simulate(params, R, seed))
        block["bound"] = block["bound"] * 0 + 0.5
        return block

    o = run_check(dataclasses.replace(p1, simulate=halved), quick=True, base_seed=0,
                  progress=False)
    assert o.verdict is Verdict.VIOLATED

def test_scd_rounds_name_an_unreachable_target():
    """A target below what the iterations reach is an error naming it, not an IndexError."""
    got = simulate_scd_comm(_SCD_GRID[0], 1, 0)
    assert 0 < float(got["cost"]) < float(got["iterations"])
    with pytest.raises(ValueError, match=r"did not reach rel = 1e-40 in K = \d+ iterations"):
        simulate_scd_comm({**_SCD_GRID[0], "rel": 1e-40}, 1, 0)

# ------------------------------------------------------------------- the regime map

def test_boundary_is_where_acd_stops_winning():
    n, winner = boundary_n(2.0, "grad_beta_stochastic")
    assert winner.startswith("ASVRCD-PFL")
    assert _acd_lead(2.0, int(n), "grad_beta_stochastic")[0] >= 0
    assert _acd_lead(2.0, int(n / 1.03), "grad_beta_stochastic")[0] < 0


def test_regime_map_figure_from_the_quick_outcome():
    o = run_check(registry.get(P + "regime_map"), quick=True, base_seed=0, progress=False)
    specs = plot_map(o)
    fig = specs[0]
    assert fig["kind"] == "curves" and fig["xlabel"] == "n" and fig["ylabel"] == "lambda"
    assert fig["logx"] and fig["logy"]
    assert [s["label"] for s in fig["series"]] == ["fewest grad_w F_i calls",
                                                   "fewest grad_beta F_i calls"]
    for s in fig["series"]:
        assert s["y"] == sorted(s["y"]) and len(s["y"]) == 2
        assert np.all(np.diff(s["x"]) < 0)  # more personalization: ACD wins up to larger n
    assert any("ASVRCD" in a for a in fig["annotations"])
    assert [t["kind"] for t in specs[1:]] == ["table", "table"]

def test_regime_map_tables():
    comm, grads = plot_map(None)
    assert len(comm["rows"]) == len(LAMS) and len(comm["rows"][0]) == len(NS) + 1
    assert {c for r in comm["rows"] for c in r[1:]} == {"ACD"}  # communication-optimal
    assert any("ASVRCD" in c for r in grads["rows"] for c in r[1:])  # large n: variance reduction
