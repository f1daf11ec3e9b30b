"""LSGD-PFL, strongly convex and convex (Algorithm 1): Theorems 1, 2, 5, Lemmas 5-7 and the
LSGD row of Table 1 (digest §5.0-5.8)."""

from __future__ import annotations

import sympy as sp

from pflbounds.papers.hanzely2023.errata import ERRATA
from pflbounds.papers.hanzely2023.paper import LSGD, cond, form, result
from pflbounds.papers.hanzely2023.symbols import (
    B,
    Db0,
    Dist0,
    Dw0,
    Fgap,
    K,
    Lb,
    Lw,
    M,
    SumW,
    SumWF,
    Vk,
    eps,
    eta,
    mu,
    sigma2,
    tau,
    zeta2,
)
from pflbounds.symbolic.hidden import BigO, Otilde
from pflbounds.symbolic.result import Kind

E = sp.E
LMAX = sp.Max(Lw, Lb)
ETA_MAX = sp.Min(1 / (4 * Lb), 1 / (8 * sp.sqrt(3 * E) * (tau - 1) * Lw))
"""The step-size cap of Theorems 1, 2 and 5 (infinite second term when tau = 1)."""
ETA_MAX_CORRECTED = sp.Min(1 / (4 * Lb), 1 / (4 * Lw), 1 / (8 * sp.sqrt(3 * E) * (tau - 1) * Lw))
"""With the tau = 1 gap closed (hanzely2023.erratum6); the same cap for every tau >= 2."""
STEP = cond(sp.Le(eta, ETA_MAX), "eta <= min{1/(4 L^beta), 1/(8 sqrt(3e)(tau-1) L^w)}")
STEP_CORRECTED = cond(sp.Le(eta, ETA_MAX_CORRECTED),
                      "eta <= min{1/(4 L^beta), 1/(4 L^w), 1/(8 sqrt(3e)(tau-1) L^w)}")
D_LEMMA7 = 2 * E * (tau - 1) * tau * (3 * zeta2 + sigma2 / B)
"""D of Lemma 7."""
PSI0 = 2 * sigma2 / (B * M) + 8 * Lw * eta * E * (tau - 1) * tau * (3 * zeta2 + sigma2 / B)
PHI0_PRINTED = (2 * Dw0 + Db0) / eta
PHI0_SAFE = 2 * (Dw0 + Db0) / eta

_ASSUME = ("hanzely2023.A1", "hanzely2023.A3")
_LSGD_ERRATA = (ERRATA["erratum5"], ERRATA["erratum6"])
_THM1_TERMS = (sp.Max(Lb, tau * Lw) / mu + sigma2 / (M * B * mu * eps)
               + tau / mu * sp.sqrt(Lw * (zeta2 + sigma2 / B) / eps))

ETA_EPS = sp.Min(ETA_MAX_CORRECTED, eps * B * M / (8 * sigma2),
                 sp.sqrt(eps / (32 * E * Lw * tau * (tau - 1) * (3 * zeta2 + sigma2 / B))))
"""Derived (digest §5.1): the largest step of Theorem 5 with eta Psi^0 <= eps/2."""
K_EXPLICIT = sp.Max(0, sp.ceiling(sp.log(2 * PHI0_SAFE.subs(eta, ETA_EPS) / eps)
                                  / (ETA_EPS * mu)))

THEOREM1 = result(
    "theorem1", "Theorem 1", Kind.COMPLEXITY,
    "iterations K with E[F(w_bar^K, beta_bar^K)] - F^* <= eps (LSGD-PFL, mu > 0)", "1",
    "Under Assumptions 1 and 3 with a constant step eta <= min{1/(4 L^beta), 1/(8 sqrt(3e)"
    "(tau-1) L^w)}, LSGD-PFL reaches E f(w_bar^K, beta_bar^K) - f^* <= eps after "
    "O~(max(L^beta, tau L^w)/mu + sigma^2/(M B mu eps) + (tau/mu) sqrt(L^w (zeta_*^2 + "
    "sigma^2/B)/eps)) iterations.",
    [form("printed", Otilde(_THM1_TERMS)),
     form("explicit", K_EXPLICIT,
          "Derived from Theorem 5 (corrected Phi^0, tau = 1 gap closed): the step "
          "eta = min{1/(4L^beta), 1/(4L^w), 1/(8 sqrt(3e)(tau-1)L^w), eps B M/(8 sigma^2), "
          "sqrt(eps/(32 e L^w tau(tau-1)(3 zeta^2 + sigma^2/B)))} makes eta Psi^0 <= eps/2 and "
          "K >= log(2 Phi^0/eps)/(eta mu) makes the first term <= eps/2.")],
    example={"B": 4, "Db0": 1, "Dw0": 1, "Lb": 0, "Lw": 1, "M": 10, "eps": 0.01, "mu": 0.1,
             "sigma2": 1, "tau": 2, "zeta2": 0.1},
    relation="=", hypotheses=_ASSUME, source="Theorem 1 (Corollary D.1 of Gorbunov et al.)",
    errata=_LSGD_ERRATA,
    methods=LSGD,
)

THEOREM2 = result(
    "theorem2", "Theorem 2", Kind.COMPLEXITY,
    "iterations K with E[F(w_bar^K, beta_bar^K)] - F^* <= eps (LSGD-PFL, mu = 0)", "1",
    "As Theorem 1 with mu = 0 (unique solution): O~(max(L^beta, tau L^w)/eps + sigma^2/(M B "
    "eps^2) + tau sqrt(L^w (zeta_*^2 + sigma^2/B))/eps^{3/2}) iterations.",
    [form("printed", Otilde(Dist0 * (sp.Max(Lb, tau * Lw) / eps + sigma2 / (M * B * eps**2)
                                     + tau * sp.sqrt(Lw * (zeta2 + sigma2 / B))
                                     / eps ** sp.Rational(3, 2))),
          "The paper hides the initial distance R_0^2 in the O~ (every term carries it); "
          "Dist0 = 1 gives the printed expression.")],
    example={"B": 4, "Dist0": 1, "Lb": 0, "Lw": 1, "M": 10, "eps": 0.01, "sigma2": 1, "tau": 2,
             "zeta2": 0.1},
    relation="=", hypotheses=_ASSUME, source="Theorem 2 (Corollary D.2 of Gorbunov et al.)",
    errata=_LSGD_ERRATA,
    unchecked=("a derived count, not evaluated by a check. Theorem 5 at mu = 0 solved for K (O~, "
               "its constants and logs hidden); check P_theorem5_weak tests the bound it is "
               "read from."),
    methods=LSGD,
)

_THM5_Q = "E[F(w_bar^K, beta_bar^K)] - F(w^*, beta^*)"
_THM5_QT = "EE[F(overline(w)^K, overline(beta)^K)] - F^*"
THEOREM5 = result(
    "theorem5", "Theorem 5 (mu > 0)", Kind.UPPER_BOUND, _THM5_Q, "f",
    "Under Assumptions 1 and 3, 0 < eta <= min{1/(4 L^beta), 1/(8 sqrt(3e)(tau-1) L^w)} and "
    "mu > 0: E f(w_bar^K, beta_bar^K) - f^* <= (1 - eta mu)^K Phi^0 + eta Psi^0, with the "
    "weighted average of the virtual iterates, Phi^0 = (2||w^0 - w^*||^2 + sum_m "
    "||beta_m^0 - beta_m^*||^2)/eta and Psi^0 = 2 sigma^2/(B M) + 8 L^w eta e (tau-1) tau "
    "(3 zeta_*^2 + sigma^2/B).",
    [form("printed", (1 - eta * mu) ** K * PHI0_PRINTED + eta * PSI0, conditions=(STEP,)),
     form("corrected", (1 - eta * mu) ** K * PHI0_SAFE + eta * PSI0,
          "Phi^0 with the 2 on the whole initial distance, and eta <= 1/(4 L^w) when tau = 1.",
          conditions=(STEP_CORRECTED,))],
    example={"B": 4, "Db0": 1, "Dw0": 1, "K": 100, "Lb": 0, "Lw": 1, "M": 10, "eta": 0.01,
             "mu": 0.1, "sigma2": 1, "tau": 2, "zeta2": 0.1},
    hypotheses=_ASSUME, source="Theorem 5 (Thm 2.1 of Gorbunov et al.)", equations=("26",),
    errata=(*_LSGD_ERRATA, ERRATA["erratum14"]), quantity_typst=_THM5_QT,
    methods=LSGD,
)

THEOREM5_WEAK = result(
    "theorem5_weak", "Theorem 5 (mu = 0)", Kind.UPPER_BOUND, _THM5_Q, "f",
    "As Theorem 5 with mu = 0: E f(w_bar^K, beta_bar^K) - f^* <= Phi^0/K + eta Psi^0 (uniform "
    "average of the virtual iterates k = 0..K).",
    [form("printed", PHI0_PRINTED / K + eta * PSI0, conditions=(STEP,)),
     form("corrected", PHI0_SAFE / K + eta * PSI0, "As Theorem 5's corrected form.",
          conditions=(STEP_CORRECTED,))],
    example={"B": 4, "Db0": 1, "Dw0": 1, "K": 100, "Lb": 0, "Lw": 1, "M": 10, "eta": 0.01,
             "sigma2": 1, "tau": 2, "zeta2": 0.1},
    hypotheses=_ASSUME, source="Theorem 5", equations=("27",),
    errata=(*_LSGD_ERRATA, ERRATA["erratum14"]), quantity_typst=_THM5_QT,
    methods=LSGD,
)

_L5_TYPST = {"21": "1/M sum_m norm(nabla_w f_m)^2",
             "22": "norm(1/M sum_m nabla_w f_m)^2 + 1/M^2 sum_m norm(nabla_beta f_m)^2"}
_L5_LATEX = {"21": r"\frac1M\sum_m\|\nabla_w f_m\|^2",
             "22": r"\|\frac1M\sum_m\nabla_w f_m\|^2+\frac{1}{M^2}\sum_m\|\nabla_\beta f_m\|^2"}
LEMMA5 = result(
    "lemma5", "Lemma 5", Kind.UPPER_BOUND,
    "(21): (1/M) sum_m ||grad_w f_m(w_m^k, beta_m^k)||^2; (22): ||(1/M) sum_m grad_w f_m||^2 "
    "+ (1/M^2) sum_m ||grad_beta f_m||^2", "f^2/x^2",
    "Under Assumptions 1 and 3, with V_k = (1/M) sum_m ||w^k - w_m^k||^2 and L = max{L^w, "
    "L^beta}: (21) <= 6 L^w (F(w^k, beta^k) - F^*) + 3 (L^w)^2 V_k + 3 zeta_*^2 and (22) <= "
    "4 L (F(w^k, beta^k) - F^*) + 2 (L^w)^2 V_k.",
    [form("printed", parts={"21": 6 * Lw * Fgap + 3 * Lw**2 * Vk + 3 * zeta2,
                            "22": 4 * LMAX * Fgap + 2 * Lw**2 * Vk},
          note="(21) holds as stated: its proof writes L = max{L^w, L^beta}, but only "
          "w-gradients enter, and the block co-coercivity ||grad_w f(x) - grad_w f(y)||^2 <= "
          "2 L^w D_f(x, y) gives 6 L^w and 3 (L^w)^2 (hanzely2023.erratum15_lemma5).")],
    example={"Fgap": 1, "Lb": 0, "Lw": 1, "Vk": 0.5, "zeta2": 0.1},
    hypotheses=_ASSUME, source="Lemma 5 (Lemma G.1 of Gorbunov et al.)", equations=("21", "22"),
    errata=(ERRATA["erratum15_lemma5"],), part_typst=_L5_TYPST, part_latex=_L5_LATEX,
    methods=LSGD,
)

LEMMA6 = result(
    "lemma6", "Lemma 6", Kind.UPPER_BOUND,
    "(23): (1/M) sum_m E||g_w,m^k||^2; (24): E[||(1/M) sum_m g_w,m^k||^2 + (1/M^2) sum_m "
    "||g_beta,m^k||^2]", "f^2/x^2",
    "Lemma 5 for the minibatch stochastic gradients: (23) <= 6 L^w (F - F^*) + 3 (L^w)^2 V_k "
    "+ sigma^2/B + 3 zeta_*^2 and (24) <= 4 L (F - F^*) + 2 (L^w)^2 V_k + 2 sigma^2/(B M).",
    [form("printed", parts={"23": 6 * Lw * Fgap + 3 * Lw**2 * Vk + sigma2 / B + 3 * zeta2,
                            "24": 4 * LMAX * Fgap + 2 * Lw**2 * Vk + 2 * sigma2 / (B * M)},
          note="(23) is (21) plus the variance sigma^2/B: it holds with L^w as stated.")],
    example={"B": 4, "Fgap": 1, "Lb": 0, "Lw": 1, "M": 10, "Vk": 0.5, "sigma2": 1, "zeta2": 0.1},
    hypotheses=_ASSUME, source="Lemma 6", equations=("23", "24"),
    errata=(ERRATA["erratum15_lemma5"],),
    part_typst={"23": "1/M sum_m EE norm(g_(w,m)^k)^2",
                "24": "EE[norm(1/M sum_m g_(w,m)^k)^2 + 1/M^2 sum_m norm(g_(beta,m)^k)^2]"},
    part_latex={"23": r"\frac1M\sum_m\mathbb{E}\|g_{w,m}^k\|^2",
                "24": r"\mathbb{E}[\|\frac1M\sum_m g_{w,m}^k\|^2+\frac1{M^2}\sum_m"
                      r"\|g_{\beta,m}^k\|^2]"},
                      unchecked=("a proof step, not checked on its own. (23) is Lemma 5's (21), "
                                 "which its check tests, plus sigma^2/B; (24) is not run."),
    methods=LSGD,
)

LEMMA7 = result(
    "lemma7", "Lemma 7", Kind.UPPER_BOUND, "sum_k (1 - eta mu)^(-k-1) E[V_k]", "x^2",
    "Under Assumptions 1 and 3 with eta <= 1/(8 sqrt(3e)(tau-1) L^w): 2 L^w sum_k w_k E V_k "
    "<= (1/2) sum_k w_k E[F(w^k, beta^k) - F^*] + 2 L^w D eta^2 sum_k w_k, w_k = "
    "(1 - eta mu)^(-k-1), D = 2e (tau-1) tau (3 zeta_*^2 + sigma^2/B). Divided by 2 L^w here.",
    [form("printed", SumWF / (4 * Lw) + D_LEMMA7 * eta**2 * SumW)],
    hypotheses=_ASSUME, source="Lemma 7 (Lemma E.1 of Gorbunov et al.)", equations=("25",),
    conditions=(cond(sp.Le(eta, 1 / (8 * sp.sqrt(3 * E) * (tau - 1) * Lw)),
                     "eta <= 1/(8 sqrt(3e)(tau-1) L^w)"),),
    quantity_typst="sum_k omega_k EE[V_k]",
    unchecked=("a proof step, not checked on its own. A step of Theorem 5's proof; checks P4 and "
               "P4_printed test Theorem 5."),
    methods=LSGD,
)

TABLE1_LSGD = result(
    "table1_lsgd", "Table 1 (LSGD-PFL)", Kind.COMPLEXITY,
    "communication rounds, grad_w and grad_beta calls of LSGD-PFL", "1",
    "Table 1, row LSGD-PFL (constants and logs ignored): communication max(L^beta tau^-1, "
    "L^w)/mu + sigma^2/(M B tau mu eps) + (1/mu) sqrt(L^w (zeta_*^2 + sigma^2/B)/eps); "
    "# grad_w = # grad_beta = Theorem 1's iteration count.",
    [form("printed", parts={
        "communication": BigO(sp.Max(Lb / tau, Lw) / mu + sigma2 / (M * B * tau * mu * eps)
                              + 1 / mu * sp.sqrt(Lw * (zeta2 + sigma2 / B) / eps)),
        "grad_w": BigO(_THM1_TERMS), "grad_beta": BigO(_THM1_TERMS)})],
    example={"B": 4, "Lb": 0, "Lw": 1, "M": 10, "eps": 0.01, "mu": 0.1, "sigma2": 1, "tau": 2,
             "zeta2": 0.1},
    relation="=", hypotheses=_ASSUME, source="Table 1",
    part_typst={"communication": "\"# comm\"", "grad_w": "\"#\" nabla_w",
                "grad_beta": "\"#\" nabla_beta"},
    methods=LSGD,
)
