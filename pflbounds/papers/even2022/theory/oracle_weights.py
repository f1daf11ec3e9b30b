"""Corollary 1: AFA with the oracle weights lambda_ij = 1{b_ij^2/mu < eps}/N_i^eps(b^2/mu)."""

from __future__ import annotations

from pflbounds.papers.even2022 import inputs
from pflbounds.papers.even2022.errata import ERRATA
from pflbounds.papers.even2022.paper import AFA, cond, form, result
from pflbounds.papers.even2022.symbols import (
    F0,
    eps,
    invN_mean,
    kappa,
    mu,
    rho_W,
    sigma2,
)
from pflbounds.symbolic.result import Kind
from pflbounds.symbolic.unevaluated import Gt, Le, Max, ceiling, log

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
    methods=AFA,
)
