"""All-for-all (AFA): Lemma 5, Eq. (7), Theorem 3, Corollary 1, and Lemma 6 (SGD)."""

from __future__ import annotations

from pflbounds.papers.even2022 import inputs
from pflbounds.papers.even2022.errata import ERRATA
from pflbounds.papers.even2022.paper import cond, form, result
from pflbounds.papers.even2022.symbols import (
    A7,
    F0,
    BiasF,
    BiasSum,
    Delta0,
    DeltaLam0,
    K,
    L,
    N,
    SumLam2,
    T,
    eps,
    eta,
    invN_mean,
    kappa,
    mu,
    rho_W,
    sigma2,
)
from pflbounds.symbolic.hidden import Otilde
from pflbounds.symbolic.result import Kind
from pflbounds.symbolic.unevaluated import Gt, Le, Max, Min, ceiling, exp, log

A7_GT_1 = cond(Gt(A7, 1), "the logarithm in Eq. (7) is positive")
AFA_WEIGHTS = (inputs.SUMLAM2, inputs.BIASSUM, inputs.RHO_W, inputs.N_FROM_LAMBDA)

LEMMA5 = result(
    "lemma5", "Lemma 5", Kind.UPPER_BOUND, "f^Lambda(y^Lambda) - f_bar(x^*)", "f",
    "If Lambda is row-stochastic, f^Lambda(y^Lambda) - f_bar(x^*) <= (1/N) sum_ij lambda_ij "
    "(f_i(x_j^*) - f_i(x_i^*)).",
    [form("printed", BiasF / N, "Jensen's inequality at y = x^*."),
     form("explicit", BiasSum / (2 * mu * N), "Combined with Lemma 4 (weak Assumption 3).")],
    hypotheses=("even2022.A2", "even2022.A3"), source="App. D",
    derivations=(inputs.BIASSUM, inputs.N_FROM_LAMBDA),
    quantity_typst="f^Lambda (y^Lambda) - overline(f)(x^*)",
)

EQ7 = result(
    "eq7", "AFA step size, Eq. (7)", Kind.STEP_SIZE, "eta", "x^2/f",
    "eta = min{1/(2L), ln(2 mu^2 K (f^Lambda(y^0) - f^Lambda(y^Lambda))/(sigma^2 L (1/N) "
    "sum_ij lambda_ij^2))/(mu K)}.",
    [
        form("printed", Min(1 / (2 * L), log(A7) / (mu * K)), conditions=(A7_GT_1,)),
        form("corrected", Min(1 / (2 * L * rho_W), log(A7) / (mu * K)),
             "Stable only when eta L rho(W) <= 1/2: the 1/(2L) cap becomes 1/(2 L rho(W)) "
             "(erratum on the spectral radius of W).", conditions=(A7_GT_1,)),
    ],
    relation="=", equations=("7",), source="Section 5", errata=(ERRATA["erratum13"],),
    derivations=AFA_WEIGHTS, quantity_typst="eta",
    unchecked=("a step-size rule, not evaluated by a check. The AFA checks run fixed steps; check "
               "P11 runs its cap 1/(2L) and the corrected 1/(2 L rho(W)) (erratum 13)."),
)

_QTY = "E[F^K], F^K = (1/N) sum_i f_i(x_i^K) - f_i^*"

THEOREM3 = result(
    "theorem3", "Theorem 3", Kind.UPPER_BOUND, _QTY, "f",
    "For AFA (Algorithm 1) with W = Lambda Lambda^T, Lambda row-stochastic, Assumptions 1, 2, "
    "3 (weak), common initialisation and eta as in Eq. (7): E[F^K] <= F^0 e^{-K/(2 kappa)} + "
    "O~(kappa sigma^2/(K mu N) sum_ij lambda_ij^2) + (1/N) sum_ij lambda_ij b_ij^2/(2 mu).",
    [
        form("printed", F0 * exp(-K / (2 * kappa))
             + Otilde(kappa * sigma2 / (K * mu * N) * SumLam2) + BiasSum / (2 * mu * N),
             "As stated; eta from Eq. (7).", conditions=(A7_GT_1,)),
        form("explicit", DeltaLam0 * exp(-K / (2 * kappa))
             + kappa * sigma2 / (K * mu * N) * log(A7) * SumLam2 + BiasSum / (2 * mu * N),
             "The proof's display, reconstructed (it is garbled in the source, digest §4.9), "
             "plus the bias of Lemma 5 and Lemma 4.", conditions=(A7_GT_1,)),
        form("corrected", F0 * exp(-eta * mu * K) + eta * L * sigma2 * SumLam2 / (mu * N)
             + BiasSum / (2 * mu * N),
             "Safe form for a fixed step (digest §4.9): Lemma 6's eta L sigma^2/mu mapped to "
             "f^Lambda; requires rho(W) <= 1 (e.g. doubly-stochastic Lambda) and eta <= 1/(2L).",
             conditions=(cond(Le(eta, 1 / (2 * L * rho_W)), "eta <= 1/(2 L rho(W))"),
                         cond(Le(rho_W, 1), "rho(W) <= 1 (doubly-stochastic Lambda)"))),
    ],
    hypotheses=("even2022.A1", "even2022.A2", "even2022.A3"), source="Section 5, App. D",
    errata=(ERRATA["erratum13"], ERRATA["erratum14"], ERRATA["erratum11"]),
    derivations=AFA_WEIGHTS,
    quantity_typst="EE[F^K]",
)

COROLLARY1 = result(
    "corollary1", "Corollary 1", Kind.COMPLEXITY,
    "K_eps: oracle calls for (1/N) sum_i f_i(x_i^K) - f_i^* <= eps", "1",
    "With lambda_ij = 1{b_ij^2/mu < eps}/N_i^eps(b^2/mu), AFA reaches an averaged error eps "
    "within K_eps <= 2 max(kappa sigma^2/(eps mu) (1/N) sum_i 1/N_i^eps(b^2/mu), kappa) "
    "ln(F^0/eps) oracle calls.",
    [
        form("printed", 2 * Max(kappa * sigma2 / (eps * mu) * invN_mean, kappa)
             * log(F0 / eps), "As stated (no expectation; last vs averaged iterate "
             "unspecified).", conditions=(cond(Gt(F0, eps), "F^0 > eps"),)),
        form("corrected", ceiling(Max(2 * kappa, 4 * kappa * sigma2 * invN_mean / (mu * eps))
                                     * log(4 * F0 / eps)),
             "Derived (digest §4.10): last iterate, in expectation, eta = min(1/(2L), "
             "eps mu N/(4 L sigma^2 sum lambda^2)); requires rho(W) <= 1.",
             conditions=(cond(Gt(4 * F0, eps), "F^0 > eps/4"),
                         cond(Le(rho_W, 1), "rho(W) <= 1 (doubly-stochastic Lambda)"))),
    ],
    relation="=", hypotheses=("even2022.A1", "even2022.A2", "even2022.A3"),
    source="Section 5", errata=(ERRATA["erratum16"], ERRATA["erratum13"]),
    derivations=(inputs.invn_mean_derivation(), inputs.cor1_rho_derivation()),
    quantity_typst="K_epsilon",
)

_L6_QTY = "E[f(x^T) - f(x^*)]"

LEMMA6 = result(
    "lemma6", "Lemma 6", Kind.UPPER_BOUND, _L6_QTY, "f",
    "SGD with a fixed step 0 < eta <= 1/(2L) on a mu-strongly convex, L-smooth f (relative to "
    "1/2 ||x||_A^2, L_A <= 1) with noise variance sigma^2: E[f(x^T) - f^*] <= "
    "e^{-eta mu T} (f(x^0) - f^*) + eta L sigma^2/mu.",
    [form("printed", exp(-eta * mu * T) * Delta0 + eta * L * sigma2 / mu,
          "Last iterate. The proof is invalid for singular A (erratum); the statement holds for "
          "A = I.")],
    conditions=(cond(Le(eta, 1 / (2 * L)), "eta <= 1/(2L)"),),
    source="App. F", errata=(ERRATA["erratum14"],), quantity_typst="EE[f(x^T) - f(x^*)]",
    unchecked=("no check yet. Theorem 3's corrected form carries it to AFA (checks P7, P8); the "
               "exact SGD moments of check E15 could test it."),
)

_ARG = Delta0 * mu**2 * T / (L * sigma2)

LEMMA6_TUNED = result(
    "lemma6_tuned", "Lemma 6 (tuned step)", Kind.UPPER_BOUND, _L6_QTY, "f",
    "With eta = min(1/(2L), ln(f_0 mu^2 T/(L sigma^2))/(mu T)): E[f(x^T) - f^*] <= "
    "e^{-mu T/(2L)} f_0 + L sigma^2/(mu^2 T) ln(f_0 mu^2 T/(L sigma^2)).",
    [
        form("printed", exp(-T / (2 * kappa)) * Delta0
             + L * sigma2 / (mu**2 * T) * log(_ARG)),
        form("corrected", exp(-T / (2 * kappa)) * Delta0
             + L * sigma2 / (mu**2 * T) * (1 + log(_ARG)),
             "Adds the L sigma^2/(mu^2 T) term that the exponential contributes in the "
             "logarithmic branch (digest §4.14)."),
    ],
    conditions=(cond(Gt(_ARG, 1), "f_0 mu^2 T/(L sigma^2) > 1"),), source="App. F",
    errata=(ERRATA["erratum15"],), quantity_typst="EE[f(x^T) - f(x^*)]",
    unchecked=("no check yet. The exact SGD moments of check E15, which tests the same lemma's "
               "count, could test it."),
)

LEMMA6_EPS = result(
    "lemma6_eps", "Lemma 6 (precision eps)", Kind.COMPLEXITY,
    "T_eps: SGD steps to reach precision eps", "1",
    "With eta_eps = min(mu eps/(2 L sigma^2), 1/(2L)) and T_eps = ceil(ln(f_0/eps)/(eta_eps "
    "mu)), f((1/T_eps) sum_{t<T_eps} x^t) - f^* <= eps, with T_eps <= max(2 L sigma^2/(eps "
    "mu^2), 2L/mu) ln(f_0/eps).",
    [
        form("printed", Max(2 * L * sigma2 / (eps * mu**2), 2 * L / mu) * log(Delta0 / eps),
             "Claimed for the averaged iterate, without expectation."),
        form("corrected", ceiling(Max(3 * L * sigma2 / (eps * mu**2), 2 * L / mu)
                                     * log(3 * Delta0 / (2 * eps))),
             "For E of the last iterate with eta = min(mu eps/(3 L sigma^2), 1/(2L)): the "
             "exponential term gives 2 eps/3 and the variance eps/3."),
    ],
    conditions=(cond(Gt(Delta0, eps), "f_0 > eps"),), relation="=", source="App. F",
    errata=(ERRATA["erratum15"],), quantity_typst="T_epsilon",
)
