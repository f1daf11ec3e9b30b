"""hanzely2023 LSGD-PFL without convexity (Theorems 3-4, Lemmas 8-14), prediction P11:
Theorems 3-4 on deterministic quadratic MX2 runs with constants computed on the trajectory;
the global PL constant of the mixed stationarity measure is 0; Theorem 4's corrected form adds
Eq. (52) and Lemma 13's condition on the step."""

from __future__ import annotations

import numpy as np
import pytest

from pflbounds.checking import registry
from pflbounds.papers.hanzely2023.checks.common import P, instance
from pflbounds.papers.hanzely2023.checks.nonconvex import (
    _T3,
    _T4,
    global_pl_constant,
    joint_smoothness,
    simulate_theorem3,
    simulate_theorem4,
)
from pflbounds.running.executor import run_check
from pflbounds.symbolic import evaluate, get
from pflbounds.symbolic.evaluate import HypothesisError
from pflbounds.symbolic.loader import load_papers

load_papers()
H = P
FAST = ["P11_theorem3"]
"""The checks of this topic cheap enough on their quick grids for the default test run."""

def _quick(check_id: str):
    check = registry.get(P + check_id)
    return check, run_check(check, quick=True, base_seed=0, progress=False)

@pytest.mark.parametrize("name", FAST)
def test_quick_verdict_is_the_expected_one(name):
    check, o = _quick(name)
    assert o.error is None, o.error
    assert o.verdict == check.expected, o.detail

def test_theorem3_holds_with_the_largest_step_of_eq20():
    out = simulate_theorem3(_T3[2], 1, 0)
    assert np.all(out["mean"] <= out["bound"])
    assert out["mean"][-1] < out["mean"][0] / 10  # the run does converge
    assert out["sigma_dif2"] > 0  # heterogeneous clients


def test_theorem3_refuses_a_step_outside_eq20():
    with pytest.raises(HypothesisError, match=r"Eq\. \(20\)"):
        simulate_theorem3({**_T3[2], "eta_frac": 1.5}, 1, 0)


def test_theorem4_holds_and_mu_is_a_pl_constant_of_the_run():
    out = simulate_theorem4({**_T4[4], "K": 300}, 1, 0)
    assert np.all(out["mean"] <= out["bound"])
    assert out["mu_trajectory"] >= out["mu"] > 0
    assert out["beta"] ** 2 * np.exp(-1 / out["beta"]) > 2 * out["L"] ** 2 / out["mu"] ** 2


def test_assumption7_fails_globally_for_personalized_clients():
    obj = instance(_T3[0])
    assert global_pl_constant(obj) < 1e-10
    one = instance({**_T3[0], "M": 1})  # one client: the measure is the full gradient
    assert global_pl_constant(one) > 1e-3
    Hm, _ = obj.client_quadratics()
    assert joint_smoothness(obj) == pytest.approx(np.linalg.eigvalsh(Hm).max())

def test_theorem4_corrected_form_adds_eq52():
    kw = dict(L=1.0, mu=1.0, lam_dis=0.5, C1=0.0, C2=0.0, M=4, Delta0=1, K=10, B=1,
              s1sq=0, s2sq=0, s2dif=0, tau=10)
    # nu = 2 L^2 lambda (C1 + 1)/mu^2 = 1; beta = 1.2 passes beta > max{.., 1, 1} but
    # beta^2 e^(-1/beta) = 0.626 < 1 breaks (52)
    evaluate(get(P + "theorem4"), beta0=1.2, **kw)
    with pytest.raises(HypothesisError, match="52"):
        evaluate(get(P + "theorem4"), "corrected", beta0=1.2, **kw)
    v = evaluate(get(P + "theorem4"), "corrected", beta0=3.0, **kw).value
    assert v == pytest.approx((3 * 10 + 1) ** 3 / (10 + 30) ** 3)

def test_lemma13_needs_a_step_below_one_over_mu():
    r = get(H + "lemma13")
    v = evaluate(r, C1=1, C2=1, L=2, M=3, etak=0.5, lam_dis=1, mu=1, tau=2).value
    assert v["45"] > 0
    with pytest.raises(HypothesisError, match="etak=1, mu=1"):
        evaluate(r, C1=1, C2=1, L=2, M=3, etak=1, lam_dis=1, mu=1, tau=2)
