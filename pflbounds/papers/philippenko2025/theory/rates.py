"""Rates in terms of the sufficient variance: Theorem 2 of philippenko2025, its three step-size
regimes (Table 1) and the saturation level of the constant step (digest §4.6-§4.7)."""

from __future__ import annotations

import sympy as sp

from pflbounds.papers.philippenko2025.assumptions import RATES
from pflbounds.papers.philippenko2025.errata import ERRATA
from pflbounds.papers.philippenko2025.paper import ADAPTIVE_AFO, cond, form, result
from pflbounds.papers.philippenko2025.symbols import (
    C_ABOVE_ONE,
    SHIFTED_STEP,
    C,
    T,
    beta,
    eps0,
    eta,
    gamma0,
    kappa_w,
    mu,
    sigma_suf2,
    t,
)
from pflbounds.symbolic.result import Kind

# mu <= beta, kappa <= 1, lambda <= 1 and eps <= eps_i^0 are instance relations of the paper
# (symbols.py): every result over their symbols refuses a point that violates one
_STEP_CONST = (cond(sp.Le(eta * mu, 1), "eta <= 1/mu"),
               cond(sp.Le(eta * beta, kappa_w), "eta <= kappa/beta"))
_EPS_T = ("Precision eps > 0 and T with eps_i^{T-1} >= eps (printed); rigorously the "
          "realised excess loss must stay >= eps along the run (erratum 5).")

THEOREM2_CONSTANT = result(
    "theorem2_constant", "Theorem 2, constant step (Table 1)", Kind.UPPER_BOUND,
    "E[eps_i^T]: expected excess loss of client i's last iterate", "f",
    "A1-A3, A4 or A5, constant step eta <= 1/mu and eta <= (sigma_phi^t/sigma_psi^t)^2/beta: "
    "E[eps_i^T] <= (1 - eta mu)^T eps_i^0 + eta beta sigma_{i,suf}^2(eps)/(2 mu). " + _EPS_T,
    [form("printed", (1 - eta * mu) ** T * eps0 + eta * beta * sigma_suf2 / (2 * mu))],
    source="Theorem 2, Table 1 row 1, App. B.2", hypotheses=RATES, conditions=_STEP_CONST,
    errata=(ERRATA["erratum5"], ERRATA["erratum17"], ERRATA["erratum23"], ERRATA["erratum24"],
            ERRATA["erratum9"]),
    quantity_typst="EE[epsilon_i^T]", methods=ADAPTIVE_AFO,
)

THEOREM2_FLOOR = result(
    "theorem2_floor", "Theorem 2, saturation level of the constant step", Kind.UPPER_BOUND,
    "limsup_T E[eps_i^T] with a constant step", "f",
    "With a constant step the excess loss converges linearly up to a saturation level "
    "eta beta sigma_{i,suf}^2(eps)/(2 mu), 'like classical SGD'.",
    [form("printed", eta * beta * sigma_suf2 / (2 * mu))],
    source="Theorem 2 (discussion after Table 1)", hypotheses=RATES, conditions=_STEP_CONST,
    quantity_typst="limsup_(T -> oo) EE[epsilon_i^T]", methods=ADAPTIVE_AFO,
)

_LOG_C = sp.log(2 * T * mu**2 * eps0 / (beta * sigma_suf2))
_LOG_P = sp.log(2 * T * mu**2 * eps0 / sigma_suf2)
_HORIZON_STEP = _LOG_C / (mu * T)
_HORIZON_CONDS = (cond(sp.Gt(_LOG_C, 0), "the step is positive: 2 T mu^2 eps0 > beta sigma_suf^2"),
                  cond(sp.Le(_LOG_C, T), "the step is <= 1/mu"),
                  cond(sp.Le(beta * _HORIZON_STEP, kappa_w), "the step is <= kappa/beta"))

THEOREM2_HORIZON_STEP = result(
    "theorem2_horizon_step", "Theorem 2, horizon-dependent step (Table 1)", Kind.STEP_SIZE,
    "step eta_i^t for a horizon T", "x^2/f",
    "eta_i^t = ln(2 T mu^2 eps_i^0/(beta sigma_{i,suf}^2(eps)))/(mu T) <= 1/mu.",
    [form("printed", _HORIZON_STEP)],
    relation="=", source="Theorem 2, Table 1 row 2", hypotheses=RATES, conditions=_HORIZON_CONDS,
    quantity_typst="eta_i^t", methods=ADAPTIVE_AFO,
    unchecked=("a step-size rule, run by its theorem's checks. Checks P9_horizon and E7 take this "
               "step from this encoding."),
)

THEOREM2_HORIZON = result(
    "theorem2_horizon", "Theorem 2, horizon-dependent step (Table 1)", Kind.UPPER_BOUND,
    "E[eps_i^T]: expected excess loss of client i's last iterate", "f",
    "With eta = ln(2 T mu^2 eps_i^0/(beta sigma_suf^2))/(mu T): E[eps_i^T] <= beta "
    "sigma_{i,suf}^2(eps)/(2 mu^2 T) (ln(2 T mu^2 eps_i^0/sigma_{i,suf}^2(eps)) + 1) (as "
    "printed). " + _EPS_T,
    [form("printed", beta * sigma_suf2 / (2 * mu**2 * T) * (_LOG_P + 1),
          "As printed: beta missing inside the logarithm (not unit-consistent)."),
     form("corrected", beta * sigma_suf2 / (2 * mu**2 * T) * (_LOG_C + 1),
          "beta inside the logarithm, as in the step size (the minimiser of "
          "exp(-eta mu T) eps0 + eta beta sigma_suf^2/(2 mu) over eta).")],
    source="Theorem 2, Table 1 row 2, App. B.2", hypotheses=RATES, conditions=_HORIZON_CONDS,
    errata=(ERRATA["erratum7"],),
    quantity_typst="EE[epsilon_i^T]", methods=ADAPTIVE_AFO,
)

THEOREM2_DECREASING_STEP = result(
    "theorem2_decreasing_step", "Theorem 2, decreasing step (Table 1)", Kind.STEP_SIZE,
    "step eta_i^t at iteration t", "x^2/f",
    "eta_i^t = C/(mu t) with C > 1 (printed); shifted to C/(mu (t + gamma0)) so that the first "
    "step satisfies eta <= kappa/beta.",
    [form("printed", C / (mu * t)),
     form("corrected", C / (mu * (t + gamma0)),
          "Shifted schedule (erratum 8); gamma0 = 0 is the printed one.",
          conditions=(SHIFTED_STEP,))],
    relation="=", source="Theorem 2, Table 1 row 3", hypotheses=RATES, conditions=(C_ABOVE_ONE,),
    errata=(ERRATA["erratum8"],),
    quantity_typst="eta_i^t", methods=ADAPTIVE_AFO,
    unchecked=("a step-size rule, run by its theorem's checks. Checks P9, E8, P10 and E10 and "
               "their variants take this schedule from this encoding."),
)

THEOREM2_DECREASING = result(
    "theorem2_decreasing", "Theorem 2, decreasing step (Table 1)", Kind.UPPER_BOUND,
    "E[eps_i^T]: expected excess loss of client i's last iterate", "f",
    "With eta_i^t = C/(mu t), C > 1, and eta_i^t <= (sigma_phi^t/sigma_psi^t)^2/beta: "
    "E[eps_i^T] <= max(beta sigma_{i,suf}^2(eps) C^2/(2 mu^2 (C - 1)), eps_i^0)/T. " + _EPS_T,
    [form("printed", sp.Max(beta * sigma_suf2 * C**2 / (2 * mu**2 * (C - 1)), eps0) / T,
          "As printed; its step condition at t = 1 (C/mu <= kappa/beta) contradicts C > 1, so "
          "no input satisfies its hypotheses (erratum 8).",
          conditions=(cond(sp.Le(C * beta, mu * kappa_w),
                           "eta_i^1 = C/mu <= kappa/beta (the theorem's step condition)"),)),
     form("corrected", sp.Max(beta * sigma_suf2 * C**2 / (2 * mu**2 * (C - 1)),
                              (gamma0 + 1) * eps0) / (T + gamma0 + 1),
          "Shifted step C/(mu (t + gamma0)) with gamma0 >= C beta/(mu kappa) - 1 (Bottou et al. "
          "Theorem 4.7 with alpha_1 <= 1/L).", conditions=(SHIFTED_STEP,))],
    source="Theorem 2, Table 1 row 3, App. B.2", hypotheses=RATES, conditions=(C_ABOVE_ONE,),
    errata=(ERRATA["erratum8"], ERRATA["erratum9"]),
    extra={"unsatisfiable": {"printed": "philippenko2025.erratum8: C > 1 with C/mu <= "
                             "kappa/beta, kappa <= 1 and mu <= beta has no solution"}},
    quantity_typst="EE[epsilon_i^T]", methods=ADAPTIVE_AFO,
)
