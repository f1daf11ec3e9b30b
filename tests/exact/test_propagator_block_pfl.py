"""Exact dynamics of ACD-PFL and LSGD-PFL on quadratics (pflbounds.exact.propagator_block_pfl)
against the iteration driver: deterministic runs to machine precision, noisy runs by Monte
Carlo."""

from __future__ import annotations

import numpy as np
import pytest

from pflbounds.algorithms.block_pfl import run_acd_pfl, run_lsgd_pfl
from pflbounds.exact import propagate
from pflbounds.exact.propagator_block_pfl import (
    acd_pfl_draws,
    excess_metric,
    lsgd_pfl_metrics,
    lsgd_pfl_schedule,
)
from pflbounds.problems.pfl_objectives import PFLObjective, QuadraticLosses, structure

KS = [0, 3, 10, 25]


@pytest.fixture(scope="module")
def prob() -> PFLObjective:
    q = QuadraticLosses.random(4, 2, 6, 0.3, 2.0, np.random.default_rng(8))
    return PFLObjective(q, structure("multitask", 4, 2, lam=0.5, Lam=3.0))


def _acd(c):
    sq = np.sqrt(c["Lw"]) + np.sqrt(c["Lb"])
    nu = c["mu"] / sq**2
    th = (np.sqrt(nu**2 + 4 * nu) - nu) / 2
    return {"Lw": c["Lw"], "Lb": c["Lb"], "nu": nu, "theta": th, "eta": 1 / th,
            "pw": np.sqrt(c["Lw"]) / sq}


def test_acd_exact_expectation_matches_monte_carlo(prob):
    p = _acd(prob.constants)
    H, xs = prob.hessian, prob.optimum["x"]
    exact = propagate(acd_pfl_draws(H, xs, prob.d0, **p), np.zeros(2 * prob.N), KS,
                      metrics=excess_metric(H, xs)).metrics[:, 0]
    R = 6000
    mc = run_acd_pfl(prob, **p, K=KS[-1], R=R, rng=np.random.default_rng(0), record=KS)
    m = mc.metrics["excess"]
    se = m.std(0) / np.sqrt(R)
    assert exact[0] == pytest.approx(m[0, 0], rel=1e-12)
    assert np.all(np.abs(m.mean(0) - exact) <= 5 * se + 1e-12 * exact)
    assert exact[-1] < 1e-3 * exact[0]


@pytest.mark.parametrize("tau", [1, 3])
def test_lsgd_exact_is_the_driver_without_noise(prob, tau):
    Hm, gm = prob.client_quadratics()
    mu = prob.constants["mu"]
    sched, x0, info = lsgd_pfl_schedule(Hm, gm, prob.d0, eta=0.2, tau=tau, mu=mu)
    exact = propagate(sched, x0, KS, metrics=lsgd_pfl_metrics(prob.hessian,
                                                            prob.optimum["x"], info)).metrics
    run = run_lsgd_pfl(prob, 0.2, tau, KS[-1], 1, np.random.default_rng(0), mu=mu, record=KS)
    assert np.allclose(exact[:, 0], run.metrics["excess"][0], rtol=1e-9, atol=1e-14)
    assert np.allclose(exact[:, 1], run.metrics["excess_avg"][0], rtol=1e-9, atol=1e-14)


def test_lsgd_exact_noise_matches_monte_carlo(prob):
    Hm, gm = prob.client_quadratics()
    sched, x0, info = lsgd_pfl_schedule(Hm, gm, prob.d0, eta=0.2, tau=2, sigma2=0.7, B=2)
    exact = propagate(sched, x0, KS, metrics=lsgd_pfl_metrics(prob.hessian,
                                                            prob.optimum["x"], info)).metrics
    R = 6000
    run = run_lsgd_pfl(prob, 0.2, 2, KS[-1], R, np.random.default_rng(1), sigma2=0.7, B=2,
                       record=KS)
    for j, name in enumerate(("excess", "excess_avg")):
        m = run.metrics[name]
        se = m.std(0) / np.sqrt(R)
        assert np.all(np.abs(m.mean(0) - exact[:, j]) <= 5 * se + 1e-12 * exact[:, j])
