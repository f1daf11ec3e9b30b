"""Theorem 2 of philippenko2025 (three step-size regimes and the floor): its rows against
hand formulas, its conditions (the printed decreasing step admits no point, erratum 8), the
exact recursion its checks use, their quick verdicts, and planted wrong bounds caught."""

from __future__ import annotations

import dataclasses
import math

import numpy as np
import pytest

from pflbounds.checking import Verdict
from pflbounds.cli import main
from pflbounds.exact.linear_gaussian import afo_expected_excess
from pflbounds.papers.philippenko2025.checks.common import uniform_weight_excess
from pflbounds.papers.philippenko2025.checks.rates import CHECKS
from pflbounds.papers.philippenko2025.theory.rates import (
    THEOREM2_CONSTANT,
    THEOREM2_DECREASING,
    THEOREM2_FLOOR,
    THEOREM2_HORIZON,
    THEOREM2_HORIZON_STEP,
)
from pflbounds.problems.quadratic import QuadraticFamily
from pflbounds.running.executor import run_check
from pflbounds.symbolic import HypothesisError, evaluate, get
from pflbounds.symbolic.admissible import admissible_point
from pflbounds.symbolic.evaluate import numeric

FAST = ["P9", "P9_asymptote", "P9_horizon", "E7", "E8", "P12"]
BY_KEY = {c.id.split(".", 1)[1]: c for c in CHECKS}


def ev(result, form=None, **v):
    return evaluate(get(result.id), form, **v).value


def test_theorem2_rows_against_hand_formulas():
    base = dict(mu=0.5, beta=2.0, eps0=3.0, sigma_suf2=0.4, kappa_w=0.5)
    T = 50
    assert ev(THEOREM2_CONSTANT, eta=0.2, T=T, **base) == pytest.approx(
        (1 - 0.1) ** T * 3.0 + 0.2 * 2.0 * 0.4 / (2 * 0.5), rel=1e-14)
    assert ev(THEOREM2_FLOOR, eta=0.2, **{k: base[k] for k in ("mu", "beta", "sigma_suf2",
                                                                "kappa_w")}) == \
        pytest.approx(0.2 * 2.0 * 0.4 / 1.0)
    T = 400
    A = 2 * T * 0.25 * 3.0 / (2.0 * 0.4)
    assert ev(THEOREM2_HORIZON, "corrected", T=T, **base) == pytest.approx(
        2.0 * 0.4 / (2 * 0.25 * T) * (math.log(A) + 1), rel=1e-13)
    assert ev(THEOREM2_HORIZON, "printed", T=T, **base) == pytest.approx(
        2.0 * 0.4 / (2 * 0.25 * T) * (math.log(A * 2.0) + 1), rel=1e-13)
    assert ev(THEOREM2_HORIZON_STEP, T=T, **base) == pytest.approx(math.log(A) / (0.5 * T))
    C, g = 2.0, 15.0
    assert ev(THEOREM2_DECREASING, "corrected", T=T, C=C, gamma0=g, **base) == \
        pytest.approx(max(2.0 * 0.4 * 4 / (2 * 0.25 * 1), 16 * 3.0) / (T + 16))


def test_decreasing_printed_has_no_admissible_input_and_the_shift_condition():
    base = dict(mu=1.0, beta=1.0, eps0=1.0, sigma_suf2=1.0, kappa_w=1.0, T=10, C=1.01)
    with pytest.raises(HypothesisError, match="C/mu <= kappa/beta"):
        ev(THEOREM2_DECREASING, "printed", **base)
    with pytest.raises(HypothesisError, match="gamma0"):
        ev(THEOREM2_DECREASING, "corrected", gamma0=0.0, **{**base, "C": 3.0})
    assert ev(THEOREM2_DECREASING, "corrected", gamma0=2.0, **{**base, "C": 3.0}) > 0


def test_the_printed_decreasing_step_admits_no_point():
    r = get(THEOREM2_DECREASING.id)
    assert admissible_point(r, "printed") is None
    assert admissible_point(r, "corrected") is not None
    # the best a point can do: C barely above 1, mu = beta, kappa = 1: still C beta > kappa mu
    with pytest.raises(HypothesisError, match=r"C\*beta <= kappa_w\*mu"):
        evaluate(r, "printed", C=1.0001, T=10, beta=1, eps0=1, kappa_w=1, mu=1, sigma_suf2=1)


def test_horizon_step_conditions():
    base = dict(mu=1.0, beta=1.0, eps0=1.0, sigma_suf2=10.0, kappa_w=1.0)
    with pytest.raises(HypothesisError, match="positive"):
        ev(THEOREM2_HORIZON, "corrected", T=2, **base)


def test_vectorised_evaluation_of_a_bound_over_T():
    Ts = np.array([1.0, 10.0, 100.0])
    out = numeric(get(THEOREM2_CONSTANT.id).form("printed").expr,
                  dict(eta=0.1, mu=1.0, beta=1.0, T=Ts, eps0=1.0, sigma_suf2=1.0))
    assert out.shape == (3,) and np.all(np.diff(out) < 0)


def test_solve_reads_sigma2_as_one_number_here(capsys):
    code = main(["solve", THEOREM2_CONSTANT.id, "--for", "T", "--target", "0.1", "eta=0.1",
                 "mu=1", "beta=2", "eps0=1", "sigma_suf2=0.2", "kappa_w=0.5", "sigma2=1,2"])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(err) == 1
    assert f"{THEOREM2_CONSTANT.id} reads sigma2 as one number" in err[0]


def test_the_scalar_recursion_is_the_exact_engine_for_constant_steps():
    n, a, s2, e0, eta = 5, 0.7, 2.0, 3.0, 0.3
    fam = QuadraticFamily(h=np.full(2, a), m=np.zeros((n, 2)), s=np.full(2, s2 / 2))
    x0 = np.array([np.sqrt(2 * e0 / a), 0.0])
    ks = np.arange(0, 40)
    exact = afo_expected_excess(fam, np.full((n, n), 1 / n), eta, x0, ks)[:, 0]
    rec = uniform_weight_excess(a, s2 / n, e0, np.full(39, eta))
    assert np.allclose(rec, exact, rtol=1e-12)


def test_the_scalar_recursion_against_monte_carlo_for_a_decreasing_step():
    from pflbounds.algorithms.adaptive_afo import run_afo_adaptive
    from pflbounds.algorithms.similarity_weights import fixed_rule

    n, a, s2, e0 = 4, 1.0, 1.0, 1.0
    fam = QuadraticFamily(h=np.full(2, a), m=np.zeros((n, 2)), s=np.full(2, s2 / 2))
    steps = 2.0 / (a * (np.arange(1, 31) + 3))
    tr = run_afo_adaptive(fam, fixed_rule(np.full((n, n), 1 / n)), lambda t: 2.0 / (a * (t + 3)),
                          30, np.array([np.sqrt(2 * e0 / a), 0.0]), 20000,
                          np.random.default_rng(0), track_sets=False)
    rec = uniform_weight_excess(a, s2 / n, e0, steps)
    mc = tr.excess[:, :, 0].mean(0)
    sem = tr.excess[:, :, 0].std(0) / np.sqrt(20000)
    assert np.all(np.abs(mc - rec) <= 5 * sem + 1e-12)


@pytest.mark.parametrize("key", FAST)
def test_quick_verdict_is_the_expected_one(quick_outcomes, key):
    o = quick_outcomes[key]
    assert o.error is None, o.error
    assert o.verdict == BY_KEY[key].expected, o.detail


def _planted(check, scale):
    def simulate(p, R, seed):
        ev_ = check.simulate(p, R, seed)
        for k in ("bound", "bound_corrected"):
            if k in ev_:
                ev_[k] = np.asarray(ev_[k]) * scale
        return ev_

    return dataclasses.replace(check, id=check.id + "_planted", simulate=simulate)


@pytest.mark.parametrize("key, scale, verdict", [
    ("P9", 0.3, Verdict.VIOLATED),
    ("P9", 0.9, Verdict.VIOLATED),  # the tight point: P9's eps0 term within 1.08
    ("E8", 0.2, Verdict.INCONCLUSIVE),
])
def test_planted_wrong_bounds_are_caught(key, scale, verdict):
    o = run_check(_planted(BY_KEY[key], scale), quick=True, base_seed=0, progress=False)
    assert o.verdict == verdict, o.detail
