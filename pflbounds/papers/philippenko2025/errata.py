"""Errata of philippenko2025 (digest §7), each linked to the check that demonstrates it.

``check_id`` is None where the erratum is a reading or a notational fix that no computation
can demonstrate; those are kept for the report.
"""

from __future__ import annotations

from pflbounds.symbolic.result import Erratum

_P = "philippenko2025."

_E = [
    Erratum(
        _P + "erratum1", "Lemma 1 (statement)",
        "The statement evaluates ||grad R_i|| at theta_i^t instead of theta_i^{t-1}, and its "
        "variance term eta beta sigma_k^2 (alpha_ik^t)^2 stands outside the sum over k, with eta "
        "not squared and no 1/2: it is not a well-formed inequality and has the unit "
        "[f]^2/[x]^2 instead of [f]. The proof's penultimate line, (S2), Theorem 1 and the "
        "Section-4 stationarity equation all use the corrected form.",
        "(eta/2) sum_k alpha_ik (||grad R_k - grad R_i||^2 - ||grad R_i||^2) + (beta eta^2/2) "
        "sum_k alpha_ik^2 sigma_k^2, gradients at theta_i^{t-1}.",
        _P + "E1", "§7.1", ("corrected",), severity="substantive", known="counterexample"),
    Erratum(
        _P + "erratum2", "Section 2 (notation eps_i^t)",
        "eps_i^t is defined as an expectation but used conditionally (E[eps_i^t | "
        "theta_i^{t-1}]).",
        "Read it as the conditional expectation of R_i(theta_i^t) - R_i^* given theta_i^{t-1}.",
        None, "§7.2", severity="notation"),
    Erratum(
        _P + "erratum3", "Theorem 1 (hypotheses)",
        "Theorem 1 lists Assumptions 1 and 2 only, but its proof (and the mu in its bound) "
        "needs strong convexity or PL.",
        "Add Assumption 4 or 5.", None, "§7.3", ("corrected",), severity="substantive"),
    Erratum(
        _P + "erratum4", "Definition 2, Corollary 1, Section 4",
        "b_ik appears unsquared in 1 - b_ik/(2 mu eps) - c_ik: the term has the unit 1/[x] "
        "(not dimensionless), and the proof of Lemma 2 (and the authors' code) uses b_ik^2. "
        "With the printed reading the sufficient cluster is not included in the effective one.",
        "x_ik(eps) = (1 - b_ik^2/(2 mu eps) - c_ik)_+.",
        _P + "E4", "§7.4", ("corrected",), severity="substantive", known="counterexample"),
    Erratum(
        _P + "erratum5", "Lemma 2",
        "Typo ||grad R_i(theta_k^t)|| for ||grad R_i(theta_i^t)||; r^t uses theta_i^{t-1}, so the "
        "time index must shift; the argument compares with the realised excess loss, not with "
        "its expectation eps_i^t. The inclusion and sigma_eff^t <= sigma_suf(eps) hold only on "
        "the event R_i(theta_i^{t-1}) - R_i^* >= eps, and Theorem 2's hypothesis eps_i^{T-1} >= "
        "eps (one expectation) guarantees it neither for all t < T nor pathwise.",
        "For every eps <= e_i^{t-1} = R_i(theta_i^{t-1}) - R_i^* (realised): N_i^*(eps) in "
        "N_i^*(e_i^{t-1}) in N_i^t and sigma_eff^t <= sigma_suf(e_i^{t-1}) <= sigma_suf(eps).",
        _P + "E5", "§7.5", ("corrected",), severity="substantive"),
    Erratum(
        _P + "erratum6", "Theorems 1-2 (proofs)",
        "(sigma_eff^t)^2 is treated as deterministic after taking full expectations; it is "
        "random (a function of theta_i^{t-1}).",
        "Use E[(sigma_eff^t)^2] in Theorem 1 (the check measures it along the runs).",
        _P + "P3", "§7.6", ("corrected",), severity="proof", known="text"),
    Erratum(
        _P + "erratum7", "Theorem 2, horizon-dependent step (Table 1 and proof B.2)",
        "beta is missing inside the logarithm of the bound (the step-size formula has it): "
        "ln(2 T mu^2 eps_i^0/sigma_suf^2) has the unit [f]/[x]^2, so the printed bound changes "
        "when the parameter is rescaled.",
        "beta sigma_suf^2/(2 mu^2 T) (ln(2 T mu^2 eps_i^0/(beta sigma_suf^2)) + 1).",
        _P + "E7", "§7.7", ("corrected",), severity="substantive", known="counterexample"),
    Erratum(
        _P + "erratum8", "Theorem 2, decreasing step (Table 1 and proof B.2)",
        "eta_i^1 = C/mu > 1/mu >= 1/beta >= (sigma_phi/sigma_psi)^2/beta violates the theorem's "
        "own step condition (and Bottou et al.'s alpha_1 <= 1/L): with C > 1 no input satisfies "
        "the hypotheses, and the bound fails at small T when the first step overshoots.",
        "Shift the schedule to C/(mu (t + gamma_0)) with gamma_0 >= C beta/(mu kappa) - 1 and "
        "bound max(beta sigma_suf^2 C^2/(2 mu^2 (C - 1)), (gamma_0 + 1) eps_i^0)/(T + gamma_0 "
        "+ 1).",
        _P + "E8", "§7.8", ("corrected",), severity="substantive", known="counterexample"),
    Erratum(
        _P + "erratum9", "Proofs and Theorem 2 (notation)",
        "The proofs write sigma_{i,bin} for sigma_{i,suf}; Theorem 2 writes eta_ik^t for "
        "eta_i^t; 'Building on Theorems 1, 2 and 2' means Theorem 1, Definition 2 and Lemma 2.",
        "Read sigma_{i,suf}, eta_i^t, and Theorem 1, Definition 2, Lemma 2.", None, "§7.9",
        severity="notation"),
    Erratum(
        _P + "erratum10", "Corollary 1 (proof B.3)",
        "The proof sets the first argument of Table 1's max equal to eps, assuming it dominates "
        "eps_i^0; otherwise T_i^eps = beta sigma_suf^2 C/(2 mu^2 eps) can be below one iteration "
        "while eps_i^0 > eps.",
        "T_i^eps = max(cal(C) beta sigma_suf^2/(2 mu^2), eps_i^0)/eps (with the shifted step: "
        "max(., (gamma_0 + 1) eps_i^0)/eps - gamma_0 - 1).",
        _P + "E10", "§7.10", ("general", "corrected"),
        severity="substantive", known="counterexample"),
    Erratum(
        _P + "erratum11", "Remark 3",
        "'for any t in [N]' should be t in N; (sigma_{i,phi}^t)^2 is printed with psi instead of "
        "phi and unbalanced parentheses; proof B.2 sums alpha_ik over i instead of k.",
        "(sigma_{i,phi}^t)^2 = (sum_k sigma_k^-2 phi(r_ik^t))^-1 >= (sum_k sigma_k^-2)^-1 and "
        "sum_k alpha_ik = (sigma_psi/sigma_phi)^2.",
        _P + "P13_continuous", "§7.11", ("corrected",), severity="notation", known="text"),
    Erratum(
        _P + "erratum12", "Definition 2 (limits)",
        "lim_{eps -> 0} sigma_suf^2 has sigma_k^2 where sigma_k^-2 is meant (the printed limit "
        "has the unit [x]^2/[f]^2), and lim_{eps -> inf} is written for sigma_{i,cont}^2.",
        "lim_{eps->0} sigma_suf^2 = (sum_k sigma_k^-2 psi((1 - c_ik)_+) 1{b_ik = 0})^-1; "
        "lim_{eps->inf} sigma_suf^2 = (sum_k sigma_k^-2 psi((1 - c_ik)_+))^-1.",
        _P + "E12", "§7.12", ("corrected",), severity="notation", known="counterexample"),
    Erratum(
        _P + "erratum13", "Corollary 1 (special case, notation)",
        "The index j of the min is not used in its argument (b_ik); N_i^* denotes both the set "
        "and its size; the (.)_+ and c are dropped (c = 0 is assumed).",
        "min over k in N_i^*(eps) of psi(1 - b_ik^2/(2 mu eps)), |N_i^*(eps)| for the size.",
        None, "§7.13", severity="notation"),
    Erratum(
        _P + "erratum14", "Section 4 (binary criterion matches the lower bound)",
        "'min_{j in N^*} psi_bin(1 - b/(2 mu eps)) = lambda' is wrong: psi_bin(x) = lambda x on "
        "[lambda, 1], so the min lies in [lambda^2, lambda] (lambda^2 when some x_k = lambda); "
        "'sigma_suf^2 > sigma^2 (psi(1) N^*)^-1' should be >=.",
        "T_i^eps <= cal(C) beta sigma^2/(2 mu^2 eps lambda^2 |N_i^*(eps)|): the binary bound "
        "matches the lower bound up to cal(C)/(2 lambda^2), still independent of eps.",
        _P + "E14", "§7.14", ("corrected",), severity="substantive", known="counterexample"),
    Erratum(
        _P + "erratum15", "Section 4 (continuous criterion 'suboptimal')",
        "The suboptimality of the continuous criterion is relative to its own, larger, "
        "sufficient cluster only: sigma_suf,cont^2(eps) <= sigma_suf,bin^2(eps) for every "
        "(b, c, sigma, lambda, eps); which cluster Even et al.'s lower bound counts is not "
        "made precise.",
        "Compare sigma_suf^2 (not psi_min) across criteria.",
        _P + "P18", "§7.15", severity="proof"),
    Erratum(
        _P + "erratum16", "Theorem 3 (non-convex)",
        "sigma_suf(eps) involves mu and its use relies on Lemma 2, which needs strong convexity "
        "or PL, unavailable in the non-convex setting; the stated bound also needs the min in "
        "the step to pick its first term (T >= 2 eps_i^0 beta/(sigma_suf^2 kappa^2)).",
        "(1/T) sum_t E||grad R_i(theta_i^{t-1})||^2 <= 2 eps_i^0/(T eta) + eta beta "
        "(1/T) sum_t E[(sigma_eff^t)^2] for any constant eta <= kappa/beta.",
        _P + "P15", "§7.16", ("corrected",), severity="proof", known="text"),
    Erratum(
        _P + "erratum17", "Theorems 1 and 3 (constant steps)",
        "'Constant' steps are defined through (sigma_phi^t/sigma_psi^t)^2, which varies with t.",
        "Use the uniform lower bound kappa of Remark 3 (lambda for binary, 1/(sigma_i^2 "
        "sum_k sigma_k^-2) for continuous).", _P + "P13_binary", "§7.17", ("corrected",),
        severity="proof", known="text"),
    Erratum(
        _P + "erratum18", "Property 1",
        "The constant sqrt(2) in b_ik is right for the 1/2-normalised quadratic only; with "
        "R_i = (theta + xi_i)^T A_i (theta + xi_i), as printed, Assumption 3 fails with it. "
        "'<=' should read 'one may take'; A_i must be symmetric invertible; for b = 0 the tight "
        "c is ||I - A_k A_i^-1||^2 (no factor 2).",
        "b_ik = 2 sqrt(2) ||A_k (xi_i - xi_k)||, c_ik = 2 ||I - A_k A_i^-1||_2^2.",
        _P + "E18", "§7.18", ("corrected",), severity="substantive", known="counterexample"),
    Erratum(
        _P + "erratum19", "Notation",
        "'for all t in R^*' should be N^*; Section 4 'k in [K]' should be [N]; Eq. (1) writes m "
        "where the text writes b_alpha, and Z_i lacks its superscript t; grad R_{k,S} is "
        "undefined (read grad R_k); m is also the momentum of Table S1; n_k is a batch size in "
        "Remark 1 and n_i a number of batches in Table S1; Appendix A uses gamma for the step.",
        "Read as stated.", None, "§7.19", severity="notation"),
    Erratum(
        _P + "erratum20", "Introduction (weights in [0, 1])",
        "alpha_ik^t in [0, 1] is false for Definition-1 weights: they can exceed 1 (alpha_ik ~ "
        "1/r_ik when sigma_k is much smaller than the others) and their sum is >= 1 (up to "
        "1/lambda or sigma_i^2 sum_k sigma_k^-2).",
        "alpha_ik^t >= 0, sum_k alpha_ik^t = (sigma_psi/sigma_phi)^2 >= 1.",
        _P + "E20", "§7.20", severity="substantive", known="counterexample"),
    Erratum(
        _P + "erratum21", "Definition 1 (r undefined at a stationary point)",
        "r_ik^t is 0/0 when grad R_i(theta_i^{t-1}) = 0 (and Lemma 1's Jensen step needs "
        "A_i^t > 0, which holds since alpha_ii > 0).",
        "Convention: r_ii = 1 and r_ik = 0 when grad R_k differs, so the client stays local.",
        None, "§7.21, §7.34", severity="proof"),
    Erratum(
        _P + "erratum22", "Section 4 (estimated weights)",
        "The estimator r_hat = (1 - Z_ik/Z_i)_+ is biased and not covered by the theory: even "
        "identical peers stop being selected once ||grad R_i||^2 is below the estimator's noise "
        "s^2/m; the value of lambda used in the experiments is not given.",
        "Read the experiments as outside the theory; expect a shift to local training near the "
        "optimum (prediction P14).", _P + "P14", "§7.22, §3.6", severity="proof"),
    Erratum(
        _P + "erratum23", "Appendix A (synthetic experiment)",
        "Diag(1) is the identity, so H_i = I_d and the rotations are vacuous (c = 0); the cluster "
        "optima, initialisation, horizon, beta and lambda are unspecified; the noise is purely "
        "multiplicative (Assumption 2 fails globally); 'sub-linear convergence' contradicts the "
        "exact mean-square dynamics, which are geometric for fixed weights.",
        "E||theta_t - theta^*||^2 = rho^t ||theta_0 - theta^*||^2 with rho = (1 - 2 gamma)^2 + "
        "4 gamma^2 (d + 1)/(b n) for uniform weights over n same-optimum clients.",
        _P + "P19", "§7.23", severity="substantive"),
    Erratum(
        _P + "erratum24", "Appendix A (step sizes)",
        "The synthetic steps 1/(2 beta) and 1/(4 beta) exceed the safe constant steps lambda/beta "
        "(binary, lambda < 1/2) and 1/(N beta) (continuous, N = 20): the experiments run outside "
        "the proven regime.", "Use eta <= kappa/beta to stay within Theorems 1-3.", None,
        "§7.24", severity="proof"),
    Erratum(
        _P + "erratum25", "Tables 2, S1, S2, Figure S1, Definition S1",
        "Table S1's merged cells leave batch size, b_alpha, step, StepLR and weight decay "
        "ambiguous; the text's CIFAR10 numbers (63.9/58.5/28.9) disagree with Table 2 "
        "(64.2/59.0/30.8); Table S2's loss rows repeat Table 2's means; Figure S1's caption says "
        "test loss for an accuracy axis; Definition S1's label clusters are off by one.",
        "Best readings in digest §5.5 and §7.33.", None, "§7.25-§7.30, §7.33", severity="typo"),
    Erratum(
        _P + "erratum31", "Reference code (not the paper)",
        "The public code deviates from Definition 1: an unsquared difference norm over a squared "
        "norm in the ratio, weights renormalised to sum to 1 (binary uniform by size, continuous "
        "proportional to r), single-batch estimates; which version produced the figures is "
        "unclear.",
        "pflbounds implements Definition 1 and offers the code's variant as an option.", None,
        "§7.31, §5.8", severity="proof"),
]

ERRATA: dict[str, Erratum] = {e.id.split(".", 1)[1]: e for e in _E}
