"""hanzely2023 Table 3: the corrected rows are the generic formulas with the objectives'
constants, the printed rows as in the paper, and the comparison cell by cell (P12, its report
table and the Fed Residual erratum)."""

from __future__ import annotations

import numpy as np
import pytest

from pflbounds.checking import registry
from pflbounds.papers.hanzely2023.checks.common import P
from pflbounds.papers.hanzely2023.checks.table3 import compare_all, plain, plot_table3, summary
from pflbounds.papers.hanzely2023.theory import table3
from pflbounds.running.executor import run_check
from pflbounds.symbolic import evaluate, get
from pflbounds.symbolic.hidden import strip_hidden
from pflbounds.symbolic.loader import load_papers

load_papers()
FAST = ["P12", "E_table3_residual", "P10"]
"""The checks of this topic cheap enough on their quick grids for the default test run."""

def _quick(check_id: str):
    check = registry.get(P + check_id)
    return check, run_check(check, quick=True, base_seed=0, progress=False)

@pytest.mark.parametrize("name", FAST)
def test_quick_verdict_is_the_expected_one(name):
    check, o = _quick(name)
    assert o.error is None, o.error
    assert o.verdict == check.expected, o.detail

def test_table3_corrected_is_the_generic_formula_with_the_constants():
    v = evaluate(get(P + "table3_mx2"), "corrected", mup=0.2, Lp=3.0, Lcp=5.0, lam=1.0,
                 n=100).value
    assert v["comm"] == pytest.approx(np.sqrt(3 * 1.0 / 0.2))  # sqrt(L^w/mu) = sqrt(3 lam/mu')
    assert v["grad_beta"] == pytest.approx(np.sqrt(3 * 4.0 / 0.2))
    assert v["grad_w_i"] == pytest.approx(100 + np.sqrt(100 * 3 / 0.2))
    assert "grad_w_i" not in get(P + "table3_mx2").form("printed").parts

def test_table3_rows_without_a_block_cost_nothing_there():
    fl = {c: strip_hidden(e) for c, e in table3.regenerated("fl").items()}
    assert fl["grad_beta"] == 0 and fl["grad_beta_i"] == 0
    full = {c: strip_hidden(e) for c, e in table3.regenerated("full").items()}
    assert full["comm"] == 0 and full["grad_w_i"] == 0

def test_table3_residual_typo_is_recorded():
    pr = get(P + "table3_residual").form("printed").parts["grad_w_i"]
    co = get(P + "table3_residual").form("corrected").parts["grad_w_i"]
    assert "mup" in {s.name for s in pr.free_symbols}
    assert "mup" not in {s.name for s in co.free_symbols}

@pytest.fixture(scope="module")
def cells():
    return {(c.objective, c.column): c for c in compare_all()}

def test_table3_comparison_verdicts(cells):
    assert summary(list(cells.values())) == {"equal": 18, "agrees in regime": 5,
                                             "constant factor": 9, "blank in the paper": 1,
                                             "disagrees": 2}
    assert cells[("mx2", "grad_beta")].ratio == "sqrt(3)"
    assert cells[("mx2", "grad_w_i")].verdict == "blank in the paper"
    assert cells[("apfl2", "comm")].ratio == "sqrt(2)"  # the corrected mu of Lemma 3
    mt2 = cells[("mt2", "comm")]
    assert mt2.verdict == "agrees in regime" and mt2.regime == "lambda <= Lambda L'"
    assert np.sqrt(2) - 1e-6 <= mt2.low and mt2.high <= 2 + 1e-9
    res = cells[("residual", "grad_w_i")]
    assert res.verdict == "disagrees" and res.ratio == "sqrt(mup)/sqrt(mu)"
    assert res.erratum == "hanzely2023.erratum4_residual"
    assert res.high / res.low > 1e4

def test_report_table_of_table3():
    (t3,) = plot_table3(None)
    assert len(t3["rows"]) == 35 and t3["columns"][-1] == "verdict"
    verdicts = [r[-1] for r in t3["rows"]]
    assert verdicts.count("blank in the paper") == 1 and verdicts.count("disagrees") == 2
    mx2_beta = next(r for r in t3["rows"] if r[0] == "mx2" and r[1] == "# grad_beta F")
    assert mx2_beta[4] == "sqrt(3)" and "L'" in mx2_beta[2] and "mu'" in mx2_beta[2]
    assert plain("sqrt(1 - amax)*Abs(amax - 1)") == "(1 - alpha_max)^(3/2)"
