"""hanzely2023 ASVRCD-PFL (Theorems 8-9, Lemmas 15-16): its parameters with Theorem 8's p_w,
Theorem 9's accounting, Lemmas 15-16's constants, and the quick verdicts of the ASVRCD-PFL
checks."""

from __future__ import annotations

import numpy as np
import pytest

from pflbounds.checking import registry
from pflbounds.papers.hanzely2023.checks.common import P
from pflbounds.running.executor import run_check
from pflbounds.symbolic import evaluate, get
from pflbounds.symbolic.loader import load_papers

load_papers()
FAST = ["P7", "E_svrcd"]
"""The checks of this topic cheap enough on their quick grids for the default test run."""

def _quick(check_id: str):
    check = registry.get(P + check_id)
    return check, run_check(check, quick=True, base_seed=0, progress=False)

@pytest.mark.parametrize("name", FAST)
def test_quick_verdict_is_the_expected_one(name):
    check, o = _quick(name)
    assert o.error is None, o.error
    assert o.verdict == check.expected, o.detail

def test_asvrcd_parameters_with_the_theorem8_pw():
    Lcw, Lcb, mu, n = 3.0, 1.0, 0.01, 100
    pw = Lcw / (Lcw + Lcb)
    p = evaluate(get(P + "theorem8_parameters"), Lcw=Lcw, Lcb=Lcb, mu=mu, pw=pw,
                 rho=pw / n).value
    assert p["p_w"] == pytest.approx(0.75)
    assert p["Lcal"] == pytest.approx(2 * (Lcw + Lcb)) and p["eta"] == pytest.approx(1 / 32)
    theta1 = min(0.5, np.sqrt(mu / 32 * max(0.5, 0.5 * n / pw)))
    assert p["theta1"] == pytest.approx(theta1)
    assert p["gamma"] == pytest.approx(1 / max(2 * mu, 4 * theta1 * 32))
    assert p["nu"] == pytest.approx(1 - p["gamma"] * mu)

def test_theorem9_accounting_reduces_to_twice_theorem8_for_rho_pw_over_n():
    Lcw, Lcb, mu, n = 3.0, 1.0, 0.01, 100
    pw = Lcw / (Lcw + Lcb)
    v = evaluate(get(P + "theorem9"), Lcw=Lcw, Lb=Lcb, mu=mu, n=n, pw=pw, rho=pw / n,
                 Delta0=1, eps=np.exp(-1)).value
    assert v["communication"] == pytest.approx(2 * (n + np.sqrt(n * Lcw / mu)))
    c = evaluate(get(P + "theorem9"), "corrected", Lcw=Lcw, Lcb=Lcb, mu=mu, n=n, pw=pw,
                 rho=pw / n, Delta0=1, eps=np.exp(-1)).value
    assert c["communication"] < v["communication"]  # p_w + rho < rho n + p_w
    assert c["grad_w"] == pytest.approx(c["iterations"] * (2 * pw + pw))

def test_lemma15_and_lemma16_constants():
    assert evaluate(get(P + "lemma15"), Lcw=1.0, Lcb=3.0, pw=0.5, DF=1.0).value == 2 * 2 * 6
    assert evaluate(get(P + "lemma16"), Lx=1.0, Ly=3.0).value == 6.0
    assert evaluate(get(P + "lemma16_57"), Lx=1.0, Ly=2.0, gx2=4.0, gy2=4.0).value == 1.5
