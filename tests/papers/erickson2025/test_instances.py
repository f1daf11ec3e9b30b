"""erickson2025 instances (instances.py): the 3-client counterexample of digest §5.4, and the
quadratic clients of a grid point (their exact constrained optimum, stationary with active
constraints, and the certified gradient mapping on them)."""

from __future__ import annotations

import numpy as np
import pytest

from pflbounds.papers.erickson2025.instances import counterexample, point_instance
from pflbounds.problems.inexact_projection import Projector, certified_gradient_mapping_sq

_P = {"n": 5, "d": 2, "s": 3, "cond": 5.0, "rho": 0.5, "inst": 7}


def test_counterexample_numbers():
    c = counterexample({"r12": 1.0})
    assert c["G2"] == pytest.approx(64 / 441, rel=1e-12)
    assert c["Delta0"] == pytest.approx(5 / 98, rel=1e-9)
    assert c["violation"] <= 1e-8


def test_grid_point_instance_is_cached_and_scaled():
    inst = point_instance(_P)
    assert point_instance(dict(_P)) is inst  # one instance per grid point
    big = point_instance(dict(_P, scale=10.0))
    np.testing.assert_allclose(big.A, 10.0 * inst.A)
    np.testing.assert_array_equal(big.m, inst.m)
    np.testing.assert_array_equal(big.r, inst.r)
    assert big.beta == pytest.approx(10.0 * inst.beta) and inst.beta == pytest.approx(1.0)


def test_certified_gradient_mapping_contains_the_exact_one():
    inst = point_instance(dict(_P, inst=0))
    theta = Projector(inst.cset, "dual", 1e-15)(np.random.default_rng(1).standard_normal(
        (3, 5, 2)))
    eta = 3 / (8 * inst.beta)
    lo, hi = certified_gradient_mapping_sq(theta, inst.mean_grad(theta), eta,
                                           Projector(inst.cset, "dual", 1e-14))
    G = (theta - inst.cset.project_exact(theta - eta * inst.mean_grad(theta)).theta) / eta
    exact = (G**2).sum(axis=(1, 2))
    assert np.all(hi - lo < 1e-4 * exact)
    np.testing.assert_allclose(exact, 0.5 * (lo + hi), rtol=1e-4)


def test_optimum_is_feasible_stationary_and_has_active_constraints():
    inst = point_instance(_P)
    x, fstar, viol = inst.constrained_optimum
    assert inst.cset.violation(x) <= 1e-12 and viol < 1e-8
    lo, hi = certified_gradient_mapping_sq(x[None], inst.mean_grad(x[None]), 0.375 / inst.beta,
                                           Projector(inst.cset, "dual", 1e-15))
    assert float(hi[0]) < 1e-8
    # the local optima are infeasible, so grad f(theta*) != 0 (constraints active)
    assert float(np.abs(inst.mean_grad(x)).max()) > 1e-2
