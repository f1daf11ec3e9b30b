"""The iteration driver: several state arrays, per-replica cost counters, recording."""

from __future__ import annotations

import numpy as np
import pytest

from pflbounds.algorithms import Costs, first_reach, iterate, run_afa, run_afo, run_local_sgd
from pflbounds.problems.quadratic import QuadraticFamily


def _block_descent(p_w: float, seed: int, R: int = 64, K: int = 40):
    """Randomised block descent on F(w, beta) = 1/2 ||w||^2 + 1/2 sum_m ||beta_m - w||^2:
    with probability p_w a step in w (one communication round), else a step in every beta_m."""
    rng = np.random.default_rng(seed)
    M, d, eta = 3, 2, 0.3
    state = {"w": np.ones((R, d)), "beta": np.full((R, M, d), 2.0)}

    def step(s, k, costs):
        take_w = rng.random(R) < p_w
        gw = s["w"] - (s["beta"] - s["w"][:, None]).sum(axis=1)
        gb = s["beta"] - s["w"][:, None]
        w = np.where(take_w[:, None], s["w"] - eta * gw, s["w"])
        beta = np.where(take_w[:, None, None], s["beta"], s["beta"] - eta * gb)
        costs.add("grad_w", take_w.astype(float))
        costs.add("rounds", take_w.astype(float))
        costs.add("grad_beta", M * (~take_w).astype(float))
        return {"w": w, "beta": beta}

    def value(s):
        return 0.5 * (s["w"] ** 2).sum(-1) + 0.5 * ((s["beta"] - s["w"][:, None]) ** 2).sum((1, 2))

    return iterate(state, step, K, metrics={"F": value, "w": lambda s: s["w"].copy()},
                   record=range(0, K + 1, 5), counters=("rounds", "grad_w", "grad_beta"))


def test_two_state_arrays_and_per_replica_counters():
    run = _block_descent(p_w=0.3, seed=1)
    assert run.ks.tolist() == list(range(0, 41, 5))
    assert run.metrics["F"].shape == (64, 9) and run.metrics["w"].shape == (64, 9, 2)
    assert set(run.costs) == {"rounds", "grad_w", "grad_beta"}
    r, gw, gb = run.costs["rounds"], run.costs["grad_w"], run.costs["grad_beta"]
    assert r.shape == (64, 9)
    assert np.all(r[:, 0] == 0)  # recorded before the first step
    # every step is either one w-step or M beta-steps, in every replica
    np.testing.assert_array_equal(gw + gb / 3, np.broadcast_to(run.ks, r.shape))
    np.testing.assert_array_equal(r, gw)
    # counts differ between replicas (the w-step is random) and average near p_w K
    assert np.unique(r[:, -1]).size > 3
    assert abs(r[:, -1].mean() - 0.3 * 40) < 4 * np.sqrt(0.3 * 0.7 * 40 / 64)
    assert np.all(np.diff(run.metrics["F"], axis=1) <= 1e-12)  # a descent method


def test_same_seed_bitwise_identical_and_another_seed_differs():
    a, b, c = _block_descent(0.5, 7), _block_descent(0.5, 7), _block_descent(0.5, 8)
    assert np.array_equal(a.metrics["F"], b.metrics["F"])
    assert np.array_equal(a.costs["rounds"], b.costs["rounds"])
    assert not np.array_equal(a.costs["rounds"], c.costs["rounds"])


def test_first_reach_uses_any_counter_as_the_x_axis():
    run = _block_descent(0.3, 2, K=200)
    target = 1e-3
    rounds_to_eps = first_reach(run.metrics["F"], target, run.costs["rounds"])
    k_to_eps = first_reach(run.metrics["F"], target, run.ks)
    assert rounds_to_eps.shape == (64,)
    assert np.all(np.isfinite(k_to_eps)) and np.all(rounds_to_eps <= k_to_eps)
    assert np.unique(rounds_to_eps).size > 1  # per replica
    never = first_reach(run.metrics["F"], -1.0, run.ks)
    assert np.all(np.isinf(never))
    # the value at the first hit is below the target and the one before it is not
    F = run.metrics["F"]
    j = np.argmax(F <= target, axis=1)
    assert np.all(F[np.arange(64), j] <= target) and np.all(F[np.arange(64), j - 1] > target)


def test_collaborative_methods_count_their_costs():
    P = QuadraticFamily.random(N=5, d=3, kappa=4.0, sigma2=1.0, spread=1.0,
                               rng=np.random.default_rng(0), mu=0.5)
    x0 = np.zeros(3)
    W = np.full((5, 5), 0.2)
    tr = run_afa(P, W, 0.1, 10, x0, 4, np.random.default_rng(1), record=[0, 5, 10])
    np.testing.assert_array_equal(tr.costs["rounds"], np.broadcast_to([0, 5, 10], (4, 3)))
    np.testing.assert_array_equal(tr.costs["samples"][:, -1], 50)
    np.testing.assert_array_equal(tr.costs["floats_sent"][:, -1], 10 * 2 * 5 * 3)
    loc = run_local_sgd(P, 0.1, 10, x0, 4, np.random.default_rng(1), record=[10])
    assert np.all(loc.costs["rounds"] == 0) and np.all(loc.costs["grad_evals"] == 50)
    Lam = np.eye(5) * 0.5 + np.diag(np.full(4, 0.5), 1)
    Lam[-1, 0] = 0.5
    afo = run_afo(P, Lam, 0.1, 10, x0, 2, np.random.default_rng(1), record=[10])
    assert np.all(afo.costs["grad_evals"] == 10 * 10)  # 10 nonzero weights per iteration
    assert np.all(afo.costs["samples"] == 50)


def test_bad_driver_inputs_are_named():
    step = lambda s, k, c: s  # noqa: E731
    with pytest.raises(ValueError, match="disagree on the number of replicas"):
        iterate({"a": np.zeros((2, 3)), "b": np.zeros((3, 3))}, step, 3, metrics={"a": len})
    with pytest.raises(ValueError, match="leading replica axis"):
        iterate({"a": np.float64(1.0)}, step, 3, metrics={"a": len})
    with pytest.raises(ValueError, match="at least one metric"):
        iterate({"a": np.zeros((2, 3))}, step, 3, metrics={})
    with pytest.raises(ValueError, match="record must lie in"):
        iterate({"a": np.zeros((2, 3))}, step, 3, metrics={"a": lambda s: s["a"]},
                record=[0, 5])
    costs = Costs(3)
    with pytest.raises(ValueError, match=r"amount must be a scalar or shape \(3,\)"):
        costs.add("rounds", np.ones(2))
    with pytest.raises(ValueError, match="amounts must be >= 0"):
        costs.add("rounds", -1.0)
