"""Embedding networks and hypernetworks in JAX (CPU, float64).

A network is a stack of dense layers with ``tanh`` between them (none after the last):

* embedding networks phi(z; eta_v) on per-point inputs z: :func:`linear_embedding` (a linear
  map A z of fixed features, e.g. psi(x, y) = y x) or :func:`mlp_embedding` (a tanh MLP on
  (x, one-hot y));
* hypernetworks h(v; eta_h) on a descriptor v: :func:`linear_hypernetwork` (H v) or
  :func:`mlp_hypernetwork` with 1, 3 or 5 hidden layers (the S / M / L sizes of Table 7 of
  Scott, Zakerinia & Lampert, PeFLL).

Parameters are pytrees: a list of ``{"W": (out, in), "b": (out,)}`` layers (``b`` only when
the network has biases). The client descriptor is the mean embedding v(S) = mean_z phi(z)
(:func:`descriptor`). Double precision is switched on here, once, for every JAX engine of the
package (the hypernetwork checks compare gradients and Jacobians to closed forms).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import jax

jax.config.update("jax_enable_x64", True)

import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402

Params = Any
"""A pytree of float64 arrays."""

HIDDEN_LAYER_CHOICES = (1, 3, 5)


@dataclass(frozen=True)
class DenseNet:
    """A dense network ``sizes[0] -> ... -> sizes[-1]``, tanh between layers.

    ``bias``: whether layers have biases. ``scale``: initial weights are N(0, scale^2/fan_in).
    """

    sizes: tuple[int, ...]
    bias: bool = True
    scale: float = 1.0

    def __post_init__(self) -> None:
        if len(self.sizes) < 2 or any(int(s) < 1 for s in self.sizes):
            raise ValueError(f"a network needs >= 2 positive layer sizes, got {self.sizes}")

    @property
    def linear(self) -> bool:
        """One layer, no nonlinearity."""
        return len(self.sizes) == 2

    @property
    def n_params(self) -> int:
        """Number of scalar parameters (floats sent when the network is communicated)."""
        pairs = zip(self.sizes[:-1], self.sizes[1:], strict=True)
        return sum(o * i + (o if self.bias else 0) for i, o in pairs)

    def init(self, key: jax.Array) -> Params:
        """Random initial parameters (Gaussian, variance scale^2/fan_in, zero biases)."""
        keys = jax.random.split(key, len(self.sizes) - 1)
        layers = []
        for k, (i, o) in zip(keys, zip(self.sizes[:-1], self.sizes[1:], strict=True), strict=True):
            layer = {"W": self.scale * jax.random.normal(k, (o, i)) / jnp.sqrt(i)}
            if self.bias:
                layer["b"] = jnp.zeros(o)
            layers.append(layer)
        return layers

    def apply(self, params: Params, x: jax.Array) -> jax.Array:
        """The network on inputs x of shape (..., sizes[0])."""
        for j, layer in enumerate(params):
            x = x @ layer["W"].T
            if self.bias:
                x = x + layer["b"]
            if j < len(params) - 1:
                x = jnp.tanh(x)
        return x


def linear_embedding(n_features: int, l: int) -> DenseNet:
    """phi(psi; A) = A psi: a linear map of fixed per-point features (no bias)."""
    return DenseNet((n_features, l), bias=False)


def mlp_embedding(n_inputs: int, l: int, width: int = 32, hidden_layers: int = 1) -> DenseNet:
    """phi(x, y) = tanh MLP of the point's (x, one-hot y) (``n_inputs`` = dim x + classes)."""
    return DenseNet((n_inputs, *([width] * hidden_layers), l), bias=True)


def linear_hypernetwork(l: int, d: int, bias: bool = False) -> DenseNet:
    """h(v; H) = H v (+ b)."""
    return DenseNet((l, d), bias=bias)


def mlp_hypernetwork(l: int, d: int, width: int = 32, hidden_layers: int = 3) -> DenseNet:
    """A tanh MLP l -> width (x hidden_layers) -> d; ``hidden_layers`` in {1, 3, 5}."""
    if hidden_layers not in HIDDEN_LAYER_CHOICES:
        raise ValueError(f"hidden_layers must be one of {HIDDEN_LAYER_CHOICES}, got "
                         f"{hidden_layers!r}")
    return DenseNet((l, *([width] * hidden_layers), d), bias=True)


def descriptor(embed: DenseNet, eta_v: Params, z: jax.Array) -> jax.Array:
    """v(S) = (1/|S|) sum_{z in S} phi(z; eta_v) (PeFLL, Sec. 3): z of shape (points, in)."""
    return embed.apply(eta_v, z).mean(axis=-2)


def sqnorm(params: Params) -> jax.Array:
    """||params||^2 (Frobenius over every leaf)."""
    return sum(jnp.sum(x * x) for x in jax.tree_util.tree_leaves(params))


def to_numpy(tree: Params) -> Any:
    """The pytree with numpy leaves."""
    return jax.tree_util.tree_map(np.asarray, tree)


def key_of(seed: np.random.SeedSequence) -> jax.Array:
    """A JAX key derived from a numpy SeedSequence (the package's seeding), reproducibly."""
    return jax.random.key(int(seed.generate_state(1, dtype=np.uint32)[0]))
