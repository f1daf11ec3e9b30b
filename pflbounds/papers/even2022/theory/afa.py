"""All-for-all (AFA, Algorithm 1): Lemma 5, the step size of Eq. (7) and Theorem 3."""

from __future__ import annotations

from pflbounds.papers.even2022 import inputs
from pflbounds.papers.even2022.errata import ERRATA
from pflbounds.papers.even2022.paper import AFA, cond, form, result
from pflbounds.papers.even2022.symbols import (
    A7,
    F0,
    BiasF,
    BiasSum,
    DeltaLam0,
    K,
    L,
    N,
    SumLam2,
    eta,
    kappa,
    mu,
    rho_W,
    sigma2,
)
from pflbounds.symbolic.hidden import Otilde
from pflbounds.symbolic.result import Kind
from pflbounds.symbolic.unevaluated import Gt, Le, Min, exp, log

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
    methods=AFA,
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
    methods=AFA,
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
    methods=AFA,
)
