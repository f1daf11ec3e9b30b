"""Clustered linear-regression clients: a generator of federated ridge problems whose true
parameters form clusters, with the ridge objectives as vectorised quadratics.

Generator (the synthetic setting of Erickson & Johansson 2025, §5.1, digest §6.1; the items
the paper leaves open are options, their defaults marked (*) in the digest's recipe):

* client i belongs to cluster c(i) = floor(i C / n) of C clusters (three thirds for C = 3);
  theta_i^true ~ N(mean_c 1_d, sd_theta^2 I_d), mean_c from ``cluster_means`` (1, 1.5, 2);
* N_i ~ Uniform{n_min, ..., n_max} training samples (10..100), ``n_test`` test samples;
* features x ~ N(m_i, I_d), m_i ~ N(0, feature_shift^2 I_d) (distinct laws per client (*));
* labels y = x^T theta_i^true + eps, eps ~ N(0, sd_eps^2) (the paper tunes the noise (*)).

Objectives: f_i(theta) = (1/(2 N_i)) ||X_i theta - y_i||^2 + (lam/2) ||theta||^2, a quadratic
(1/2) theta^T H_i theta - b_i^T theta + c_i with H_i = X_i^T X_i/N_i + lam I, b_i = X_i^T y_i/N_i
and c_i = ||y_i||^2/(2 N_i). A sample weighting (e.g. the training folds of a
cross-validation) gives the same quadratic on the chosen samples (:meth:`RegressionClients.
ridge`). Every array of a :class:`RidgeQuadratics` may carry leading axes (replicas, folds):
gradients and losses are einsums, with no loop over clients.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np

__all__ = ["ClusteredRegression", "RegressionClients", "RidgeQuadratics", "r2_scores"]


@dataclass(frozen=True, eq=False)
class RidgeQuadratics:
    """f_i(theta) = theta^T H_i theta/2 - b_i^T theta + c_i, i = 1..n, with weights alpha_i.

    ``H`` (..., n, d, d), ``b`` (..., n, d), ``c`` (..., n), ``alpha`` (..., n). Iterates
    ``theta`` have shape (..., n, d) broadcasting against ``b``.
    """

    H: np.ndarray
    b: np.ndarray
    c: np.ndarray
    alpha: np.ndarray

    @property
    def n(self) -> int:
        """Number of clients."""
        return self.b.shape[-2]

    @property
    def d(self) -> int:
        """Dimension of a client model."""
        return self.b.shape[-1]

    @property
    def N(self) -> int:
        """Number of agents (:class:`~pflbounds.algorithms.protocols.GradientOracle`)."""
        return self.n

    def grad_f(self, theta: np.ndarray) -> np.ndarray:
        """grad f_i(theta_i) = H_i theta_i - b_i, shape (..., n, d)."""
        return np.einsum("...ij,...j->...i", self.H, theta) - self.b

    def weighted_grad(self, theta: np.ndarray) -> np.ndarray:
        """alpha_i grad f_i(theta_i): the oracle of a weighted objective (..., n, d)."""
        return self.alpha[..., None] * self.grad_f(theta)

    def loss(self, theta: np.ndarray) -> np.ndarray:
        """f_i(theta_i), shape (..., n)."""
        Ht = np.einsum("...ij,...j->...i", self.H, theta)
        return 0.5 * (theta * Ht).sum(-1) - (self.b * theta).sum(-1) + self.c

    @cached_property
    def smoothness(self) -> np.ndarray:
        """L_i = lambda_max(H_i), shape (..., n)."""
        return np.linalg.eigvalsh(self.H)[..., -1]

    @cached_property
    def L(self) -> np.ndarray:
        """max_i alpha_i L_i, the smoothness of the weighted losses (..., ) (erickson2025
        Assumption 4.1)."""
        return (self.alpha * self.smoothness).max(axis=-1)

    @cached_property
    def local_optima(self) -> np.ndarray:
        """theta_i^loc = H_i^{-1} b_i, shape (..., n, d)."""
        return np.linalg.solve(self.H, self.b[..., None])[..., 0]

    @cached_property
    def consensus_optimum(self) -> np.ndarray:
        """argmin_theta sum_i alpha_i f_i(theta) = (sum alpha_i H_i)^{-1} sum alpha_i b_i,
        shape (..., d)."""
        Hs = (self.alpha[..., None, None] * self.H).sum(-3)
        bs = (self.alpha[..., None] * self.b).sum(-2)
        return np.linalg.solve(Hs, bs[..., None])[..., 0]

    # GradientOracle / LossOracle, for the methods of pflbounds.algorithms.collaborative
    def grad(self, X: np.ndarray, rng: np.random.Generator | None = None) -> np.ndarray:
        """Full (exact) gradients grad f_i(x_i); ``rng`` is not used."""
        return self.grad_f(X)

    def excess(self, X: np.ndarray) -> np.ndarray:
        """f_i(x_i) - f_i(theta_i^loc), shape (..., n)."""
        return self.loss(X) - self.loss(self.local_optima)


def r2_scores(pred: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Coefficient of determination per client: 1 - sum (y - pred)^2 / sum (y - mean y)^2
    over the last axis (test samples)."""
    sse = ((y - pred) ** 2).sum(-1)
    sst = ((y - y.mean(-1, keepdims=True)) ** 2).sum(-1)
    return 1.0 - sse / sst


@dataclass(frozen=True, eq=False)
class RegressionClients:
    """One draw of the generator: padded training data ``X`` (n, N_max, d), ``y`` (n, N_max)
    with ``mask`` (n, N_max) (True for the N_i real samples), test data ``X_test`` (n,
    n_test, d), ``y_test``, ``theta_true`` (n, d), ``cluster`` (n,) and the ridge ``lam``."""

    X: np.ndarray
    y: np.ndarray
    mask: np.ndarray
    X_test: np.ndarray
    y_test: np.ndarray
    theta_true: np.ndarray
    cluster: np.ndarray
    lam: float

    @property
    def n(self) -> int:
        """Number of clients."""
        return self.X.shape[0]

    @property
    def d(self) -> int:
        """Number of features."""
        return self.X.shape[-1]

    @property
    def counts(self) -> np.ndarray:
        """N_i, shape (n,)."""
        return self.mask.sum(-1)

    @property
    def alpha(self) -> np.ndarray:
        """alpha_i = n N_i/sum_j N_j: client weights proportional to the sample counts,
        averaging to 1."""
        N = self.counts.astype(float)
        return self.n * N / N.sum()

    def samples(self, i: int) -> np.ndarray:
        """Client i's training samples as joint vectors xi = (x, y), shape (N_i, d + 1)."""
        m = self.mask[i]
        return np.column_stack([self.X[i, m], self.y[i, m]])

    def ridge(self, weights: np.ndarray | None = None) -> RidgeQuadratics:
        """The ridge quadratics on the samples with nonzero ``weights`` (..., n, N_max) (a
        0/1 selection such as cross-validation folds; default: every training sample)."""
        w = self.mask.astype(float) if weights is None else np.asarray(weights, float) * self.mask
        Ni = w.sum(-1)
        if np.any(Ni <= 0):
            raise ValueError("every client needs at least one selected sample")
        wx = w[..., None] * self.X
        H = np.einsum("...nsd,nse->...nde", wx, self.X) / Ni[..., None, None]
        H = H + self.lam * np.eye(self.d)
        b = np.einsum("...nsd,ns->...nd", wx, self.y) / Ni[..., None]
        c = 0.5 * (w * self.y**2).sum(-1) / Ni
        alpha = self.n * Ni / Ni.sum(-1, keepdims=True)
        return RidgeQuadratics(H, b, c, alpha)

    def predict_test(self, theta: np.ndarray) -> np.ndarray:
        """Client i's model on its own test features: (..., n, n_test)."""
        return np.einsum("nsd,...nd->...ns", self.X_test, theta)

    def estimation_error(self, theta: np.ndarray) -> np.ndarray:
        """||theta_i - theta_i^true|| per client, shape (..., n)."""
        return np.linalg.norm(theta - self.theta_true, axis=-1)

    def test_r2(self, theta: np.ndarray) -> np.ndarray:
        """Test R^2 of client i's model on its own test set, shape (..., n)."""
        return r2_scores(self.predict_test(theta), self.y_test)


@dataclass(frozen=True)
class ClusteredRegression:
    """The generator of the module docstring; :meth:`draw` gives one data set."""

    n: int = 30
    d: int = 50
    cluster_means: tuple[float, ...] = (1.0, 1.5, 2.0)
    sd_theta: float = 1.0
    n_min: int = 10
    n_max: int = 100
    feature_shift: float = 1.0
    sd_eps: float = 1.0
    lam: float = 1e-6
    n_test: int = 100

    def __post_init__(self) -> None:
        if self.n < len(self.cluster_means) or self.d < 1:
            raise ValueError(f"need n >= {len(self.cluster_means)} clients and d >= 1, got "
                             f"n = {self.n}, d = {self.d}")
        if not 1 <= self.n_min <= self.n_max:
            raise ValueError(f"need 1 <= n_min <= n_max, got {self.n_min}, {self.n_max}")
        if min(self.sd_theta, self.feature_shift, self.sd_eps, self.lam) < 0 or self.n_test < 2:
            raise ValueError("standard deviations and lam must be >= 0 and n_test >= 2")

    def clusters(self) -> np.ndarray:
        """c(i) = floor(i C/n): consecutive blocks of (about) n/C clients."""
        return np.arange(self.n) * len(self.cluster_means) // self.n

    def draw(self, rng: np.random.Generator) -> RegressionClients:
        """One data set (module docstring); every array is drawn in one call, no client loop."""
        n, d = self.n, self.d
        c = self.clusters()
        mean = np.asarray(self.cluster_means, dtype=float)[c]
        theta = mean[:, None] + self.sd_theta * rng.standard_normal((n, d))
        counts = rng.integers(self.n_min, self.n_max + 1, size=n)
        m = self.feature_shift * rng.standard_normal((n, 1, d))
        X = m + rng.standard_normal((n, self.n_max, d))
        mask = np.arange(self.n_max)[None, :] < counts[:, None]
        X = np.where(mask[..., None], X, 0.0)
        y = np.einsum("nsd,nd->ns", X, theta) + self.sd_eps * rng.standard_normal(
            (n, self.n_max))
        y = np.where(mask, y, 0.0)
        Xt = m + rng.standard_normal((n, self.n_test, d))
        yt = np.einsum("nsd,nd->ns", Xt, theta) + self.sd_eps * rng.standard_normal(
            (n, self.n_test))
        return RegressionClients(X, y, mask, Xt, yt, theta, c, float(self.lam))
