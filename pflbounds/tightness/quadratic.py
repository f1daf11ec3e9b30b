"""SGD with a constant step on a quadratic with additive Gaussian gradient noise.

The family: f(x) = 1/2 (x - x*)^T H (x - x*) on R^d with H = Q diag(h) Q^T, h in [mu, L]^d
(mu-strongly convex, L-smooth), stochastic gradients g(x) = H (x - x*) + n with
n ~ N(0, diag(s)), s >= 0, sum_c s_c <= sigma^2 (variance bound E||g - grad f||^2 <=
sigma^2); x* = 0 without loss of generality (the dynamics are translation invariant). The
method: x_{k+1} = x_k - eta g(x_k), K steps. Two initial conditions: ``quadratic_sgd`` takes
||x_0 - x*||^2 <= R0, ``quadratic_sgd_gap`` takes f(x_0) - f* <= Delta0.

Instance parameters: ``spectrum`` h (d,), ``rotation`` Q (d, d), ``noise`` s (d,) (the noise
covariance's diagonal in the standard basis), ``x0``: the initial error x_0 - x* (d,) for
``quadratic_sgd``; for ``quadratic_sgd_gap`` a vector u with x_0 - x* = H^{-1/2} u, so that
f(x_0) - f* = ||u||^2 / 2.

Measures (exact, through :func:`pflbounds.exact.propagate`): ``last`` E[f(x_K) - f*] and
``distance`` E||x_K - x*||^2.

Exact worst case. In the eigenbasis of H the coordinates evolve independently,
e_c <- (1 - eta h_c) e_c - eta n~_c, so with q_c = (1 - eta h_c)^2 and G(q, K) = sum_{t<K} q^t

    E[f(x_K) - f*] = 1/2 sum_c h_c q_c^K e_c(0)^2 + 1/2 sum_c h_c eta^2 s~_c G(q_c, K),

s~ = diag(Q^T diag(s) Q). Over the sets (x_0 on a sphere, s on a simplex, Q free or a signed
permutation) the weights e_c(0)^2 and s~_c range over whole simplices: the value is linear in
them, so the worst case puts the whole initial error on one eigen-direction and the whole
noise on one (the same or another), and the worst case over spectra reduces to 1-D
maximisations over [lo, hi] of the bias term B(h) = 1/2 h (1 - eta h)^{2K} R0 (gap:
(1 - eta h)^{2K} Delta0), of the noise term N(h) = 1/2 h eta^2 sigma^2 G((1 - eta h)^2, K),
or of their sum, one per placement of the two on the spectrum's slots (free or pinned values).
Each maximisation: a 4097-point geometric grid over [lo, hi] refined by Brent's method
between the grid neighbours of the best point. With the measure ``distance`` the terms are
q^K R0 (gap: 2 Delta0 q^K / h) and eta^2 sigma^2 G(q, K).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

import numpy as np
from scipy.optimize import minimize_scalar

from pflbounds.exact.linear_gaussian import geometric_sum
from pflbounds.exact.propagator import LinearDraws, propagate
from pflbounds.exact.propagator_metrics import QuadraticMetrics
from pflbounds.tightness.models import (
    InstanceError,
    Measurement,
    Model,
    NotDecoupled,
    Worst,
    g3,
    integer,
    placed,
    register_model,
    summarise,
    within,
)
from pflbounds.tightness.spaces import Box, Resolved, Simplex, Sphere

__all__ = ["QuadraticSGD", "maximise_1d"]

GRID = 4097


def maximise_1d(phi: Callable[[np.ndarray], np.ndarray], lo: float,
                hi: float) -> tuple[float, float]:
    """max of phi over [lo, hi] and its argument: a geometric grid of :data:`GRID` points
    (linear when lo = 0), then Brent's method between the neighbours of the best one."""
    if hi <= lo:
        return float(phi(np.array([lo]))[0]), float(lo)
    grid = np.geomspace(lo, hi, GRID) if lo > 0 else np.linspace(lo, hi, GRID)
    grid[0], grid[-1] = lo, hi
    vals = phi(grid)
    i = int(np.argmax(vals))
    best, arg = float(vals[i]), float(grid[i])
    a, b = grid[max(i - 1, 0)], grid[min(i + 1, GRID - 1)]
    res = minimize_scalar(lambda h: -float(phi(np.array([h]))[0]), bounds=(a, b),
                          method="bounded", options={"xatol": 1e-14 * max(abs(b), 1e-300)})
    if res.success and -res.fun > best:
        best, arg = float(-res.fun), float(res.x)
    return best, arg


class QuadraticSGD(Model):
    """SGD on the quadratic family (module docstring)."""

    kind = "exact"
    parameters = ("spectrum", "rotation", "noise", "x0")
    measures = ("last", "distance")

    def __init__(self, initial: str = "distance") -> None:
        if initial not in ("distance", "function_gap"):
            raise ValueError(f"initial {initial!r}: expected 'distance' or 'function_gap'")
        self.initial = initial
        self.init_constant = "R0" if initial == "distance" else "Delta0"
        self.name = "quadratic_sgd" if initial == "distance" else "quadratic_sgd_gap"
        self.constants = ("mu", "L", "eta", "K", "sigma2", "d", self.init_constant)
        start = "||x0 - x*||^2 <= R0" if initial == "distance" else "f(x0) - f* <= Delta0"
        self.description = (
            "SGD with a constant step eta, K steps, on f(x) = 1/2 (x - x*)^T H (x - x*), "
            "H = Q diag(h) Q^T with h in [mu, L]^d, gradient noise N(0, diag(s)) with "
            f"sum(s) <= sigma2, {start}")

    def _radius(self, c: Mapping[str, float]) -> float:
        v = float(c[self.init_constant])
        return float(np.sqrt(v if self.initial == "distance" else 2.0 * v))

    def default(self, c: Mapping[str, float]) -> dict[str, np.ndarray]:
        d = integer(c, "d")
        h = np.geomspace(c["mu"], c["L"], d)
        h[0], h[-1] = c["mu"], c["L"]
        return {"spectrum": h, "rotation": np.eye(d),
                "noise": np.full(d, float(c["sigma2"]) / d),
                "x0": np.full(d, self._radius(c) / np.sqrt(d))}

    def admissible(self, c: Mapping[str, float], inst: Mapping[str, np.ndarray], *,
                   seed: int = 0) -> None:
        d = integer(c, "d")
        integer(c, "K")
        h, Q, s, x0 = (np.asarray(inst[k], dtype=np.float64) for k in self.parameters)
        shapes = {"spectrum": (d,), "rotation": (d, d), "noise": (d,), "x0": (d,)}
        for k, shape in shapes.items():
            if np.shape(inst[k]) != shape:
                raise InstanceError(f"{k} has shape {np.shape(inst[k])}, expected {shape} "
                                    f"(d = {d})")
        for i, v in enumerate(h):
            within(f"spectrum[{i}]", v, c["mu"], c["L"],
                   "the Hessian's eigenvalues must lie in [mu, L]")
        err = float(np.abs(Q.T @ Q - np.eye(d)).max())
        if err > 1e-10:
            raise InstanceError(f"rotation is not orthogonal (|Q^T Q - I| = {err:.3g})")
        if np.any(s < 0):
            raise InstanceError(f"noise has a negative variance {s.min():.6g}")
        within("sum(noise)", float(s.sum()), 0.0, c["sigma2"],
               "the noise variance E||g - grad f||^2 must be <= sigma2")
        r2 = float(x0 @ x0)
        if self.initial == "distance":
            within("||x0 - x*||^2", r2, 0.0, c["R0"], "the initial distance must be <= R0")
        else:
            within("f(x0) - f*", r2 / 2, 0.0, c["Delta0"],
                   "the initial gap must be <= Delta0")

    def measure(self, c: Mapping[str, float], inst: Mapping[str, np.ndarray], measure: str,
                *, seed: int = 0, replicas: int = 0, stream: int = 0) -> Measurement:
        h = np.asarray(inst["spectrum"], dtype=np.float64)
        Q = np.asarray(inst["rotation"], dtype=np.float64)
        s = np.asarray(inst["noise"], dtype=np.float64)
        u = np.asarray(inst["x0"], dtype=np.float64)
        d, K, eta = h.size, integer(c, "K"), float(c["eta"])
        H = (Q * h) @ Q.T
        H = 0.5 * (H + H.T)
        r0 = u if self.initial == "distance" else (Q / np.sqrt(h)) @ (Q.T @ u)
        draws = LinearDraws(p=[1.0], A=(np.eye(d) - eta * H)[None],
                            Sigma=(eta**2 * self.noise_factor(c) * np.diag(s))[None],
                            check=False)
        Qm = H if measure == "last" else 2.0 * np.eye(d)
        prop = propagate(draws, r0, [K], QuadraticMetrics(Q=Qm[None, None]))
        return Measurement(float(prop.metrics[-1, 0]))

    def noise_factor(self, c: Mapping[str, float]) -> float:
        """The factor on the noise covariance the method sees (1: one agent; a family whose
        agents average N independent gradients sees 1/N)."""
        return 1.0

    def describe(self, c: Mapping[str, float], inst: Mapping[str, np.ndarray]) -> str:
        """Eigenvalues, and where the initial error and the noise sit in the eigenbasis."""
        h = np.asarray(inst["spectrum"], dtype=np.float64)
        Q = np.asarray(inst["rotation"], dtype=np.float64)
        e0 = (Q.T @ np.asarray(inst["x0"], dtype=np.float64)) ** 2
        s = np.einsum("ij,i,ij->j", Q, np.asarray(inst["noise"], dtype=np.float64), Q)
        return (f"eigenvalues {summarise(h)}; {placed('initial error', e0, h)}, "
                f"{placed('noise', s, h)}; eta h in [{g3(c['eta'] * h.min())}, "
                f"{g3(c['eta'] * h.max())}]")

    # ------------------------------------------------------------------ exact worst case
    def _terms(self, c: Mapping[str, float], measure: str, radius2: float,
               total: float) -> tuple[Callable, Callable]:
        eta, K = float(c["eta"]), integer(c, "K")

        def q(h: np.ndarray) -> np.ndarray:
            return (1.0 - eta * h) ** 2

        if measure == "last":
            if self.initial == "distance":
                def bias(h):
                    return 0.5 * h * q(h) ** K * radius2
            else:
                def bias(h):
                    return q(h) ** K * radius2 / 2

            def noise(h):
                return 0.5 * h * eta**2 * total * geometric_sum(q(h), K)
        else:
            if self.initial == "distance":
                def bias(h):
                    return q(h) ** K * radius2
            else:
                def bias(h):
                    return q(h) ** K * radius2 / h

            def noise(h):
                return eta**2 * total * geometric_sum(q(h), K)
        return bias, noise

    def decoupled(self, c: Mapping[str, float], sets: Mapping[str, Resolved],
                  pinned: Mapping[str, np.ndarray], measure: str) -> Worst:
        d = integer(c, "d")
        x0_set, noise_set = sets.get("x0"), sets.get("noise")
        if not (x0_set and isinstance(x0_set.space, Sphere) and len(x0_set.shape) == 1):
            raise NotDecoupled("the exact worst case needs x0 searched over a sphere")
        if not (noise_set and isinstance(noise_set.space, Simplex)
                and len(noise_set.shape) == 1):
            raise NotDecoupled("the exact worst case needs the noise searched over a simplex")
        if "rotation" in sets:
            Q = np.eye(d)
        else:
            Q = np.asarray(pinned["rotation"], dtype=np.float64)
            if not np.allclose(np.abs(Q), np.round(np.abs(Q)), rtol=0, atol=1e-12):
                raise NotDecoupled("a pinned rotation other than a signed permutation mixes "
                                   "the noise variances: the worst case does not decouple")
        radius = x0_set.params["radius"]
        total = noise_set.params["total"]
        bias, noise = self._terms(c, measure, radius**2, total * self.noise_factor(c))
        slots = self._slots(d, sets, pinned)
        best = _place(slots, bias, noise)
        value, (i, hi_), (j, hj_), spectrum_vals, how = best
        inst = {"spectrum": spectrum_vals, "rotation": Q,
                "x0": radius * Q[:, i], "noise": total * Q[:, j] ** 2}
        detail = {"placement": how, "bias_slot": i, "noise_slot": j,
                  "bias_eigenvalue": hi_, "noise_eigenvalue": hj_, "grid": GRID}
        return Worst(value, inst, "decoupled by eigen-direction: 1-D maximisations over the "
                     "spectrum's set (geometric grid, then Brent)", detail)

    def _slots(self, d: int, sets: Mapping[str, Resolved],
               pinned: Mapping[str, np.ndarray]) -> list[tuple[str, float, float]]:
        """Per eigen-direction: ("pinned", value, value) or ("free", lo, hi)."""
        if "spectrum" not in sets:
            h = np.asarray(pinned["spectrum"], dtype=np.float64)
            return [("pinned", float(v), float(v)) for v in h]
        r = sets["spectrum"]
        if not isinstance(r.space, Box):
            raise NotDecoupled("the exact worst case needs the spectrum in a box")
        lo, hi = r.params["lo"], r.params["hi"]
        out = [("free", lo, hi)] * d
        if r.space.attain:
            out[0] = ("pinned", lo, lo)
            if d > 1:
                out[-1] = ("pinned", hi, hi)
        return out


def _place(slots: list[tuple[str, float, float]], bias: Callable,
           noise: Callable) -> tuple[float, tuple[int, float], tuple[int, float],
                                     np.ndarray, str]:
    """The best placement of the initial error and of the noise on the slots (module
    docstring): value, (bias slot, its eigenvalue), (noise slot, its eigenvalue), the
    spectrum, and a description."""
    free = [k for k, s in enumerate(slots) if s[0] == "free"]
    pins = [k for k, s in enumerate(slots) if s[0] == "pinned"]
    cands: list[tuple[float, dict[int, float], int, int, str]] = []
    if free:
        lo, hi = slots[free[0]][1], slots[free[0]][2]
        mb, hb = maximise_1d(bias, lo, hi)
        mn, hn = maximise_1d(noise, lo, hi)
        ms, hs = maximise_1d(lambda h: bias(h) + noise(h), lo, hi)
        cands.append((ms, {free[0]: hs}, free[0], free[0], "one free direction"))
        if len(free) > 1:
            cands.append((mb + mn, {free[0]: hb, free[1]: hn}, free[0], free[1],
                          "two free directions"))
        for p in pins:
            v = np.array([slots[p][1]])
            cands.append((mb + float(noise(v)[0]), {free[0]: hb}, free[0], p,
                          "initial error on a free direction, noise on a pinned one"))
            cands.append((float(bias(v)[0]) + mn, {free[0]: hn}, p, free[0],
                          "initial error on a pinned direction, noise on a free one"))
    for p in pins:
        for p2 in pins:
            vb, vn = np.array([slots[p][1]]), np.array([slots[p2][1]])
            cands.append((float(bias(vb)[0] + noise(vn)[0]), {}, p, p2, "pinned directions"))
    value, chosen, i, j, how = max(cands, key=lambda t: t[0])
    spec = np.array([s[1] for s in slots], dtype=np.float64)  # unused free slots: lo
    for k, v in chosen.items():
        spec[k] = v
    return value, (i, float(spec[i])), (j, float(spec[j])), spec, how


class QuadraticSteps(QuadraticSGD):
    """The same family under f(x_0) - f* <= Delta0, measured in steps: the first k <= K
    with E[f(x_k) - f*] <= eps (``steps``), the cost a sufficient count (a complexity
    result) claims to cover. K is the horizon searched; an instance still above eps at K
    is reported as K + 1 steps (``detail.reached`` false). In H's eigenbasis E[f(x_k) - f*]
    = 1/2 sum_c h_c (q_c^k e_c(0)^2 + eta^2 s~_c G(q_c, k)) (module docstring), evaluated
    for every k at once."""

    measures = ("steps",)

    def __init__(self) -> None:
        super().__init__("function_gap")
        self.name = "quadratic_sgd_steps"
        self.constants = (*self.constants, "eps")
        self.description = self.description + "; measured: steps to E[f(x_k) - f*] <= eps"

    def curve(self, c: Mapping[str, float], inst: Mapping[str, np.ndarray]) -> np.ndarray:
        """E[f(x_k) - f*] for k = 0..K."""
        h = np.asarray(inst["spectrum"], dtype=np.float64)
        Q = np.asarray(inst["rotation"], dtype=np.float64)
        u = Q.T @ np.asarray(inst["x0"], dtype=np.float64)
        e2 = u**2 / h  # x_0 - x* = Q diag(h)^(-1/2) Q^T u
        s = np.einsum("ij,i,ij->j", Q, np.asarray(inst["noise"], dtype=np.float64), Q)
        eta, K = float(c["eta"]), integer(c, "K")
        q = (1.0 - eta * h) ** 2
        k = np.arange(K + 1)[:, None]
        qk = q[None, :] ** k
        with np.errstate(divide="ignore", invalid="ignore"):
            G = np.where(q[None, :] == 1.0, k * 1.0, (1.0 - qk) / (1.0 - q[None, :]))
        noise = eta**2 * self.noise_factor(c) * s
        return 0.5 * (h[None, :] * (qk * e2[None, :] + noise[None, :] * G)).sum(axis=1)

    def measure(self, c: Mapping[str, float], inst: Mapping[str, np.ndarray], measure: str,
                *, seed: int = 0, replicas: int = 0, stream: int = 0) -> Measurement:
        v = self.curve(c, inst)
        below = np.flatnonzero(v <= float(c["eps"]))
        reached = bool(below.size)
        steps = int(below[0]) if reached else integer(c, "K") + 1
        return Measurement(float(steps), 0.0, {"reached": reached,
                                               "value_at_steps": float(v[min(steps,
                                                                             v.size - 1)])})

    def decoupled(self, c: Mapping[str, float], sets: Mapping[str, Resolved],
                  pinned: Mapping[str, np.ndarray], measure: str) -> Worst:
        raise NotDecoupled("a count of steps does not decouple by eigen-direction: search it")


class _Averaged:
    """N agents with the same quadratic, started together, each step averaging their N
    independent stochastic gradients (All-for-all with Lambda = 11^T/N on identical agents,
    minibatch SGD): the iterates stay equal and follow SGD whose noise covariance is
    divided by N. Each agent's noise variance is at most sigma2; the measure is any agent's
    (the average's) excess."""

    def noise_factor(self, c: Mapping[str, float]) -> float:
        return 1.0 / integer(c, "N")

    def admissible(self, c: Mapping[str, float], inst: Mapping[str, np.ndarray], *,
                   seed: int = 0) -> None:
        integer(c, "N")
        super().admissible(c, inst, seed=seed)  # type: ignore[misc]


class AveragedAgents(_Averaged, QuadraticSGD):
    """``identical_agents_gap``: :class:`QuadraticSGD` under f(x_0) - f* <= Delta0 for N
    identical agents that average their gradients (:class:`_Averaged`)."""

    def __init__(self) -> None:
        super().__init__("function_gap")
        self.name = "identical_agents_gap"
        self.constants = (*self.constants, "N")
        self.description = ("N identical agents averaging their gradients (noise variance "
                            "<= sigma2 each): " + self.description)


class AveragedAgentsSteps(_Averaged, QuadraticSteps):
    """``identical_agents_steps``: :class:`QuadraticSteps` for N identical agents that
    average their gradients."""

    def __init__(self) -> None:
        super().__init__()
        self.name = "identical_agents_steps"
        self.constants = (*self.constants, "N")
        self.description = ("N identical agents averaging their gradients (noise variance "
                            "<= sigma2 each): " + self.description)


register_model(QuadraticSGD("distance"))
register_model(QuadraticSGD("function_gap"))
register_model(QuadraticSteps())
register_model(AveragedAgents())
register_model(AveragedAgentsSteps())
