"""Personalized client models theta for the hypernetwork methods (JAX): losses per data point.

* :class:`LinearRegression`: ell(x, y, theta) = (theta^T x - y)^2 / 2, theta in R^p;
* :class:`Softmax`: multinomial logistic regression, theta = vec(W (C x p), b (C)), the
  cross-entropy loss, and the 0-1 error of argmax predictions.

The client objective is f_i(theta) = mean_j ell(x_j, y_j, theta) + lam_theta ||theta||^2
(Scott, Zakerinia & Lampert, PeFLL, Sec. 3.1 with the 1/2 of the digest's Testbed A).
"""

from __future__ import annotations

from dataclasses import dataclass

import jax
import jax.numpy as jnp

from pflbounds.algorithms import hypernetworks  # noqa: F401  (float64 on)


@dataclass(frozen=True)
class LinearRegression:
    """theta in R^p, ell = (theta^T x - y)^2 / 2."""

    p: int

    @property
    def d(self) -> int:
        return self.p

    def point_loss(self, theta: jax.Array, x: jax.Array, y: jax.Array) -> jax.Array:
        r = x @ theta - y
        return 0.5 * r * r

    def error(self, theta: jax.Array, x: jax.Array, y: jax.Array) -> jax.Array:
        """The loss itself (regression has no 0-1 error)."""
        return self.point_loss(theta, x, y)


@dataclass(frozen=True)
class Softmax:
    """theta = (W, b) flattened, W of shape (classes, p); cross-entropy loss."""

    p: int
    classes: int

    @property
    def d(self) -> int:
        return self.classes * (self.p + 1)

    def logits(self, theta: jax.Array, x: jax.Array) -> jax.Array:
        W = theta[: self.classes * self.p].reshape(self.classes, self.p)
        return x @ W.T + theta[self.classes * self.p:]

    def point_loss(self, theta: jax.Array, x: jax.Array, y: jax.Array) -> jax.Array:
        z = self.logits(theta, x)
        return jax.nn.logsumexp(z, axis=-1) - jnp.take_along_axis(
            z, y[..., None].astype(int), axis=-1)[..., 0]

    def error(self, theta: jax.Array, x: jax.Array, y: jax.Array) -> jax.Array:
        """0-1 error of the argmax prediction, per point."""
        return (jnp.argmax(self.logits(theta, x), axis=-1) != y).astype(jnp.float64)


@dataclass(frozen=True)
class BinaryLogistic:
    """theta in R^p, labels y in {-1, 1}: ell = log(1 + exp(-y theta^T x)); the 0-1 error of
    sign(theta^T x) with sign(0) = 1 (a linear classifier through the origin)."""

    p: int

    @property
    def d(self) -> int:
        return self.p

    def point_loss(self, theta: jax.Array, x: jax.Array, y: jax.Array) -> jax.Array:
        return jax.nn.softplus(-y * (x @ theta))

    def error(self, theta: jax.Array, x: jax.Array, y: jax.Array) -> jax.Array:
        """0-1 error of sign(theta^T x), per point."""
        return (jnp.where(x @ theta >= 0, 1.0, -1.0) != y).astype(jnp.float64)


def objective(model, theta: jax.Array, x: jax.Array, y: jax.Array,
              lam_theta: float) -> jax.Array:
    """f_i(theta) = mean_j ell(x_j, y_j, theta) + lam_theta ||theta||^2."""
    return model.point_loss(theta, x, y).mean() + lam_theta * jnp.sum(theta * theta)
