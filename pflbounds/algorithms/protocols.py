"""What a problem must offer to be run by the collaborative methods.

Arrays of iterates have shape (R, N, d): replicas, agents, dimension.
"""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

import numpy as np

__all__ = ["StochasticProblem", "MixtureProblem"]


@runtime_checkable
class StochasticProblem(Protocol):
    """An N-agent stochastic problem (even2022 oracle model, digest section 1).

    ``grad(X, rng)`` returns one stochastic gradient per agent and replica, g_j(x_j) =
    grad ell(x_j, xi_j) with a fresh sample xi_j ~ D_j, for X of shape (R, N, d).
    ``excess(X)`` returns f_j(x_j) - f_j^* for X of shape (..., N, d), shape (..., N).
    """

    @property
    def N(self) -> int: ...

    @property
    def d(self) -> int: ...

    def grad(self, X: np.ndarray, rng: np.random.Generator) -> np.ndarray: ...

    def excess(self, X: np.ndarray) -> np.ndarray: ...


@runtime_checkable
class MixtureProblem(StochasticProblem, Protocol):
    """A problem that AFO (even2022 Eq. (2)) can run on.

    ``sample_noise(R, rng)`` draws one fresh sample per agent and replica (an opaque,
    problem-specific object: an (R, N, d) array of additive noise, an array of samples, or a
    tuple of arrays). ``mixed_grad(X, Lam, noise)`` returns sum_j lambda_ij grad ell(x_i, xi_j)
    for every agent i, reusing the sample of agent j for every i, shape (R, N, d), without
    forming an (N, N, d) array.
    """

    def sample_noise(self, R: int, rng: np.random.Generator) -> Any: ...

    def mixed_grad(self, X: np.ndarray, Lam: Any, noise: Any) -> np.ndarray: ...
