"""Rates in terms of the sufficient variance: Theorem 2 (three step-size regimes, Table 1),
Corollary 1 and the Section-4 optimality discussion, Theorem 3 (non-convex) of
philippenko2025 (digest §4.6-§4.10)."""

from __future__ import annotations

import sympy as sp

from pflbounds.papers.philippenko2025 import inputs
from pflbounds.papers.philippenko2025.assumptions import A1, A2, A3, A5
from pflbounds.papers.philippenko2025.errata import ERRATA
from pflbounds.papers.philippenko2025.paper import cond, form, result
from pflbounds.papers.philippenko2025.symbols import (
    CC,
    C,
    Nstar,
    T,
    beta,
    eps,
    eps0,
    eta,
    gamma0,
    kappa_w,
    lam,
    mu,
    psi_min,
    sigma2,
    sigma_eff2_avg,
    sigma_suf2,
    t,
)
from pflbounds.symbolic.hidden import Omega
from pflbounds.symbolic.result import Kind

_H = (A1.id, A2.id, A3.id, A5.id)
# mu <= beta, kappa <= 1, lambda <= 1 and eps <= eps_i^0 are instance relations of the paper
# (symbols.py): every result over their symbols refuses a point that violates one
_C = cond(sp.Gt(C, 1), "C > 1")
_SHIFT = cond(sp.Ge(gamma0 + 1, C * beta / (mu * kappa_w)),
              "gamma0 >= C beta/(mu kappa) - 1: the first step C/(mu (1 + gamma0)) <= kappa/beta")
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
    source="Theorem 2, Table 1 row 1, App. B.2", hypotheses=_H, conditions=_STEP_CONST,
    errata=(ERRATA["erratum5"], ERRATA["erratum17"], ERRATA["erratum23"], ERRATA["erratum24"],
            ERRATA["erratum9"]),
    quantity_typst="EE[epsilon_i^T]",
)

THEOREM2_FLOOR = result(
    "theorem2_floor", "Theorem 2, saturation level of the constant step", Kind.UPPER_BOUND,
    "limsup_T E[eps_i^T] with a constant step", "f",
    "With a constant step the excess loss converges linearly up to a saturation level "
    "eta beta sigma_{i,suf}^2(eps)/(2 mu), 'like classical SGD'.",
    [form("printed", eta * beta * sigma_suf2 / (2 * mu))],
    source="Theorem 2 (discussion after Table 1)", hypotheses=_H, conditions=_STEP_CONST,
    quantity_typst="limsup_(T -> oo) EE[epsilon_i^T]",
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
    relation="=", source="Theorem 2, Table 1 row 2", hypotheses=_H, conditions=_HORIZON_CONDS,
    quantity_typst="eta_i^t",
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
    source="Theorem 2, Table 1 row 2, App. B.2", hypotheses=_H, conditions=_HORIZON_CONDS,
    errata=(ERRATA["erratum7"],),
    quantity_typst="EE[epsilon_i^T]",
)

THEOREM2_DECREASING_STEP = result(
    "theorem2_decreasing_step", "Theorem 2, decreasing step (Table 1)", Kind.STEP_SIZE,
    "step eta_i^t at iteration t", "x^2/f",
    "eta_i^t = C/(mu t) with C > 1 (printed); shifted to C/(mu (t + gamma0)) so that the first "
    "step satisfies eta <= kappa/beta.",
    [form("printed", C / (mu * t)),
     form("corrected", C / (mu * (t + gamma0)),
          "Shifted schedule (erratum 8); gamma0 = 0 is the printed one.",
          conditions=(_SHIFT,))],
    relation="=", source="Theorem 2, Table 1 row 3", hypotheses=_H, conditions=(_C,),
    errata=(ERRATA["erratum8"],),
    quantity_typst="eta_i^t",
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
          "Theorem 4.7 with alpha_1 <= 1/L).", conditions=(_SHIFT,))],
    source="Theorem 2, Table 1 row 3, App. B.2", hypotheses=_H, conditions=(_C,),
    errata=(ERRATA["erratum8"], ERRATA["erratum9"]),
    extra={"unsatisfiable": {"printed": "philippenko2025.erratum8: C > 1 with C/mu <= "
                             "kappa/beta, kappa <= 1 and mu <= beta has no solution"}},
    quantity_typst="EE[epsilon_i^T]",
)

COROLLARY1 = result(
    "corollary1", "Corollary 1 (sampling complexity)", Kind.COMPLEXITY,
    "T_i^eps: iterations for client i to reach E[eps_i^T] <= eps with the decreasing step", "1",
    "With the decreasing step of Theorem 2, All-for-one reaches error eps after T_i^eps = "
    "beta sigma_{i,suf}^2(eps) cal(C)/(2 mu^2 eps) iterations, cal(C) = C^2/(C - 1).",
    [form("printed", CC * beta * sigma_suf2 / (2 * mu**2 * eps),
          "As printed: assumes the first argument of Table 1's max dominates eps_i^0."),
     form("general", sp.Max(CC * beta * sigma_suf2 / (2 * mu**2), eps0) / eps,
          "Table 1's decreasing row solved for T without dropping eps_i^0 (erratum 10)."),
     form("corrected", sp.Max(CC * beta * sigma_suf2 / (2 * mu**2), (gamma0 + 1) * eps0) / eps
          - gamma0 - 1,
          "With the shifted step C/(mu (t + gamma0)) (errata 8 and 10).", conditions=(_SHIFT,))],
    relation="=", source="Corollary 1, App. B.3", hypotheses=_H, conditions=(_C,),
    errata=(ERRATA["erratum8"], ERRATA["erratum10"]),
    quantity_typst="T_i^epsilon",
)

COROLLARY1_UNIFORM = result(
    "corollary1_uniform", "Corollary 1 (equal variances, c = 0)", Kind.COMPLEXITY,
    "T_i^eps with sigma_k = sigma for every k and c_ik = 0", "1",
    "T_i^eps <= cal(C) beta sigma^2/(2 mu^2 eps |N_i^*(eps)| min_{k in N_i^*(eps)} psi(1 - "
    "b_ik^2/(2 mu eps))), since sigma_suf^2 <= sigma^2/(|N^*| psi_min).",
    [form("printed", CC * beta * sigma2 / (2 * mu**2 * eps * Nstar * psi_min),
          "The printed min runs over j with b_ik in its argument, and writes N^* for its size "
          "(erratum 13).")],
    relation="<=", source="Corollary 1", hypotheses=_H, conditions=(_C,),
    errata=(ERRATA["erratum13"],),
    quantity_typst="T_i^epsilon",
    unchecked=("a derived count, not evaluated by a check. Check P10_n (named for Corollary 1) "
               "tests its 1/|N_i^*| scaling."),
)

COROLLARY1_BINARY = result(
    "corollary1_binary", "Section 4: binary criterion against the lower bound",
    Kind.COMPLEXITY, "T_i^eps for the binary criterion (equal variances, c = 0)", "1",
    "'As min_{j in N^*} psi_bin(1 - b/(2 mu eps)) = lambda, the upper bound on T_i^eps matches "
    "the lower bound': T_i^eps <= cal(C) beta sigma^2/(2 mu^2 eps lambda |N_i^*(eps)|).",
    [form("printed", CC * beta * sigma2 / (2 * mu**2 * eps * lam * Nstar),
          "With the claimed min psi_bin = lambda."),
     form("corrected", CC * beta * sigma2 / (2 * mu**2 * eps * lam**2 * Nstar),
          "psi_bin(x) = lambda x on [lambda, 1]: the min lies in [lambda^2, lambda] "
          "(erratum 14).")],
    relation="<=", source="Section 4", hypotheses=_H,
    conditions=(_C,),
    errata=(ERRATA["erratum14"],), derivations=inputs.binary_count_derivations(),
    quantity_typst="T_i^epsilon",
)

SECTION4_SUFFICIENT = result(
    "section4_sufficient_variance", "Section 4: sufficient variance against the cluster size",
    Kind.LOWER_BOUND, "sigma_{i,suf}^2(eps) with equal variances and c = 0", "f^2/x^2",
    "psi(x) <= psi(1) gives sigma_{i,suf}^2(eps) > sigma^2 (psi(1) |N_i^*(eps)|)^-1 (printed "
    "'>'; read '>='); psi(1) = lambda (binary), 1 (continuous).",
    [form("printed", sigma2 / (lam * Nstar), "Binary criterion, psi(1) = lambda."),
     form("continuous", sigma2 / Nstar, "Continuous criterion, psi(1) = 1.")],
    relation=">=", source="Section 4", hypotheses=(A3.id,),
    errata=(ERRATA["erratum14"],),
    quantity_typst="sigma_(i,\"suf\")^2 (epsilon)",
    unchecked="no check yet. Random instances of Definition 2, as in check P18, could test it.",
)

SECTION4_LOWER_BOUND = result(
    "section4_lower_bound", "Section 4: the quoted lower bound of Even et al.",
    Kind.LOWER_BOUND, "T_i^eps of any method (worst case over the class)", "1",
    "Corollary 1 'recovers the lower bound Omega(beta sigma^2/(mu^2 eps N_i^*(eps)))' of Even "
    "et al. (their Theorem 1, which sets mu = L = 1/r^2 and counts the agents with b_ij^2 <= 4 "
    "mu eps; the calculator evaluates even2022.theorem1 itself).",
    [form("printed", Omega(beta * sigma2 / (mu**2 * eps * Nstar)))],
    relation=">=", source="Section 4", hypotheses=_H, errata=(ERRATA["erratum15"],),
    quantity_typst="T_i^epsilon",
    unchecked=("a quoted result of another paper. Even et al.'s Theorem 1 (even2022.P6); check "
               "P10_ratio divides Corollary 1's count by it."),
)

_T3_STEP = sp.Min(sp.sqrt(2 * eps0 / (T * beta * sigma_suf2)), kappa_w / beta)

THEOREM3_STEP = result(
    "theorem3_step", "Theorem 3, step size", Kind.STEP_SIZE,
    "constant horizon-dependent step eta_i", "x^2/f",
    "eta_i = min(sqrt(2 eps_i^0) (T beta sigma_{i,suf}^2(eps))^(-1/2), (sigma_phi^t/"
    "sigma_psi^t)^2/beta).",
    [form("printed", _T3_STEP)],
    relation="=", source="Theorem 3", hypotheses=(A1.id, A2.id, A3.id),
    quantity_typst="eta_i",
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
    quantity_typst="1/T sum_(t=1)^T EE norm(nabla R_i (theta_i^(t-1)))^2",
)
