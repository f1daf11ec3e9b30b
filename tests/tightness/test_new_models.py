"""The models added for the papers' searches: N identical agents averaging their gradients
(their noise divided by N, in value and in steps), the steps an instance needs to reach eps,
and clustered Gaussian means with estimated weights; each against an independent
computation, and their hypotheses enforced."""

from __future__ import annotations

import numpy as np
import pytest

from pflbounds.tightness import InstanceError
from pflbounds.tightness.registry import get_model

C = {"mu": 0.05, "L": 1.0, "eta": 0.5, "K": 30, "sigma2": 0.05, "Delta0": 1.0, "d": 2}
INST = {"spectrum": np.array([0.05, 0.6]), "rotation": np.array([[0.8, -0.6], [0.6, 0.8]]),
        "noise": np.array([0.03, 0.02]), "x0": np.array([1.0, 0.8])}


def by_hand(c: dict, inst: dict, K: int, N: int) -> float:
    """E[f(x_K) - f*] by running the mean and covariance recursions in the standard basis."""
    h, Q = inst["spectrum"], inst["rotation"]
    H = Q @ np.diag(h) @ Q.T
    x = Q @ np.diag(h ** -0.5) @ Q.T @ inst["x0"]
    P = np.outer(x, x)
    A = np.eye(2) - c["eta"] * H
    S = c["eta"] ** 2 * np.diag(inst["noise"]) / N
    for _ in range(K):
        P = A @ P @ A.T + S
    return 0.5 * float(np.trace(H @ P))


@pytest.mark.parametrize("N", [1, 4])
def test_identical_agents_see_the_noise_divided_by_n(N):
    m = get_model("identical_agents_gap")
    c = {**C, "N": N}
    m.admissible(c, INST)
    assert m.measure(c, INST, "last").value == pytest.approx(by_hand(c, INST, 30, N),
                                                             rel=1e-10)


def test_steps_are_the_first_k_below_eps():
    m = get_model("identical_agents_steps")
    c = {**C, "N": 4, "K": 200, "eps": 0.05}
    curve = [by_hand(c, INST, k, 4) for k in range(201)]
    first = next(k for k, v in enumerate(curve) if v <= 0.05)
    got = m.measure(c, INST, "steps")
    assert got.value == first and got.detail["reached"]
    short = m.measure({**c, "K": first - 1}, INST, "steps")
    assert short.value == first and not short.detail["reached"]  # K + 1: not reached by K
    assert np.allclose(m.curve(c, INST), curve, rtol=1e-10)


def test_identical_agents_need_an_integer_count():
    with pytest.raises(InstanceError, match="N=2.5"):
        get_model("identical_agents_gap").admissible({**C, "N": 2.5}, INST)


GM = {"M": 3, "C": 5, "d": 3, "S": 48, "u": 0.25, "nu2": 1.0, "d_eff": 3, "Delta2": 1.0,
      "b_max": 1.5}


def test_estimated_weights_match_a_direct_simulation():
    m = get_model("estimated_weights")
    inst = m.default(GM)
    m.admissible(GM, inst)
    assert m.derived(GM) == {"N": 15.0, "D_star": 1.0}
    tail = m.measure(GM, inst, "tail", seed=3, replicas=4000)
    # direct: b_hat^2 = ||mu_i - mu_j + (z_i - z_j)/sqrt(S)||^2 for a cross pair at distance 1
    rng = np.random.default_rng(0)
    diff = np.array([1.0, 0, 0]) + rng.standard_normal((200_000, 3)) * np.sqrt(2 / 48)
    p = float(((diff**2).sum(1) <= 0.25).mean())
    assert abs(tail.value - p) < 4 * tail.stderr + 1e-3
    var = m.measure(GM, inst, "variance", seed=3, replicas=2000)
    assert 1 / 5 <= var.value < 1 / 5 * 1.5  # each agent keeps about its C-agent cluster
    bias = m.measure(GM, inst, "bias", seed=3, replicas=2000)
    assert 0 < bias.value < 1 and bias.stderr > 0


def test_estimated_weights_refuse_instances_outside_the_hypotheses():
    m = get_model("estimated_weights")
    inst = m.default(GM)
    with pytest.raises(InstanceError, match="cluster distance"):
        m.admissible(GM, {**inst, "spread": np.array([2.0])})  # 2 Delta > b_max
    with pytest.raises(InstanceError, match="covariance"):
        m.admissible(GM, {**inst, "covariance": np.array([1.5, 1.0, 1.0])})
    with pytest.raises(InstanceError, match="d_eff"):
        m.admissible({**GM, "d_eff": 2}, inst)
