"""Theorem 3 of philippenko2025 (smooth non-convex): its forms and step size against hand
values, and where the printed form understates the proof's bound (erratum 16)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from pflbounds.papers.philippenko2025.checks import nonconvex
from pflbounds.papers.philippenko2025.checks.nonconvex import CHECKS
from pflbounds.papers.philippenko2025.theory.nonconvex import THEOREM3, THEOREM3_STEP
from pflbounds.symbolic import evaluate, get


def ev(result, form=None, **v):
    return evaluate(get(result.id), form, **v).value


def test_theorem3_forms_and_step():
    v = dict(eps0=2.0, beta=4.0, sigma_suf2=0.5, T=1000)
    assert ev(THEOREM3, "printed", **v) == pytest.approx(2 * math.sqrt(2 * 2 * 4 * 0.5 / 1000))
    step = ev(THEOREM3_STEP, kappa_w=1.0, **v)
    assert step == pytest.approx(math.sqrt(2 * 2 / (1000 * 4 * 0.5)))
    # where the min picks its first term the explicit form equals the printed one
    assert ev(THEOREM3, "explicit", kappa_w=1.0, **v) == pytest.approx(
        ev(THEOREM3, "printed", **v), rel=1e-12)
    # where it picks kappa/beta the printed value is below the proof's bound (erratum 16)
    small = dict(v, T=2)
    assert ev(THEOREM3, "explicit", kappa_w=0.1, **small) > ev(THEOREM3, "printed", **small)
    assert ev(THEOREM3, "corrected", eta=0.1, sigma_eff2_avg=0.3, kappa_w=0.5, T=10,
              eps0=2.0, beta=4.0) == pytest.approx(2 * 2.0 / (10 * 0.1) + 0.1 * 4 * 0.3)


def test_the_rigorous_bound_holds_on_average_over_a_few_runs():
    """P15's evidence on a short run: the mean squared gradient norm stays below the mean of
    each replica's bound 2 eps0/(T eta) + eta beta (1/T) sum_t (sigma_eff^t)^2."""
    p = dict(nonconvex._NC, eta=0.15, K=200)
    out = nonconvex.simulate_p15(p, 40, np.random.SeedSequence(5))
    assert out["samples"].shape == out["bound_samples"].shape == (40, out["ks"].size)
    assert np.all(out["samples"].mean(0) <= out["bound_samples"].mean(0))
    assert CHECKS[0].result_id == THEOREM3.id and CHECKS[0].form == "corrected"
