"""What a problem offers to the methods, split by oracle.

A method asks only for the oracles it calls: a stochastic gradient (:class:`GradientOracle`),
the excess loss it records (:class:`LossOracle`), block gradients of a PFL objective in its
(w, beta) form (:class:`BlockGradientOracle`), a projection onto a constraint set
(:class:`ProjectionOracle`), or one sample per agent shared by several gradient evaluations
(:class:`SharedSampleOracle`). A problem offers any combination. Iterates have shape
(R, N, d): replicas, agents, dimension; PFL pairs are w (R, d) and beta (R, M, d_beta).
"""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

import numpy as np

__all__ = [
    "BlockGradientOracle",
    "GradientOracle",
    "LossOracle",
    "MixtureProblem",
    "ProjectionOracle",
    "SharedSampleOracle",
    "StochasticProblem",
]


@runtime_checkable
class GradientOracle(Protocol):
    """``grad(X, rng)``: one stochastic gradient per agent and replica, g_j(x_j) =
    grad l(x_j, xi_j) with a fresh sample xi_j ~ D_j, for X of shape (R, N, d)."""

    @property
    def N(self) -> int: ...

    @property
    def d(self) -> int: ...

    def grad(self, X: np.ndarray, rng: np.random.Generator) -> np.ndarray: ...


@runtime_checkable
class LossOracle(Protocol):
    """``excess(X)``: f_j(x_j) - f_j^* for X of shape (..., N, d), shape (..., N)."""

    def excess(self, X: np.ndarray) -> np.ndarray: ...


@runtime_checkable
class BlockGradientOracle(Protocol):
    """Block gradients of a PFL objective F(w, beta) = sum_m f_m(w, beta_m) (hanzely2023
    Eq. (1)): ``grad_w(w, beta, rng)`` (R, d) and ``grad_beta(w, beta, rng)`` (R, M, d_beta),
    stochastic when ``rng`` is given and exact when it is None."""

    def grad_w(
        self, w: np.ndarray, beta: np.ndarray, rng: np.random.Generator | None
    ) -> np.ndarray: ...

    def grad_beta(
        self, w: np.ndarray, beta: np.ndarray, rng: np.random.Generator | None
    ) -> np.ndarray: ...


@runtime_checkable
class ProjectionOracle(Protocol):
    """``project(X)``: the Euclidean projection of each replica's X onto the constraint set."""

    def project(self, X: np.ndarray) -> np.ndarray: ...


@runtime_checkable
class SharedSampleOracle(Protocol):
    """One fresh sample per agent, reused for several gradient evaluations.

    ``sample_noise(R, rng)`` draws one sample per agent and replica (an opaque, problem-specific
    object). ``mixed_grad(X, Lam, noise)`` returns sum_j lambda_ij grad l(x_i, xi_j) for every
    agent i, reusing agent j's sample for every i, shape (R, N, d), without forming an
    (N, N, d) array (even2022 Eq. (2)).
    """

    def sample_noise(self, R: int, rng: np.random.Generator) -> Any: ...

    def mixed_grad(self, X: np.ndarray, Lam: Any, noise: Any) -> np.ndarray: ...


@runtime_checkable
class StochasticProblem(GradientOracle, LossOracle, Protocol):
    """A stochastic gradient and the excess loss: what AFA, local SGD and the global model
    need (even2022 oracle model, digest section 1)."""


@runtime_checkable
class MixtureProblem(StochasticProblem, SharedSampleOracle, Protocol):
    """A problem that All-for-one (even2022 Eq. (2)) can run on."""
