"""hanzely2023's instance families for the worst-case search (:mod:`pflbounds.tightness`):
the generators of its checks as models, searched over their parameters.

Each model builds the checks' random least-squares objective (:func:`checks.common.instance`:
M clients with spectra in [mu', L'], client optima spread * N(0, I), component noise) from
its constants, derives the constants the bound reads from that instance (its certified mu,
L^w, L^beta, zeta_*^2, the initial distances or gaps, and the constants a run visits) and
measures the method exactly (the propagator, or a deterministic run). Searching the
generator's constants (lambda, the spread, the step's fraction of its cap, the instance seed)
is the seeded random search of the issue's "elsewhere": a worse instance may exist outside
the generator. Every instance is admissible by construction (its constants are computed from
it); ``admissible`` checks the generator's own inputs.

* :data:`LSGD_MX2`, :data:`LSGD_MT2` (``lsgd``): LSGD-PFL with additive Gaussian noise of
  variance sigma^2 per client, the step ``eta_frac`` times Theorem 5's corrected cap; measured:
  E[F(w_bar^K, beta_bar^K)] - F^* of the weighted average, exactly (the P4 measure).
* :data:`THEOREM3_RUNS`, :data:`THEOREM4_RUNS`: LSGD-PFL with exact gradients and the literal
  beta-step on MX2 (the P11 runs), with the constants of Assumptions 4-7 computed on the
  trajectory; measured: Theorem 3's averaged stationarity measure at K, Theorem 4's gap at K.
* :data:`LEMMA5_STATES`, :data:`LEMMA5_STATES_MT2` (measures ``21``, ``22``): one state
  (local copies w_m spread around their mean, beta_m around beta^*) at a searched scale;
  measured: the left sides of Lemma 5's (21) and (22) (the P_lemma5 measure), with the
  state's F - F^* and V_k derived.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import Any

import numpy as np

from pflbounds.papers.hanzely2023.checks.common import instance
from pflbounds.problems.pfl_objectives import PFLObjective
from pflbounds.tightness.models import InstanceError, Measurement, Model, g3, integer, within

__all__ = ["LEMMA5_STATES", "LEMMA5_STATES_MT2", "LSGD_MT2", "LSGD_MX2", "THEOREM3_RUNS",
           "THEOREM4_RUNS"]


def _point(objective: str, c: Mapping[str, float]) -> dict[str, Any]:
    """The checks' grid point of the constants (the instance seed floored to an integer)."""
    p: dict[str, Any] = {"objective": objective, "instance": int(np.floor(c["instance"]))}
    for k in ("lam", "Lam", "spread", "noise", "mup", "Lp"):
        if k in c:
            p[k] = float(c[k])
    for k in ("M", "d", "n"):
        if k in c:
            p[k] = int(round(float(c[k])))
    return p


@lru_cache(maxsize=64)
def _objective(objective: str, key: tuple[tuple[str, float], ...]) -> PFLObjective:
    return instance(_point(objective, dict(key)))


def _obj(objective: str, c: Mapping[str, float], names: tuple[str, ...]) -> PFLObjective:
    return _objective(objective, tuple((k, float(c[k])) for k in names if k in c))


def _words(objective: str, c: Mapping[str, float], names: tuple[str, ...]) -> str:
    seeds = ("instance", "state")  # floored where they are used
    return f"{objective.upper()} " + ", ".join(
        f"{k} {int(np.floor(c[k])) if k in seeds else g3(c[k])}" for k in names if k in c)


# ------------------------------------------------------------------------ LSGD-PFL (Theorem 5)
class GeneratedLSGD(Model):
    """LSGD-PFL on a generated objective (module docstring)."""

    kind = "exact"
    parameters = ()
    measures = ("weighted",)
    _GEN = ("lam", "Lam", "spread", "noise", "instance", "M", "d", "n")

    def __init__(self, objective: str) -> None:
        self.objective = objective
        self.name = f"hanzely2023_lsgd_{objective}"
        gen = ("lam", "Lam") if objective == "mt2" else ("lam",)
        self.constants = (*gen, "spread", "noise", "instance", "M", "d", "n", "tau",
                          "eta_frac", "sigma2", "K")
        self.description = (f"LSGD-PFL on the checks' generated {objective.upper()} objective "
                            "(random least-squares clients), Gaussian gradient noise sigma2, "
                            "the step eta_frac x Theorem 5's corrected cap; measured: "
                            "E[F(w_bar^K, beta_bar^K)] - F^* exactly")

    def _step(self, obj: PFLObjective, tau: int, frac: float) -> float:
        from pflbounds.papers.hanzely2023.checks.lsgd import _step

        return _step(obj, tau, "corrected") * frac

    def derived(self, c: Mapping[str, float]) -> dict[str, float]:
        obj = _obj(self.objective, c, self._GEN)
        o, k = obj.optimum, obj.constants
        tau = integer(c, "tau")
        return {"mu": k["mu"], "Lw": k["Lw"], "Lb": k["Lb"], "B": 1.0,
                "zeta2": obj.heterogeneity(), "Dw0": float(o["w"] @ o["w"]),
                "Db0": float((o["beta"] ** 2).sum()),
                "eta": self._step(obj, tau, float(c["eta_frac"]))}

    def admissible(self, c: Mapping[str, float], inst: Mapping[str, np.ndarray], *,
                   seed: int = 0) -> None:
        for k in ("tau", "K", "M", "d", "n"):
            integer(c, k)
        within("eta_frac", float(c["eta_frac"]), 0.0, 1.0,
               "the step must not exceed Theorem 5's corrected cap")
        if float(c["sigma2"]) < 0:
            raise InstanceError(f"sigma2={c['sigma2']}: expected >= 0")

    def measure(self, c: Mapping[str, float], inst: Mapping[str, np.ndarray], measure: str,
                *, seed: int = 0, replicas: int = 0, stream: int = 0) -> Measurement:
        from pflbounds.papers.hanzely2023.checks.lsgd import lsgd_exact

        obj = _obj(self.objective, c, self._GEN)
        tau, K = integer(c, "tau"), integer(c, "K")
        eta = self._step(obj, tau, float(c["eta_frac"]))
        e = lsgd_exact(obj, eta, tau, np.array([K]), float(c["sigma2"]))
        return Measurement(float(e[0, 1]))

    def describe(self, c: Mapping[str, float], inst: Mapping[str, Any]) -> str:
        return _words(self.objective, c, (*self.constants[:-1], "zeta2", "mu", "Lw", "Lb"))


LSGD_MX2 = GeneratedLSGD("mx2")
LSGD_MT2 = GeneratedLSGD("mt2")


# ------------------------------------------------------------------ Theorems 3-4 (P11 runs)
@lru_cache(maxsize=256)
def _nonconvex_run(key: tuple[tuple[str, float], ...], which: str) -> dict[str, Any]:
    from pflbounds.papers.hanzely2023.checks.nonconvex import (
        simulate_theorem3,
        simulate_theorem4,
    )

    c = dict(key)
    p = {**_point("mx2", c), "tau": int(c["tau"]), "K": int(c["K"])}
    if which == "theorem3":
        p["eta_frac"] = float(c["eta_frac"])
        ev = simulate_theorem3(p, 1, 0)
    else:
        ev = simulate_theorem4(p, 1, 0)
    obj = instance(p)
    f0 = float(obj.excess(np.zeros((1, obj.d0)), np.zeros((1, obj.M, obj.d1)))[0])
    out = {"measured": float(np.asarray(ev["mean"])[-1]), "Delta0": f0,
           "L": float(ev["L"]), "s2dif": float(ev["sigma_dif2"]), "M": float(obj.M)}
    if which == "theorem3":
        out["eta"] = float(ev["eta"])
    else:
        out.update(mu=float(ev["mu"]), beta0=float(ev["beta"]))
    return out


class GeneratedNonconvex(Model):
    """LSGD-PFL without convexity on the P11 instances (module docstring)."""

    kind = "exact"
    parameters = ()

    def __init__(self, which: str) -> None:
        self.which = which
        self.name = f"hanzely2023_{which}"
        self.measures = ("stationarity",) if which == "theorem3" else ("gap",)
        step = ("eta_frac",) if which == "theorem3" else ()
        self.constants = ("lam", "mup", "Lp", "instance", "M", "d", "tau", "K", *step)
        what = ("(1/K) sum_k ||(1/M) sum_m grad f_m||^2 with the step eta_frac x the largest "
                "of (20)" if which == "theorem3" else
                "the gap at K with Theorem 4's steps, mu the trajectory's PL constant")
        self.description = ("LSGD-PFL with exact gradients and the literal beta-step on the "
                            f"checks' generated MX2 (P11); measured: {what}; the constants of "
                            "Assumptions 4-7 computed on the trajectory")

    def _key(self, c: Mapping[str, float]) -> tuple[tuple[str, float], ...]:
        return tuple((k, float(c[k])) for k in self.constants if k in c)

    def derived(self, c: Mapping[str, float]) -> dict[str, float]:
        r = _nonconvex_run(self._key(c), self.which)
        out = {k: v for k, v in r.items() if k != "measured"}
        return {**out, "lam_dis": 1.0, "C1": 0.0, "C2": 0.0, "B": 1.0, "s1sq": 0.0,
                "s2sq": 0.0}

    def admissible(self, c: Mapping[str, float], inst: Mapping[str, np.ndarray], *,
                   seed: int = 0) -> None:
        tau, K = integer(c, "tau"), integer(c, "K")
        for k in ("M", "d"):
            integer(c, k)
        if self.which == "theorem3":
            within("eta_frac", float(c["eta_frac"]), 1e-6, 1.0,
                   "Theorem 3's step is at most the largest of (20)")
        elif K % tau:
            raise InstanceError(f"K={K} is not a multiple of tau={tau}: Theorem 4 bounds the "
                                "gap at the multiples of tau")

    def measure(self, c: Mapping[str, float], inst: Mapping[str, np.ndarray], measure: str,
                *, seed: int = 0, replicas: int = 0, stream: int = 0) -> Measurement:
        return Measurement(_nonconvex_run(self._key(c), self.which)["measured"])

    def describe(self, c: Mapping[str, float], inst: Mapping[str, Any]) -> str:
        return _words("mx2", c, (*self.constants, "s2dif", "mu"))


THEOREM3_RUNS = GeneratedNonconvex("theorem3")
THEOREM4_RUNS = GeneratedNonconvex("theorem4")


# ------------------------------------------------------------------------ Lemma 5 (states)
@lru_cache(maxsize=256)
def _lemma5_state(objective: str, key: tuple[tuple[str, float], ...]) -> dict[str, float]:
    c = dict(key)
    obj = _objective(objective, tuple((k, v) for k, v in key
                                      if k in GeneratedLSGD._GEN))
    o = obj.optimum
    rng = np.random.default_rng([2023, 55, int(np.floor(c["state"]))])
    scale, mix = float(c["scale"]), float(c["mix"])
    w = o["w"] + scale * rng.normal(size=obj.d0)
    W = w[None, None, :] + scale * mix * rng.normal(size=(1, obj.M, obj.d0))
    beta = o["beta"][None] + scale * rng.normal(size=(1, obj.M, obj.d1))
    wbar = W.mean(1)
    gw, gb = obj.client_grads(W, beta)
    k = obj.constants
    return {"21": float((gw**2).sum(-1).mean()),
            "22": float((gw.mean(1) ** 2).sum() + (gb**2).sum() / obj.M**2),
            "Fgap": float(max(obj.excess(wbar, beta)[0], 0.0)),
            "Vk": float(((W - wbar[:, None, :]) ** 2).sum(-1).mean()),
            "Lw": k["Lw"], "Lb": k["Lb"], "zeta2": obj.heterogeneity()}


class Lemma5States(Model):
    """Lemma 5's two sides at one state (module docstring)."""

    kind = "exact"
    parameters = ()
    measures = ("21", "22")

    def __init__(self, objective: str) -> None:
        self.objective = objective
        self.name = f"hanzely2023_lemma5_{objective}"
        gen = ("lam", "Lam") if objective == "mt2" else ("lam",)
        self.constants = (*gen, "spread", "noise", "instance", "M", "d", "n", "scale", "mix",
                          "state")
        self.description = ("one state of LSGD-PFL's iterates on the checks' generated "
                            f"{objective.upper()} (local copies w_m around their mean at "
                            "scale x mix, w and beta_m around the optimum at scale); measured: "
                            "the left sides of Lemma 5's (21) and (22)")

    def _key(self, c: Mapping[str, float]) -> tuple[tuple[str, float], ...]:
        return tuple((k, float(c[k])) for k in self.constants if k in c)

    def derived(self, c: Mapping[str, float]) -> dict[str, float]:
        s = _lemma5_state(self.objective, self._key(c))
        return {k: s[k] for k in ("Fgap", "Vk", "Lw", "Lb", "zeta2")}

    def admissible(self, c: Mapping[str, float], inst: Mapping[str, np.ndarray], *,
                   seed: int = 0) -> None:
        for k in ("M", "d", "n"):
            integer(c, k)
        if not float(c["scale"]) > 0 or float(c["mix"]) < 0:
            raise InstanceError("scale must be > 0 and mix >= 0")

    def measure(self, c: Mapping[str, float], inst: Mapping[str, np.ndarray], measure: str,
                *, seed: int = 0, replicas: int = 0, stream: int = 0) -> Measurement:
        return Measurement(_lemma5_state(self.objective, self._key(c))[measure])

    def describe(self, c: Mapping[str, float], inst: Mapping[str, Any]) -> str:
        return _words(self.objective, c, (*self.constants, "Fgap", "Vk"))


LEMMA5_STATES = Lemma5States("mx2")
LEMMA5_STATES_MT2 = Lemma5States("mt2")
