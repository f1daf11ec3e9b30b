"""Karula (Algorithm 1): subsets, the estimators of Readings A and B and the non-VR one,
reproducibility, and convergence to stationarity under partial participation."""

from __future__ import annotations

import numpy as np
import pytest

from pflbounds.algorithms.driver import Costs
from pflbounds.algorithms.karula import (
    all_subset_masks,
    karula_estimate,
    karula_step,
    run_karula,
    sample_subsets,
)


def test_subsets_have_exactly_s_clients_and_uniform_inclusion():
    rng = np.random.default_rng(0)
    mask = sample_subsets(rng, 20000, 6, 2)
    assert np.all(mask.sum(axis=1) == 2)
    np.testing.assert_allclose(mask.mean(axis=0), 2 / 6, atol=0.015)


def _quad(n=4, d=2, seed=0):
    rng = np.random.default_rng(seed)
    h = rng.uniform(0.5, 1.0, (n, d))
    m = rng.standard_normal((n, d))
    return (lambda th: h * (th - m)), h, m


@pytest.mark.parametrize("reading", ["A", "B"])
def test_reading_b_is_unbiased_and_reading_a_is_not(reading):
    n, d, s, R = 4, 2, 2, 40000
    wg, h, m = _quad(n, d)
    rng = np.random.default_rng(1)
    theta = np.broadcast_to(rng.standard_normal((n, d)), (R, n, d)).copy()
    y = np.broadcast_to(rng.standard_normal((n, d)), (R, n, d)).copy()
    eta = 1.0
    step = karula_step(wg, lambda z: z, eta=eta, s=s, sigma2=0.0, rng=rng, reading=reading)
    st = step({"theta": theta, "y": y, "z": theta}, 0, Costs(R))
    nu_mean = ((theta - st["z"]) / eta).mean(axis=0)
    grad_f = wg(theta[0]) / n
    err = float(np.abs(nu_mean - grad_f).max())
    if reading == "B":
        assert err < 0.02
    else:  # E nu_i = (1 - 1/n) y_i + G_i/n (digest §4.2), far from grad f
        expected = (1 - 1 / n) * y[0] + wg(theta[0]) / n
        np.testing.assert_allclose(nu_mean, expected, atol=0.02)
        assert err > 0.1


def _run(estimator, seed=3, K=200, sigma2=0.0):
    wg, h, m = _quad()
    R, n, d = 5, 4, 2
    th0 = np.zeros((R, n, d))
    # t = 0: the projection onto consensus (every client at the mean), where the client
    # gradients do not vanish at the solution; stationarity: the mean gradient is zero
    metric = {"gnorm": lambda st: (wg(st["theta"]).mean(axis=1) ** 2).sum(axis=1)}

    def consensus(z):
        return np.broadcast_to(z.mean(axis=1, keepdims=True), z.shape).copy()

    return run_karula(wg, th0, consensus, eta=0.5, s=2, K=K,
                      rng=np.random.default_rng(seed), metrics=metric,
                      estimator=estimator, sigma2=sigma2, record=[0, K])


def test_vr_reaches_stationarity_and_plain_partial_participation_does_not():
    vr = _run("vr")
    plain = _run("plain")
    assert float(vr.metrics["gnorm"][:, -1].max()) < 1e-10
    assert float(plain.metrics["gnorm"][:, -1].min()) > 1e-4
    assert np.all(vr.costs["grad_evals"][:, -1] == 2 * 200)


def test_same_seed_is_bitwise_identical_and_noise_enters():
    a, b = _run("vr", sigma2=0.1, K=30), _run("vr", sigma2=0.1, K=30)
    np.testing.assert_array_equal(a.state["theta"], b.state["theta"])
    c = _run("vr", sigma2=0.0, K=30)
    assert not np.array_equal(a.state["theta"], c.state["theta"])


def test_bad_arguments_are_named():
    wg, _, _ = _quad()
    with pytest.raises(ValueError, match="reading"):
        karula_step(wg, lambda z: z, eta=1.0, s=2, sigma2=0.0,
                    rng=np.random.default_rng(0), reading="C")
    with pytest.raises(ValueError, match="s must lie"):
        run_karula(wg, np.zeros((1, 4, 2)), lambda z: z, eta=1.0, s=5, K=1,
                   rng=np.random.default_rng(0), metrics={"x": lambda st: st["theta"]})


def test_the_estimates_means_over_all_subsets_match_their_expectations():
    rng = np.random.default_rng(3)
    n, s = 5, 2
    mask = all_subset_masks(n, s)
    assert mask.shape == (10, n, 1) and np.all(mask.sum(axis=1) == s)
    assert len({m.tobytes() for m in mask}) == 10  # every 2-subset once
    G, y = rng.standard_normal((n, 3)), rng.standard_normal((n, 3))
    mean = {(rd, est): karula_estimate(G[None], y[None], mask, s, rd, est).mean(axis=0)
            for rd, est in (("A", "vr"), ("B", "vr"), ("B", "plain"))}
    np.testing.assert_allclose(mean["B", "vr"], G / n, atol=1e-14)
    np.testing.assert_allclose(mean["B", "plain"], G / n, atol=1e-14)
    np.testing.assert_allclose(mean["A", "vr"], (1 - 1 / n) * y + G / n, atol=1e-14)
