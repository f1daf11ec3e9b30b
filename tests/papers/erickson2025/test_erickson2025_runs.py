"""erickson2025 instances and Karula runs: the certified gradient mapping against the cvxpy
projection, the exact optimum, and the Monte Carlo checks' evidence on small runs."""

from __future__ import annotations

import numpy as np
import pytest

from pflbounds.checking.registry import get, load_papers
from pflbounds.papers.erickson2025.checks.karula_runs import point_instance, run
from pflbounds.papers.erickson2025.checks.lemmas import simulate_p8
from pflbounds.papers.erickson2025.instances import certified_gmap_sq, random_clients
from pflbounds.problems.inexact_projection import Projector
from pflbounds.running import run_check

_P = {"n": 5, "d": 2, "s": 3, "cond": 5.0, "rho": 0.5, "inst": 7}


def test_certified_gradient_mapping_contains_the_exact_one():
    inst = random_clients(np.random.default_rng(0), 5, 2, cond=5.0)
    theta = Projector(inst.cset, "dual", 1e-15)(np.random.default_rng(1).standard_normal(
        (3, 5, 2)))
    eta = 3 / (8 * inst.L)
    lo, hi = certified_gmap_sq(inst, theta, eta, Projector(inst.cset, "dual", 1e-14))
    G = (theta - inst.cset.project_exact(theta - eta * inst.grad_f(theta)).theta) / eta
    exact = (G**2).sum(axis=(1, 2))
    assert np.all(hi - lo < 1e-4 * exact)
    np.testing.assert_allclose(exact, 0.5 * (lo + hi), rtol=1e-4)


def test_optimum_is_feasible_stationary_and_has_active_constraints():
    inst = point_instance(_P)
    x, fstar, viol = inst.optimum
    assert inst.cset.violation(x) <= 1e-12 and viol < 1e-8
    lo, hi = certified_gmap_sq(inst, x[None], 0.375 / inst.L,
                               Projector(inst.cset, "dual", 1e-15))
    assert float(hi[0]) < 1e-8
    # the local optima are infeasible, so grad f(theta*) != 0 (constraints active)
    assert float(np.abs(inst.grad_f(x)).max()) > 1e-2


@pytest.mark.slow
def test_runs_reach_stationarity_and_the_noise_floor_scales_with_sigma2():
    ss = np.random.SeedSequence(3)
    r = run(_P, 4, ss, K=250, record=[0, 250])
    assert float(r["G2hi"][:, -1].max()) < 1e-10 < float(r["G2lo"][:, 0].min())
    a = run(_P, 8, ss, K=60, sigma2=1e-4, start="optimum")
    b = run(_P, 8, ss, K=60, sigma2=1e-2, start="optimum")
    ratio = b["G2hi"][:, 30:].mean() / a["G2hi"][:, 30:].mean()
    assert 50 < ratio < 200  # linear in sigma^2 (100)
    again = run(_P, 8, ss, K=60, sigma2=1e-2, start="optimum")
    np.testing.assert_array_equal(again["G2hi"], b["G2hi"])  # same seed, same bits


def test_p8_equality_of_3_and_looseness_of_2():
    ev = simulate_p8({"n": 4, "d": 2, "gamma": 1.0, "R": 2.0, "a": 0.1}, 1,
                     np.random.SeedSequence(0))
    assert float(ev["residual"]) < 1e-12
    assert 0 < float(ev["tightness_2"]) < 1


@pytest.mark.slow
@pytest.mark.parametrize("cid", ["P3", "P3_plain", "P4_rescaled", "P13"])
def test_monte_carlo_checks_end_with_their_expected_verdicts(cid):
    load_papers()
    chk = get(f"erickson2025.{cid}")
    out = run_check(chk, quick=True, base_seed=0, progress=False)
    assert out.verdict == chk.expected, out.detail
