"""P11: Theorems 3-4 on deterministic quadratic MX2 runs with constants computed on the
trajectory; the global PL constant of the mixed stationarity measure is 0."""

from __future__ import annotations

import numpy as np
import pytest

from pflbounds.papers.hanzely2023.checks.common import instance
from pflbounds.papers.hanzely2023.checks.nonconvex import (
    _T3,
    _T4,
    global_pl_constant,
    joint_smoothness,
    simulate_theorem3,
    simulate_theorem4,
)
from pflbounds.symbolic.evaluate import HypothesisError


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
