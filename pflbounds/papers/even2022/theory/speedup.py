"""Collaboration speedups stated in the discussions: the remark after Corollary 1 (AFA needs at
most the mean of the per-agent AFO complexities) and Corollary 2's N = Omega~(M/eps)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from pflbounds.papers.even2022 import inputs
from pflbounds.papers.even2022.errata import ERRATA
from pflbounds.papers.even2022.paper import AFA, AFO, ESTIMATED, form, result
from pflbounds.papers.even2022.symbols import (
    K,
    M,
    eps,
    invN_afo_mean,
    kappa,
    mu,
    sigma2,
)
from pflbounds.symbolic.hidden import Omegatilde, Otilde
from pflbounds.symbolic.result import Derivation, Kind


def d_invN_afo_mean(m: Mapping[str, Any], v: Mapping[str, Any]) -> float:
    """(1/N) sum_i 1/#{j : b_ij^2 <= mu eps/2} (Theorem 2's neighbour counts)."""
    from pflbounds.problems.clusters import closeness_counts

    b = inputs.check_bias_matrix(m["b"])
    n = closeness_counts(b**2, float(v["mu"]) * float(v["eps"]) / 2)
    return float(np.mean(1.0 / n))


COROLLARY1_REMARK = result(
    "corollary1_remark", "Remark after Corollary 1", Kind.COMPLEXITY,
    "K_eps: oracle calls of AFA with Corollary 1 weights for an averaged error eps", "1",
    "Denoting K_eps(i) the oracle complexity of WGA (Theorem 2), which matches the lower "
    "bound, AFA reaches an averaged eps-generalisation within K_eps <= (1/N) sum_i K_eps(i) "
    "oracle calls; its speedup over no collaboration is (1/N) sum_i 1/N_i^eps(b^2/mu), the "
    "mean of all local speedups.",
    [form("printed", Otilde(kappa * sigma2 / (mu * eps) * invN_afo_mean),
          "(1/N) sum_i K_eps(i) with K_eps(i) = O~(kappa sigma^2/(mu eps N_i^eps(2b^2/mu))) "
          "from Theorem 2. The check compares Corollary 1 as printed with the mean of "
          "Theorem 2's explicit per-agent counts.")],
    hypotheses=("even2022.A1", "even2022.A2", "even2022.A3"), source="Section 5",
    derivations=(Derivation("invN_afo_mean", ("b",), d_invN_afo_mean,
                            "(1/N) sum_i 1/#{j: b_ij^2 <= mu eps/2}", uses=("mu", "eps")),),
    quantity_typst="K_epsilon",
    methods=(AFA[0], *AFO),
)

COROLLARY2_AGENTS = result(
    "corollary2_agents", "Corollary 2 (discussion: number of agents)", Kind.COMPLEXITY,
    "N: agents that suffice for an averaged error eps with S and K bounded up to logs", "1",
    "Only constant orders of S and K are required to reach an arbitrary small eps if the "
    "number of agents is large enough, i.e. if N = Omega~(M/eps), M the number of clusters: "
    "a linear speedup in the cluster population.",
    [
        form("printed", Omegatilde(M / eps),
             "As stated; M/eps fails the dimension check (erratum)."),
        form("corrected", Omegatilde(M * kappa * sigma2 / (K * mu * eps)),
             "N = M C with C from Corollary 2's KC = Omega~(kappa sigma^2/(eps mu)) at a "
             "bounded K = Omega~(kappa): linear in M/eps, with the noise-to-curvature ratio "
             "sigma^2/mu as its unit."),
    ],
    relation=">=", hypotheses=("even2022.A1", "even2022.A2", "even2022.A3", "even2022.A4",
                               "even2022.A5"),
    source="Section 6", errata=(ERRATA["erratum23_agents"],), quantity_typst="N",
    methods=ESTIMATED[:1],
)
