"""The binary logistic client model (algorithms.client_models.BinaryLogistic): its gradient
and 0-1 error against their closed forms."""

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from pflbounds.algorithms.client_models import BinaryLogistic, objective


def test_binary_logistic_gradient_and_error_match_closed_forms():
    rng = np.random.default_rng(0)
    x = jnp.asarray(rng.standard_normal((7, 3)))
    y = jnp.asarray(np.where(rng.random(7) < 0.5, -1.0, 1.0))
    theta = jnp.asarray(rng.standard_normal(3))
    model = BinaryLogistic(3)
    g = jax.grad(objective, argnums=1)(model, theta, x, y, 0.1)
    s = 1 / (1 + np.exp(np.asarray(y * (x @ theta))))  # sigma(-y theta^T x)
    closed = -(np.asarray(x) * (np.asarray(y) * s)[:, None]).mean(0) + 0.2 * np.asarray(theta)
    assert np.asarray(g) == pytest.approx(closed, rel=1e-12)
    err = np.asarray(model.error(theta, x, y))
    assert np.array_equal(err, (np.where(np.asarray(x @ theta) >= 0, 1, -1) != y).astype(float))
    assert model.error(jnp.zeros(3), x[:1], jnp.array([1.0]))[0] == 0.0  # sign(0) = 1
