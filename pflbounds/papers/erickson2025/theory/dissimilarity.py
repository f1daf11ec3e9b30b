"""Proposition 3.4 of erickson2025 (§3.2, App. A.1): the distance between two clients' ideal
models bounded through the Wasserstein distance of their data, the intermediate bound (3),
and the constraint scale t = 2 L_X/gamma that makes the ideal models feasible for (1)."""

from __future__ import annotations

from pflbounds.papers.erickson2025.assumptions import A3_1, A3_2
from pflbounds.papers.erickson2025.errata import ERRATA
from pflbounds.papers.erickson2025.paper import form, result
from pflbounds.papers.erickson2025.symbols import L_X, W1, gamma, gap
from pflbounds.symbolic.result import Kind

_NO_METHOD = ("a property of the clients' ideal models and data distributions "
              "(Assumptions 3.1-3.2), whatever the algorithm")

PROPOSITION3_4 = result(
    "proposition3_4", "Proposition 3.4", Kind.UPPER_BOUND,
    "||theta_i^* - theta_j^*||^2: squared distance between two clients' ideal models", "x^2",
    "Under Assumptions 3.1 and 3.2, ||theta_i^* - theta_j^*||_2^2 <= (2 L_X/gamma) "
    "W_1(mu_i, mu_j).",
    [form("printed", 2 * L_X / gamma * W1)],
    source="Proposition 3.4, App. A.1", equations=("2",), hypotheses=(A3_1.id, A3_2.id),
    errata=(ERRATA["erratum8"], ERRATA["erratum9"]),
    quantity_typst="norm(theta_i^star - theta_j^star)^2", no_method=_NO_METHOD,
)

PROPOSITION3_4_EQ3 = result(
    "proposition3_4_eq3", "Proposition 3.4, intermediate bound (3)", Kind.UPPER_BOUND,
    "||theta_i^* - theta_j^*||^2 bounded through the loss gaps at the two ideal models", "x^2",
    "Growth at the other client's optimum, added: ||theta_i^* - theta_j^*||^2 <= (1/gamma) "
    "(f_i(theta_j^*) - f_j(theta_j^*) + f_j(theta_i^*) - f_i(theta_i^*)).",
    [form("printed", gap / gamma)],
    source="App. A.1", equations=("3",), hypotheses=(A3_1.id,),
    quantity_typst="norm(theta_i^star - theta_j^star)^2",
    no_method=_NO_METHOD,
)

PROPOSITION3_4_T = result(
    "proposition3_4_t", "Proposition 3.4: the constraint scale t", Kind.IDENTITY,
    "t = 2 L_X/gamma: with D_ij = W_1(mu_i, mu_j) the ideal models are feasible for (1)",
    "x^2/xi",
    "If D_ij = W_1(mu_i, mu_j) exactly, t = 2 L_X/gamma makes (theta_1^*, ..., theta_n^*) "
    "feasible (digest §3.1, from (2)).",
    [form("printed", 2 * L_X / gamma)],
    relation="=", source="§3.2, from Proposition 3.4", hypotheses=(A3_1.id, A3_2.id),
)
