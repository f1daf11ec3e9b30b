"""Lower bounds: Theorem 6 and Nesterov's quadratic bound, Eq. (54) (App. B.8), with Theorem
6's counts in (mu, L^w, Lcal^w, Lcal^beta, n) that the calculator evaluates. Both name their
hard instance, Nesterov's tridiagonal quadratic (the instance of Theorem 6's proof sketch on
each block)."""

from __future__ import annotations

import sympy as sp

from pflbounds.papers.hanzely2023.errata import ERRATA
from pflbounds.papers.hanzely2023.paper import NESTEROV, form, result
from pflbounds.papers.hanzely2023.symbols import LOG, K, Lcb, Lcw, Lw, kap, mu, n, ystar2
from pflbounds.symbolic.hidden import Omega
from pflbounds.symbolic.result import Kind

LB_COMMUNICATION = sp.sqrt(Lw / mu) * LOG
LB_GRAD_W = n + sp.sqrt(n * Lcw / mu) * LOG
LB_GRAD_BETA = n + sp.sqrt(n * Lcb / mu) * LOG
LB_GRAD_W_APPENDIX = (n + sp.sqrt(n * Lcw / mu)) * LOG
LB_GRAD_BETA_APPENDIX = (n + sp.sqrt(n * Lcb / mu)) * LOG

THEOREM6 = result(
    "theorem6", "Theorem 6", Kind.LOWER_BOUND,
    "communication rounds, grad_w and grad_beta oracle calls of any method in class A to eps",
    "1",
    "If F satisfies Assumptions 1 and 2, any algorithm of class A needs Omega(sqrt(L^w/mu) "
    "log(1/eps)) communication rounds, Omega(n + sqrt(n Lcal^w/mu) log(1/eps)) calls to the "
    "grad_w oracle and Omega(n + sqrt(n Lcal^beta/mu) log(1/eps)) calls to the grad_beta "
    "oracle.",
    [form("printed", parts={"communication": Omega(LB_COMMUNICATION),
                            "grad_w": Omega(LB_GRAD_W), "grad_beta": Omega(LB_GRAD_BETA)},
          note="log(Delta0/eps) for log(1/eps)."),
     form("appendix", parts={"communication": Omega(LB_COMMUNICATION),
                             "grad_w": Omega(LB_GRAD_W_APPENDIX),
                             "grad_beta": Omega(LB_GRAD_BETA_APPENDIX)},
          note="Section 2.1 and App. B.8: the logarithm multiplies n too (the standard "
          "finite-sum lower bound of Lan & Zhou 2018).")],
    example={"Delta0": 1, "Lcb": 0, "Lcw": 4, "Lw": 1, "eps": 0.01, "mu": 0.5, "n": 10},
    relation=">=", hypotheses=("hanzely2023.A1", "hanzely2023.A2", "hanzely2023.Aclass"),
    source="Theorem 6, App. B.8 (proof sketch)", errata=(ERRATA["erratum15_theorem6"],),
    part_typst={"communication": "\"# comm\"", "grad_w": "\"#\" nabla_w",
                "grad_beta": "\"#\" nabla_beta"},
    unchecked=("orders of magnitude only (no constants). Check P3 tests Nesterov's "
               "bound, Eq. (54), on which its proof sketch rests."),
    methods=NESTEROV,
)

_RATIO = (sp.sqrt(kap) - 1) / (sp.sqrt(kap) + 1)
EQ54 = result(
    "eq54", "Nesterov's lower bound, Eq. (54)", Kind.LOWER_BOUND, "||y^K - y^*||^2", "x^2",
    "On h'(y) = y^T A y/2 - e_1^T y with A tridiagonal (2 + c on the diagonal, 1 off it), any "
    "first-order method started at 0 has ||y^K - y^*||^2 >= ((sqrt(kappa) - 1)/(sqrt(kappa) + "
    "1))^{2K} ||y^*||^2, kappa = lambda_max(A)/lambda_min(A) (in infinite dimension).",
    [form("printed", _RATIO ** (2 * K) * ystar2)],
    relation=">=", source="App. B.8 (Nesterov 2003)", equations=("54",),
    quantity_typst="norm(y^K - y^*)^2",
    methods=NESTEROV,
)
