"""Theorem 3 of philippenko2025: the smooth non-convex rate and its step size (digest
§4.10)."""

from __future__ import annotations

import sympy as sp

from pflbounds.papers.philippenko2025.assumptions import A1, A2, A3
from pflbounds.papers.philippenko2025.errata import ERRATA
from pflbounds.papers.philippenko2025.paper import ADAPTIVE_AFO, cond, form, result
from pflbounds.papers.philippenko2025.symbols import (
    T,
    beta,
    eps0,
    eta,
    kappa_w,
    sigma_eff2_avg,
    sigma_suf2,
)
from pflbounds.symbolic.result import Kind

_T3_STEP = sp.Min(sp.sqrt(2 * eps0 / (T * beta * sigma_suf2)), kappa_w / beta)

THEOREM3_STEP = result(
    "theorem3_step", "Theorem 3, step size", Kind.STEP_SIZE,
    "constant horizon-dependent step eta_i", "x^2/f",
    "eta_i = min(sqrt(2 eps_i^0) (T beta sigma_{i,suf}^2(eps))^(-1/2), (sigma_phi^t/"
    "sigma_psi^t)^2/beta).",
    [form("printed", _T3_STEP)],
    relation="=", source="Theorem 3", hypotheses=(A1.id, A2.id, A3.id),
    quantity_typst="eta_i", methods=ADAPTIVE_AFO,
    unchecked=("a step-size rule, run by its theorem's checks. Checks P15_printed and P15_rate "
               "take this step from this encoding."),
)

THEOREM3 = result(
    "theorem3", "Theorem 3 (smooth non-convex)", Kind.UPPER_BOUND,
    "(1/T) sum_{t=1}^T E||grad R_i(theta_i^{t-1})||^2", "f^2/x^2",
    "A1-A3, non-convex, eps_i^{T-1} >= eps, step eta_i = min(sqrt(2 eps_i^0/(T beta "
    "sigma_suf^2)), (sigma_phi/sigma_psi)^2/beta): (1/T) sum_t E||grad R_i(theta_i^{t-1})||^2 "
    "<= 2 sqrt(2 eps_i^0 beta sigma_{i,suf}^2(eps)/T).",
    [form("printed", 2 * sp.sqrt(2 * eps0 * beta * sigma_suf2 / T),
          "As printed: the value at the first term of the step's min."),
     form("explicit", 2 * eps0 / (T * _T3_STEP) + _T3_STEP * beta * sigma_suf2,
          "The proof's bound 2 eps0/(T eta) + eta beta sigma_suf^2 at the stated step, valid "
          "whichever term of the min is smaller (still relies on Lemma 2)."),
     form("corrected", 2 * eps0 / (T * eta) + eta * beta * sigma_eff2_avg,
          "Summing (S2) without Lemma 2: any constant eta <= kappa/beta, with the average "
          "effective variance (1/T) sum_t E[(sigma_eff^t)^2] (erratum 16).",
          conditions=(cond(sp.Le(eta * beta, kappa_w), "eta <= kappa/beta"),))],
    source="Theorem 3, App. B.2", hypotheses=(A1.id, A2.id, A3.id),
    errata=(ERRATA["erratum16"], ERRATA["erratum9"]),
    quantity_typst="1/T sum_(t=1)^T EE norm(nabla R_i (theta_i^(t-1)))^2", methods=ADAPTIVE_AFO,
)
