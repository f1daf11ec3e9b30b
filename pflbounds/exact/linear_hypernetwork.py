"""Exact moments of hypernetwork SGD with a linear hypernetwork on identical quadratic
clients: the linear dynamics of a split-learning round, for the exact propagator.

Model (paper-neutral; an instance of the proof algorithm of scott2024 digest §3.4): a fixed
descriptor v in R^l, a linear hypernetwork theta = eta . v (eta in R^l, a scalar client
model), every client's loss f(theta) = (theta - theta*)^2/2 (a Huber loss inside its
quadratic zone |theta - theta*| <= 1: gradient bound 1, smoothness 1) and a server
regularizer lam ||eta||^2. One round: c clients, each from theta_0 = eta . v runs k local
SGD steps theta_l = theta_{l-1} - beta (f'(theta_{l-1}) + xi_l), xi_l ~ N(0, s2) i.i.d.;
the server takes eta <- eta + (1/c) sum_i (theta_{i,k} - theta_{i,0}) v - beta kappa 2 lam eta
with kappa = k (the proof's step beta k grad f) or kappa = 1 (a step beta grad f).

With e = theta - theta*: e_k = r^k e_0 - beta sum_l r^{k-l} xi_l, r = 1 - beta, so
theta_k - theta_0 = -(1 - r^k) e_0 - beta sum_l r^{k-l} xi_l, and the round is affine in eta
with Gaussian noise:

    eta' = A eta + a + noise,  A = (1 - 2 beta kappa lam) I - (1 - r^k) v v^T,
    a = (1 - r^k) theta* v,    Cov(noise) = (beta^2 s2 / c) (sum_{j<k} r^{2j}) v v^T.

F(eta) = f(eta . v) + lam ||eta||^2 has grad F = (eta . v - theta*) v + 2 lam eta, a linear
function of eta, so E||grad F||^2 and E||eta_{t+1} - eta_t||^2 are quadratic metrics of the
propagated mean and covariance (:func:`pflbounds.exact.propagate`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.special import log_ndtr

from pflbounds.exact.linear_gaussian import geometric_sum
from pflbounds.exact.propagator import propagate
from pflbounds.exact.propagator_draws import LinearDraws
from pflbounds.exact.propagator_metrics import QuadraticMetrics

__all__ = ["LinearHypernetworkSGD"]


@dataclass(frozen=True)
class LinearHypernetworkSGD:
    """One configuration of the model of the module docstring."""

    v: tuple[float, ...]
    beta: float
    k: int = 1
    c: int = 1
    s2: float = 1.0
    lam: float = 0.0
    theta_star: float = 0.0
    server_steps: str = "proof"
    """``"proof"``: regularizer step beta k grad f; ``"alg2"``: beta grad f."""

    def __post_init__(self) -> None:
        if self.server_steps not in ("proof", "alg2"):
            raise ValueError(f"server_steps must be 'proof' or 'alg2', got "
                             f"{self.server_steps!r}")
        if not (self.beta > 0 and self.k >= 1 and self.c >= 1 and self.s2 >= 0
                and self.lam >= 0):
            raise ValueError("need beta > 0, k >= 1, c >= 1, s2 >= 0 and lam >= 0")

    @property
    def vec(self) -> np.ndarray:
        return np.asarray(self.v, dtype=np.float64)

    @property
    def kappa(self) -> int:
        return self.k if self.server_steps == "proof" else 1

    def _r(self) -> tuple[float, float]:
        r = 1.0 - self.beta
        return 1.0 - r**self.k, float(geometric_sum(np.asarray(r * r), np.asarray(self.k)))

    def draws(self) -> LinearDraws:
        """The single affine map of one round with its noise covariance."""
        v = self.vec
        shrink, noise_sum = self._r()
        vv = np.outer(v, v)
        A = (1 - 2 * self.beta * self.kappa * self.lam) * np.eye(v.size) - shrink * vv
        a = shrink * self.theta_star * v
        S = self.beta**2 * self.s2 / self.c * noise_sum * vv
        return LinearDraws(np.ones(1), A[None], a[None], S[None])

    def optimum(self) -> np.ndarray:
        """A minimiser of F: for lam = 0 the one along v (eta . v = theta*), for lam > 0
        eta* = theta* v/(|v|^2 + 2 lam)."""
        v = self.vec
        return self.theta_star * v / (v @ v + 2 * self.lam)

    def grad(self, eta: np.ndarray) -> np.ndarray:
        """grad F(eta) = (eta . v - theta*) v + 2 lam eta (exact)."""
        v = self.vec
        return (eta @ v - self.theta_star) * v + 2 * self.lam * eta

    def grad_metric(self) -> QuadraticMetrics:
        """||grad F(eta)||^2 = (eta - eta*)^T H^2 (eta - eta*), H = v v^T + 2 lam I, as the
        quadratic metric 1/2 x^T (2 H^2) x centred at a minimiser."""
        v = self.vec
        H = np.outer(v, v) + 2 * self.lam * np.eye(v.size)
        return QuadraticMetrics(Q=(2 * H @ H)[None, None], x_star=self.optimum()[None, None])

    def expected_sq_grad(self, eta0: np.ndarray, ks: np.ndarray) -> np.ndarray:
        """E||grad F(eta_t)||^2 at the rounds ``ks`` from eta_0 = ``eta0`` (propagator)."""
        prop = propagate(self.draws(), np.asarray(eta0, float), ks, self.grad_metric())
        return prop.metrics[:, 0]

    def one_round(self, eta0: np.ndarray) -> dict[str, float]:
        """Exact one-round quantities from a deterministic eta_t = ``eta0``:
        E||eta_{t+1} - eta_t||^2, <grad F(eta_t), E eta_{t+1} - eta_t>, ||grad F(eta_t)||^2
        and <grad F(eta_t), grad f_server(eta_t)> with grad f_server = 2 lam eta."""
        eta0 = np.asarray(eta0, dtype=np.float64)
        step = QuadraticMetrics(Q=2 * np.eye(eta0.size)[None, None], x_star=eta0[None, None])
        prop = propagate(self.draws(), eta0, [0, 1], step, keep_moments=True)
        g = self.grad(eta0)
        move = prop.means[1, 0] - eta0
        return {"step_sq": float(prop.metrics[1, 0]), "inner": float(g @ move),
                "grad_sq": float(g @ g), "inner_reg": float(g @ (2 * self.lam * eta0))}

    def _e_dynamics(self) -> tuple[float, float, float]:
        """(|v|^2, q^2, w) of e_{t+1} = q e_t + noise, Var(noise) = w, for lam = 0 (see
        :meth:`average_sq_grad`); refuses lam != 0 and non-contracting dynamics."""
        if self.lam != 0:
            raise ValueError("the closed-form e_t dynamics need lam = 0 (use expected_sq_grad)")
        v2 = float(self.vec @ self.vec)
        shrink, noise_sum = self._r()
        q2 = (1 - shrink * v2) ** 2
        if q2 >= 1:
            raise ValueError(f"the dynamics do not contract: (1 - (1 - r^k)|v|^2)^2 = {q2:.6g}")
        w = self.beta**2 * self.s2 / self.c * noise_sum * v2**2
        return v2, q2, w

    def average_sq_grad(self, e0: float, T: int, start: int = 1) -> float:
        """(1/T) sum_{t=start}^{start+T-1} E||grad F(eta_t)||^2 in closed form for lam = 0,
        where only e_t = eta_t . v - theta* moves: e_{t+1} = q e_t + noise, q = 1 - (1 - r^k)
        |v|^2, Var(noise) = w, so E e_t^2 = q^{2t} e0^2 + w (1 - q^{2t})/(1 - q^2) and
        ||grad F||^2 = |v|^2 e^2 (geometric sums, no loop over t)."""
        v2, q2, w = self._e_dynamics()
        tot_pow = q2**start * float(geometric_sum(np.asarray(q2), np.asarray(T)))
        total = e0**2 * tot_pow + w / (1 - q2) * (T - tot_pow)
        return v2 * total / T

    def stationary_sd(self) -> float:
        """Largest standard deviation of e_t = eta_t . v - theta* over rounds from e_0 = 0
        (its stationary value, lam = 0)."""
        _, q2, w = self._e_dynamics()
        return float(np.sqrt(w / (1 - q2)))

    def log10_zone_exit_bound(self, T: int, zone: float = 1.0) -> float:
        """log10 of a union bound on the probability that some local iterate of the first T
        rounds leaves |theta - theta*| <= ``zone`` (where a Huber loss is this quadratic), k = 1,
        lam = 0, from e_0 = 0: T * 2 Phi(-zone/sd_max). Gaussian tails in log space."""
        sd = self.stationary_sd()
        if sd == 0:
            return -np.inf
        return float((np.log(2.0 * T) + log_ndtr(-zone / sd)) / np.log(10.0))
