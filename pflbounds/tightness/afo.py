"""All-for-one (weighted gradient averaging) of two agents on quadratics with a shared Hessian.

The family (the quadratic family Q of :mod:`pflbounds.problems.quadratic`, two agents):
f_j(x) = 1/2 (x - m_j)^T H (x - m_j), j = 0, 1, with H = diag(h), h in [mu, L]^d (a shared
Hessian is what a uniform gradient gap needs: ||grad f_0(x) - grad f_1(x)|| = ||H (m_0 -
m_1)|| for every x, so it is bounded by b exactly when this vector has norm <= b; the
eigenbasis is taken as the standard one without loss of generality), stochastic gradients
g_j(x) = grad f_j(x) + n_j with n_j ~ N(0, diag(s_j)), sum_c s_jc <= sigma^2. The method:
agent 0 runs x <- x - eta ((1 - lam) g_0(x) + lam g_1(x)) for K steps from x_0 with
f_0(x_0) - f_0^* <= Delta0 (the weights lambda_00 = 1 - lam, lambda_01 = lam).

Instance parameters: ``spectrum`` h (d,), ``noise`` s (2, d) (one row per agent), ``gap``
the vector H (m_1 - m_0) (d,) of norm <= b (m_0 = 0), ``x0`` a vector u with x_0 - m_0 =
H^{-1/2} u, so that f_0(x_0) - f_0^* = ||u||^2 / 2.

Measure (exact): ``last`` E[f_0(x_0^K) - f_0^*], by
:func:`pflbounds.exact.linear_gaussian.afo_expected_excess` (closed form per coordinate).
Constants it derives for a bound: the bias sum B = sum_j lambda_0j b_0j^2 = lam b^2 and the
weight norm V = sum_j lambda_0j^2 = (1 - lam)^2 + lam^2.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from pflbounds.exact.linear_gaussian import afo_expected_excess
from pflbounds.problems.quadratic import QuadraticFamily
from pflbounds.tightness.models import (
    InstanceError,
    Measurement,
    Model,
    integer,
    placed,
    register_model,
    summarise,
    within,
)

__all__ = ["TwoAgentAFO"]


class TwoAgentAFO(Model):
    """All-for-one of two agents on quadratics (module docstring)."""

    name = "afo_two_agents"
    kind = "exact"
    constants = ("mu", "L", "eta", "K", "sigma2", "d", "Delta0", "b", "lam")
    parameters = ("spectrum", "noise", "gap", "x0")
    measures = ("last",)
    description = ("All-for-one of two agents, K steps of x <- x - eta ((1 - lam) g_0 + "
                   "lam g_1) on quadratics with a shared Hessian (spectrum in [mu, L]), "
                   "gradient gap ||H (m_1 - m_0)|| <= b, noise variance <= sigma2 per agent, "
                   "f_0(x0) - f_0^* <= Delta0; measured: E[f_0(x^K) - f_0^*]")

    def derived(self, c: Mapping[str, float]) -> dict[str, float]:
        lam = float(c["lam"])
        return {"B": lam * float(c["b"]) ** 2, "V": (1.0 - lam) ** 2 + lam**2}

    def default(self, c: Mapping[str, float]) -> dict[str, np.ndarray]:
        d = integer(c, "d")
        h = np.geomspace(c["mu"], c["L"], d)
        h[0], h[-1] = c["mu"], c["L"]
        even = np.full(d, 1.0 / np.sqrt(d))
        return {"spectrum": h, "noise": np.full((2, d), float(c["sigma2"]) / d),
                "gap": float(c["b"]) * even, "x0": np.sqrt(2.0 * float(c["Delta0"])) * even}

    def admissible(self, c: Mapping[str, float], inst: Mapping[str, np.ndarray], *,
                   seed: int = 0) -> None:
        d = integer(c, "d")
        integer(c, "K")
        within("lam", float(c["lam"]), 0.0, 1.0, "the weights must be a probability vector")
        shapes = {"spectrum": (d,), "noise": (2, d), "gap": (d,), "x0": (d,)}
        for k, shape in shapes.items():
            if np.shape(inst[k]) != shape:
                raise InstanceError(f"{k} has shape {np.shape(inst[k])}, expected {shape} "
                                    f"(d = {d})")
        h = np.asarray(inst["spectrum"], dtype=np.float64)
        for i, v in enumerate(h):
            within(f"spectrum[{i}]", v, c["mu"], c["L"],
                   "the Hessian's eigenvalues must lie in [mu, L]")
        s = np.asarray(inst["noise"], dtype=np.float64)
        if np.any(s < 0):
            raise InstanceError(f"noise has a negative variance {s.min():.6g}")
        for j in range(2):
            within(f"sum(noise[{j}])", float(s[j].sum()), 0.0, c["sigma2"],
                   "each agent's noise variance must be <= sigma2")
        v = np.asarray(inst["gap"], dtype=np.float64)
        within("||H (m_1 - m_0)||", float(np.sqrt(v @ v)), 0.0, c["b"],
               "the gradient gap b_01 bounds ||grad f_0 - grad f_1||")
        u = np.asarray(inst["x0"], dtype=np.float64)
        within("f_0(x0) - f_0^*", float(u @ u) / 2, 0.0, c["Delta0"],
               "the initial gap must be <= Delta0")

    def describe(self, c: Mapping[str, float], inst: Mapping[str, np.ndarray]) -> str:
        """Eigenvalues, where the initial error, each agent's noise and the gap sit, and
        the size of the gap against b."""
        h = np.asarray(inst["spectrum"], dtype=np.float64)
        s = np.asarray(inst["noise"], dtype=np.float64)
        v = np.asarray(inst["gap"], dtype=np.float64)
        b = float(c["b"])
        size = float(np.sqrt(v @ v))
        gap = placed("gradient gap", v**2, h) + (f" at {100 * size / b:.0f}% of b" if b > 0
                                                  else "")
        return (f"eigenvalues {summarise(h)}; "
                f"{placed('initial error', np.asarray(inst['x0']) ** 2, h)}; "
                f"agent 0 {placed('noise', s[0], h)}, agent 1 {placed('noise', s[1], h)}; "
                f"{gap}")

    def family(self, inst: Mapping[str, np.ndarray]) -> tuple[QuadraticFamily, np.ndarray]:
        """The quadratic family of the instance and the initial point x_0."""
        h = np.asarray(inst["spectrum"], dtype=np.float64)
        m = np.stack([np.zeros_like(h), np.asarray(inst["gap"], dtype=np.float64) / h])
        x0 = np.asarray(inst["x0"], dtype=np.float64) / np.sqrt(h)
        return QuadraticFamily(h=h, m=m, s=np.asarray(inst["noise"], dtype=np.float64)), x0

    def measure(self, c: Mapping[str, float], inst: Mapping[str, np.ndarray], measure: str,
                *, seed: int = 0, replicas: int = 0, stream: int = 0) -> Measurement:
        P, x0 = self.family(inst)
        lam = float(c["lam"])
        Lam = np.array([[1.0 - lam, lam], [lam, 1.0 - lam]])
        out = afo_expected_excess(P, Lam, float(c["eta"]), x0, [integer(c, "K")])
        return Measurement(float(out[-1, 0]))


register_model(TwoAgentAFO())
