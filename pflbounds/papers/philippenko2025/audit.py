"""What the audits need to know about philippenko2025 (read by :mod:`pflbounds.audit` and
:mod:`pflbounds.tightness`).

``WORST_CASES``: the worst-case searches of the bound forms the checks evaluate, on the family
of :mod:`pflbounds.papers.philippenko2025.instances`: N identical clients of one cluster
(every r_ik = 1, b = c = 0), whose Definition-1 weights are 1/N for both criteria, on a
diagonal quadratic with spectrum in [mu, beta], noise <= sigma^2 per client and initial excess
loss <= eps0. The dynamics are linear with Gaussian noise, so each measure is exact; the
searches run L-BFGS-B over the spectrum, the noise and the start (``optimize``), or seeded
draws for step counts (``random``). A sub-family of the theorems' (one cluster, quadratics):
the true worst case is at least as bad.

* Theorem 1 (corrected), Theorem 2 (constant step, its floor, the horizon-dependent step),
  Theorem 3 (all three forms: the average squared gradient norm) at a constant step;
* Theorem 2 (decreasing step, corrected) at the shifted step C/(mu (t + gamma0));
* Corollary 1 (corrected and printed), its equal-variance form (printed, where the noise
  term dominates) and its binary row (both forms): the steps to reach
  eps at the shifted decreasing step, against the counts (seeded draws, 150 per case);
* Remark 3's step-ratio bounds: the ratio (sigma_phi/sigma_psi)^2 over similarity ratios
  and variances (the ``StepRatio`` models of ``instances.py``).

``WORST_EXPECTED``: the counterexamples an erratum explains. ``UNSEARCHED``: why no search
covers a form the checks evaluate. ``MUTANT_NOTES``: why mutants of a form survive the checks
when no search reaches them (only forms the checks name without evaluating them).
``BLIND_CHECKS``: the checks whose verdict no planted wrong formula changes, each with the
reason.
"""

from pflbounds.papers.philippenko2025.theory.descent import LEMMA1, S2, THEOREM1
from pflbounds.papers.philippenko2025.theory.effective_cluster import LEMMA2
from pflbounds.papers.philippenko2025.theory.nonconvex import THEOREM3, THEOREM3_STEP
from pflbounds.papers.philippenko2025.theory.rates import (
    THEOREM2_CONSTANT,
    THEOREM2_DECREASING,
    THEOREM2_FLOOR,
    THEOREM2_HORIZON,
    THEOREM2_HORIZON_STEP,
)
from pflbounds.papers.philippenko2025.theory.sample_complexity import (
    COROLLARY1,
    COROLLARY1_BINARY,
    COROLLARY1_UNIFORM,
    SECTION4_SUFFICIENT,
)
from pflbounds.papers.philippenko2025.theory.step_ratio import (
    REMARK3_BINARY,
    REMARK3_CONTINUOUS,
)
from pflbounds.papers.philippenko2025.theory.sufficient_cluster import DEFINITION2_RATIO
from pflbounds.symbolic.evaluate import evaluate
from pflbounds.tightness import Box, Search, SearchCase, Simplex, Sphere, spectrum

_MOD = "pflbounds.papers.philippenko2025.instances:"
_CONST, _DEC = _MOD + "IDENTICAL_CONSTANT", _MOD + "IDENTICAL_DECREASING"
_RATIO = _MOD + "STEP_RATIO_"

# one cluster of N = 10 identical clients, conditioning beta/mu = 10 (P5's a = mu = beta is
# the isotropic corner of the spectrum searched), continuous criterion (psi(1) = 1)
_ID = {"mu": 0.1, "L": 1.0, "sigma2": 1.0, "Delta0": 1.0, "N": 10, "psi1": 1.0, "d": 2}
_FREE = {"spectrum": spectrum(), "noise": Simplex("d", "sigma2"),
         "x0": Sphere("d", "sqrt(2*Delta0)")}
_OPT = Search(mode="optimize", seed=0, starts=6, budget=1500)
_DRAWS = Search(mode="random", seed=0, budget=150)
_TITLE = "on N = 10 identical clients (Definition-1 weights 1/N), spectrum in [mu, beta]"


def _constant(result: str, form: str, eta: float, Ks: list[int], what: str,
              measure: str = "last", **extra: float) -> SearchCase:
    return SearchCase(result, form, _CONST, fixed={**_ID, "eta": eta, **extra},
                      sweep={"K": Ks}, free=_FREE, search=_OPT, measure=measure,
                      title=f"{what} {_TITLE}, eta beta = {eta * _ID['L']:g}")


def _horizon(form: str, K: int) -> SearchCase:
    c = {"T": K, "beta": _ID["L"], "mu": _ID["mu"], "eps0": _ID["Delta0"], "kappa_w": 1.0,
         "sigma_suf2": _ID["sigma2"] / _ID["N"]}
    eta = float(evaluate(THEOREM2_HORIZON_STEP, "printed", **c).value)
    return SearchCase(THEOREM2_HORIZON.id, form, _CONST, fixed={**_ID, "eta": eta, "K": K},
                      free=_FREE, search=_OPT,
                      title=f"Theorem 2 (horizon-dependent step, {form}) {_TITLE}, the step "
                            f"of Table 1 for T = {K}")


def _theorem3(form: str, K: int) -> SearchCase:
    c = {"T": K, "beta": _ID["L"], "eps0": _ID["Delta0"], "kappa_w": 1.0,
         "sigma_suf2": _ID["sigma2"] / _ID["N"]}
    eta = float(evaluate(THEOREM3_STEP, "printed", **c).value)
    return SearchCase(THEOREM3.id, form, _CONST, fixed={**_ID, "eta": eta, "K": K},
                      free=_FREE, search=_OPT, measure="avg_grad2",
                      title=f"Theorem 3 ({form}; the average of E||grad R(theta^{{t-1}})||^2) "
                            f"{_TITLE}, the printed step for T = {K}")


# Theorem 2's shifted decreasing step: C = 2, gamma0 = C beta/(kappa mu) - 1 with kappa = 1.
# At sigma^2 = 1 both terms of its max are 20; sigma^2 = 0.2 makes the eps0 term bind (4 < 20)
# and sigma^2 = 5 the noise term (100 > 20), so a change in either term shows.
_DEC_C = {"C": 2.0, "gamma0": 19.0}


def _steps(result: str, form: str, eps: float, what: str, sigma2: float = 1.0) -> SearchCase:
    return SearchCase(result, form, _DEC, fixed={**_ID, **_DEC_C, "eps": eps, "K": 10000,
                                                 "sigma2": sigma2,
                                                 **({"lam": 0.5, "psi1": 0.5} if "binary" in result
                                                    else {})},
                      free=_FREE, search=_DRAWS, measure="steps",
                      title=f"{what} {_TITLE}, sigma^2 = {sigma2:g}: steps to reach eps = "
                            f"{eps:g} at the step C/(mu (t + gamma0)), C = 2, gamma0 = 19")


WORST_CASES = [
    _constant(THEOREM1.id, "corrected", 0.5, [10, 40, 160], "Theorem 1 (corrected)"),
    _constant(THEOREM2_CONSTANT.id, "printed", 0.5, [10, 40, 160],
              "Theorem 2 (constant step, printed)"),
    _constant(THEOREM2_CONSTANT.id, "printed", 0.1, [10, 100, 1000],
              "Theorem 2 (constant step, printed)"),
    _constant(THEOREM2_FLOOR.id, "printed", 0.5, [2000],
              "Theorem 2's floor eta beta sigma_suf^2/(2 mu) (the excess after 2000 steps)"),
    *[_horizon(form, K) for form in ("corrected", "printed") for K in (100, 1000)],
    SearchCase(THEOREM2_DECREASING.id, "corrected", _DEC,
               fixed={**{k: v for k, v in _ID.items() if k != "sigma2"}, **_DEC_C},
               sweep={"K": [1, 10, 100, 1000], "sigma2": [0.2, 1.0, 5.0]}, free=_FREE,
               search=_OPT,
               title=f"Theorem 2 (decreasing step, corrected) {_TITLE}, step C/(mu (t + "
                     "gamma0)), C = 2, gamma0 = 19"),
    _constant(THEOREM3.id, "corrected", 0.5, [10, 100, 1000],
              "Theorem 3 (corrected; the average of E||grad R(theta^{t-1})||^2)",
              measure="avg_grad2"),
    *[_theorem3(form, K) for form in ("printed", "explicit") for K in (10, 100, 1000)],
    *[_steps(COROLLARY1.id, "corrected", eps, "Corollary 1 (corrected)", s2)
      for eps in (0.5, 0.05) for s2 in (0.2, 5.0)],
    *[_steps(COROLLARY1.id, "printed", eps, "Corollary 1 (printed)") for eps in (0.5, 0.005)],
    *[_steps(COROLLARY1_BINARY.id, form, 0.005,
             f"Corollary 1's binary row ({form}; binary criterion, lambda = 1/2, Nstar = N)")
      for form in ("printed", "corrected")],
    _steps(COROLLARY1_UNIFORM.id, "printed", 0.005,
           "Corollary 1 with equal variances and c = 0 (printed; Nstar = N, psi_min = psi(1) "
           "= 1)", 5.0),
    SearchCase(REMARK3_BINARY.id, "printed", _RATIO + "BINARY", fixed={"N": 6, "lam": 0.3},
               free={"ratios": Box("N - 1", "lam", 1.0),
                     "variances": Box("N", 0.1, 10.0, "log")},
               search=Search(mode="optimize", seed=0, starts=6, budget=3000),
               title="Remark 3 (binary): (sigma_phi/sigma_psi)^2 over the similarity ratios "
                     "of the selected peers (r in [lambda, 1]) and variances in [0.1, 10]"),
    SearchCase(REMARK3_CONTINUOUS.id, "corrected", _RATIO + "CONTINUOUS", fixed={"N": 6},
               sweep={"SinvSum": [2.0, 6.0, 50.0]},
               free={"ratios": Box("N - 1", 0.0, 1.0),
                     "precisions": Simplex("N - 1", "SinvSum - 1")},
               search=Search(mode="optimize", seed=0, starts=6, budget=3000),
               title="Remark 3 (continuous, corrected): (sigma_phi/sigma_psi)^2 over the "
                     "similarity ratios in [0, 1] and the peers' precisions at a given "
                     "sigma_i^2 sum_k sigma_k^-2"),
]

WORST_EXPECTED = {
    f"{THEOREM3.id}:printed":
        "erratum 16: the printed bound holds only where the step's minimum takes its first "
        "term (long horizons); at T = 10 the step is the cap kappa/beta and the exact "
        "average squared gradient norm exceeds the printed bound (check E16)",
}
"""Counterexamples an erratum explains, keyed by ``result:form``."""

UNSEARCHED = {
    f"{LEMMA1.id}:printed":
        "a one-step descent inequality whose right side changes sign (a decrease of the "
        "loss): measured/bound is no ratio to maximise; P2 and E1 compare the difference "
        "on the exact one-step change, and the printed form fails its dimension check "
        "(erratum).",
    f"{LEMMA1.id}:corrected":
        "a one-step descent inequality whose right side changes sign: measured/bound is no "
        "ratio to maximise (P2 compares the difference with the exact one-step change).",
    f"{S2.id}:printed":
        "a one-step descent inequality whose right side changes sign: measured/bound is no "
        "ratio to maximise (P2_S2 compares the difference).",
    f"{THEOREM2_DECREASING.id}:printed":
        "its conditions C > 1 and C beta <= kappa mu contradict each other (kappa <= 1 and "
        "mu <= beta): no admissible instance exists; E8 evaluates it outside them (erratum).",
    SECTION4_SUFFICIENT.id:
        "its worst case is known in closed form: psi(x_ik) <= psi(1) is attained at x_ik = 1 "
        "(b_ik = 0 for every member of the sufficient cluster), where the bound holds with "
        "equality; S4_binary and S4_continuous draw such instances and measure ratio 1.",
    LEMMA2.id:
        "an inequality between two variances of the same run (sigma_eff^t <= sigma_suf(eps) "
        "while eps_i^{t-1} >= eps): on one cluster of identical clients both equal "
        "sigma^2/(N psi(1)) (ratio 1 exactly); heterogeneous instances need the trajectory "
        "of the adaptive weights, which no model measures yet (P6, P7, P20 and E5 check it "
        "on TB-Q).",
}
"""Why no search covers a form that checks evaluate, keyed by ``result:form`` or ``result``."""

MUTANT_NOTES = {
    f"{DEFINITION2_RATIO.id}:printed":
        "named by E4 but never evaluated from the catalog: E4 computes the printed x_ik "
        "(b_ik unsquared) with the paper's input code, so no mutant of this form reaches a "
        "check; the form fails its dimension check (erratum 4).",
    f"{THEOREM2_FLOOR.id}:printed":
        "named by P12 and P12_adaptive, which compare FedAvg's exact excess and the adaptive "
        "run with FedAvg's floor computed from the optima, not with this form: no mutant of "
        "it reaches a check. Its worst case is searched (WORST_CASES), and every stronger "
        "survivor elsewhere is measured there.",
}
"""Why mutants of a form survive the checks when no search reaches them, keyed by
``result:form``: only the forms the checks name without evaluating them. Every stronger mutant
that survives the checks is re-run on the worst instance of its form (``WORST_CASES``) and is
caught or true there, a measured factor that replaces the prose (``pflbounds audit mutants
--paper philippenko2025`` lists them)."""

_MEASURED_ONLY = ("compares measured quantities with each other (methods or weights run on the "
                  "same instance, or an exact curve computed in the check); it evaluates no "
                  "formula of the paper")
_IN_CODE = ("computes {} with the paper's input code (inputs.py: the same Definition-2 "
            "formulas the catalog holds, vectorised) and compares measured quantities; it "
            "evaluates no catalog form")

BLIND_CHECKS = {
    "philippenko2025.E12": "the printed limit of Definition 2 already fails (expected CONFIRMED) "
                           "by a factor of 10 at its points: the planted formulas of "
                           "Definition 2 move the catalog's value less than that, or further "
                           "away from the printed limit, so the erratum stays confirmed",
    "philippenko2025.E20": "the weights are computed by the algorithms' code (Definition 1) "
                           "against the fixed bounds 1 and 1/lambda; it evaluates no formula",
    "philippenko2025.E4": _IN_CODE.format("the printed and corrected Definition-2 ratios"),
    "philippenko2025.F2": "Figure 2: " + _MEASURED_ONLY,
    "philippenko2025.F2_code": "Figure 2 with the authors' ratio: " + _MEASURED_ONLY,
    **{f"philippenko2025.F2_{m}_d{d}": "Figure 2's ordering (All-for-one against Local over "
       "paired draws): " + _MEASURED_ONLY for m in ("binary", "continuous") for d in (2, 10)},
    "philippenko2025.P1": "identities (I1)-(I5) between the weights the algorithms compute and "
                          "sums of them (residual to rounding); it evaluates no formula",
    "philippenko2025.P11": "the adaptive plateau against the oracle's exact plateau: "
                           + _MEASURED_ONLY,
    "philippenko2025.P12": "FedAvg's exact excess against the floor R_i(theta_bar^*) - R_i^* "
                           "computed from the optima in the check; it evaluates no formula",
    "philippenko2025.P12_adaptive": "the adaptive run's excess against FedAvg's exact floor: "
                                    + _MEASURED_ONLY,
    "philippenko2025.P13_binary": "the total weights along the runs stay within a factor of "
                                  "about 2 of Remark 3's 1/lambda (the peers' ratios are near "
                                  "1), and the planted formulas (lambda halved or doubled) "
                                  "move the bound by at most 2; the worst-case search shows "
                                  "the bound attained to 0.5% (peers at r = lambda with the "
                                  "smallest variances)",
    "philippenko2025.P13_continuous": "the total weights along the runs stay well below Remark "
                                      "3's corrected sigma_i^2 sum_k sigma_k^-2, and the "
                                      "planted formulas move it by at most 2; the worst-case "
                                      "search measures how close the step ratio comes",
    "philippenko2025.P14": "the estimated weights' plateau against 3 times the oracle's exact "
                           "plateau: " + _MEASURED_ONLY,
    "philippenko2025.P14_peers": "counts selected peers against half the cluster, a number "
                                 "fixed in the check; it evaluates no formula",
    "philippenko2025.P16": "adaptive All-for-one against local SGD on the same draws (bitwise); "
                           "it evaluates no formula",
    "philippenko2025.P18": _IN_CODE.format("both criteria's sufficient variances"),
    "philippenko2025.P19": "the measured contraction against rho^t with rho computed in the "
                           "check from Appendix A's stream (erratum 18's exact rate); it "
                           "evaluates no formula of the catalog",
    "philippenko2025.P19_adaptive": "estimated weights against the oracle's exact curve: "
                                    + _MEASURED_ONLY,
    "philippenko2025.P19_local": "continuous weights against Local's exact curve: "
                                 + _MEASURED_ONLY,
    "philippenko2025.P20": "counts steps where the effective cluster grows while the loss "
                           "falls (0 expected); it evaluates no formula",
    "philippenko2025.P4": "compares a fitted slope with the exponent -1 (plateau against the "
                          "cluster size) fixed in the check; it evaluates no formula",
    "philippenko2025.P6": _IN_CODE.format("the sufficient clusters N_i^*(e_i^{t-1})")
                          + "; it counts mismatches with the algorithm's sets",
    "philippenko2025.P7_sets": _IN_CODE.format("the sufficient clusters")
                               + "; it counts members missing from the algorithm's sets",
}
"""Checks no planted wrong formula can change, with why (checked by the planted-formula test
of philippenko2025: a check listed here that sees one, or a blind one not listed, fails it)."""
