"""The KL of the Gaussian posteriors and Theorem 3.2 of scott2024 (Sec. 3.2, App. B): Theorem
B.1 instantiated for PeFLL's stochastic hypernetwork, printed and corrected (digest §4.2.3).

The calculator takes the mean of ||theta_i||^2 over the observed clients (and the sampled
networks) in the sample-level term instead of the expectation of the root, which by Jensen's
inequality gives a value >= the paper's term: never tighter than the theorem's.
"""

from __future__ import annotations

from pflbounds.papers.scott2024.assumptions import PAC
from pflbounds.papers.scott2024.errata import ERRATA
from pflbounds.papers.scott2024.paper import PEFLL, form, result
from pflbounds.papers.scott2024.symbols import (
    G,
    alpha_h,
    alpha_theta,
    alpha_v,
    delta,
    emp,
    eta_h2,
    eta_v2,
    n,
    theta2,
)
from pflbounds.papers.scott2024.theory.pac_bayes import (
    DELTA_AT_MOST_1,
    DELTA_POSITIVE,
    N_AT_LEAST_8,
    meta_term,
    sample_term,
)
from pflbounds.symbolic.result import Kind

KL_GAUSS = result(
    "kl_gaussian", "KL of the Gaussian posteriors (App. B, Theorem 3.2)", Kind.IDENTITY,
    "KL(N(eta_h, alpha_h Id) x N(eta_v, alpha_v Id) || N(0, alpha_h Id) x N(0, alpha_v Id))",
    "1",
    "The appendix writes D_KL(Q, P) = alpha_h ||eta_h||^2 + alpha_v ||eta_v||^2 (and "
    "D_KL(Q_i, P) = alpha_theta ||theta||^2); (3) uses ||eta||^2/(2 alpha).",
    [form("printed", alpha_h * eta_h2 + alpha_v * eta_v2, "As in App. B: fails the "
          "dimension check (alpha is a variance)."),
     form("corrected", eta_h2 / (2 * alpha_h) + eta_v2 / (2 * alpha_v),
          "KL(N(mu, alpha I) || N(0, alpha I)) = ||mu||^2/(2 alpha) (erratum17).")],
    relation="=", source="App. B, Theorem 3.2", errata=(ERRATA["erratum17"],),
    quantity_typst="D_(\"KL\")(cal(Q) || cal(P))",
)

_META = eta_h2 / (2 * alpha_h) + eta_v2 / (2 * alpha_v)
_SAMPLE = n * theta2 / (2 * alpha_theta)
THEOREM3_2 = result(
    "theorem3_2", "Theorem 3.2 (generalization of PeFLL)", Kind.UPPER_BOUND,
    "er: expected 0-1 loss on future clients of the stochastic hypernetwork", "1",
    "With probability >= 1 - delta over the observed clients, for all eta: er <= emp + "
    "sqrt((||eta_h||^2/(2 alpha_h) + ||eta_v||^2/(2 alpha_v) + log(4 sqrt(n)/delta))/(2n)) + "
    "E sqrt((sum_i ||h(v(S_i; eta_v~); eta_h~)||^2/(2 alpha_theta) + log(8mn/delta) + 1)/(2mn)).",
    [form("printed", emp + meta_term(_META) + sample_term(_SAMPLE),
          "(3); theta2 = mean ||theta_i||^2 over the observed clients (and over the sampled "
          "networks: Jensen, a looser value)."),
     form("appendix", emp + meta_term(alpha_h * eta_h2 + alpha_v * eta_v2)
          + sample_term(n * alpha_theta * theta2),
          "With the appendix's KL = alpha ||mu||^2 (erratum17): fails the dimension check."),
     form("corrected", emp + meta_term(_META, delta / G) + sample_term(_SAMPLE, delta / G),
          "emp at theta~ ~ N(theta, alpha_theta Id) (erratum18), alphas from a "
          "data-independent grid of G points with delta/G (erratum22), n >= 8 (erratum20).",
          conditions=(DELTA_AT_MOST_1, N_AT_LEAST_8))],
    source="Theorem 3.2, Sec. 3.2", equations=("3",), hypotheses=(PAC.id,),
    conditions=(DELTA_POSITIVE,),
    errata=tuple(ERRATA[f"erratum{n}"] for n in (17, 18, 19, 21, 22, 23)),
    quantity_typst="\"er\"",
    methods=PEFLL,
)

