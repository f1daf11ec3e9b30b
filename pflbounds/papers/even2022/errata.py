"""Errata of even2022 (digest §8), each linked to the check that demonstrates it.

Ids follow the template: ``even2022.erratum<N>``, N the item of the digest's §8, with a
``_<word>`` suffix where one item gives several errata (erratum20_hkz, erratum23_agents).

``check_id`` is None where the erratum is a reading or a notational fix that no
computation can demonstrate; those are kept for the report.
"""

from __future__ import annotations

from pflbounds.symbolic.result import Erratum

_E = [
    Erratum(
        "even2022.erratum13", "Theorem 3 proof, Corollary 1, Eq. (7)",
        "'The spectral radius of W is 1, since Lambda is stochastic' is false: "
        "rho(Lambda Lambda^T) = ||Lambda||_2^2 >= 1, and Corollary 1 weights on a star "
        "closeness graph give rho(W) ~ N/4. AFA with eta = 1/(2L) then diverges.",
        "Use eta <= 1/(2 L rho(W)) (corrected Eq. (7)), or restrict Theorem 3 and Corollary 1 "
        "to rho(W) <= 1 (doubly-stochastic Lambda, e.g. clusters or regular graphs).",
        "even2022.P11", "§8 #13", ("corrected",), severity="substantive", known="counterexample"),
    Erratum(
        "even2022.erratum6", "Theorem 2 (proof after Eq. (6))",
        "The proof's display after plugging Eq. (6) has exp(-K/kappa), but eta = 1/(2L) only "
        "gives exp(-K/(2 kappa)); its variance term sigma^2 L ln(A)/(mu^2 K) needs ln A >= 1. "
        "The statement's bias constant 1/mu is looser than the proof's 1/(2 mu).",
        "Delta0 exp(-K/(2 kappa)) + sigma^2 L V (1 + ln A)/(2 mu^2 K) + B/(2 mu) (corrected "
        "form), valid whenever A > 1. The check demonstrates the ln A < 1 failure. The "
        "exp(-K/kappa) rate is not contradicted by quadratics, whose excess contracts as "
        "(1 - eta mu)^{2K}, and the known worst-case function-value rate of gradient descent "
        "with step 1/(2L), (1 - mu/(2L))^2 per step, suggests it holds in general: what fails "
        "is the proof's derivation of it, not necessarily the rate.",
        "even2022.E6", "§8 #6", ("proof", "corrected"), severity="proof", known="counterexample"),
    Erratum(
        "even2022.erratum17", "Theorem 4 (statement)",
        "Typos in the statement: exp(-kappa/(2K)) for exp(-K/(2 kappa)); max(Delta^2 - 2u, 2u^2) "
        "for max(2u, Delta^2 - 2u); 2 D*^2 b_max for b_max^2; 4u^2 1{2u >= Delta} for "
        "4 D*^2 u 1{4u > Delta^2}; the factor 2 in front of C exp(-Su/(8 nu^2)) is missing. "
        "The printed form fails the dimension check.",
        "The corrected form of Theorem 4 (dimensionally consistent, proof constants).",
        "even2022.E17", "§8 #17", ("corrected",), severity="substantive"),
    Erratum(
        "even2022.erratum15", "Lemma 6 (precision eps statement)",
        "The claim f((1/T_eps) sum_{t<T_eps} x^t) - f^* <= eps for the averaged iterate is "
        "false: the average keeps a fraction ~1/ln(f_0/eps) of the initial distance. As derived, "
        "the bound holds for E of the last iterate and only up to 3 eps/2.",
        "For the last iterate, in expectation: T >= max(3 L sigma^2/(eps mu^2), 2L/mu) "
        "ln(3 f_0/(2 eps)) with eta = min(mu eps/(3 L sigma^2), 1/(2L)).",
        "even2022.E15", "§8 #15", ("corrected",), severity="substantive", known="counterexample"),
    Erratum(
        "even2022.erratum16", "Corollary 1",
        "The constants do not add up: the bias (< eps/2) plus Lemma 6's guarantee (itself "
        "3 eps/2 for the last iterate) exceed eps; the accuracy is claimed without expectation; "
        "rho(W) <= 1 is needed. On the quadratic family the printed count fails only at the "
        "integer edge (formula just below 2 or 3, error up to 1.07 eps): quadratics contract "
        "as (1 - eta mu)^(2K) and their bias floor is below Lemma 5's, which hides the gap.",
        "K >= max(2 kappa, 4 kappa sigma^2 (1/N) sum_i 1/N_i /(mu eps)) ln(4 F^0/eps) with "
        "eta = min(1/(2L), eps mu N/(4 L sigma^2 sum lambda^2)) and rho(W) <= 1 gives "
        "E[F^K] <= eps.",
        "even2022.E16", "§8 #16", ("corrected",), severity="substantive", known="counterexample"),
    Erratum(
        "even2022.erratum11", "Section 5 (lifted recursion)",
        "The main text writes y^{k+1} = y^k - eta (Lambda G^k(y^k)); Lambda must be Lambda^T "
        "for x^k = Lambda y^k.",
        "y^{k+1} = y^k - eta Lambda^T g^k(Lambda y^k); the identity x^k = Lambda y^k then holds "
        "to machine precision.",
        "even2022.P10", "§8 #11", severity="notation"),
    Erratum(
        "even2022.erratum4", "Theorem 1 (proof, App. B.2)",
        "The proof's normalisation is inconsistent: g_alpha is not E_{D_1} of the loss, the "
        "separation rho(g_alpha, g_beta) is twice too large, eps = psi is used where Lemma 2 "
        "needs eps < psi/9, and the KL bound needs delta <= 1/4 (eps <= 1/64). The threshold "
        "constant in N_i^eps is therefore unreliable (4 in the statement, 36 in a consistent "
        "version).",
        "Instance A (digest §5.3) with explicit constants: K_LB = (d/3 ln(2/sqrt e) - ln 2)/"
        "(8.79 * 36 d eps N_eff), valid for d >= 11 and eps <= 1/(576 d).",
        "even2022.P6", "§8 #4, #30", ("explicit", "corrected"), severity="proof", known="text"),
    Erratum(
        "even2022.erratum14", "Lemma 6 (proof)",
        "The proof mixes >= and <= in one chain; relative strong convexity w.r.t. a singular A "
        "gives a PL inequality only in the A^+ norm (rate via lambda_min^+(A), not L_A). "
        "Theorem 3's linear rate therefore rests on an unproven step; the deterministic part "
        "held in adversarial tests for doubly-stochastic Lambda.",
        "Check Theorem 3's corrected form on doubly-stochastic Lambda (P8).",
        "even2022.P8", "§8 #14", severity="proof", known="text"),
    Erratum(
        "even2022.erratum20", "Assumption 4",
        "d_eff = ||Sigma||_2/nu^2 should be Tr(Sigma)/nu^2 (the appendix uses "
        "||Sigma||_2^2 = sum nu_k^4); 'xi_i centred' contradicts Assumption 5; xi = z z^T with "
        "Gaussian z is not sub-Gaussian.",
        "d_eff = Tr(Sigma)/nu^2 and xi_i - E xi_i sub-Gaussian; use Gaussian xi for checks.",
        None, "§8 #20", severity="substantive"),
    Erratum(
        "even2022.erratum23", "Corollary 2",
        "u = Delta/4 should read u = Delta^2/4; the condition C = Omega~(nu^2 d_eff/eps) is not "
        "derivable from Theorem 4 (and fails the dimension check).",
        "Sufficient conditions from the corrected Theorem 4 with u = Delta^2/4 (corrected form).",
        None, "§8 #23", ("corrected",), severity="substantive"),
    Erratum(
        "even2022.erratum23_agents", "Corollary 2 (discussion: N = Omega~(M/eps))",
        "The discussion concludes that N = Omega~(M/eps) agents suffice. M/eps has the unit "
        "1/[f], not that of a count (it fails the dimension check); it comes from the condition "
        "C = Omega~(nu^2 d_eff/eps), which Theorem 4 does not give.",
        "With S and K = O~(kappa) bounded, KC = Omega~(kappa sigma^2/(eps mu)) gives "
        "C = Omega~(kappa sigma^2/(eps mu K)), hence N = M C = Omega~(M kappa sigma^2/(eps mu K)) "
        "(corrected form): still linear in M/eps, the scaling the check shows.",
        "even2022.C2", "§8 #23, §4.13", ("corrected",), severity="proof", known="text"),
    Erratum(
        "even2022.erratum18", "Theorem 4 (proof, App. E: bias of the estimated weights)",
        "E[sum_ij lambda_hat_ij b_ij^2] <= b_max^2 P(b_hat^2 <= u | b^2 > 4u) + 4u^2 "
        "1{4u^2 >= Delta} drops the number of pairs its union bound runs over (N agents, each "
        "with N - C agents of other clusters), writes 4u^2 for 4 D*^2 u (b_hat^2 <= u makes u a "
        "squared distance; the printed form fails the dimension check) and 4u^2 >= Delta for "
        "4u > Delta^2. The proof also counts N_hat_i with b_ij <= u for b_hat_ij^2 <= u, and "
        "its good event ||mu_hat_i - mu_m||^2 <= u only gives b_hat_ij^2 <= 4u inside a "
        "cluster (u/4 is needed for N_hat_i >= C).",
        "N (2 (N - C) b_max^2 e^{-S max(2u, Delta^2 - 2u)/(8 nu^2)} + 4 D*^2 u 1{4u > Delta^2}) "
        "(corrected form); Monte Carlo on clustered Gaussian means puts the measured value "
        "above the printed bound and below the corrected one.",
        "even2022.E18", "§8 #17, #18", ("corrected",), severity="substantive"),
    Erratum(
        "even2022.erratum20_hkz", "Appendix E (Hsu-Kakade-Zhang tail, first display)",
        "The threshold d_eff nu^2 + 2 sqrt(||Sigma||_2 t) + 2 nu^2 t has sqrt(||Sigma||_2 t) "
        "where Hsu, Kakade and Zhang have 2 sqrt(Tr(Sigma^2) t): the printed level does not "
        "scale with Sigma (it fails the dimension check) and is exceeded with probability "
        "far above e^{-t} when Sigma is large (Sigma = 100 I_100, t = ln 10: about 0.3 "
        "instead of at most 0.1), with either reading of ||Sigma||_2 (Frobenius or operator).",
        "Tr(Sigma) + 2 ||Sigma||_F sqrt(t) + 2 ||Sigma||_op t (corrected form). The paper's "
        "next display, P(||xi||^2 >= 4u) <= e^{-u/(2 nu^2)} for u >= nu^2 d_eff, follows from "
        "the corrected threshold and holds.",
        "even2022.E20", "§8 #20", ("corrected",), severity="proof"),
    Erratum(
        "even2022.erratum24", "Section 5 (bias terms of the classical baselines)",
        "The single global model is said to have the bias term (1/N^2) sum_ij b_ij and "
        "classical personalisation (lambda_ii = 1 - alpha_i, lambda_ij = alpha_i/(N-1)) the "
        "bias (1/N) sum_i alpha_i/(N-1) sum_{j != i} b_ij: first powers of b_ij, where Theorem "
        "3 has b_ij^2/(2 mu). The printed terms have the unit of a gradient, not of a function "
        "value (they fail the dimension check), and underestimate the bias floor when "
        "b_ij > 2 mu.",
        "Theorem 3's bias with these weights: (1/N^2) sum_ij b_ij^2/(2 mu) and (1/N) sum_i "
        "alpha_i/(N-1) sum_{j != i} b_ij^2/(2 mu) (corrected forms); the exact bias floors "
        "on the quadratic family lie above the printed terms and below the corrected ones.",
        "even2022.E24", "§8 #24", ("corrected",), severity="substantive", known="counterexample"),
]

ERRATA: dict[str, Erratum] = {e.id.split(".", 1)[1]: e for e in _E}
