"""Corollary 1 and Section 4 of philippenko2025: its forms against hand values, the
corrected count never negative where admitted, the binary count from b, the quick verdicts
of its checks, and a planted wrong count caught."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from pflbounds.checking import Verdict
from pflbounds.papers.philippenko2025.checks.sample_complexity import CHECKS
from pflbounds.papers.philippenko2025.theory.sample_complexity import (
    COROLLARY1,
    COROLLARY1_BINARY,
    SECTION4_SUFFICIENT,
)
from pflbounds.running.executor import run_check
from pflbounds.symbolic import HypothesisError, evaluate, get

FAST = ["P10", "E10", "E14"]
BY_KEY = {c.id.split(".", 1)[1]: c for c in CHECKS}


def ev(result, form=None, matrices=None, **v):
    return evaluate(get(result.id), form, matrices=matrices, **v).value


def test_corollary1_forms():
    v = dict(mu=1.0, beta=2.0, sigma_suf2=0.5, eps=0.01, C=2.0)
    CC = 4.0
    assert ev(COROLLARY1, "printed", **v) == pytest.approx(CC * 2 * 0.5 / (2 * 0.01))
    assert ev(COROLLARY1, "general", eps0=10.0, **v) == pytest.approx(10.0 / 0.01)
    assert ev(COROLLARY1, "corrected", eps0=1.0, gamma0=3.0, kappa_w=1.0, **v) == \
        pytest.approx(max(2.0, 4.0) / 0.01 - 4)
    with pytest.raises(HypothesisError, match="C > 1"):
        ev(COROLLARY1, "printed", mu=1, beta=1, sigma_suf2=1, eps=0.1, C=1.0)


def test_corrected_corollary1_is_never_negative_where_admitted():
    r = get(COROLLARY1.id)
    rng = np.random.default_rng(3)
    for _ in range(200):
        mu, C = rng.uniform(0.1, 1), rng.uniform(1.01, 5)
        beta, kappa = mu * rng.uniform(1, 10), rng.uniform(0.05, 1)
        eps0 = rng.uniform(0.1, 10)
        g0 = np.ceil(C * beta / (mu * kappa) - 1) + rng.integers(0, 3)
        v = evaluate(r, "corrected", C=C, beta=beta, eps=eps0 * rng.uniform(1e-3, 1), eps0=eps0,
                     gamma0=g0, kappa_w=kappa, mu=mu, sigma_suf2=rng.uniform(0.01, 10)).value
        assert v >= -1e-9


def test_binary_count_from_b_and_the_section4_bound():
    b = np.zeros((4, 4))
    odd = np.arange(4) % 2 == 1
    b[np.ix_(odd, ~odd)] = b[np.ix_(~odd, odd)] = 3.0
    n = ev(COROLLARY1_BINARY, "corrected", {"b": b}, mu=1.0, eps=9.0, lam=0.5, beta=1.0,
           sigma2=1.0, C=2.0)
    # b^2/(2 mu eps) = 1/2 <= 1 - lambda: all 4 clients are in the cluster
    assert np.allclose(n, 4.0 * 1.0 / (2 * 9.0 * 0.25 * 4))
    assert ev(SECTION4_SUFFICIENT, "printed", sigma2=2.0, lam=0.5, Nstar=4) == \
        pytest.approx(1.0)
    assert ev(SECTION4_SUFFICIENT, "continuous", sigma2=2.0, Nstar=4) == pytest.approx(0.5)


@pytest.mark.parametrize("key", FAST)
def test_quick_verdict_is_the_expected_one(quick_outcomes, key):
    o = quick_outcomes[key]
    assert o.error is None, o.error
    assert o.verdict == BY_KEY[key].expected, o.detail


def test_a_count_too_small_is_caught():
    """P10's noise term binds within a factor 3.0 on its tight point."""
    check = BY_KEY["P10"]

    def simulate(p, R, seed):
        ev_ = check.simulate(p, R, seed)
        ev_["bound"] = np.asarray(ev_["bound"]) * 0.3
        return ev_

    planted = dataclasses.replace(check, id=check.id + "_planted", simulate=simulate)
    o = run_check(planted, quick=True, base_seed=0, progress=False)
    assert o.verdict == Verdict.VIOLATED, o.detail
