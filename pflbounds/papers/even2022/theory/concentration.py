"""Concentration results of Appendix E (proof of Theorem 4): the Hsu-Kakade-Zhang tail, its
consequence for ||xi||^2 >= 4u, the cluster-recovery probability and the bias estimate
E[sum_ij lambda_hat_ij b_ij^2].

Units: a sample xi of Section 6 has the unit [f]/[x]^2 (its mean enters the gradient as a
Hessian block), so ||xi||^2, u, nu^2 and ||Sigma|| carry ([f]/[x]^2)^2.
"""

from __future__ import annotations

import sympy as sp

from pflbounds.papers.even2022 import inputs
from pflbounds.papers.even2022.errata import ERRATA
from pflbounds.papers.even2022.paper import ESTIMATED_WEIGHTS, GAUSSIAN_MEANS, cond, form, result
from pflbounds.papers.even2022.symbols import (
    C,
    D_star,
    Delta2,
    N,
    S,
    Sigma_F,
    b_max,
    d_eff,
    ind_ge,
    ind_gt,
    nu2,
    t_dev,
    u,
)
from pflbounds.papers.even2022.theory.estimated import THEOREM4_TAIL, U_COND
from pflbounds.symbolic.result import Kind
from pflbounds.symbolic.unevaluated import Ge, exp

HSU_KAKADE_ZHANG = result(
    "hkz_tail", "Appendix E (Hsu-Kakade-Zhang tail)", Kind.UPPER_BOUND,
    "(1 - e^{-t})-quantile of ||xi||^2 for a centred Sigma-sub-Gaussian xi", "f^2/x^4",
    "For a Sigma-sub-Gaussian xi and t >= 0 (Theorem 1 of Hsu, Kakade and Zhang [28]): "
    "P(||xi||^2 >= d_eff nu^2 + 2 sqrt(||Sigma||_2 t) + 2 nu^2 t) <= e^{-t}, i.e. the level "
    "exceeded with probability at most e^{-t} is at most that threshold.",
    [
        form("printed", nu2 * d_eff + 2 * sp.sqrt(Sigma_F * t_dev) + 2 * nu2 * t_dev,
             "As printed, with d_eff nu^2 = Tr(Sigma) (the digest's reading of d_eff) and "
             "||Sigma||_2 the Frobenius norm (the appendix's ||Sigma||_2^2 = sum_k nu_k^4). "
             "sqrt(||Sigma||_2 t) is not homogeneous in Sigma: the printed threshold fails "
             "the dimension check."),
        form("corrected", nu2 * d_eff + 2 * sp.sqrt(Sigma_F**2 * t_dev) + 2 * nu2 * t_dev,
             "Hsu-Kakade-Zhang Theorem 1: Tr(Sigma) + 2 sqrt(Tr(Sigma^2) t) + 2 ||Sigma||_op t "
             "with Tr(Sigma^2) = ||Sigma||_F^2."),
    ],
    hypotheses=("even2022.A4",), source="App. E (first display), [28] Theorem 1",
    errata=(ERRATA["erratum20_hkz"],), quantity_typst="q_(1 - e^(-t)) (norm(xi)^2)",
    no_method=("a concentration inequality for sub-Gaussian vectors, used in the "
               "proof of Theorem 4: it is about no method"),
)

HKZ_NORM_TAIL = result(
    "hkz_norm_tail", "Appendix E (tail of ||xi||^2 at 4u)", Kind.UPPER_BOUND,
    "P(||xi||^2 >= 4u) for a centred Sigma-sub-Gaussian xi", "1",
    "Consequently, for u >= max(nu^2 d_eff, ||Sigma||_2^2/nu^2): P(||xi||^2 >= 4u) <= "
    "e^{-u/(2 nu^2)}; since ||Sigma||_2^2/nu^2 <= nu^2 d_eff, the condition is u >= nu^2 d_eff.",
    [form("printed", exp(-u / (2 * nu2)),
          "Follows from the corrected Hsu-Kakade-Zhang threshold at t = u/(2 nu^2): "
          "Tr(Sigma) + 2 sqrt(Tr(Sigma^2) t) + u <= u + sqrt(2) u + u < 4u when "
          "u >= Tr(Sigma) = nu^2 d_eff.")],
    conditions=(cond(Ge(u, nu2 * d_eff), "u >= max(nu^2 d_eff, ||Sigma||_2^2/nu^2) "
                     "= nu^2 d_eff"),),
    hypotheses=("even2022.A4",), source="App. E (second display)",
    quantity_typst="PP(norm(xi)^2 >= 4 u)",
    no_method=("a concentration inequality for sub-Gaussian vectors, used in the "
               "proof of Theorem 4: it is about no method"),
)

THEOREM4_RECOVERY = result(
    "theorem4_recovery", "Theorem 4 (proof: cluster recovery)", Kind.LOWER_BOUND,
    "P(||mu_hat_i - mu_m||^2 <= u for every agent i of cluster m)", "1",
    "In the proof of Theorem 4, for a fixed cluster m and u >= 4 nu^2 d_eff/S: "
    "P(for all i in C_m, ||mu_hat_i - mu_m||^2 <= u) >= 1 - 2C e^{-Su/(8 nu^2)}.",
    [form("printed", 1 - 2 * C * exp(-S * u / (8 * nu2)),
          "Union bound over the C agents of the cluster; mu_hat_i - mu_m is (Sigma/S)-sub-"
          "Gaussian and the tail of ||.||^2 at u follows from the second display of App. E "
          "(the paper's factor 2 is slack).")],
    relation=">=", conditions=(U_COND,), hypotheses=("even2022.A4", "even2022.A5"),
    source="App. E", quantity_typst="PP(forall i in cal(C)_m: norm(hat(mu)_i - mu_m)^2 <= u)",
    methods=GAUSSIAN_MEANS,
)

TAIL_BOUND = THEOREM4_TAIL.form("printed").expr
"""2 e^{-S max(2u, Delta^2 - 2u)/(8 nu^2)}: the proof's bound on P(b_hat_ij^2 <= u) for a pair
of agents of different clusters."""

THEOREM4_BIAS = result(
    "theorem4_bias", "Theorem 4 (proof: bias of the estimated weights)", Kind.UPPER_BOUND,
    "E[sum_ij lambda_hat_ij b_ij^2] (over the bias estimates)", "f^2/x^2",
    "In the proof of Theorem 4: E[sum_ij lambda_hat_ij b_ij^2] <= b_max^2 P(b_hat_ij^2 <= u | "
    "b_ij^2 > 4u) + 4u^2 1{4u^2 >= Delta}, with P(b_hat_ij^2 <= u | b_ij^2 > 4u) <= "
    "2 e^{-S max(2u, Delta^2 - 2u)/(8 nu^2)}.",
    [
        form("printed", b_max**2 * TAIL_BOUND + 4 * u**2 * ind_ge(4 * u**2, sp.sqrt(Delta2)),
             "The proof's display with the next line's tail bound substituted, typos "
             "included (it fails the dimension check)."),
        form("corrected", N * ((N - C) * b_max**2 * TAIL_BOUND
                               + 4 * D_star**2 * u * ind_gt(4 * u, Delta2)),
             "Sum over the N agents of the union bound over each agent's N - C agents of "
             "other clusters (lambda_hat_ij <= 1{b_hat_ij^2 <= u}), plus 4 D*^2 u per agent "
             "when pairs of other clusters can lie within 4u (b_ij = D* ||E xi_i - E xi_j||); "
             "Theorem 4's corrected bias term is this over 2 mu N (with c_N = N - C)."),
    ],
    conditions=(U_COND,), hypotheses=("even2022.A4", "even2022.A5"), source="App. E",
    errata=(ERRATA["erratum18"],), derivations=(inputs.B_MAX, inputs.N_FROM_B),
    quantity_typst="EE[sum_(i j) hat(lambda)_(i j) b_(i j)^2]",
    methods=(*GAUSSIAN_MEANS, *ESTIMATED_WEIGHTS),
)
