"""AFA with estimated biases (Section 6): Theorem 4, its proof's two estimates, Corollary 2."""

from __future__ import annotations

import sympy as sp

from pflbounds.papers.even2022 import inputs
from pflbounds.papers.even2022.errata import ERRATA
from pflbounds.papers.even2022.paper import ESTIMATED, cond, form, result
from pflbounds.papers.even2022.symbols import (
    F0,
    C,
    D_star,
    Delta2,
    K,
    N,
    S,
    b_max,
    c_N,
    d_eff,
    eps,
    ind_ge,
    ind_gt,
    kappa,
    mu,
    nu2,
    sigma2,
    u,
)
from pflbounds.symbolic.hidden import Omegatilde, Otilde
from pflbounds.symbolic.result import Kind
from pflbounds.symbolic.unevaluated import Ge, Max, exp, log

U_COND = cond(Ge(u, 4 * nu2 * d_eff / S), "u >= 4 nu^2 d_eff/S")
_TAIL = exp(-S * Max(2 * u, Delta2 - 2 * u) / (8 * nu2))

THEOREM4 = result(
    "theorem4", "Theorem 4", Kind.UPPER_BOUND,
    "E[F^K] (over bias estimates and gradients)", "f",
    "Under Assumptions 1-5, with lambda_hat_ij = 1{b_hat_ij^2 <= u}/sum_l 1{b_hat_il^2 <= u}, "
    "u >= 4 nu^2 d_eff/S and W = Lambda_hat Lambda_hat^T: E[F^K] <= F^0 e^{-kappa/(2K)} + "
    "O~(kappa sigma^2/(K mu)(1/C + C e^{-Su/(8 nu^2)})) + (2 D*^2 b_max "
    "e^{-S max(Delta^2 - 2u, 2u^2)/(8 nu^2)} + 4u^2 1{2u >= Delta})/mu.",
    [
        form("printed", F0 * exp(-kappa / (2 * K))
             + Otilde(kappa * sigma2 / (K * mu) * (1 / C + C * exp(-S * u / (8 * nu2))))
             + (2 * D_star**2 * b_max
                * exp(-S * Max(Delta2 - 2 * u, 2 * u**2) / (8 * nu2))
                + 4 * u**2 * ind_ge(2 * u, sp.sqrt(Delta2))) / mu,
             "Verbatim, typos included (it fails the dimension check)."),
        form("corrected", F0 * exp(-K / (2 * kappa))
             + Otilde(kappa * sigma2 / (K * mu) * (1 / C + 2 * C * exp(-S * u / (8 * nu2))))
             + (2 * c_N * b_max**2 * _TAIL + 4 * D_star**2 * u * ind_gt(4 * u, Delta2)) / (2 * mu),
             "Digest §4.11 reading: exp(-K/(2 kappa)); factor 2 on C e^{...}; b_max^2 with a "
             "union-bound count c_N (1 in the paper, N - C when counted); 4 D*^2 u "
             "1{4u > Delta^2}; bias over 2 mu as in Theorem 3."),
    ],
    conditions=(U_COND,),
    hypotheses=("even2022.A1", "even2022.A2", "even2022.A3", "even2022.A4", "even2022.A5"),
    source="Section 6, App. E", errata=(ERRATA["erratum17"], ERRATA["erratum20"]),
    derivations=(inputs.B_MAX,), quantity_typst="EE[F^K]",
    methods=ESTIMATED,
)

THEOREM4_TAIL = result(
    "theorem4_tail", "Theorem 4 (proof: misclassification tail)", Kind.UPPER_BOUND,
    "P(b_hat_ij^2 <= u) for a cross-cluster pair with ||mu_i - mu_j||^2 >= max(4u, Delta^2)", "1",
    "In the proof of Theorem 4: P(b_hat_ij^2 <= u | b_ij^2 > max(4u, Delta^2)) <= "
    "2 exp(-S max(2u, Delta^2 - 2u)/(8 nu^2)).",
    [form("printed", 2 * _TAIL, "Uses that mu_hat_i - mu_hat_j is (4 Sigma/S)-sub-Gaussian and "
          "the Hsu-Kakade-Zhang tail.")],
    conditions=(U_COND,), hypotheses=("even2022.A4", "even2022.A5"), source="App. E",
    quantity_typst="PP(hat(b)_(i j)^2 <= u)",
    methods=ESTIMATED,
)

THEOREM4_VARIANCE = result(
    "theorem4_variance", "Theorem 4 (proof: variance factor)", Kind.UPPER_BOUND,
    "(1/N) E[sum_ij lambda_hat_ij^2]", "1",
    "In the proof of Theorem 4: (1/N) E[sum_ij lambda_hat_ij^2] = (1/N) E[sum_i 1/N_hat_i] <= "
    "1/C + 2C e^{-Su/(8 nu^2)}.",
    [form("printed", 1 / C + 2 * C * exp(-S * u / (8 * nu2)),
          "As in the proof (the statement drops the factor 2).")],
    conditions=(U_COND,), hypotheses=("even2022.A4", "even2022.A5"), source="App. E",
    quantity_typst="1/N EE[sum_(i j) hat(lambda)_(i j)^2]",
    methods=ESTIMATED,
)

COROLLARY2 = result(
    "corollary2", "Corollary 2", Kind.COMPLEXITY,
    "sufficient S, C, KC and K for an averaged error eps", "1",
    "AFA with estimated biases reaches an averaged error eps as long as "
    "S = Omega~(nu^2 d_eff/Delta^2), C = Omega~(nu^2 d_eff/eps), KC = Omega~(kappa sigma^2/"
    "(eps mu)) and K = Omega~(kappa).",
    [
        form("printed", parts={
            "S": Omegatilde(nu2 * d_eff / Delta2),
            "C": Omegatilde(nu2 * d_eff / eps),
            "KC": Omegatilde(kappa * sigma2 / (eps * mu)),
            "K": Omegatilde(kappa),
        }, note="As stated (proof: u = Delta/4, read Delta^2/4). The condition on C fails the "
                "dimension check."),
        form("corrected", parts={
            "S": Max(16 * nu2 * d_eff / Delta2,
                        16 * nu2 / Delta2 * log(N * b_max**2 / (mu * eps)),
                        32 * nu2 / Delta2 * log(2 * C**2)),
            "KC": Omegatilde(kappa * sigma2 / (eps * mu)),
            "K": Omegatilde(kappa * log(F0 / eps)),
        }, note="Digest §4.13: sufficient conditions from the corrected Theorem 4 with "
                "u = Delta^2/4 (the last two S terms up to constant factors); no condition on "
                "C follows."),
    ],
    relation=">=", hypotheses=("even2022.A1", "even2022.A2", "even2022.A3", "even2022.A4",
                               "even2022.A5"),
    source="Section 6", errata=(ERRATA["erratum23"],),
    derivations=(inputs.B_MAX, inputs.N_FROM_B),
    part_units={"C": "1", "S": "1", "KC": "1", "K": "1"},
    part_typst={"S": "S", "C": "C", "KC": "K C", "K": "K"},
    unchecked=("orders of magnitude only (no constants). No check runs AFA at the corrected S; "
               "check C2 tests the agents count of its discussion."),
    methods=ESTIMATED,
)
