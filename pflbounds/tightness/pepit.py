"""Gradient descent on L-smooth mu-strongly convex functions: the worst case by PEPit.

The family is the whole function class; the method x_{k+1} = x_k - eta grad f(x_k), K
steps; the initial condition f(x_0) - f* <= Delta0 (``gd_pepit``) or ||x_0 - x*||^2 <= R0
(``gd_pepit_distance``); the measures f(x_K) - f* (``last``) and f at the average of
x_0..x_K weighted by (1 - eta mu)^(-k-1) (``weighted_average``). The worst case is PEPit's
semidefinite program, solved by :func:`pflbounds.audit.tightness.gd_worst_case` (Clarabel
through cvxpy) and judged by its duality gap (:data:`pflbounds.audit.tightness.MAX_GAP`):
the dual value proves that no function does worse, the primal value is attained by PEPit's
worst-case function, whose values along the iterates are the recorded instance.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict

from pflbounds.tightness.models import Measurement, Model, g3, integer, register_model, within

__all__ = ["GradientDescentPEP"]


class GradientDescentPEP(Model):
    """Gradient descent over the smooth strongly convex class, by PEPit (module docstring)."""

    kind = "sdp"
    parameters = ()
    measures = ("last", "weighted_average")

    def __init__(self, initial: str = "function_gap") -> None:
        if initial not in ("distance", "function_gap"):
            raise ValueError(f"initial {initial!r}: expected 'distance' or 'function_gap'")
        self.initial = initial
        self.init_constant = "R0" if initial == "distance" else "Delta0"
        self.name = "gd_pepit" if initial == "function_gap" else "gd_pepit_distance"
        self.constants = ("mu", "L", "eta", "K", self.init_constant)
        start = "f(x0) - f* <= Delta0" if initial == "function_gap" else "||x0 - x*||^2 <= R0"
        self.description = ("gradient descent with a constant step eta, K steps, over "
                            f"L-smooth mu-strongly convex functions with {start} (PEPit)")

    def admissible(self, c: Mapping[str, float], inst: Mapping[str, object], *,
                   seed: int = 0) -> None:
        within("mu", float(c["mu"]), 0.0, float(c["L"]), "0 < mu <= L")
        integer(c, "K")

    def describe(self, c: Mapping[str, float], inst: Mapping[str, object]) -> str:
        """PEPit's worst-case function, at the case's scale-free constants."""
        start = "||x0 - x*||^2 = R0" if self.initial == "distance" else "f(x0) - f* = Delta0"
        return (f"PEPit's worst L-smooth mu-strongly convex function, mu/L = "
                f"{g3(float(c['mu']) / float(c['L']))}, eta L = "
                f"{g3(float(c['eta']) * float(c['L']))}, {start}")

    def measure(self, c: Mapping[str, float], inst: Mapping[str, object], measure: str,
                *, seed: int = 0, replicas: int = 0, stream: int = 0) -> Measurement:
        return self.sdp(c, measure)

    def sdp(self, c: Mapping[str, float], measure: str) -> Measurement:
        """PEPit's worst case at the constants: ``value`` the primal (attained) value,
        ``detail`` the dual bound, the diagnostics and the worst function's trajectory, all
        in the case's units (times Delta0, or L R0)."""
        from pflbounds.audit.tightness import gd_worst_case

        mu, L, eta, K = float(c["mu"]), float(c["L"]), float(c["eta"]), integer(c, "K")
        wc = gd_worst_case(mu / L, eta * L, K, initial_condition=self.initial,
                           measure=measure)
        scale = float(c[self.init_constant]) * (L if self.initial == "distance" else 1.0)
        raw = asdict(wc)
        raw.pop("seconds")  # wall time: kept in the record's cost, not in its content
        detail = {"dual": wc.dual * scale, "primal": wc.primal * scale,
                  "accepted": bool(wc.accepted), "scale": scale, "pepit": raw}
        return Measurement(wc.primal * scale, 0.0, detail)


register_model(GradientDescentPEP("function_gap"))
register_model(GradientDescentPEP("distance"))
