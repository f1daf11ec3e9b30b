"""All-for-one (AFO / weighted gradient averaging): Lemma 3, Lemma 4, Eq. (6), Theorem 2."""

from __future__ import annotations

from pflbounds.papers.even2022 import inputs
from pflbounds.papers.even2022.errata import ERRATA
from pflbounds.papers.even2022.paper import AFO, cond, form, result
from pflbounds.papers.even2022.symbols import (
    A6,
    B,
    Delta0,
    E_k,
    K,
    L,
    Neps,
    V,
    b,
    eps,
    eta,
    gradgap2,
    kappa,
    mu,
    sigma2,
    sigma_g2,
)
from pflbounds.symbolic.hidden import Otilde
from pflbounds.symbolic.result import Kind
from pflbounds.symbolic.unevaluated import Gt, Le, Max, Min, ceiling, exp, log

A_GT_1 = cond(Gt(A6, 1), "A_i > 1, otherwise Eq. (6) gives eta <= 0")
AFO_WEIGHTS = (inputs.V_FROM_LAMBDA, inputs.B_FROM_MATRICES)

LEMMA3 = result(
    "lemma3", "Lemma 3", Kind.UPPER_BOUND, "E[F(y^{k+1}) - F(y^*)]", "f",
    "Biased SGD descent: for F L-smooth and mu-strongly convex, G differentiable, "
    "y^{k+1} = y^k - eta g^k with E[g^k|y^k] = grad G(y^k) and variance <= sigma_g^2, and "
    "eta <= 1/L: E[F(y^{k+1}) - F^*] <= (1 - eta mu) E[F(y^k) - F^*] + (eta/2) "
    "E||grad F - grad G||^2 + eta^2 sigma_g^2 L/2.",
    [form("printed", (1 - eta * mu) * E_k + eta / 2 * gradgap2 + eta**2 * sigma_g2 * L / 2,
          "Constants explicit. The proof's last step should read -(eta/2)||grad F||^2 <= "
          "-eta mu (F - F^*) (digest §8 #8).")],
    conditions=(cond(Le(eta, 1 / L), "eta <= 1/L"),),
    source="App. C", quantity_typst="EE[F(y^(k+1)) - F(y^*)]",
    unchecked=("a proof step, not checked on its own. The one-step descent of Theorem 2's proof; "
               "checks P1 and P2 test Theorem 2."),
    methods=AFO,
)

LEMMA4 = result(
    "lemma4", "Lemma 4", Kind.UPPER_BOUND, "f_i(x_j^*) - f_i(x_i^*)", "f",
    "Under Assumption 3 (weak) and Assumption 2: f_i(x_j^*) - f_i(x_i^*) <= b_ij^2/(2 mu).",
    [form("printed", b**2 / (2 * mu), "Tight for isotropic quadratics with H = mu I.")],
    hypotheses=("even2022.A2", "even2022.A3"), source="App. D",
    derivations=(inputs.B_ENTRIES,), quantity_typst="f_i (x_j^*) - f_i (x_i^*)",
    unchecked=("a proof step, not checked on its own. It gives the bias b_ij^2/(2 mu) of the "
               "bounds that checks P1 and P8 test."),
    methods=AFO,
)

EQ6 = result(
    "eq6", "AFO step size, Eq. (6)", Kind.STEP_SIZE, "eta_i", "x^2/f",
    "eta_i = min{1/(2L), ln(2 mu^2 K (f_i(x_i^0) - f_i^*)/(sigma^2 L sum_j lambda_ij^2))/(mu K)}.",
    [form("printed", Min(1 / (2 * L), log(A6) / (mu * K)),
          "Needs K, Delta0_i, sigma^2, mu and L in advance.")],
    conditions=(A_GT_1,), relation="=", equations=("6",), source="Section 4",
    derivations=AFO_WEIGHTS, quantity_typst="eta_i",
    unchecked=("a step-size rule, run by its theorem's checks. Checks P2, P3 and E6 run AFO with "
               "this step, evaluated from this encoding."),
    methods=AFO,
)

_QTY = "E[f_i(x_i^K) - f_i(x_i^*)]"
_QTY_T = "EE[f_i (x_i^K) - f_i (x_i^*)]"

THEOREM2 = result(
    "theorem2", "Theorem 2", Kind.UPPER_BOUND, _QTY, "f",
    "For AFO (Eq. 2) under Assumptions 1, 2 and 3 (strong) with eta as in Eq. (6): "
    "E[f_i(x_i^K) - f_i^*] <= Delta0_i e^{-K/(2 kappa)} + O~(kappa sigma^2/(mu K) sum_j "
    "lambda_ij^2) + sum_j lambda_ij b_ij^2/mu.",
    [
        form("printed", Delta0 * exp(-K / (2 * kappa)) + Otilde(kappa * sigma2 / (mu * K) * V)
             + B / mu, "As stated; eta from Eq. (6).", conditions=(A_GT_1,)),
        form("explicit", (1 - eta * mu) ** K * Delta0 + eta * sigma2 * L / (2 * mu) * V
             + B / (2 * mu),
             "The proof's bound before the step size is chosen (App. C), for any fixed "
             "0 < eta <= 1/L.",
             conditions=(cond(Le(eta, 1 / L), "eta <= 1/L"),)),
        form("proof", Delta0 * exp(-K / kappa) + sigma2 * L / (mu**2 * K) * log(A6) * V
             + B / (2 * mu),
             "The proof's display after plugging Eq. (6), as printed (App. C).",
             conditions=(A_GT_1,)),
        form("corrected", Delta0 * exp(-K / (2 * kappa))
             + sigma2 * L * V / (2 * mu**2 * K) * (1 + log(A6)) + B / (2 * mu),
             "Safe explicit form with eta from Eq. (6), checked on both branches of the min "
             "(digest §4.6).", conditions=(A_GT_1,)),
    ],
    hypotheses=("even2022.A1", "even2022.A2", "even2022.A3"), equations=("2", "6"),
    source="Section 4, App. C", errata=(ERRATA["erratum6"],), derivations=AFO_WEIGHTS,
    quantity_typst=_QTY_T,
    methods=AFO,
)

THEOREM2_PART2 = result(
    "theorem2_part2", "Theorem 2 (sample complexity)", Kind.COMPLEXITY,
    "K_i(eps): oracle calls for E[f_i(x_i^K) - f_i^*] <= eps", "1",
    "With lambda_ij = 1{b_ij^2 < eps/2}/N_i^eps(2b), WGA reaches E[f_i(x_i^K) - f_i^*] <= eps "
    "after K_i(eps) = O~(kappa sigma^2/(mu eps) / N_i^eps(2b^2/mu)) oracle calls.",
    [
        form("printed", Otilde(kappa * sigma2 / (mu * eps) / Neps),
             "N_i^eps(2b^2/mu) = #{j : 2 b_ij^2/mu <= eps}; an additive kappa ln(Delta0/eps) "
             "term is hidden."),
        form("explicit", ceiling(Max(2 * kappa, 2 * kappa * sigma2 / (mu * eps * Neps))
                                    * log(4 * Delta0 / eps)),
             "Derived (digest §4.6): uniform weights over N_i = #{j : b_ij^2 <= mu eps/2}, "
             "eta = min(1/(2L), mu eps N_i/(2 L sigma^2)); the explicit bound is then <= 3 eps/4.",
             conditions=(cond(Gt(4 * Delta0, eps), "Delta0 > eps/4 (else K = 0 suffices)"),)),
    ],
    relation="=", hypotheses=("even2022.A1", "even2022.A2", "even2022.A3"),
    source="Section 4",
    derivations=(inputs.neps_derivation("Neps", 0.5, "N_i^eps = #{j : b_ij^2 <= mu eps/2}"),),
    quantity_typst="K_i (epsilon)",
    methods=AFO,
)
