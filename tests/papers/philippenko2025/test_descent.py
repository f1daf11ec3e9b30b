"""The one-step descent and Theorem 1 of philippenko2025: Lemma 1 against a hand formula and
its step condition, the instance relation kappa <= 1, and the quick verdicts of their checks,
one of which catches a planted wrong bound."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from pflbounds.checking import Verdict
from pflbounds.papers.philippenko2025.checks.descent import CHECKS
from pflbounds.papers.philippenko2025.theory.descent import LEMMA1, S2, THEOREM1
from pflbounds.running.executor import run_check
from pflbounds.symbolic import HypothesisError, InputError, evaluate, get

FAST = ["P2", "P2_S2", "E1", "P5"]
BY_KEY = {c.id.split(".", 1)[1]: c for c in CHECKS}


def ev(result, form=None, **v):
    return evaluate(get(result.id), form, **v).value


def test_lemma1_corrected_against_the_hand_formula_and_its_step_condition():
    v = dict(eta=0.1, beta=2.0, Asum=1.5, ADsum=0.3, G=1.0, Valpha=0.7)
    want = 0.1 / 2 * (0.3 - 1.5 * 1.0) + 2.0 * 0.01 / 2 * 0.7
    assert ev(LEMMA1, "corrected", **v) == pytest.approx(want, rel=1e-14)
    with pytest.raises(HypothesisError, match="eta < \\(beta sum_k alpha_ik\\)"):
        ev(LEMMA1, "corrected", **{**v, "eta": 0.4})


def test_s2_needs_weights_that_sum_to_one_or_more():
    v = dict(eta=0.1, beta=2.0, G=1.0, sigma_eff2=0.5)
    assert ev(S2, Asum=1.0, **v) == pytest.approx(-0.05 + 2.0 * 0.01 / 2 * 0.5)
    with pytest.raises(HypothesisError, match="psi <= phi"):
        ev(S2, Asum=0.5, **v)


def test_kappa_above_one_is_refused_and_one_is_accepted():
    base = dict(S_eff=1, T=10, beta=1, eps0=1, eta=0.9, mu=0.5)
    assert ev(THEOREM1, kappa_w=1.0, **base) > 0
    with pytest.raises(InputError, match=r"kappa_w=1.5"):
        ev(THEOREM1, kappa_w=1.5, **base)


@pytest.mark.parametrize("key", FAST)
def test_quick_verdict_is_the_expected_one(quick_outcomes, key):
    o = quick_outcomes[key]
    assert o.error is None, o.error
    assert o.verdict == BY_KEY[key].expected, o.detail


def test_a_halved_theorem1_is_caught():
    check = BY_KEY["P5"]

    def simulate(p, R, seed):
        ev_ = check.simulate(p, R, seed)
        ev_["bound"] = np.asarray(ev_["bound"]) * 0.5
        return ev_

    planted = dataclasses.replace(check, id=check.id + "_planted", simulate=simulate)
    o = run_check(planted, quick=True, base_seed=0, progress=False)
    assert o.verdict == Verdict.VIOLATED, o.detail
