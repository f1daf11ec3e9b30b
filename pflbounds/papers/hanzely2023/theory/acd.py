"""ACD-PFL (Algorithm 2): Theorem 7, its parameters and the ACD row of Table 1, with the
generic formulas of Theorem 7 in (mu, L^w, L^beta) that the calculator evaluates and Table 3
substitutes an objective's constants into (every count multiplies log(Delta0/eps), see
:mod:`pflbounds.papers.hanzely2023.symbols`)."""

from __future__ import annotations

import sympy as sp

from pflbounds.papers.hanzely2023.errata import ERRATA
from pflbounds.papers.hanzely2023.paper import ACD, form, result
from pflbounds.papers.hanzely2023.symbols import LOG, Lb, Lw, mu
from pflbounds.symbolic.hidden import BigO
from pflbounds.symbolic.result import Kind

_SQ = sp.sqrt(Lw) + sp.sqrt(Lb)
ACD_NU = mu / _SQ**2
ACD_THETA = (sp.sqrt(ACD_NU**2 + 4 * ACD_NU) - ACD_NU) / 2
ACD_ETA = 1 / ACD_THETA
ACD_PW = sp.sqrt(Lw) / _SQ
ACD_ITERATIONS = _SQ / sp.sqrt(mu) * LOG
"""(sqrt(L^w) + sqrt(L^beta))/sqrt(mu) log: the 1/theta of the parameters (theta ~ sqrt(nu))."""
ACD_COMMUNICATION = sp.sqrt(Lw / mu) * LOG
"""p_w x iterations: one round (and one grad_w F per client) per w-update."""
ACD_GRAD_BETA = sp.sqrt(Lb / mu) * LOG

_COUNT_TYPST = {"iterations": "\"iterations\"", "communication": "\"# comm\"",
                "grad_w": "\"#\" nabla_w F", "grad_beta": "\"#\" nabla_beta F"}

THEOREM7 = result(
    "theorem7", "Theorem 7", Kind.COMPLEXITY,
    "iterations, communication rounds, grad_w F and grad_beta F calls of ACD-PFL to eps", "1",
    "Under Assumption 1, ACD-PFL with nu = mu/(sqrt(L^w) + sqrt(L^beta))^2, theta = "
    "(sqrt(nu^2 + 4 nu) - nu)/2 and eta = 1/theta needs O(sqrt((L^w + L^beta)/mu) log(1/eps)) "
    "iterations; grad_w F is computed once per 1/p_w iterations on average, hence "
    "O(sqrt(L^w/mu) log(1/eps)) communications and grad_w F calls, and "
    "O(sqrt(L^beta/mu) log(1/eps)) grad_beta F calls.",
    [form("printed", parts={
        "iterations": BigO(sp.sqrt((Lw + Lb) / mu) * LOG),
        "communication": BigO(ACD_COMMUNICATION), "grad_w": BigO(ACD_COMMUNICATION),
        "grad_beta": BigO(ACD_GRAD_BETA)},
        note="log(Delta0/eps) for the paper's log(1/eps) (Delta0 = 1 gives it).")],
    example={"Delta0": 1, "Lb": 0, "Lw": 4, "eps": 0.01, "mu": 1},
    relation="=", hypotheses=("hanzely2023.A1",),
    source="Theorem 7 (Theorem 4.2 of Hanzely & Richtarik 2019)",
    errata=(ERRATA["erratum7"], ERRATA["erratum8"]), part_typst=_COUNT_TYPST, methods=ACD,
)

THEOREM7_PARAMETERS = result(
    "theorem7_parameters", "Theorem 7 (parameters)", Kind.STEP_SIZE,
    "nu, theta, eta and p_w of ACD-PFL", "1",
    "nu = mu/(sqrt(L^w) + sqrt(L^beta))^2, theta = (sqrt(nu^2 + 4 nu) - nu)/2 (the positive "
    "root of theta^2 = nu (1 - theta)), eta = 1/theta; Algorithm 2 samples the w-block with "
    "p_w = sqrt(L^w)/(sqrt(L^w) + sqrt(L^beta)).",
    [form("printed", parts={"nu": ACD_NU, "theta": ACD_THETA, "eta": ACD_ETA,
                            "p_w": ACD_PW})],
    example={"Lb": 0, "Lw": 4, "mu": 1},
    relation="=", hypotheses=("hanzely2023.A1",), source="Theorem 7, Algorithm 2",
    part_typst={"nu": "nu", "theta": "theta", "eta": "eta", "p_w": "p_w"},
    part_latex={"nu": r"\nu", "theta": r"\theta", "eta": r"\eta", "p_w": "p_w"},
    unchecked=("a step-size rule, run by its theorem's checks. The ACD-PFL checks run Algorithm 2 "
               "with these parameters, evaluated from this encoding."),
    methods=ACD,
)

ACD_CONTRACTION = result(
    "acd_contraction", "ACD-PFL contraction (derived)", Kind.IDENTITY,
    "expected contraction factor of ACD-PFL's Lyapunov function per iteration", "1",
    "Derived, not a claim of this paper: the accelerated coordinate descent Theorem 7 cites "
    "(NU_ACDM in the parametrisation of Hanzely & Richtarik 2019) contracts its Lyapunov "
    "function by 1 - theta per iteration in expectation, theta ~ sqrt(mu)/(sqrt(L^w) + "
    "sqrt(L^beta)).",
    [form("printed", 1 - ACD_THETA, "An informed prediction (digest §5.10), checked by P1.")],
    example={"Lb": 0, "Lw": 4, "mu": 1},
    relation="=", hypotheses=("hanzely2023.A1",), source="derived from Theorem 7's citation",
    methods=ACD,
)

TABLE1_ACD = result(
    "table1_acd", "Table 1 (ACD-PFL)", Kind.COMPLEXITY,
    "communication rounds, grad_w and grad_beta calls of ACD-PFL", "1",
    "Table 1, row ACD-PFL (constants and log(1/eps) ignored; each minimax optimal): "
    "sqrt(L^w/mu), sqrt(L^w/mu), sqrt(L^beta/mu).",
    [form("printed", parts={"communication": BigO(sp.sqrt(Lw / mu)),
                            "grad_w": BigO(sp.sqrt(Lw / mu)),
                            "grad_beta": BigO(sp.sqrt(Lb / mu))})],
    example={"Lb": 0, "Lw": 4, "mu": 1},
    relation="=", hypotheses=("hanzely2023.A1",), source="Table 1",
    part_typst={"communication": "\"# comm\"", "grad_w": "\"#\" nabla_w",
                "grad_beta": "\"#\" nabla_beta"},
    methods=ACD,
)
