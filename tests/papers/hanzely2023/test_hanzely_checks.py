"""hanzely2023 checks: the fast ones give their expected verdict on the quick grid, planted
wrong claims are caught, and every erratum with a check points at a registered check."""

from __future__ import annotations

import dataclasses

import pytest

from pflbounds.checking import Verdict, registry
from pflbounds.papers.hanzely2023.checks import ALL
from pflbounds.running.executor import run_check
from pflbounds.symbolic import catalog

BY_ID = {c.id: c for c in ALL}
FAST = ["P8", "E_apfl2_mu", "E_mt2_table2", "E_ws2", "P12", "E_table3_residual", "P1", "P2",
        "P2_scd", "P9_rescaled", "P9_unrescaled", "P10", "E_acd_beta_scale", "P4",
        "P4_printed", "E_lsgd_tau1", "E_lsgd_beta_step", "P7", "E_svrcd", "P11_theorem3"]
"""Checks cheap enough on their quick grids for the default test run (the others run in the
validation suites)."""


def test_every_prediction_of_the_digest_has_a_check():
    for n in range(1, 13):
        assert any(i == f"hanzely2023.P{n}" or i.startswith(f"hanzely2023.P{n}_")
                   for i in BY_ID), f"P{n} has no check"


@pytest.mark.parametrize("name", FAST)
def test_quick_verdict_is_the_expected_one(name):
    check = BY_ID[f"hanzely2023.{name}"]
    o = run_check(check, quick=True, base_seed=0, progress=False)
    assert o.error is None, o.error
    assert o.verdict == check.expected, o.detail


def test_errata_link_to_registered_checks():
    linked = 0
    for r in catalog.results("hanzely2023"):
        for e in r.errata:
            if e.check_id:
                assert registry.find(e.check_id) is not None, f"{e.id} -> {e.check_id}"
                linked += 1
    assert linked >= 9


def _quick(check) -> Verdict:
    return run_check(check, quick=True, base_seed=0, progress=False).verdict


def test_table2_as_printed_fails_p8():
    """The planted claim: Table 2's printed MT2 row as the bound of P8."""
    p8 = BY_ID["hanzely2023.P8"]
    planted = dataclasses.replace(p8, id="hanzely2023.P8_printed_mt2", quick_grid=(
        {"objective": "mt2", "lam": 0.5, "Lam": 3.75, "M": 6, "d": 3, "n": 8,
         "printed": True},))
    assert _quick(planted) is Verdict.VIOLATED


def test_wrong_exponents_are_caught():
    p2 = BY_ID["hanzely2023.P2"]  # accelerated: slope 0.5, not 1
    assert _quick(dataclasses.replace(p2, predicted=1.0)) is Verdict.VIOLATED
    p9 = BY_ID["hanzely2023.P9_unrescaled"]  # sqrt(M), not flat
    assert _quick(dataclasses.replace(p9, predicted=0.0)) is Verdict.VIOLATED


def test_contraction_claim_is_not_vacuous():
    """P1 with a planted contraction factor of 0.5 in place of 1 - theta is violated."""
    p1 = BY_ID["hanzely2023.P1"]

    def halved(params, R, seed):
        block = dict(p1.simulate(params, R, seed))
        block["bound"] = block["bound"] * 0 + 0.5
        return block

    assert _quick(dataclasses.replace(p1, simulate=halved)) is Verdict.VIOLATED


def test_report_tables_of_table3_and_the_regime_map():
    from pflbounds.papers.hanzely2023.checks.maps import LAMS, NS, plain, plot_map, plot_table3

    (t3,) = plot_table3(None)
    assert len(t3["rows"]) == 35 and t3["columns"][-1] == "verdict"
    verdicts = [r[-1] for r in t3["rows"]]
    assert verdicts.count("blank in the paper") == 1 and verdicts.count("disagrees") == 2
    mx2_beta = next(r for r in t3["rows"] if r[0] == "mx2" and r[1] == "# grad_beta F")
    assert mx2_beta[4] == "sqrt(3)" and "L'" in mx2_beta[2] and "mu'" in mx2_beta[2]
    assert plain("sqrt(1 - amax)*Abs(amax - 1)") == "(1 - alpha_max)^(3/2)"
    comm, grads = plot_map(None)
    assert len(comm["rows"]) == len(LAMS) and len(comm["rows"][0]) == len(NS) + 1
    assert {c for r in comm["rows"] for c in r[1:]} == {"ACD"}  # communication-optimal
    assert any("ASVRCD" in c for r in grads["rows"] for c in r[1:])  # large n: variance reduction


def test_scd_rounds_name_an_unreachable_target():
    """A target below what the iterations reach is an error naming it, not an IndexError."""
    from pflbounds.papers.hanzely2023.checks.acd import _SCD_GRID, simulate_scd_comm

    got = simulate_scd_comm(_SCD_GRID[0], 1, 0)
    assert 0 < float(got["cost"]) < float(got["iterations"])
    with pytest.raises(ValueError, match=r"did not reach rel = 1e-40 in K = \d+ iterations"):
        simulate_scd_comm({**_SCD_GRID[0], "rel": 1e-40}, 1, 0)
