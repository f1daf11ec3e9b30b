"""Clustered Gaussian means and weights estimated from samples (bias estimation by testing).

The family (:class:`pflbounds.problems.gaussian_means.GaussianMeans`): M clusters of C agents
(N = M C), agent i draws xi ~ N(mu_{m(i)}, Sigma); the cluster means sit on a regular
simplex with every pairwise distance t Delta (t >= 1: the separation Delta^2 is a lower
bound, Assumption 5; t Delta <= b_max: the gradient gaps b_ij = D* ||mu_m - mu_m'||, D* = 1,
are at most b_max), turned by a rotation against Sigma's axes; Sigma = diag(s) with
s in [0, nu2]^d (lambda_max(Sigma) <= nu^2, and Tr(Sigma) <= nu^2 d_eff when d_eff >= d).
Each agent estimates its mean from S samples (its exact law N(mu, Sigma/S)), the biases
b_hat_ij^2 = ||mu_hat_i - mu_hat_j||^2, and the weights lambda_hat_ij = 1{b_hat_ij^2 <= u} /
#{l : b_hat_il^2 <= u}.

Instance parameters: ``spread`` t (1,), ``rotation`` Q (d, d), ``covariance`` s (d,).

Measures (Monte Carlo over the draws of the sample means): ``bias``
E[sum_ij lambda_hat_ij b_ij^2]; ``variance`` (1/N) E[sum_ij lambda_hat_ij^2]; ``tail`` the
probability that b_hat_ij^2 <= u for a pair of different clusters, averaged over those
pairs. Constants it derives for a bound: N = M C and D* = 1.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from pflbounds.problems.gaussian_means import GaussianMeans
from pflbounds.tightness.models import (
    InstanceError,
    Measurement,
    Model,
    g3,
    integer,
    register_model,
    summarise,
    within,
)

__all__ = ["EstimatedWeights"]


class EstimatedWeights(Model):
    """Clustered Gaussian means with estimated weights (module docstring)."""

    name = "estimated_weights"
    kind = "monte_carlo"
    constants = ("M", "C", "d", "S", "u", "nu2", "d_eff", "Delta2", "b_max")
    parameters = ("spread", "rotation", "covariance")
    measures = ("bias", "variance", "tail")
    description = ("M clusters of C agents with Gaussian samples (covariance eigenvalues in "
                   "[0, nu2]), cluster means on a simplex with pairwise distances in "
                   "[Delta, b_max], weights from S-sample estimates of the biases thresholded "
                   "at u; measured by Monte Carlo")

    def derived(self, c: Mapping[str, float]) -> dict[str, float]:
        return {"N": float(integer(c, "M") * integer(c, "C")), "D_star": 1.0}

    def default(self, c: Mapping[str, float]) -> dict[str, np.ndarray]:
        d = integer(c, "d")
        return {"spread": np.array([1.0]), "rotation": np.eye(d),
                "covariance": np.full(d, float(c["nu2"]))}

    def family(self, c: Mapping[str, float], inst: Mapping[str, np.ndarray]) -> GaussianMeans:
        """The instance's clusters."""
        M, d = integer(c, "M"), integer(c, "d")
        t = float(np.asarray(inst["spread"]).ravel()[0])
        corners = np.zeros((M, d))
        corners[np.arange(M), np.arange(M)] = np.sqrt(float(c["Delta2"]) / 2.0) * t
        Q = np.asarray(inst["rotation"], dtype=np.float64)
        return GaussianMeans(mus=corners @ Q.T, C=integer(c, "C"),
                             Sigma=np.asarray(inst["covariance"], dtype=np.float64))

    def admissible(self, c: Mapping[str, float], inst: Mapping[str, np.ndarray], *,
                   seed: int = 0) -> None:
        M, d = integer(c, "M", 2), integer(c, "d")
        integer(c, "C")
        integer(c, "S")
        if M > d:
            raise InstanceError(f"M={M} clusters need d >= M for the simplex of means, got "
                                f"d={d}")
        if float(c["d_eff"]) < d:
            raise InstanceError(f"d_eff={c['d_eff']:g} < d={d}: the covariance's trace is "
                                "bounded by nu2 d only")
        shapes = {"spread": (1,), "rotation": (d, d), "covariance": (d,)}
        for k, shape in shapes.items():
            if np.shape(inst[k]) != shape:
                raise InstanceError(f"{k} has shape {np.shape(inst[k])}, expected {shape}")
        Q = np.asarray(inst["rotation"], dtype=np.float64)
        err = float(np.abs(Q.T @ Q - np.eye(d)).max())
        if err > 1e-10:
            raise InstanceError(f"rotation is not orthogonal (|Q^T Q - I| = {err:.3g})")
        for i, v in enumerate(np.asarray(inst["covariance"], dtype=np.float64)):
            within(f"covariance[{i}]", v, 0.0, c["nu2"],
                   "the covariance's eigenvalues must lie in [0, nu2]")
        dist = float(np.asarray(inst["spread"]).ravel()[0]) * np.sqrt(float(c["Delta2"]))
        within("cluster distance", dist, np.sqrt(float(c["Delta2"])), c["b_max"],
               "clusters are at least Delta apart and b_ij <= b_max")

    def describe(self, c: Mapping[str, float], inst: Mapping[str, np.ndarray]) -> str:
        t = float(np.asarray(inst["spread"]).ravel()[0])
        return (f"{integer(c, 'M')} clusters of {integer(c, 'C')} agents at distance "
                f"{g3(t * np.sqrt(float(c['Delta2'])))} (Delta = "
                f"{g3(np.sqrt(float(c['Delta2'])))}); covariance eigenvalues "
                f"{summarise(inst['covariance'])}")

    def measure(self, c: Mapping[str, float], inst: Mapping[str, np.ndarray], measure: str,
                *, seed: int = 0, replicas: int = 0, stream: int = 0) -> Measurement:
        if replicas < 2:
            raise InstanceError(f"a Monte Carlo measure needs replicas >= 2, got {replicas}")
        g = self.family(c, inst)
        rng = np.random.default_rng(np.random.SeedSequence([int(seed), 1 + int(stream)]))
        bhat2 = g.estimate_biases(integer(c, "S"), int(replicas), rng)
        u = float(c["u"])
        if measure == "tail":
            cross = g.labels[:, None] != g.labels[None, :]
            vals = (bhat2[:, cross] <= u).mean(axis=1)
        else:
            lam = g.estimated_weights(bhat2, u)
            if measure == "bias":
                vals = (lam * g.bias_matrix()[None] ** 2).sum(axis=(1, 2))
            else:
                vals = (lam**2).sum(axis=(1, 2)) / g.N
        return Measurement(float(vals.mean()), float(vals.std(ddof=1) / np.sqrt(vals.size)),
                           {"replicas": int(replicas), "stream": int(stream)})


register_model(EstimatedWeights())
