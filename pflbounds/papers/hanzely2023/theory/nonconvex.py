"""LSGD-PFL without convexity: Theorems 3-4 and Lemmas 8-14 (App. B.7; digest §5.3-5.4,
5.16). lam_dis is Assumption 6's lambda and beta0 Theorem 4's scalar beta."""

from __future__ import annotations

import sympy as sp

from pflbounds.papers.hanzely2023.errata import ERRATA
from pflbounds.papers.hanzely2023.paper import LSGD, cond, form, result
from pflbounds.papers.hanzely2023.symbols import (
    C1,
    C2,
    H2,
    B,
    Delta0,
    Fhat,
    G2avg,
    G2b,
    Gbar2,
    Ghat2,
    IPb,
    IPw,
    K,
    L,
    M,
    SumEta2,
    SumEtaG,
    Vk,
    beta0,
    eta,
    etak,
    lam_dis,
    mu,
    s1sq,
    s2dif,
    s2sq,
    tau,
)
from pflbounds.symbolic.result import Kind

_A = C1 / M + C2 + 1
COND20 = cond(sp.Le(-1 + eta * L * lam_dis * _A + lam_dis * eta**2 * L**2 * (tau - 1) * tau
                    * (C1 + 1), 0), "Eq. (20)")
NU_PL = 2 * L**2 * lam_dis * (C1 + 1) / mu**2
"""nu = 2 L^2 lambda (C_1 + 1)/mu^2 of Lemma 14 and Theorem 4."""
BETA_COND = cond(sp.Gt(beta0, sp.Max(2 * lam_dis * L / mu * _A - 2, NU_PL, 1)),
                 "beta > max{2 lambda L/mu (C_1/M + C_2 + 1) - 2, 2 L^2 lambda (C_1+1)/mu^2, 1}")
TAU_BOUND = sp.sqrt(sp.Max(sp.Max(NU_PL * sp.exp(1 / beta0) - 4, 0)
                           / (beta0**2 - NU_PL * sp.exp(1 / beta0)), 0))
"""Theorem 4's lower limit on tau; the outer max(., 0) keeps 0/(negative) = 0 (the printed
quotient is undefined only where Eq. (52) fails and the numerator is positive)."""
TAU_COND = cond(sp.Ge(tau, TAU_BOUND), "tau large enough (Theorem 4)")
EQ52 = cond(sp.Gt(beta0**2 * sp.exp(-1 / beta0), NU_PL),
            "beta^2 e^(-1/beta) > 2 L^2 lambda (C_1+1)/mu^2 (Eq. (52))")
_NONCONVEX = ("hanzely2023.A4", "hanzely2023.A5", "hanzely2023.A6")

THEOREM3 = result(
    "theorem3", "Theorem 3", Kind.UPPER_BOUND,
    "(1/K) sum_{k<K} E||(1/M) sum_m grad f_m(w^k, beta_m^k)||^2", "f^2/x^2",
    "Under Assumptions 4-6 with a constant eta satisfying (20), LSGD-PFL's virtual iterates "
    "satisfy (1/K) sum_k E||(1/M) sum_m grad f_m(w^k, beta_m^k)||^2 <= 2 Delta0/(eta K) + "
    "eta L lambda {(C_1/M + C_2 + 1) sigma_dif^2 + sigma_1^2/(M B) + sigma_2^2/B} + "
    "eta^2 L^2 sigma_dif^2 (tau-1)^2 (C_1+1) + eta^2 L^2 sigma_1^2 (tau-1)^2/B.",
    [form("printed", 2 * Delta0 / (eta * K)
          + eta * L * lam_dis * (_A * s2dif + s1sq / (M * B) + s2sq / B)
          + eta**2 * L**2 * s2dif * (tau - 1) ** 2 * (C1 + 1)
          + eta**2 * L**2 * s1sq * (tau - 1) ** 2 / B,
          "Delta0 = E[(1/M) sum_m f_m(w^0, beta_m^0) - f^*]; the literal beta-step of "
          "Algorithm 1 (Lemma 8).")],
    hypotheses=_NONCONVEX, conditions=(COND20,), source="Theorem 3, App. B.7.1",
    equations=("20",), errata=(ERRATA["erratum12"],),
    quantity_typst="1/K sum_(k<K) EE norm(1/M sum_m nabla f_m (w^k, beta_m^k))^2",
    methods=LSGD,
)

_B = beta0 * tau + 1
_T4 = (_B**3 / (K + beta0 * tau) ** 3 * Delta0
       + 2 * L**2 * (tau - 1) ** 2 * K / (mu**3 * (K + beta0 * tau) ** 3)
       * (s2dif * (C1 + 1) + s1sq / B)
       + L * K * (K + 2 * beta0 * tau + 2) / (4 * mu**2 * (K + beta0 * tau) ** 3)
       * (s2dif * _A + s1sq / (M * B) + s2sq / B))
THEOREM4 = result(
    "theorem4", "Theorem 4", Kind.UPPER_BOUND,
    "E[(1/M) sum_m f_m(w^K, beta_m^K) - f^*]", "f",
    "Under Assumptions 4-7 with eta_k = 1/(mu (k + beta tau + 1)), beta > max{2 lambda L/mu "
    "(C_1/M + C_2 + 1) - 2, 2 L^2 lambda (C_1+1)/mu^2, 1} and tau large enough: the gap at K "
    "is at most b^3/(K + beta tau)^3 Delta0 + 2 L^2 (tau-1)^2 K/(mu^3 (K + beta tau)^3) "
    "{sigma_dif^2 (C_1+1) + sigma_1^2/B} + L K (K + 2 beta tau + 2)/(4 mu^2 (K + beta tau)^3) "
    "{sigma_dif^2 (C_1/M + C_2 + 1) + sigma_1^2/(M B) + sigma_2^2/B}, b = beta tau + 1.",
    [form("printed", _T4, "b = beta tau + 1 (defined in the proof); K a multiple of tau."),
     form("corrected", _T4, "With Eq. (52), which the proof needs.", conditions=(EQ52,))],
    hypotheses=(*_NONCONVEX, "hanzely2023.A7"), conditions=(BETA_COND, TAU_COND),
    source="Theorem 4, App. B.7.2", equations=("52", "53"),
    errata=(ERRATA["erratum13"], ERRATA["erratum12"]),
    quantity_typst="EE[1/M sum_m f_m (w^K, beta_m^K) - f^*]",
    methods=LSGD,
)

LEMMA8 = result(
    "lemma8", "Lemma 8", Kind.UPPER_BOUND,
    "E[(1/M) sum_m f_m(hat theta_m^{k+1})] - (1/M) sum_m f_m(hat theta_m^k)", "f",
    "Under Assumption 4: the one-step change of (1/M) sum_m f_m at the virtual iterates is at "
    "most -eta_k <avg grad_w f_m(hat theta), avg grad_w f_m(theta)> - (eta_k/M) sum_m "
    "<grad_beta f_m(hat theta_m), grad_beta f_m(theta_m)> + (eta_k^2 L/2) E||h^k||^2 + "
    "(eta_k^2 L/(2M)) sum_m E||g_{m,2}^k||^2.",
    [form("printed", -etak * IPw - etak * IPb + etak**2 * L / 2 * H2 + etak**2 * L / 2 * G2b)],
    hypotheses=("hanzely2023.A4",), source="Lemma 8, App. B.7",
    quantity_typst="EE[hat(F)^(k+1)] - hat(F)^k",
    unchecked=("a proof step, not checked on its own. A step of Theorems 3-4's proofs; checks "
               "P11_theorem3 and P11_theorem4 test the theorems."),
    methods=LSGD,
)
LEMMA9 = result(
    "lemma9", "Lemma 9", Kind.UPPER_BOUND,
    "E||h^k||^2 + (1/M) sum_m E||g_{m,2}^k||^2", "f^2/x^2",
    "Under Assumptions 5-6: E||h^k||^2 + (1/M) sum_m E||g_{m,2}^k||^2 <= (C_1/M + C_2 + 1) "
    "(1/M) sum_m ||grad f_m(theta_m^k)||^2 + sigma_1^2/(M B) + sigma_2^2/B <= lambda (C_1/M + "
    "C_2 + 1) ||(1/M) sum_m grad f_m(theta_m^k)||^2 + (C_1/M + C_2 + 1) sigma_dif^2 + "
    "sigma_1^2/(M B) + sigma_2^2/B.",
    [form("printed", parts={
        "first": _A * G2avg + s1sq / (M * B) + s2sq / B,
        "second": lam_dis * _A * Gbar2 + _A * s2dif + s1sq / (M * B) + s2sq / B})],
    hypotheses=("hanzely2023.A5", "hanzely2023.A6"), source="Lemma 9, App. B.7",
    quantity_typst="EE norm(h^k)^2 + 1/M sum_m EE norm(g_(m,2)^k)^2",
    unchecked=("a proof step, not checked on its own. A step of Theorems 3-4's proofs; checks "
               "P11_theorem3 and P11_theorem4 test the theorems."),
    methods=LSGD,
)
_IP = "-eta_k <avg grad_w f_m(hat theta), avg grad_w f_m(theta)> - eta_k (1/M) sum_m " \
      "<grad_beta f_m(hat theta_m), grad_beta f_m(theta_m)>"
LEMMA10 = result(
    "lemma10", "Lemma 10", Kind.UPPER_BOUND, _IP, "f",
    "Under Assumption 4 the two inner-product terms of Lemma 8 are at most -(eta_k/2) "
    "||avg grad f_m(hat theta)||^2 - (eta_k/2) ||avg grad f_m(theta)||^2 + (eta_k L^2/2) V^k.",
    [form("printed", -etak / 2 * Ghat2 - etak / 2 * Gbar2 + etak * L**2 / 2 * Vk)],
    hypotheses=("hanzely2023.A4",), source="Lemma 10, App. B.7",
    quantity_typst="-eta_k (lr(⟨dot, dot⟩)_w + lr(⟨dot, dot⟩)_beta)",
    unchecked=("a proof step, not checked on its own. A step of Theorem 3's proof; checks "
               "P11_theorem3 and P11_theorem4 test the theorems."),
    methods=LSGD,
)
LEMMA11 = result(
    "lemma11", "Lemma 11", Kind.UPPER_BOUND, _IP, "f",
    "Under Assumptions 4 and 7 the same terms are at most -eta_k mu ((1/M) sum_m "
    "f_m(hat theta_m^k) - f^*) - (eta_k/2) ||avg grad f_m(theta)||^2 + (eta_k L^2/2) V^k.",
    [form("printed", -etak * mu * Fhat - etak / 2 * Gbar2 + etak * L**2 / 2 * Vk)],
    hypotheses=("hanzely2023.A4", "hanzely2023.A7"), source="Lemma 11, App. B.7",
    quantity_typst="-eta_k (lr(⟨dot, dot⟩)_w + lr(⟨dot, dot⟩)_beta)",
    unchecked=("a proof step, not checked on its own. A step of Theorem 4's proof; checks "
               "P11_theorem3 and P11_theorem4 test the theorems."),
    methods=LSGD,
)
LEMMA12 = result(
    "lemma12", "Lemma 12", Kind.UPPER_BOUND, "E[V^k], k_p + 1 <= k <= v_p", "x^2",
    "Under Assumptions 5-6, within a communication period: E[V^k] <= lambda (tau-1)(C_1+1) "
    "sum_t eta_t^2 E||avg grad f_m(theta^t)||^2 + sigma_dif^2 (tau-1)(C_1+1) sum_t eta_t^2 + "
    "sigma_1^2 (tau-1)/B sum_t eta_t^2 (t from k_p to k-1); V^{k_p} = 0.",
    [form("printed", lam_dis * (tau - 1) * (C1 + 1) * SumEtaG
          + s2dif * (tau - 1) * (C1 + 1) * SumEta2 + s1sq * (tau - 1) / B * SumEta2)],
    hypotheses=("hanzely2023.A5", "hanzely2023.A6"), source="Lemma 12, App. B.7",
    quantity_typst="EE[V^k]",
    unchecked=("a proof step, not checked on its own. A step of Theorems 3-4's proofs; checks "
               "P11_theorem3 and P11_theorem4 test the theorems."),
    methods=LSGD,
)
_D13 = lam_dis * L * _A
_BK = etak * L**2 * lam_dis * (tau - 1) * (C1 + 1) / 2
LEMMA13 = result(
    "lemma13", "Lemma 13", Kind.STEP_SIZE, "the largest steps eta_{v_p} and eta_{v_p - 1}",
    "x^2/f",
    "If eta_{v_p} <= 1/D (44), eta_{v_p - 1} <= 1/(D + 2 B_{v_p}/Delta_{v_p}) (45), ... "
    "(46), with D = lambda L (C_1/M + C_2 + 1), B_k = eta_k L^2 lambda (tau-1)(C_1+1)/2 and "
    "Delta_k = 1 - eta_k mu, then the recursion (39) telescopes over a period (40).",
    [form("printed", parts={"44": 1 / _D13, "45": 1 / (_D13 + 2 * _BK / (1 - etak * mu))},
          note="eta_k in (45) is eta_{v_p}, the last step of the period.")],
    relation="=", hypotheses=("hanzely2023.A4", "hanzely2023.A5", "hanzely2023.A6",
                              "hanzely2023.A7"),
    conditions=(cond(sp.Lt(etak * mu, 1), "Delta_k = 1 - eta_k mu > 0 (the steps of Lemma 14, "
                     "1/(mu (k + beta tau + 1)), are below 1/mu)"),),
    source="Lemma 13, App. B.7", equations=("44", "45", "46"),
    part_typst={"44": "eta_(v_p)", "45": "eta_(v_p - 1)"},
    part_latex={"44": r"\eta_{v_p}", "45": r"\eta_{v_p-1}"},
    unchecked=("a step-size rule, not evaluated by a check. A condition in Theorem 4's proof, met "
               "by Lemma 14's schedule, which check P11_theorem4 runs."),
    methods=LSGD,
)
LEMMA14 = result(
    "lemma14", "Lemma 14", Kind.STEP_SIZE, "lower limits on beta and tau", "1",
    "eta_k = 1/(mu (k + beta tau + 1)) with beta > max{2 lambda L/mu (C_1/M + C_2 + 1) - 2, "
    "2 L^2 lambda (C_1+1)/mu^2} and tau as in Theorem 4 meets Lemma 13's conditions; the "
    "proof also needs beta^2 e^(-1/beta) > 2 L^2 lambda (C_1+1)/mu^2 (52).",
    [form("printed", parts={"beta": sp.Max(2 * lam_dis * L / mu * _A - 2, NU_PL),
                            "tau": TAU_BOUND}),
     form("corrected", parts={"beta": sp.Max(2 * lam_dis * L / mu * _A - 2, NU_PL),
                              "tau": TAU_BOUND},
          note="With Eq. (52).", conditions=(EQ52,))],
    relation=">=", hypotheses=("hanzely2023.A4", "hanzely2023.A5", "hanzely2023.A6",
                               "hanzely2023.A7"),
    source="Lemma 14, App. B.7", equations=("49", "51", "52", "53"),
    errata=(ERRATA["erratum13"],), part_typst={"beta": "beta", "tau": "tau"},
    part_latex={"beta": r"\beta", "tau": r"\tau"},
    unchecked=("a step-size rule, run by its theorem's checks. Check P11_theorem4 runs this "
               "schedule, computed in the check, not from this encoding."),
    methods=LSGD,
)
