"""hanzely2023 LSGD-PFL (Theorems 1, 2, 5, Lemmas 5-7, Table 1): Theorem 5's printed and
corrected Phi^0, its step condition and the tau = 1 gap, Theorem 1's explicit count, Lemma 5's
statement, and the quick verdicts of the LSGD-PFL checks."""

from __future__ import annotations

import numpy as np
import pytest

from pflbounds.checking import CheckKind, Verdict, registry
from pflbounds.papers.hanzely2023.checks.common import P
from pflbounds.papers.hanzely2023.theory import lsgd
from pflbounds.running.executor import run_check
from pflbounds.symbolic import HypothesisError, evaluate, get
from pflbounds.symbolic.evaluate import numeric
from pflbounds.symbolic.loader import load_papers

load_papers()
H = P
FAST = ["P4", "P4_printed", "E_lsgd_tau1", "E_lsgd_beta_step"]
"""The checks of this topic cheap enough on their quick grids for the default test run."""

def _quick(check_id: str):
    check = registry.get(P + check_id)
    return check, run_check(check, quick=True, base_seed=0, progress=False)

@pytest.mark.parametrize("name", FAST)
def test_quick_verdict_is_the_expected_one(name):
    check, o = _quick(name)
    assert o.error is None, o.error
    assert o.verdict == check.expected, o.detail

LSGD = {"mu": 0.1, "Lw": 1.0, "Lb": 2.0, "tau": 5, "B": 1, "M": 10, "sigma2": 1.0,
        "zeta2": 0.5, "Dw0": 1.0, "Db0": 3.0}

def test_theorem5_printed_and_corrected_phi0():
    r = get(P + "theorem5")
    eta = 0.01
    pr = evaluate(r, eta=eta, K=1, **LSGD).value
    co = evaluate(r, "corrected", eta=eta, K=1, **LSGD).value
    psi0 = 2 / 10 + 8 * 1.0 * eta * np.e * 4 * 5 * (3 * 0.5 + 1.0)
    assert pr == pytest.approx(0.999 * (2 * 1 + 3) / eta + eta * psi0)
    assert co == pytest.approx(0.999 * 2 * (1 + 3) / eta + eta * psi0)

def test_theorem5_step_condition_and_the_tau1_gap():
    r = get(P + "theorem5")
    vals = dict(LSGD, tau=1, Lw=100.0, Lb=1.0)
    evaluate(r, eta=0.2, K=5, **vals)  # printed: 1/(4 L^beta) = 0.25 and no L^w condition
    with pytest.raises(HypothesisError, match="1/\\(4 L\\^w\\)"):
        evaluate(r, "corrected", eta=0.2, K=5, **vals)
    evaluate(r, eta=0.02, K=5, **dict(LSGD, tau=3))
    with pytest.raises(HypothesisError):  # the cap for tau = 3, L^w = 1: 1/(16 sqrt(3e)) = 0.0219
        evaluate(r, eta=0.03, K=5, **dict(LSGD, tau=3))

def test_theorem1_explicit_count_reaches_eps_by_theorem5():
    """The derived K of Theorem 1 with its step makes Theorem 5's corrected bound <= eps."""
    eps = 1e-2
    vals = dict(LSGD)
    K = evaluate(get(P + "theorem1"), "explicit", eps=eps, **vals).value
    eta = float(numeric(lsgd.ETA_EPS, dict(vals, eps=eps)))
    b = evaluate(get(P + "theorem5"), "corrected", eta=eta, K=K, **vals).value
    assert b <= eps * (1 + 1e-9)
    b_before = evaluate(get(P + "theorem5"), "corrected", eta=eta, K=K - 2, **vals).value
    assert b_before > eps / 2  # K is not grossly larger than needed

def test_explicit_theorem1_count_is_zero_when_the_start_meets_the_target():
    """Theorem 1's explicit count (from Theorem 5) is a max(0, ...): a target above the
    initial error needs no iteration, and is not refused."""
    v = evaluate(get(H + "theorem1"), "explicit", B=4, Db0=1e-6, Dw0=1e-6, Lb=0, Lw=1, M=10,
                 eps=10.0, mu=0.1, sigma2=1, tau=2, zeta2=0.1).value
    assert v == 0

def test_lemma5_statement_stands_and_its_check_measures_it():
    assert list(get(H + "lemma5").forms) == ["printed"]
    assert list(get(H + "lemma6").forms) == ["printed"]
    e = next(x for x in get(H + "lemma5").errata if x.id == H + "erratum15_lemma5")
    assert e.forms == () and e.check_id == H + "P_lemma5" and "not of the statement" in e.what
    chk = registry.get(H + "P_lemma5")
    assert chk.kind is CheckKind.BOUND_HOLDS and chk.expected is Verdict.HOLDS
    out = chk.simulate(chk.quick_grid[0], 1, None)
    assert float(out["Lw_over_Lb"]) < 0.5  # where L = max{L^w, L^beta} would be L^beta
    assert np.all(out["mean"] <= out["bound"]) and np.max(out["mean"] / out["bound"]) > 0.1
