"""SGD on l2-regularised logistic regression: an instance generator for the randomised search.

The family: f(x) = (1/n) sum_s log(1 + exp(-y_s z_s^T x)) + (mu/2) ||x||^2 on R^d
(:class:`pflbounds.problems.logistic.LogisticFamily`, one agent), whose certified constants
are mu (the regulariser), L_cert = lambda_max(Z^T Z)/(4n) + mu and sigma2_cert =
(1/n) sum_s ||z_s||^2 (a bound on the one-sample gradient noise). The method: SGD with one
sample per step, x_{k+1} = x_k - eta g(x_k), K steps, from x_0 with ||x_0 - x*||^2 <= R0.

The generator, from the case's seed and the instance parameters: standard normal draws G
(n, d) and uniform draws U (n,) from the seed sequence (seed, 0); features Z = c G
diag(``scales``), labels y_s = +1 when U_s < sigmoid(z_s^T ``teacher``) (computed before the
factor c), else -1; the factor c <= 1 is the largest that keeps L_cert <= L and sigma2_cert <=
sigma2. ``x0`` is the initial error x_0 - x* (the reference optimum: damped Newton to a
gradient norm of 1e-12).

Measure (Monte Carlo): ``last`` E[f(x_K) - f*], the mean over ``replicas`` independent runs
drawn from the seed sequence (seed, 1 + stream), with its standard error.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
from scipy.special import expit

from pflbounds.algorithms.collaborative import run_local_sgd
from pflbounds.problems.logistic import LogisticFamily
from pflbounds.tightness.models import (
    InstanceError,
    Measurement,
    Model,
    integer,
    register_model,
    within,
)

__all__ = ["LogisticSGD"]


class LogisticSGD(Model):
    """SGD on a generated logistic regression (module docstring)."""

    name = "logistic_sgd"
    kind = "monte_carlo"
    constants = ("mu", "L", "sigma2", "eta", "K", "d", "n", "R0")
    parameters = ("scales", "teacher", "x0")
    measures = ("last",)
    description = ("SGD with one sample per step on a generated l2-regularised logistic "
                   "regression (mu = the regulariser, certified L and sigma2 at most the "
                   "case's), ||x0 - x*||^2 <= R0; measured: E[f(x^K) - f*] by Monte Carlo")

    def default(self, c: Mapping[str, float]) -> dict[str, np.ndarray]:
        d = integer(c, "d")
        return {"scales": np.ones(d), "teacher": np.zeros(d),
                "x0": np.full(d, np.sqrt(float(c["R0"]) / d))}

    def family(self, c: Mapping[str, float], inst: Mapping[str, np.ndarray],
               seed: int) -> LogisticFamily:
        """The generated instance (module docstring)."""
        d, n = integer(c, "d"), integer(c, "n")
        mu, L, sigma2 = float(c["mu"]), float(c["L"]), float(c["sigma2"])
        rng = np.random.default_rng(np.random.SeedSequence([int(seed), 0]))
        G = rng.standard_normal((n, d))
        U = rng.random(n)
        Z = G * np.asarray(inst["scales"], dtype=np.float64)
        y = np.where(U < expit(Z @ np.asarray(inst["teacher"], dtype=np.float64)), 1.0, -1.0)
        lam_max = float(np.linalg.eigvalsh(Z.T @ Z / (4.0 * n))[-1])
        second = float(np.einsum("sd,sd->s", Z, Z).mean())
        factor = 1.0
        if lam_max > 0:
            factor = min(factor, np.sqrt(max(L - mu, 0.0) / lam_max))
        if second > 0:
            factor = min(factor, np.sqrt(sigma2 / second))
        return LogisticFamily(Z=(factor * Z)[None], y=y[None], reg=mu)

    def admissible(self, c: Mapping[str, float], inst: Mapping[str, np.ndarray], *,
                   seed: int = 0) -> None:
        d = integer(c, "d")
        integer(c, "n")
        integer(c, "K")
        for k in self.parameters:
            if np.shape(inst[k]) != (d,):
                raise InstanceError(f"{k} has shape {np.shape(inst[k])}, expected ({d},)")
        if np.any(np.asarray(inst["scales"]) < 0):
            raise InstanceError("scales must be >= 0")
        P = self.family(c, inst, seed)
        within("L_cert", P.L, 0.0, c["L"], "the certified smoothness must be <= L")
        within("sigma2_cert", P.sigma2, 0.0, c["sigma2"],
               "the certified noise bound must be <= sigma2")
        r = np.asarray(inst["x0"], dtype=np.float64)
        within("||x0 - x*||^2", float(r @ r), 0.0, c["R0"], "the initial distance must be <= R0")

    def measure(self, c: Mapping[str, float], inst: Mapping[str, np.ndarray], measure: str,
                *, seed: int = 0, replicas: int = 0, stream: int = 0) -> Measurement:
        if replicas < 2:
            raise InstanceError(f"a Monte Carlo measure needs replicas >= 2, got {replicas}")
        P = self.family(c, inst, seed)
        ref = P.reference
        x0 = ref.x_star[0] + np.asarray(inst["x0"], dtype=np.float64)
        rng = np.random.default_rng(np.random.SeedSequence([int(seed), 1 + int(stream)]))
        K = integer(c, "K")
        tr = run_local_sgd(P, float(c["eta"]), K, x0, int(replicas), rng, record=[K])
        vals = tr.excess[:, -1, 0]
        return Measurement(float(vals.mean()), float(vals.std(ddof=1) / np.sqrt(vals.size)),
                           {"replicas": int(replicas), "stream": int(stream),
                            "reference_gradient_norm": float(ref.accuracy),
                            "L_cert": float(P.L), "sigma2_cert": float(P.sigma2)})


register_model(LogisticSGD())
