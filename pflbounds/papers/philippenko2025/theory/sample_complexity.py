"""The sample complexity of philippenko2025: Corollary 1 (iterations to reach eps with the
decreasing step of Theorem 2) and the Section-4 discussion of its optimality against the
lower bound of Even et al. (digest §4.8-§4.9)."""

from __future__ import annotations

import sympy as sp

from pflbounds.papers.philippenko2025 import inputs
from pflbounds.papers.philippenko2025.assumptions import A3, RATES
from pflbounds.papers.philippenko2025.errata import ERRATA
from pflbounds.papers.philippenko2025.paper import ADAPTIVE_AFO, HARD_INSTANCE, form, result
from pflbounds.papers.philippenko2025.symbols import (
    C_ABOVE_ONE,
    CC,
    SHIFTED_STEP,
    Nstar,
    beta,
    eps,
    eps0,
    gamma0,
    lam,
    mu,
    psi_min,
    sigma2,
    sigma_suf2,
)
from pflbounds.symbolic.hidden import Omega
from pflbounds.symbolic.result import Kind

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
          "With the shifted step C/(mu (t + gamma0)) (errata 8 and 10).",
          conditions=(SHIFTED_STEP,))],
    relation="=", source="Corollary 1, App. B.3", hypotheses=RATES, conditions=(C_ABOVE_ONE,),
    errata=(ERRATA["erratum8"], ERRATA["erratum10"]),
    quantity_typst="T_i^epsilon", methods=ADAPTIVE_AFO,
)

COROLLARY1_UNIFORM = result(
    "corollary1_uniform", "Corollary 1 (equal variances, c = 0)", Kind.COMPLEXITY,
    "T_i^eps with sigma_k = sigma for every k and c_ik = 0", "1",
    "T_i^eps <= cal(C) beta sigma^2/(2 mu^2 eps |N_i^*(eps)| min_{k in N_i^*(eps)} psi(1 - "
    "b_ik^2/(2 mu eps))), since sigma_suf^2 <= sigma^2/(|N^*| psi_min).",
    [form("printed", CC * beta * sigma2 / (2 * mu**2 * eps * Nstar * psi_min),
          "The printed min runs over j with b_ik in its argument, and writes N^* for its size "
          "(erratum 13).")],
    relation="<=", source="Corollary 1", hypotheses=RATES, conditions=(C_ABOVE_ONE,),
    errata=(ERRATA["erratum13"],),
    quantity_typst="T_i^epsilon", methods=ADAPTIVE_AFO,
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
    relation="<=", source="Section 4", hypotheses=RATES,
    conditions=(C_ABOVE_ONE,),
    errata=(ERRATA["erratum14"],), derivations=inputs.binary_count_derivations(),
    quantity_typst="T_i^epsilon", methods=ADAPTIVE_AFO,
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
    no_method=("an inequality between Definition 2's sufficient variance and the "
               "size of the sufficient cluster, about no algorithm"),
)

SECTION4_LOWER_BOUND = result(
    "section4_lower_bound", "Section 4: the quoted lower bound of Even et al.",
    Kind.LOWER_BOUND, "T_i^eps of any method (worst case over the class)", "1",
    "Corollary 1 'recovers the lower bound Omega(beta sigma^2/(mu^2 eps N_i^*(eps)))' of Even "
    "et al. (their Theorem 1, which sets mu = L = 1/r^2 and counts the agents with b_ij^2 <= 4 "
    "mu eps; the calculator evaluates even2022.theorem1 itself).",
    [form("printed", Omega(beta * sigma2 / (mu**2 * eps * Nstar)))],
    relation=">=", source="Section 4", hypotheses=RATES, errata=(ERRATA["erratum15"],),
    quantity_typst="T_i^epsilon", methods=HARD_INSTANCE,
    unchecked=("a quoted result of another paper. Even et al.'s Theorem 1 (even2022.P6); check "
               "P10_ratio divides Corollary 1's count by it."),
)
