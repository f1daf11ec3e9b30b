"""ASVRCD-PFL (Algorithm 4): Theorems 8-9, Lemmas 15-16 and the ASVRCD row of Table 1, with
the generic formulas of Theorems 8-9 in (mu, Lcal^w, Lcal^beta) that the calculator evaluates
and Table 3 substitutes an objective's constants into (every count multiplies
log(Delta0/eps))."""

from __future__ import annotations

import sympy as sp

from pflbounds.papers.hanzely2023.errata import ERRATA
from pflbounds.papers.hanzely2023.paper import ASVRCD, SVRCD, form, result
from pflbounds.papers.hanzely2023.symbols import (
    DF,
    LOG,
    Lb,
    Lcb,
    Lcw,
    Lx,
    Ly,
    gx2,
    gy2,
    mu,
    n,
    pw,
    rho,
)
from pflbounds.symbolic.hidden import BigO
from pflbounds.symbolic.result import Kind

ASVRCD_PW = Lcw / (Lcw + Lcb)
LCAL = 2 * sp.Max(Lcw / pw, Lcb / (1 - pw))
"""Lemma 15: the expected-smoothness constant of the block estimator."""
ASVRCD_ETA = 1 / (4 * LCAL)
ASVRCD_THETA2 = sp.Rational(1, 2)
ASVRCD_THETA1 = sp.Min(sp.Rational(1, 2),
                       sp.sqrt(ASVRCD_ETA * mu * sp.Max(sp.Rational(1, 2), ASVRCD_THETA2 / rho)))
ASVRCD_GAMMA = 1 / sp.Max(2 * mu, 4 * ASVRCD_THETA1 / ASVRCD_ETA)
ASVRCD_NU = 1 - ASVRCD_GAMMA * mu
ASVRCD_ITERATIONS_PW = (1 / rho + sp.sqrt(sp.Max(Lcw / pw, Lcb / (1 - pw)) / (rho * mu))) * LOG
"""Theorem 9 (corrected: Lcal^beta/p_beta) for any p_w."""
ASVRCD_ITERATIONS = (1 / rho + sp.sqrt((Lcw + Lcb) / (rho * mu))) * LOG
"""Theorem 8 (p_w = Lcal^w/(Lcal^w + Lcal^beta))."""
ASVRCD_W_OPTIMAL = (n + sp.sqrt(n * Lcw / mu)) * LOG
"""rho = p_w/n: communications and grad_w F_i calls (Theorem 8)."""
ASVRCD_BETA_OPTIMAL = (n + sp.sqrt(n * Lcb / mu)) * LOG
"""rho = p_beta/n: grad_beta F_i calls (Theorem 8)."""

_ASSUME = ("hanzely2023.A1", "hanzely2023.A2")
# 0 < p_w < 1 and rho > 0 are instance relations of the paper (symbols.py): every result that
# takes p_w or rho refuses a point outside them

THEOREM8 = result(
    "theorem8", "Theorem 8", Kind.COMPLEXITY,
    "iterations of ASVRCD-PFL to eps, and its communication and gradient counts", "1",
    "Under Assumptions 1 and 2, ASVRCD-PFL with eta = 1/(4 Lcal), theta_2 = 1/2, gamma = "
    "1/max{2 mu, 4 theta_1/eta}, nu = 1 - gamma mu, theta_1 = min{1/2, sqrt(eta mu max{1/2, "
    "theta_2/rho})} and p_w = Lcal^w/(Lcal^beta + Lcal^w) needs O((1/rho + sqrt((Lcal^w + "
    "Lcal^beta)/(rho mu))) log(1/eps)) iterations. rho = p_w/n gives O((n + sqrt(n Lcal^w/mu)) "
    "log(1/eps)) communications and grad_w F_i calls; rho = p_beta/n gives O((n + sqrt(n "
    "Lcal^beta/mu)) log(1/eps)) grad_beta F_i calls (not both at once).",
    [form("printed", parts={"iterations": BigO(ASVRCD_ITERATIONS),
                            "communication": BigO(ASVRCD_W_OPTIMAL),
                            "grad_w": BigO(ASVRCD_W_OPTIMAL),
                            "grad_beta": BigO(ASVRCD_BETA_OPTIMAL)},
          note="communication and grad_w for rho = p_w/n; grad_beta for rho = p_beta/n. "
          "log(Delta0/eps) for log(1/eps).")],
    example={"Delta0": 1, "Lcb": 0, "Lcw": 4, "eps": 0.01, "mu": 1, "n": 10, "rho": 0.1},
    relation="=", hypotheses=_ASSUME,
    source="Theorem 8 (Theorem 4.1 of Hanzely et al. 2020b)",
    errata=(ERRATA["erratum9"], ERRATA["erratum10"], ERRATA["erratum15_theorem9"]),
    part_typst={"iterations": "\"iterations\"", "communication": "\"# comm\"",
                "grad_w": "\"#\" nabla_w F_i", "grad_beta": "\"#\" nabla_beta F_i"},
    methods=ASVRCD,
)

_PARAM_UNITS = {"p_w": "1", "Lcal": "f/x^2", "eta": "x^2/f", "theta1": "1", "theta2": "1",
                "gamma": "x^2/f", "nu": "1"}
THEOREM8_PARAMETERS = result(
    "theorem8_parameters", "Theorems 8-9 (parameters)", Kind.STEP_SIZE,
    "p_w, Lcal, eta, theta_1, theta_2, gamma, nu of ASVRCD-PFL", "1",
    "p_w = Lcal^w/(Lcal^beta + Lcal^w), Lcal = 2 max(Lcal^w/p_w, Lcal^beta/p_beta) (Lemma 15), "
    "eta = 1/(4 Lcal), theta_2 = 1/2, theta_1 = min{1/2, sqrt(eta mu max{1/2, theta_2/rho})}, "
    "gamma = 1/max{2 mu, 4 theta_1/eta}, nu = 1 - gamma mu. Theorem 9 keeps p_w free.",
    [form("printed", parts={"p_w": ASVRCD_PW, "Lcal": LCAL, "eta": ASVRCD_ETA,
                            "theta1": ASVRCD_THETA1, "theta2": ASVRCD_THETA2,
                            "gamma": ASVRCD_GAMMA, "nu": ASVRCD_NU},
          note="Lcal, eta, theta_1, gamma and nu take p_w as an input (Theorem 9); Theorem 8 "
          "sets it to the first part.")],
    example={"Lcb": 0, "Lcw": 4, "mu": 1, "pw": 0.5, "rho": 0.1},
    relation="=", hypotheses=_ASSUME,
    source="Theorems 8-9, Lemma 15", part_units=_PARAM_UNITS,
    part_typst={"p_w": "p_w", "Lcal": "cal(L)", "eta": "eta", "theta1": "theta_1",
                "theta2": "theta_2", "gamma": "gamma", "nu": "nu"},
    part_latex={"p_w": "p_w", "Lcal": r"\mathcal{L}", "eta": r"\eta", "theta1": r"\theta_1",
                "theta2": r"\theta_2", "gamma": r"\gamma", "nu": r"\nu"},
    unchecked=("a step-size rule, run by its theorem's checks. The ASVRCD-PFL checks "
               "run Algorithm 4 with these parameters, evaluated from this encoding."),
    methods=ASVRCD,
)

_ITER9_PRINTED = (1 / rho + sp.sqrt(sp.Max(Lcw / pw, Lb / (1 - pw)) / (rho * mu))) * LOG
THEOREM9 = result(
    "theorem9", "Theorem 9", Kind.COMPLEXITY,
    "iterations and communication rounds of ASVRCD-PFL to eps (any p_w)", "1",
    "ASVRCD-PFL (Algorithm 3; run Algorithm 4) with Theorem 8's parameters and any p_w needs "
    "O((1/rho + sqrt(max(Lcal^w/p_w, L^beta/p_beta)/(rho mu))) log(1/eps)) iterations; total "
    "communications (and w-gradient calls) O(iterations (rho n + p_w)), which for rho = p_w/n "
    "is 2 (n + sqrt(n Lcal^w/mu)) log(1/eps).",
    [form("printed", parts={"iterations": BigO(_ITER9_PRINTED),
                            "communication": BigO(_ITER9_PRINTED * (rho * n + pw))}),
     form("corrected", parts={
         "iterations": BigO(ASVRCD_ITERATIONS_PW),
         "communication": BigO(ASVRCD_ITERATIONS_PW * (pw + rho)),
         "grad_w": BigO(ASVRCD_ITERATIONS_PW * (2 * pw + rho * n)),
         "grad_beta": BigO(ASVRCD_ITERATIONS_PW * (2 * (1 - pw) + rho * n))},
         note="Lcal^beta for L^beta; expected rounds per iteration p_w + rho (a refresh costs one "
         "round), expected gradient calls per client 2 p_w + rho n (w) and 2 p_beta + rho n "
         "(beta).")],
    example={"Delta0": 1, "Lb": 0, "Lcb": 0, "Lcw": 4, "eps": 0.01, "mu": 1, "n": 10, "pw": 0.5,
             "rho": 0.1},
    relation="=", hypotheses=_ASSUME, source="Theorem 9, App. B.9",
    errata=(ERRATA["erratum15_theorem9"], ERRATA["erratum15_comm"]),
    part_typst={"iterations": "\"iterations\"", "communication": "\"# comm\"",
                "grad_w": "\"#\" nabla_w F_i", "grad_beta": "\"#\" nabla_beta F_i"},
    methods=ASVRCD,
)

LEMMA15 = result(
    "lemma15", "Lemma 15", Kind.UPPER_BOUND,
    "E||(g(x) - g(x') + grad F(x')) - grad F(x)||^2", "f^2/x^2",
    "Under Assumptions 1 and 2, the block estimator of Eq. (55) satisfies E||(g(x) - g(x') + "
    "grad F(x')) - grad F(x)||^2 <= 2 Lcal D_F(x, x') with Lcal = 2 max(Lcal^w/p_w, "
    "Lcal^beta/p_beta).",
    [form("printed", 2 * LCAL * DF)],
    example={"DF": 1, "Lcb": 0, "Lcw": 4, "pw": 0.5},
    hypotheses=_ASSUME, source="Lemma 15, App. B.9",
    errata=(ERRATA["erratum15_theorem9"], ERRATA["erratum11"]),
    quantity_typst="EE norm(g(x) - g(x') + nabla F(x') - nabla F(x))^2",
    methods=SVRCD,
)

LEMMA16 = result(
    "lemma16", "Lemma 16, Eq. (56)", Kind.UPPER_BOUND,
    "largest eigenvalue of the Hessian of H(x, y)", "f/x^2",
    "If H(x, y) is jointly convex with grad_x^2 H <= L_x I and grad_y^2 H <= L_y I, then "
    "grad^2 H <= 2 diag(L_x I, L_y I); in particular H is 2 max(L_x, L_y)-smooth.",
    [form("printed", 2 * sp.Max(Lx, Ly))],
    source="Lemma 16, App. B.9", equations=("56",), quantity_typst="lambda_max(nabla^2 H)",
    no_method=("a fact about jointly convex, blockwise smooth functions (used in Lemma 15's "
               "proof), not about a method"),
)

LEMMA16_57 = result(
    "lemma16_57", "Lemma 16, Eq. (57)", Kind.LOWER_BOUND, "D_H((x, y), (x', y'))", "f",
    "Under Lemma 16's assumptions, D_H((x, y), (x', y')) >= (1/2)(grad H - grad H')^T "
    "diag(L_x^-1 I/2, L_y^-1 I/2)(grad H - grad H').",
    [form("printed", (gx2 / Lx + gy2 / Ly) / 4)],
    relation=">=", source="Lemma 16, App. B.9", equations=("57",),
    quantity_typst="D_H ((x, y), (x', y'))",
    no_method=("a fact about jointly convex, blockwise smooth functions (used in Lemma 15's "
               "proof), not about a method"),
)

TABLE1_ASVRCD = result(
    "table1_asvrcd", "Table 1 (ASVRCD-PFL)", Kind.COMPLEXITY,
    "communication rounds, grad_w and grad_beta calls of ASVRCD-PFL", "1",
    "Table 1, row ASVRCD-PFL (constants and log(1/eps) ignored): n + sqrt(n Lcal^w/mu) "
    "communications and grad_w calls (optimal), n + sqrt(n Lcal^beta/mu) grad_beta calls "
    "(optimal); the two optima need different rho.",
    [form("printed", parts={"communication": BigO(n + sp.sqrt(n * Lcw / mu)),
                            "grad_w": BigO(n + sp.sqrt(n * Lcw / mu)),
                            "grad_beta": BigO(n + sp.sqrt(n * Lcb / mu))})],
    example={"Lcb": 0, "Lcw": 4, "mu": 1, "n": 10},
    relation="=", hypotheses=_ASSUME, source="Table 1",
    part_typst={"communication": "\"# comm\"", "grad_w": "\"#\" nabla_w",
                "grad_beta": "\"#\" nabla_beta"},
    unchecked=("orders of magnitude only (no constants). Checks P6_n and P6_grads test"
               " Theorem 9's counts, from which the row is read."),
    methods=ASVRCD,
)
