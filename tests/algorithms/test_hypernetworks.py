"""Embedding networks and hypernetworks: shapes, sizes, the descriptor, and the JAX gradient
of the linear-linear PeFLL objective against its closed form."""

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from pflbounds.algorithms import pefll
from pflbounds.algorithms.client_models import LinearRegression, Softmax, objective
from pflbounds.algorithms.hypernetworks import (
    DenseNet,
    descriptor,
    linear_embedding,
    linear_hypernetwork,
    mlp_embedding,
    mlp_hypernetwork,
)
from pflbounds.problems.populations import LowRankRegression


def test_float64_is_on():
    assert jnp.zeros(1).dtype == jnp.float64


@pytest.mark.parametrize("hidden", [1, 3, 5])
def test_mlp_hypernetwork_sizes(hidden):
    net = mlp_hypernetwork(4, 7, width=6, hidden_layers=hidden)
    params = net.init(jax.random.key(0))
    assert len(params) == hidden + 1
    n = sum(x.size for x in jax.tree_util.tree_leaves(params))
    assert n == net.n_params == 4 * 6 + 6 + (hidden - 1) * (36 + 6) + 6 * 7 + 7
    assert net.apply(params, jnp.ones((3, 4))).shape == (3, 7)


def test_hidden_layer_count_is_checked():
    with pytest.raises(ValueError, match="hidden_layers must be one of"):
        mlp_hypernetwork(4, 7, hidden_layers=2)
    with pytest.raises(ValueError, match="positive layer sizes"):
        DenseNet((3,))


def test_linear_networks_are_matrices():
    e, h = linear_embedding(5, 3), linear_hypernetwork(3, 5)
    A, H = e.init(jax.random.key(1)), h.init(jax.random.key(2))
    z = jax.random.normal(jax.random.key(3), (10, 5))
    v = descriptor(e, A, z)
    np.testing.assert_allclose(v, A[0]["W"] @ z.mean(0), rtol=1e-12)
    np.testing.assert_allclose(h.apply(H, v), H[0]["W"] @ A[0]["W"] @ z.mean(0), rtol=1e-12)


def test_descriptor_is_permutation_invariant():
    e = mlp_embedding(6, 4, width=8)
    params = e.init(jax.random.key(0))
    z = jax.random.normal(jax.random.key(1), (9, 6))
    perm = jax.random.permutation(jax.random.key(2), 9)
    np.testing.assert_allclose(descriptor(e, params, z), descriptor(e, params, z[perm]),
                               rtol=1e-12)


def test_softmax_loss_and_error():
    model = Softmax(p=2, classes=3)
    theta = jnp.zeros(model.d).at[:6].set(jnp.array([1.0, 0, 0, 1, -1, -1]))
    x = jnp.array([[2.0, 0.0], [0.0, 2.0]])
    y = jnp.array([0, 2])
    np.testing.assert_allclose(model.error(theta, x, y), [0.0, 1.0])
    z = np.array([[2.0, 0, -2], [0, 2, -2]])
    ce = np.log(np.exp(z).sum(1)) - z[[0, 1], [0, 2]]
    np.testing.assert_allclose(model.point_loss(theta, x, y), ce, rtol=1e-12)
    assert float(objective(model, theta, x, y, 0.5)) == pytest.approx(ce.mean() + 0.5 * 4)


def test_linear_linear_gradient_matches_closed_form():
    """grad_H F = (1/n) sum_i G_i v_i^T + 2 lam_h H, grad_A F = (1/n) sum_i (H^T G_i) psibar_i^T
    + 2 lam_v A (digest §6.1) against jax.grad through the hypernetwork and the embedding."""
    inst = LowRankRegression(p=5, q=2, lam_h=0.01, lam_v=0.02, lam_theta=0.03).draw(
        12, 7, np.random.default_rng(0))
    l = 3
    arch = pefll.Architecture("pefll", LinearRegression(5), linear_hypernetwork(l, 5),
                              linear_embedding(5, l))
    eta = arch.init(jax.random.key(4), 12)
    cfg = pefll.TrainConfig(T=1, c=1, k=1, beta=0.1, lam_h=0.01, lam_v=0.02, lam_theta=0.03)
    data = pefll.ClientData(inst.psi, inst.X, inst.Y)
    g = jax.grad(lambda e: pefll.full_objective(arch, data, cfg, e))(eta)
    H, A = np.asarray(eta["h"][0]["W"]), np.asarray(eta["v"][0]["W"])
    gH, gA = inst.gradient(H, A)
    np.testing.assert_allclose(g["h"][0]["W"], gH, rtol=1e-11, atol=1e-13)
    np.testing.assert_allclose(g["v"][0]["W"], gA, rtol=1e-11, atol=1e-13)
    assert float(pefll.full_objective(arch, data, cfg, eta)) == pytest.approx(
        inst.objective(H, A), rel=1e-12)
    # per-client gradients average to grad F minus the regularizer's
    G = np.asarray(pefll.client_gradients(arch, data, cfg, eta)).mean(0)
    np.testing.assert_allclose(G[: H.size], (gH - 0.02 * H).ravel(), rtol=1e-10, atol=1e-13)
    # the Jacobian's operator norm: ||J||^2 = ||A psibar||^2 + ||psibar||^2 ||H||_2^2
    op = np.sqrt(np.sum((inst.psibar @ A.T) ** 2, 1)
                 + np.sum(inst.psibar**2, 1) * np.linalg.norm(H, 2) ** 2)
    np.testing.assert_allclose(pefll.jacobian_opnorms(arch, data, eta), op, rtol=1e-10)
