"""PeFLL-train (proof form and Algorithm 2), PeFLL-predict and the baselines sharing its round."""

import dataclasses

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from pflbounds.algorithms import pefll
from pflbounds.algorithms.client_models import LinearRegression, Softmax
from pflbounds.algorithms.hypernetworks import (
    linear_embedding,
    linear_hypernetwork,
    mlp_embedding,
    mlp_hypernetwork,
)
from pflbounds.problems.populations import LowRankRegression

P, L, N, M = 4, 2, 10, 6


@pytest.fixture(scope="module")
def setup():
    inst = LowRankRegression(p=P, q=2, lam_h=0.01, lam_v=0.01, lam_theta=0.0).draw(
        N, M, np.random.default_rng(1))
    arch = pefll.Architecture("pefll", LinearRegression(P), linear_hypernetwork(L, P),
                              linear_embedding(P, L))
    return inst, arch, pefll.ClientData(inst.psi, inst.X, inst.Y)


CFG = pefll.TrainConfig(T=20, c=3, k=2, beta=0.05, s=2, lam_h=0.01, lam_v=0.01,
                        record_every=5)


def test_same_keys_same_bits_and_replicas_independent_of_blocks(setup):
    _, arch, data = setup
    keys = jax.random.split(jax.random.key(7), 3)
    a = pefll.train(arch, data, CFG, keys)
    b = pefll.train(arch, data, CFG, keys)
    one = pefll.train(arch, data, CFG, keys[1:2])
    fa, fb, fo = (np.asarray(jax.flatten_util.ravel_pytree(x["eta"])[0]) for x in (a, b, one))
    assert np.array_equal(fa, fb)
    ha, ho = np.asarray(a["eta"]["h"][0]["W"][1]), np.asarray(one["eta"]["h"][0]["W"][0])
    assert np.array_equal(ha, ho)  # replica 1 of the block = the replica run alone
    assert a["trace"]["grad2"].shape == (3, 5)


@pytest.mark.slow
def test_trace_records_exact_gradient(setup):
    inst, arch, data = setup
    out = pefll.train(arch, data, CFG, jax.random.split(jax.random.key(0), 1))
    eta = jax.tree_util.tree_map(lambda x: x[0], out["eta"])
    gH, gA = inst.gradient(np.asarray(eta["h"][0]["W"]), np.asarray(eta["v"][0]["W"]))
    assert float(out["trace"]["grad2"][0, -1]) == pytest.approx(
        float(np.sum(gH**2) + np.sum(gA**2)), rel=1e-10)
    assert float(out["trace"]["F"][0, -1]) == pytest.approx(
        inst.objective(np.asarray(eta["h"][0]["W"]), np.asarray(eta["v"][0]["W"])), rel=1e-12)


def test_one_round_is_the_proof_update(setup):
    """c = n, k = 1, full batches: eta_1 = eta_0 - beta grad F_bar - beta k grad f exactly."""
    inst, arch, data = setup
    cfg = pefll.TrainConfig(T=1, c=N, k=1, beta=0.03, lam_h=0.01, lam_v=0.01)
    eta0 = arch.init(jax.random.key(3), N)
    eta1, _ = pefll.server_round(arch, pefll.ClientData(*map(jnp.asarray, data)), cfg, eta0,
                                 jax.random.key(5))
    H, A = np.asarray(eta0["h"][0]["W"]), np.asarray(eta0["v"][0]["W"])
    gH, gA = inst.gradient(H, A)
    np.testing.assert_allclose(eta1["h"][0]["W"], H - 0.03 * gH, rtol=1e-12)
    np.testing.assert_allclose(eta1["v"][0]["W"], A - 0.03 * gA, rtol=1e-12)


def test_regularizer_step_proof_against_algorithm2(setup):
    """The two forms differ only by the regularizer step: beta k against beta
    (scott2024.erratum1)."""
    _, arch, data = setup
    d = pefll.ClientData(*map(jnp.asarray, data))
    eta0 = arch.init(jax.random.key(3), N)
    base = pefll.TrainConfig(T=1, c=3, k=4, beta=0.02, lam_h=0.5, lam_v=0.5)
    e_p, _ = pefll.server_round(arch, d, base, eta0, jax.random.key(9))
    e_a, _ = pefll.server_round(arch, d, dataclasses.replace(base, reg_step="alg2"), eta0,
                                jax.random.key(9))
    diff = np.asarray(e_a["h"][0]["W"] - e_p["h"][0]["W"])
    np.testing.assert_allclose(diff, 0.02 * 3 * 2 * 0.5 * np.asarray(eta0["h"][0]["W"]),
                               rtol=1e-10)
    with pytest.raises(ValueError, match="reg_step must be one of"):
        pefll.TrainConfig(T=1, c=1, k=1, beta=0.1, reg_step="adam")


def test_floats_per_round():
    model = Softmax(p=3, classes=4)
    arch = pefll.Architecture("pefll", model, mlp_hypernetwork(5, model.d, 8, 1),
                              mlp_embedding(7, 5, 6))
    eta_v = 7 * 6 + 6 + 6 * 5 + 5
    assert arch.floats_per_round(3) == 2 * 3 * (16 + eta_v + 5)
    assert pefll.pefll_predict_floats(arch) == eta_v + 5 + 16
    assert pefll.Architecture("fedavg", model).floats_per_round(3) == 2 * 3 * 16
    with pytest.raises(ValueError, match="architecture must be one of"):
        pefll.Architecture("perfedavg", model)


@pytest.mark.slow
def test_fedavg_and_pfedhn_rounds(setup):
    inst, _, data = setup
    model = LinearRegression(P)
    fed = pefll.Architecture("fedavg", model)
    cfg = pefll.TrainConfig(T=1, c=N, k=1, beta=0.1)
    eta0 = fed.init(jax.random.key(0), N)
    eta1, _ = pefll.server_round(fed, pefll.ClientData(*map(jnp.asarray, data)), cfg, eta0,
                                 jax.random.key(1))
    G = inst.client_grads(np.broadcast_to(np.asarray(eta0["h"]), (N, P)))
    np.testing.assert_allclose(eta1["h"], eta0["h"] - 0.1 * G.mean(0), rtol=1e-12)
    hn = pefll.Architecture("pfedhn", model, linear_hypernetwork(L, P), l=L)
    e0 = hn.init(jax.random.key(0), N)
    e1, _ = pefll.server_round(hn, pefll.ClientData(*map(jnp.asarray, data)),
                               pefll.TrainConfig(T=1, c=2, k=1, beta=0.1), e0, jax.random.key(2))
    moved = np.flatnonzero(np.any(np.asarray(e1["v"] != e0["v"]), axis=1))
    assert moved.size == 2  # only the two sampled clients' embeddings move
    th = pefll.fine_tune(model, jnp.zeros((N, P)), 200, 0.3, 0.0, data)
    g0 = np.linalg.norm(inst.client_grads(np.zeros((N, P))), axis=1)
    g1 = np.linalg.norm(inst.client_grads(np.asarray(th)), axis=1)
    assert np.all(g1 < 0.05 * g0)  # local gradient descent on each client's own data
