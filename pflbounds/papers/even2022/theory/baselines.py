"""Section 5's baselines and their bias terms: no collaboration (W = I), the single global
model (lambda_ij = 1/N) and classical personalisation (lambda_ii = 1 - alpha,
lambda_ij = alpha/(N-1)).

The bias terms bound the floor of AFA with these weights, f^Lambda(y^Lambda) - f_bar(x^*)
(Lemma 5), like the last term of Theorem 3; the paper prints them with b_ij in place of
b_ij^2/(2 mu).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pflbounds.papers.even2022 import inputs
from pflbounds.papers.even2022.errata import ERRATA
from pflbounds.papers.even2022.paper import GLOBAL_MODEL, INTERPOLATED, SGD, cond, form, result
from pflbounds.papers.even2022.symbols import (
    F0,
    K,
    L,
    N,
    alpha,
    b2sum,
    bsum,
    eta,
    kappa,
    mu,
    sigma2,
)
from pflbounds.symbolic.hidden import Otilde
from pflbounds.symbolic.result import Derivation, Kind
from pflbounds.symbolic.unevaluated import Ge, Le, exp


def d_bsum(m: Mapping[str, Any], v: Mapping[str, Any]) -> float:
    return float(inputs.check_bias_matrix(m["b"]).sum())


def d_b2sum(m: Mapping[str, Any], v: Mapping[str, Any]) -> float:
    return float((inputs.check_bias_matrix(m["b"]) ** 2).sum())


B_SUMS = (Derivation("bsum", ("b",), d_bsum, "sum_ij b_ij"),
          Derivation("b2sum", ("b",), d_b2sum, "sum_ij b_ij^2"), inputs.N_FROM_B)
_FLOOR = "f^Lambda(y^Lambda) - f_bar(x^*): the bias floor of AFA with these weights"

BASELINE_LOCAL = result(
    "baseline_local", "Section 5 (no collaboration)", Kind.UPPER_BOUND,
    "E[F^K] with W = I (every agent runs SGD alone)", "f",
    "The no-collaboration strategy (all agents locally performing SGD) is AFA with Lambda = I: "
    "Theorem 3 then has no bias term (b_ii = 0) and the variance term of one agent, "
    "E[F^K] <= F^0 e^{-K/(2 kappa)} + O~(kappa sigma^2/(K mu)): no speedup.",
    [
        form("printed", F0 * exp(-K / (2 * kappa)) + Otilde(kappa * sigma2 / (K * mu)),
             "Theorem 3 as printed with Lambda = I (sum_ij lambda_ij^2 = N, bias 0); the "
             "paper names the baseline in Section 5 and Appendix A without a formula."),
        form("explicit", F0 * exp(-eta * mu * K) + eta * L * sigma2 / mu,
             "Theorem 3's safe fixed-step form with Lambda = I (rho(W) = 1), i.e. Lemma 6 for "
             "each agent.", conditions=(cond(Le(eta, 1 / (2 * L)), "eta <= 1/(2L)"),)),
    ],
    hypotheses=("even2022.A1", "even2022.A2"), source="Section 5, App. A",
    quantity_typst="EE[F^K]",
    methods=SGD,
)

BASELINE_GLOBAL = result(
    "baseline_global", "Section 5 (single global model)", Kind.UPPER_BOUND, _FLOOR, "f",
    "Full and naive collaboration (a single model trained for all users) corresponds to "
    "lambda_ij = 1/N for all i, j, and leads to a bias term of (1/N^2) sum_ij b_ij.",
    [
        form("printed", bsum / N**2, "As printed: first powers of b_ij (fails the dimension "
             "check)."),
        form("corrected", b2sum / (2 * mu * N**2),
             "Theorem 3's bias (1/N) sum_ij lambda_ij b_ij^2/(2 mu) with lambda_ij = 1/N."),
    ],
    hypotheses=("even2022.A2", "even2022.A3"), source="Section 5",
    errata=(ERRATA["erratum24"],), derivations=B_SUMS,
    quantity_typst="f^Lambda (y^Lambda) - overline(f)(x^*)",
    methods=GLOBAL_MODEL,
)

BASELINE_PERSONALISED = result(
    "baseline_personalised", "Section 5 (classical personalisation)", Kind.UPPER_BOUND,
    _FLOOR, "f",
    "Classical personalised FL (x_i = x_bar - delta_i, e.g. averaging a local and a global "
    "model) is the instance lambda_ii = 1 - alpha_i, lambda_ij = alpha_i/(N-1) (j != i), and "
    "leads to bias terms of the form (1/N) sum_i alpha_i/(N-1) sum_{j != i} b_ij. Encoded "
    "with a common alpha_i = alpha.",
    [
        form("printed", alpha * bsum / (N * (N - 1)),
             "As printed with alpha_i = alpha (b_ii = 0, so sum_{j != i} is sum_j): first "
             "powers of b_ij (fails the dimension check)."),
        form("corrected", alpha * b2sum / (2 * mu * N * (N - 1)),
             "Theorem 3's bias (1/N) sum_ij lambda_ij b_ij^2/(2 mu) with these weights."),
    ],
    conditions=(cond(Ge(N, 2), "N >= 2"),),
    hypotheses=("even2022.A2", "even2022.A3"), source="Section 5",
    errata=(ERRATA["erratum24"],), derivations=B_SUMS,
    quantity_typst="f^Lambda (y^Lambda) - overline(f)(x^*)",
    unchecked=("tested inside another result's check. Check E24 (named for the single-model "
               "baseline) evaluates both forms at its personalisation points."),
    methods=INTERPOLATED,
)
