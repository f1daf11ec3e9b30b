"""Errata of hanzely2023 (digest §8), each linked to the check that demonstrates it.

Ids are ``hanzely2023.erratum<N>[_<word>]``, N the item of the digest's §8 (items 4 and 15 list
several slips: a word tells them apart). ``check_id`` is None where the erratum is a reading
or a notational fix that no computation can demonstrate; those are kept for the report.
"""

from __future__ import annotations

from pflbounds.symbolic.result import Erratum

_P = "hanzely2023."

_E = [
    # ------------------------------------------------------------------ constants (Table 2)
    Erratum(
        _P + "erratum1", "Table 2, row MT2",
        "Table 2 prints L^w = (Lambda L' + lambda)/(2M), L^beta = (L' + lambda)/(2M) and the "
        "same with Lcal'; Lemma 1, its proof and the Hessian give denominators M. The printed "
        "values are below the true smoothness constants when a client loss attains L'.",
        "L^w = (Lambda L' + lambda)/M, L^beta = (L' + lambda)/M, Lcal^w = (Lambda Lcal' + "
        "lambda)/M, Lcal^beta = (Lcal' + lambda)/M (Lemma 1).",
        _P + "E_mt2_table2", "§8 #1", ("corrected",),
        severity="substantive", known="counterexample"),
    Erratum(
        _P + "erratum2", "Section 2.4 (definition of f_m for MX2)",
        "The text defines f_m = f'_m(beta_m) + lambda ||M^{-1/2} w - beta_m||^2; Eq. (11) and "
        "Lemma 2 use lambda/2.",
        "f_m = f'_m(beta_m) + (lambda/2) ||M^{-1/2} w - beta_m||^2.", None, "§8 #2",
        severity="notation"),
    Erratum(
        _P + "erratum3", "Lemma 3 and Table 2, row APFL2",
        "The strong-convexity constant mu'(1 - alpha_max)^2/M is too large by a factor 2: the "
        "proof's bound M_m >= diag((1 - alpha_m)^2/(2M), (1 - alpha_m)^2/2) gives /(2M). With "
        "isotropic f'_m, alpha = 0.1 and the smallest admissible Lambda, the true M mu/mu' is "
        "0.424 < 0.81.",
        "mu = mu'(1 - alpha_max)^2/(2M); the APFL2 rows of Table 3 change by sqrt(2) (a "
        "constant). The determinant step only needs Lambda >= alpha^2 + (1 - alpha)^2/2.",
        _P + "E_apfl2_mu", "§8 #3", ("corrected",), severity="substantive", known="counterexample"),
    Erratum(
        _P + "erratum4_ws2", "Lemma 4 and Table 2, row WS2",
        "Lemma 4 (mu', L'/M in w, L' in beta) and Table 2 (mu', L', L', Lcal', Lcal') disagree "
        "and neither is in the normalisation of Assumption 1: the strong convexity of F_WS2 is "
        "only mu'/M in general, so mu = mu' is too large.",
        "mu = mu'/M, L^w = L^beta = L'/M, Lcal^w = Lcal^beta = Lcal'/M (the ratios, hence Table "
        "3, are unchanged).", _P + "E_ws2", "§8 #4", ("corrected",),
        severity="substantive", known="counterexample"),
    Erratum(
        _P + "erratum4_section21", "Section 2.1",
        "The optimal local stochastic-gradient count of traditional FL is written "
        "(n + sqrt(n Lcal'/mu)) log(1/eps); mu should be mu'. Section 2.3 solves Lambda -> "
        "infinity with lambda ||.||^2 where (6) has lambda/2; sums in (6), (10), (14) are "
        "indexed by i with summands in m.",
        "Read mu' and lambda/2.", None, "§8 #4", severity="notation"),
    # ------------------------------------------------------------------ Table 3
    Erratum(
        _P + "erratum4_residual", "Table 3, row Fed Residual",
        "The last two columns divide by mu' although the federated residual objective has no "
        "mu' (its strong convexity is mu).",
        "n + sqrt(n Lcal^w_R/mu) and n + sqrt(n Lcal^beta_R/mu).", _P + "E_table3_residual",
        "§8 #4", ("corrected",), severity="notation"),
    Erratum(
        _P + "erratum4_mx2", "Table 3, row MX2",
        "The # grad_w F_i cell is empty ('-'). Theorem 8 with Lemma 2's constants gives it.",
        "n + sqrt(n lambda/mu') (n + sqrt(3 n lambda/mu') before dropping constants).",
        None, "§8 #4", ("corrected",), severity="typo"),
    # ------------------------------------------------------------------ algorithms
    Erratum(
        _P + "erratum5", "Algorithm 1 (LSGD-PFL)",
        "The beta-step beta_m <- beta_m - eta grad_beta f_m moves along the gradient of f_m, "
        "which is M L^beta-smooth in beta_m; the analysis (Lemma 6, Eq. (24)) and the step "
        "condition eta <= 1/(4 L^beta) are for the gradient of F, (1/M) grad_beta f_m. The "
        "literal step diverges for M large enough.",
        "beta_m <- beta_m - (eta/M) g_beta,m (the non-convex analysis, Lemma 8, keeps the "
        "literal step with the joint smoothness L of f_m).", _P + "E_lsgd_beta_step", "§8 #5",
        severity="substantive", known="counterexample"),
    Erratum(
        _P + "erratum6", "Theorems 1, 2, 5 (step-size condition)",
        "eta <= min{1/(4 L^beta), 1/(8 sqrt(3e) (tau - 1) L^w)} puts no condition on L^w when "
        "tau = 1; with L^w > 2/eta the w-block of minibatch SGD diverges.",
        "For tau = 1 also require eta <= 1/(4 L^w) (Lemma 5 uses L = max(L^w, L^beta)).",
        _P + "E_lsgd_tau1", "§8 #6", ("corrected",),
        severity="substantive", known="counterexample"),
    Erratum(
        _P + "erratum7", "Algorithm 2 (ACD-PFL)",
        "xi = 1 has probability p_w but the w-update sits under 'if xi = 0'; the non-sampled "
        "block's y is never assigned.",
        "Update w with probability p_w = sqrt(L^w)/(sqrt(L^w) + sqrt(L^beta)); set y = x on the "
        "non-sampled block (standard ACD).", None, "§8 #7", severity="notation"),
    Erratum(
        _P + "erratum8", "Algorithm 2 (ACD-PFL)",
        "The beta-branch uses grad_beta f_m with step 1/L^beta, but f_m is M L^beta-smooth in "
        "beta_m; the literal method diverges for M large enough.",
        "Use grad_{beta_m} F = (1/M) grad_beta f_m in both beta-formulas (as Algorithm 4 does).",
        _P + "E_acd_beta_scale", "§8 #8", severity="substantive", known="counterexample"),
    Erratum(
        _P + "erratum9", "Algorithm 3 (ASVRCD-PFL, lifted)",
        "Z^{k+1} = nu Z^k + (1 - nu) X^k + (gamma/eta)(Y^{k+1} - Y^k) should use "
        "(Y^{k+1} - X^k); V^0 is not initialised.",
        "(gamma/eta)(Y^{k+1} - X^k) as in Algorithm 4, V^0 = X^0.", None, "§8 #9",
        severity="notation"),
    Erratum(
        _P + "erratum10", "Algorithm 3 / Section 4.3 (lifted formulation)",
        "E G(X) = M grad F(X), and the projection onto consensus weights the Mn copies of w and "
        "the n copies of beta_m differently, so Algorithm 3 is not Algorithm 4 / Eq. (55) step "
        "for step (w-step eta/n vs eta; beta-step eta/n vs eta/M).",
        "Run Algorithm 4 (Eq. (55)).", None, "§8 #10", severity="substantive"),
    Erratum(
        _P + "erratum11", "Algorithm 7 (SVRCD-PFL)",
        "The estimator omits the control-variate subtraction -grad f_{m,j_m}(w_v, beta_v,m): as "
        "printed it is biased. Algorithm 5 carries unused rho, w_v, beta_v; Section 6.1 calls "
        "ASCD/ASVRCD 'Algorithm 6/7'.",
        "g = (1/(p M)) sum_m [grad f_{m,j}(y) - grad f_{m,j}(v)] + grad F(v) per block, the "
        "unbiased estimator whose expected smoothness Lemma 15 bounds.", _P + "E_svrcd", "§8 #11",
        severity="substantive", known="counterexample"),
    # ------------------------------------------------------------------ theorems
    Erratum(
        _P + "erratum12", "Theorems 3-4, Assumptions 6-7",
        "The stationarity measure ||(1/M) sum_m grad f_m(w, beta_m)||^2 adds the beta-gradients "
        "of different clients (needs equal d_m; weaker than ||grad F||^2). Theorem 4 prints "
        "f_m(w^K, beta_m^k) (read beta_m^K) and defines b = beta tau + 1 only in the proof; "
        "the proof of Theorem 3 states its last condition without lambda.",
        "Read beta_m^K; (20) as stated is the consistent condition.", None, "§8 #12",
        severity="proof"),
    Erratum(
        _P + "erratum13", "Theorem 4 (conditions)",
        "The proof needs beta^2 e^{-1/beta} > 2 L^2 lambda (C_1 + 1)/mu^2 (Eq. (52)); the stated "
        "beta > max{..., 2 L^2 lambda (C_1 + 1)/mu^2, 1} implies it only when beta >= "
        "e^{1/beta} (beta >= 1.76...).",
        "Add Eq. (52) to the conditions (corrected form).", None, "§8 #13", ("corrected",),
        severity="proof"),
    Erratum(
        _P + "erratum14", "Theorem 5 (Phi^0)",
        "Phi^0 = (2||w^0 - w^*||^2 + sum_m ||beta_m^0 - beta_m^*||^2)/eta puts the 2 on the "
        "w-part only; the bound it instantiates (Gorbunov et al. 2021, Thm 2.1) has "
        "2||x^0 - x^*||^2/eta on the whole vector.",
        "Phi^0 = 2(||w^0 - w^*||^2 + sum_m ||beta_m^0 - beta_m^*||^2)/eta (larger, valid under "
        "either reading; corrected form). The printed Phi^0 held on every instance checked "
        "(P4_printed): a reading, not a demonstrated error.", _P + "P4_printed", "§8 #14",
        ("corrected",), severity="proof", known="text"),
    Erratum(
        _P + "erratum15_theorem6", "Theorem 6, Section 1.2",
        "Theorem 6 writes Omega(n + sqrt(n Lcal^w/mu) log(1/eps)) (the introduction with O); "
        "Section 2.1 and App. B.8 write Omega((n + sqrt(n Lcal/mu)) log(1/eps)). The proof is a "
        "sketch whose instance g(w) + h(beta_m) must depend on m in w. Section 1.2's "
        "Theta(max{L^w, L^beta}/mu log(1/eps)) for a joint treatment misses a square root.",
        "The standard form (n + sqrt(n Lcal/mu)) log(1/eps) (form 'appendix'); "
        "sqrt(max{L^w, L^beta}/mu) log(1/eps).", None, "§8 #15", severity="substantive"),
    Erratum(
        _P + "erratum15_theorem9", "Theorem 9, Lemma 15",
        "Theorem 9 and the proof of Lemma 15 write L^beta/p_beta where Lcal^beta/p_beta is "
        "meant; Lemma 15 writes D_F(x, y) for D_F(x, x'); Theorem 8 uses Lcal before Lemma 15 "
        "defines it.",
        "max(Lcal^w/p_w, Lcal^beta/p_beta) (corrected form).", None, "§8 #15", ("corrected",),
        severity="notation"),
    Erratum(
        _P + "erratum15_comm", "Theorem 9 (communication accounting)",
        "Communications counted as iterations x (rho n + p_w) over-count: a snapshot refresh "
        "costs one round, not n. The count is exact (up to a factor 2) for w-gradient calls.",
        "Expected rounds per iteration p_w + rho; expected w-gradients per client 2 p_w + "
        "rho n; beta-gradients 2 p_beta + rho n.", None, "§8 #15", severity="substantive"),
    Erratum(
        _P + "erratum15_lemma5", "Lemma 5 (proof of (21))",
        "A slip of the proof's wording, not of the statement: the proof of (21) bounds its "
        "two gradient differences with L = max{L^w, L^beta} (3 L^2 V_k + 6 L D_F) and then "
        "writes the statement's 6 L^w and 3 (L^w)^2. Only w-gradients enter (21), and with "
        "Assumption 1 each f_m is convex and L^w-smooth in w, so ||grad_w f_m(w_m, beta_m) - "
        "grad_w f_m(w, beta_m)||^2 <= (L^w)^2 ||w_m - w||^2 and, by block co-coercivity "
        "(one step of length 1/L^w along the w-block of f_m - <grad f_m(x^*), .>), "
        "||grad_w f_m(x) - grad_w f_m(x^*)||^2 <= 2 L^w D_{f_m}(x, x^*): (21) holds with L^w "
        "as stated, and Lemma 6's (23) with it. (22) needs L = max for the beta-gradients, as "
        "stated.",
        "Read the proof of (21) with L^w in place of L; the statement stands (no corrected "
        "form). Check P_lemma5 measures (21) on instances with L^w < L^beta.",
        _P + "P_lemma5", "§8 #15", severity="proof", known="text"),
]

ERRATA: dict[str, Erratum] = {e.id.split(".", 1)[1]: e for e in _E}
