"""What the audits need to know about hanzely2023 (read by :mod:`pflbounds.audit` and
:mod:`pflbounds.tightness`).

``WORST_CASES``: seeded random searches over the generators of the checks (the models at the
end of this module build the checks' random least-squares objectives from lambda, the spread
of the client optima, the step's fraction of its cap and the instance seed); every instance's
constants (mu, L^w, L^beta, zeta_*^2, the initial distances, the constants a run visits) are
computed from it, so it is admissible by construction, and the method is measured exactly
(Theorem 9: by Monte Carlo); a worse instance may exist outside the generators:

* Theorem 5 (printed and corrected) on LSGD-PFL with noise (sigma^2 = 1) and heterogeneous
  clients, MX2 with tau = 5 and MT2 with tau = 2, at K = 1, 30 and 1000 (the initial term,
  the transition, the noise floor); 30 draws per K.
* Theorem 5 at mu = 0 (corrected) on the MX2 runs, the uniform average of the iterates (a
  strongly convex instance is convex: within the mu = 0 statement's hypotheses).
* Theorem 1 (explicit count) on the same runs at its explicit step, iterations to eps = 0.05
  (F(0) - F^*), tau in {1, 2}, sigma^2 in {0.1, 1}, the spread in [0.3, 2] (near 0 the
  optima, hence F(0) - F^* and eps, vanish and the count explodes); 8 draws per point.
* Theorems 3 and 4 on the P11 runs (exact gradients, the constants of Assumptions 4-7 on the
  trajectory), tau in {2, 5}, K in {10, 100, 400} (Theorem 4: 10, 100, 500).
* Lemma 5's (21) and (22) at one state of the iterates, MX2 and MT2, 200 draws of the state
  (its scale over four decades, the spread of the local copies) and of the instance.
* Theorem 9 (corrected, each count) on ASVRCD-PFL, Monte Carlo: P6's instances (n = 20) at
  any p_w in [0.05, 0.95] (rho = p_w/n), 8 draws of 16 replicas, the 3 worst measured again
  on 64 independent replicas.

``TIGHTNESS``: Theorem 5 with one client (M = 1, so zeta_* = 0), tau = 1 and no noise
(sigma = 0) is gradient descent with the constant step eta on F, a function that is L-smooth
in (w, beta) jointly (hence L^w = L^beta = L blockwise) and mu-strongly convex; its output is
the (1 - eta mu)^(-k-1)-weighted average of the iterates and its bound is (1 - eta mu)^K
Phi^0 with Phi^0 built from ||x^0 - x^*||^2. PEPit gives the exact worst case of that
average over L-smooth mu-strongly convex functions with ||x^0 - x^*||^2 <= 1, a subclass of
Theorem 5's (one client, blockwise constants equal): a bound below it would be false, and
bound/worst case says how much Theorem 5 gives away. The corrected form puts the 2 on the
whole distance; the printed form (2 ||w^0 - w^*||^2 + sum_m ||beta_m^0 - beta_m^*||^2)/eta
is compared with the whole distance on beta (the class is rotation invariant, so the worst
case is the same), where it is smallest. Steps: the largest of Theorem 5, 1/(4L), and half of
it; mu/L in {0.05, 0.2}.

``WORST_EXPECTED``: Theorem 9's O(.) counts, searched with the hidden constant 1, are
exceeded (a measured hidden constant, not an erratum). ``UNSEARCHED``: forms no model
measures. ``MUTANT_NOTES``: why the survivors no search reaches survive. ``BLIND_CHECKS``: the
checks no planted formula changes, with why.
"""

from collections.abc import Mapping
from functools import lru_cache
from typing import Any

import numpy as np

from pflbounds.audit.tightness import TightnessCase
from pflbounds.papers.hanzely2023.experiments.section5 import FIGURE1, FIGURE2
from pflbounds.papers.hanzely2023.theory.asvrcd import LEMMA16, LEMMA16_57, THEOREM9
from pflbounds.papers.hanzely2023.theory.facts import PROPOSITION1
from pflbounds.papers.hanzely2023.theory.lower import EQ54
from pflbounds.papers.hanzely2023.theory.lsgd import LEMMA5, THEOREM1, THEOREM5, THEOREM5_WEAK
from pflbounds.papers.hanzely2023.theory.nonconvex import LEMMA14, THEOREM3, THEOREM4
from pflbounds.problems.pfl_objectives import PFLObjective
from pflbounds.tightness import Box, Search, SearchCase
from pflbounds.tightness.models import InstanceError, Measurement, Model, g3, integer, within

_FIXED = {"Lw": 1.0, "Lb": 1.0, "M": 1.0, "tau": 1.0, "B": 1.0, "sigma2": 0.0, "zeta2": 0.0}
_POINTS = tuple({"mu": mu, "L": 1.0, "eta": eta} for mu in (0.05, 0.2) for eta in (0.25, 0.125))
_TITLE = ("Theorem 5 with M = 1, tau = 1, sigma = 0: gradient descent on an L-smooth "
          "mu-strongly convex F, f at the weighted average of x_0..x_K against "
          "||x_0 - x*||^2 = 1")

TIGHTNESS = [
    TightnessCase(THEOREM5.id, forms={"corrected": None},
                  fixed={**_FIXED, "Db0": 0.0}, points=_POINTS, initial="Dw0",
                  initial_condition="distance", measure="weighted_average",
                  title=_TITLE + " (on w)"),
    TightnessCase(THEOREM5.id, forms={"printed": None},
                  fixed={**_FIXED, "Dw0": 0.0}, points=_POINTS, initial="Db0",
                  initial_condition="distance", measure="weighted_average",
                  title=_TITLE + " (on beta, where the printed Phi^0 is smallest)"),
]

_W = "pflbounds.papers.hanzely2023.audit:"
_DATA = {"noise": 0.1, "n": 10}
"""The checks' component noise and component count (random least-squares clients)."""
_SEED = Box(1, 0, 1000)
"""The instance seed (floored): the checks' generator draws spectra and optima from it."""


def _theorem5(form: str, objective: str, tau: int, weak: bool = False) -> SearchCase:
    gen = {"lam": Box(1, 0.2, 5.0), **({"Lam": Box(1, 1.0, 10.0)} if objective == "mt2"
                                       else {})}
    return SearchCase(
        (THEOREM5_WEAK if weak else THEOREM5).id, form, f"{_W}LSGD_{objective.upper()}",
        measure="uniform" if weak else "weighted",
        fixed={**_DATA, "M": 5, "d": 2, "tau": tau, "sigma2": 1.0},
        free={**gen, "spread": Box(1, 0.0, 3.0), "instance": _SEED,
              "eta_frac": Box(1, 0.05, 1.0)},
        sweep={"K": [1, 30, 1000]}, search=Search(mode="random", seed=0, budget=30),
        title=f"Theorem 5{' (mu = 0)' if weak else ''} ({form}) on LSGD-PFL, generated "
              f"{objective.upper()} (M = 5, d = 2), "
              f"tau = {tau}, sigma^2 = 1, heterogeneous clients, the step up to the corrected "
              "cap")


def _nonconvex(result: str, model: str, Ks: list[int], budget: int, step: bool) -> SearchCase:
    free = {"lam": Box(1, 0.2, 5.0), "instance": _SEED,
            **({"eta_frac": Box(1, 0.05, 1.0)} if step else {})}
    return SearchCase(
        result, "printed", _W + model, fixed={"mup": 0.5, "Lp": 1.0, "M": 3, "d": 2},
        free=free, sweep={"tau": [2, 5], "K": Ks},
        search=Search(mode="random", seed=0, budget=budget),
        title=f"{result.split('.')[-1].capitalize()} on LSGD-PFL with exact gradients (P11's "
              "generated MX2, M = 3, d = 2), the constants of Assumptions 4-7 on the "
              "trajectory")


def _lemma5(part: str, objective: str) -> SearchCase:
    gen = {"lam": Box(1, 0.2, 5.0), **({"Lam": Box(1, 1.0, 10.0)} if objective == "mt2"
                                       else {})}
    return SearchCase(
        LEMMA5.id, "printed", _W + ("LEMMA5_STATES" if objective == "mx2"
                                    else "LEMMA5_STATES_MT2"),
        fixed={**_DATA, "M": 5, "d": 3, "spread": 1.0}, part=part, measure=part,
        free={**gen, "instance": _SEED, "scale": Box(1, 1e-3, 10.0), "mix": Box(1, 0.0, 1.0),
              "state": _SEED},
        search=Search(mode="random", seed=0, budget=200),
        title=f"Lemma 5 ({part}) at one state of the iterates, generated "
              f"{objective.upper()} (M = 5, d = 3)")


WORST_CASES = [
    *[_theorem5(form, obj, tau) for form in ("corrected", "printed")
      for obj, tau in (("mx2", 5), ("mt2", 2))],
    _theorem5("corrected", "mx2", 5, weak=True),
    SearchCase(
        THEOREM1.id, "explicit", _W + "LSGD_STEPS_MX2",
        fixed={**_DATA, "M": 5, "d": 2, "rel": 0.05},
        free={"lam": Box(1, 0.2, 5.0), "spread": Box(1, 0.3, 2.0), "instance": _SEED},
        sweep={"tau": [1, 2], "sigma2": [0.1, 1.0]},
        search=Search(mode="random", seed=0, budget=8),
        title="Theorem 1 (explicit) on LSGD-PFL, generated MX2 (M = 5, d = 2), iterations to "
              "eps = 0.05 (F(0) - F^*) at its explicit step"),
    _nonconvex(THEOREM3.id, "THEOREM3_RUNS", [10, 100, 400], 12, True),
    _nonconvex(THEOREM4.id, "THEOREM4_RUNS", [10, 100, 500], 8, False),
    *[_lemma5(part, obj) for part in ("21", "22") for obj in ("mx2", "mt2")],
    *[SearchCase(
        THEOREM9.id, "corrected", _W + "ASVRCD", part=part, measure=part,
        fixed={"lam": 2.0, "mup": 1.0, "Lp": 2.0, "M": 4, "d": 1, "n": 20, "noise": 3.0,
               "K_per_n": 300},
        free={"pw": Box(1, 0.05, 0.95), "instance": _SEED},
        search=Search(mode="random", seed=0, budget=8, replicas=16, confirm=64),
        title=f"Theorem 9 (corrected, {part}) on ASVRCD-PFL, P6's generated MX2 (n = 20), "
              "any p_w with rho = p_w/n, to 1e-6 of the initial error")
      for part in ("communication", "grad_w", "grad_beta", "iterations")],
]

_HIDDEN = ("Theorem 9 is an O(.) count; the search takes its hidden constant as 1, as P6_n and "
           "P6_grads do. At p_w far from Theorem 8's p_w = Lcal^w/(Lcal^w + Lcal^beta) (0.94 "
           "against 0.12 on P6's instance) ASVRCD-PFL needs about 3 times that count in every "
           "part: a measured hidden constant of about 3 there, which the O(.) allows; no erratum")
WORST_EXPECTED = {
    f"{THEOREM9.id}:corrected": _HIDDEN,
}
"""Ratios above 1 that are not errors of the paper, keyed by ``result:form``: a measured hidden
constant of an O(.) count."""

UNSEARCHED = {
    EQ54.id:
        "a lower bound over every first-order method on Nesterov's instance: its search would "
        "need the best method's value there, which no model measures (P3 compares it with "
        "ACD-PFL, which is not optimal).",
    LEMMA14.id:
        "a condition on tau, beta and the constants (a step-size rule of Theorem 4's proof), "
        "not a bound: P11_theorem4 evaluates it to choose beta; no model measures it.",
}
"""Why no search covers a form that checks evaluate, keyed by ``result:form`` or ``result``."""
_ATTAINED = ("attained (ratio 1) on the check's own instances ({}): the worst ratio is known "
             "exactly, there is nothing to search")
UNSEARCHED.update({
    LEMMA16.id: _ATTAINED.format("rank-one Hessians vv^T with ||v_x|| = ||v_y||"),
    LEMMA16_57.id: _ATTAINED.format("rank-one Hessians, the pair along v"),
    PROPOSITION1.id: _ATTAINED.format("quadratics along their top eigenvector for (32)-(33), "
                                      "v = xi u for (34), equal v_i for (36)"),
})
UNSEARCHED.update({r.id: "the tie (ratio 1) of a comparison of two methods' losses, decided "
                         "over draws by the comparison checks S51-S52; no bound to search"
                   for r in (FIGURE1, FIGURE2)})

MUTANT_NOTES = {
    f"{EQ54.id}:printed":
        "Eq. (54) is a lower bound for every method, and ACD-PFL is not an optimal one: on "
        "P3's instances its E||x^k - x*||^2 stays above the bound by more than these mutants "
        "raise it at k = 1 ((sqrt(kappa) + 1)/(sqrt(kappa) - 1) for the exponent 2K - 1, "
        "(1 + 1/sqrt(kappa))^2 and (1 - 1/sqrt(kappa))^-2 for the dropped terms). Only a "
        "method that attains the lower bound could catch them; no model measures the best "
        "method.",
    LEMMA14.id:
        "P11_theorem4 evaluates this expression as Theorem 4's own condition on tau (the same "
        "formula), to choose beta, not as a bound: its mutants move beta, and the bound of "
        "Theorem 4 at the new beta still holds.",
}

_CATALOGUE = ("reads the encoded constants from the objectives catalogue (instances.encoded: "
              "the table Lemmas 1-4 and Table 2 are built from), not through the catalog's "
              "results, so a planted formula of {} does not reach its bound")
_NO_FORM = "evaluates no formula of the paper: {}"
_SECTION5 = ("Section 5: compares two methods' measured losses with each other; Theorems "
             "8-9's parameters set ASCD-PFL's and ASVRCD-PFL's steps, and a planted parameter "
             "moves both runs' losses without reversing a gap of a decade or more")

BLIND_CHECKS = {
    "hanzely2023.E_apfl2_mu": _CATALOGUE.format("Lemma 3"),
    "hanzely2023.E_mt2_table2": _CATALOGUE.format("Lemma 1 or Table 2 (MT2)"),
    "hanzely2023.E_ws2": _CATALOGUE.format("Lemma 4 or Table 2 (WS2)"),
    "hanzely2023.P8": _CATALOGUE.format("Lemmas 1-4"),
    "hanzely2023.E_svrcd": _NO_FORM.format("the bias of Algorithm 7's estimator, by "
                                           "enumeration, against 0 (tolerance 1e-12)"),
    "hanzely2023.E_table3_residual": (
        "reads Table 3's corrected residual cells as formulas (the catalog's form, outside "
        "bound(): its random constants include points with mu > L^w_R, which bound() refuses), "
        "so a planted formula does not replace them"),
    "hanzely2023.P12": _NO_FORM.format(
        "the calculator's MT2 rows compared with each other (symbolic substitution)"),
    "hanzely2023.P2_scd": _NO_FORM.format(
        "SCD-PFL's measured rounds against the exponent 1 fixed in the check"),
    "hanzely2023.regime_map": ("compares the calculator's rows with each other (symbolic "
                               "substitution of the objective's constants, not the catalog's "
                               "results): a planted formula does not reach them"),
    "hanzely2023.P_lemma16_57": ("a lower bound attained by the check's rank-one instances, but "
                                 "the mutation operators only shrink (||g_x||^2/L_x + "
                                 "||g_y||^2/L_y)/4 (halved factors, dropped terms), which a "
                                 "lower bound tolerates: no planted formula is larger"),
    "hanzely2023.P_theorem1": ("the explicit count is loose by about an order of magnitude on "
                               "the quick grid (LSGD-PFL reaches eps long before it), and the "
                               "planted formulas (a changed constant inside its logarithm, a "
                               "term of the step's minimum dropped or scaled) move the count by "
                               "less; the worst-case search of Theorem 1 measures the slack"),
    "hanzely2023.S51": _SECTION5,
    "hanzely2023.S51_ascd": _SECTION5,
    "hanzely2023.S52": _SECTION5,
    "hanzely2023.S52_ascd": _SECTION5,
}
"""Checks no planted wrong formula can change, with why (checked by the planted-formula test
of hanzely2023: a check listed here that sees one, or a blind one not listed, fails it)."""


# ------------------------------------------------------------------------------------------
# The worst-case families: the checks' generators as models (module docstring)
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
    from pflbounds.papers.hanzely2023.checks.common import instance

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
    measures = ("weighted", "uniform")  # Theorem 5's average, or its weights at mu = 0
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
        from pflbounds.exact import propagate
        from pflbounds.exact.propagator_block_pfl import lsgd_pfl_metrics, lsgd_pfl_schedule

        obj = _obj(self.objective, c, self._GEN)
        tau, K = integer(c, "tau"), integer(c, "K")
        eta = self._step(obj, tau, float(c["eta_frac"]))
        Hm, gm = obj.client_quadratics()
        mu = obj.constants["mu"] if measure == "weighted" else 0.0
        sched, x0, info = lsgd_pfl_schedule(Hm, gm, obj.d0, eta=eta, tau=tau, mu=mu,
                                            sigma2=float(c["sigma2"]))
        met = lsgd_pfl_metrics(obj.hessian, obj.optimum["x"], info)
        return Measurement(float(propagate(sched, x0, np.array([0, K]),
                                           metrics=met).metrics[1, 1]))

    def describe(self, c: Mapping[str, float], inst: Mapping[str, Any]) -> str:
        return _words(self.objective, c, (*self.constants[:-1], "zeta2", "mu", "Lw", "Lb"))


LSGD_MX2 = GeneratedLSGD("mx2")
LSGD_MT2 = GeneratedLSGD("mt2")


class GeneratedLSGDSteps(GeneratedLSGD):
    """LSGD-PFL's iterations to eps = rel (F(0) - F^*) at Theorem 1's explicit step (the P_theorem1
    measure: the first k of a geometric grid of 60 points up to Theorem 1's explicit count with
    the exact excess of the weighted average <= eps; twice the count if never)."""

    measures = ("steps",)

    def __init__(self, objective: str) -> None:
        super().__init__(objective)
        self.name = f"hanzely2023_lsgd_steps_{objective}"
        self.constants = (*self.constants[:-3], "sigma2", "rel")
        self.description = (f"LSGD-PFL on the checks' generated {objective.upper()} objective, "
                            "Gaussian gradient noise sigma2, Theorem 1's explicit step; "
                            "measured: iterations until E[F(w_bar^k, beta_bar^k)] - F^* <= eps "
                            "= rel (F(0) - F^*), exactly")

    def derived(self, c: Mapping[str, float]) -> dict[str, float]:
        obj = _obj(self.objective, c, self._GEN)
        o, k = obj.optimum, obj.constants
        f0 = float(obj.excess(np.zeros((1, obj.d0)), np.zeros((1, obj.M, obj.d1)))[0])
        return {"mu": k["mu"], "Lw": k["Lw"], "Lb": k["Lb"], "B": 1.0,
                "zeta2": obj.heterogeneity(), "Dw0": float(o["w"] @ o["w"]),
                "Db0": float((o["beta"] ** 2).sum()), "eps": float(c["rel"]) * f0}

    def admissible(self, c: Mapping[str, float], inst: Mapping[str, np.ndarray], *,
                   seed: int = 0) -> None:
        for k in ("tau", "M", "d", "n"):
            integer(c, k)
        if not float(c["sigma2"]) > 0 or not 0 < float(c["rel"]) < 1:
            raise InstanceError("sigma2 must be > 0 and rel in (0, 1)")

    def measure(self, c: Mapping[str, float], inst: Mapping[str, np.ndarray], measure: str,
                *, seed: int = 0, replicas: int = 0, stream: int = 0) -> Measurement:
        from pflbounds.papers.hanzely2023.checks.lsgd import simulate_theorem1

        p = {**_point(self.objective, c), "tau": integer(c, "tau"),
             "sigma2": float(c["sigma2"]), "rel": float(c["rel"])}
        return Measurement(float(simulate_theorem1(p, 1, 0)["mean"][0]))


LSGD_STEPS_MX2 = GeneratedLSGDSteps("mx2")


# ------------------------------------------------------------------ Theorems 3-4 (P11 runs)
@lru_cache(maxsize=256)
def _nonconvex_run(key: tuple[tuple[str, float], ...], which: str) -> dict[str, Any]:
    from pflbounds.papers.hanzely2023.checks.nonconvex import (
        simulate_theorem3,
        simulate_theorem4,
    )

    c = dict(key)
    p = {**_point("mx2", c), "tau": int(c["tau"]), "K": int(c["K"])}
    if which == "stationarity":
        p["eta_frac"] = float(c["eta_frac"])
        ev = simulate_theorem3(p, 1, 0)
    else:
        ev = simulate_theorem4(p, 1, 0)
    obj = _objective("mx2", tuple((k, float(c[k])) for k in ("lam", "mup", "Lp", "instance",
                                                              "M", "d")))
    f0 = float(obj.excess(np.zeros((1, obj.d0)), np.zeros((1, obj.M, obj.d1)))[0])
    out = {"measured": float(np.asarray(ev["mean"])[-1]), "Delta0": f0,
           "L": float(ev["L"]), "s2dif": float(ev["sigma_dif2"]), "M": float(obj.M)}
    if which == "stationarity":
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
        self.name = f"hanzely2023_nonconvex_{which}"
        self.measures = (which,)
        step = ("eta_frac",) if which == "stationarity" else ()
        self.constants = ("lam", "mup", "Lp", "instance", "M", "d", "tau", "K", *step)
        what = ("(1/K) sum_k ||(1/M) sum_m grad f_m||^2 with the step eta_frac x the largest "
                "of (20)" if which == "stationarity" else
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
        if self.which == "stationarity":
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


THEOREM3_RUNS = GeneratedNonconvex("stationarity")
THEOREM4_RUNS = GeneratedNonconvex("gap")


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


# ------------------------------------------------------------------ ASVRCD-PFL (Theorem 9)
_COUNTER = {"communication": "rounds", "grad_w": "grad_w_stochastic",
            "grad_beta": "grad_beta_stochastic", "iterations": "iterations"}
"""The counter of a run that each part of Theorem 9 (corrected) counts (P6_n, P6_grads)."""


class GeneratedASVRCD(Model):
    """ASVRCD-PFL's costs to eps on the P6 instances, any p_w (Theorem 9), Monte Carlo: the
    checks' generated MX2 (components that disagree), Theorem 8's step parameters at the
    searched p_w with rho = p_w/n; measured per replica: the rounds, the component gradient
    calls per client (w or beta) or the iterations until F(y^k) - F^* <= REL (F(0) - F^*)
    (REL = 1e-6, the checks' target), within K_per_n n iterations (a replica that does not
    arrive counts as infinite); the mean over the replicas with its standard error."""

    name = "hanzely2023_asvrcd"
    kind = "monte_carlo"
    parameters = ()
    measures = ("communication", "grad_w", "grad_beta", "iterations")
    constants = ("lam", "mup", "Lp", "M", "d", "n", "noise", "instance", "pw", "K_per_n")
    description = ("ASVRCD-PFL on the checks' generated MX2 (P6), Theorem 8's parameters at "
                   "the searched p_w, rho = p_w/n; measured: mean rounds, component gradient "
                   "calls or iterations to 1e-6 of the initial error, by Monte Carlo")
    _GEN = ("lam", "mup", "Lp", "M", "d", "n", "noise", "instance")

    def derived(self, c: Mapping[str, float]) -> dict[str, float]:
        from pflbounds.papers.hanzely2023.checks.common import REL

        obj = _objective("mx2", tuple((k, float(c[k])) for k in self._GEN))
        k = obj.constants
        return {"Lcw": k["Lcw"], "Lcb": k["Lcb"], "mu": k["mu"], "rho": float(c["pw"]) / obj.n,
                "Delta0": 1.0, "eps": REL}

    def admissible(self, c: Mapping[str, float], inst: Mapping[str, np.ndarray], *,
                   seed: int = 0) -> None:
        for k in ("M", "d", "n", "K_per_n"):
            integer(c, k)
        within("pw", float(c["pw"]), 1e-3, 1 - 1e-3, "p_w must lie in (0, 1)")

    def measure(self, c: Mapping[str, float], inst: Mapping[str, np.ndarray], measure: str,
                *, seed: int = 0, replicas: int = 0, stream: int = 0) -> Measurement:
        from pflbounds.algorithms.block_pfl import run_asvrcd_pfl
        from pflbounds.papers.hanzely2023.checks.common import REL, asvrcd_parameters

        if replicas < 2:
            raise InstanceError(f"a Monte Carlo measure needs replicas >= 2, got {replicas}")
        obj = _objective("mx2", tuple((k, float(c[k])) for k in self._GEN))
        par = asvrcd_parameters(obj.constants, obj.n, pw=float(c["pw"]))
        K = integer(c, "K_per_n") * obj.n
        rec = np.arange(0, K + 1, max(1, K // 400))
        rng = np.random.default_rng(np.random.SeedSequence([int(seed), 1 + int(stream)]))
        run = run_asvrcd_pfl(obj, **par, K=K, R=int(replicas), rng=rng, record=rec)
        e = run.metrics["excess"]
        hit = e <= REL * e[:, :1]
        first = np.argmax(hit, axis=1)
        rows = np.arange(int(replicas))
        counter = _COUNTER[measure]
        x = run.costs[counter] if counter != "iterations" else np.broadcast_to(rec, e.shape)
        vals = np.where(hit[rows, first], x[rows, first], np.inf)
        if not np.all(np.isfinite(vals)):
            return Measurement(float("inf"), 0.0, {"replicas": int(replicas),
                                                   "arrived": int(np.isfinite(vals).sum())})
        return Measurement(float(vals.mean()), float(vals.std(ddof=1) / np.sqrt(vals.size)),
                           {"replicas": int(replicas), "stream": int(stream)})

    def describe(self, c: Mapping[str, float], inst: Mapping[str, Any]) -> str:
        return _words("mx2", c, (*self.constants, "Lcw", "Lcb", "mu"))


ASVRCD = GeneratedASVRCD()
