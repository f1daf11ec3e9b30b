"""Lemma 2 of philippenko2025: the sufficient cluster lies in the effective one, and the
effective variance is at most the sufficient variance (digest §4.5)."""

from __future__ import annotations

from pflbounds.papers.philippenko2025.assumptions import A3, A5
from pflbounds.papers.philippenko2025.errata import ERRATA
from pflbounds.papers.philippenko2025.paper import ADAPTIVE_AFO, form, result
from pflbounds.papers.philippenko2025.symbols import sigma_suf2
from pflbounds.symbolic.result import Kind

LEMMA2 = result(
    "lemma2", "Lemma 2 (sufficient cluster in effective cluster)", Kind.UPPER_BOUND,
    "effective variance (sigma_{i,eff}^t)^2", "f^2/x^2",
    "Under A4 or A5, for every t and eps <= eps_i^t: N_i^*(eps) in N_i^*(eps_i^t) in N_i^t and "
    "sigma_{i,eff}^t <= sigma_{i,suf}(eps_i^t) <= sigma_{i,suf}(eps) (as printed).",
    [form("printed", sigma_suf2,
          "As printed: for eps <= eps_i^t (an expectation), at the same t."),
     form("corrected", sigma_suf2,
          "Pathwise: for eps <= e_i^{t-1} = R_i(theta_i^{t-1}) - R_i^* (the realised excess "
          "loss), since r^t is computed at theta_i^{t-1} (erratum 5).")],
    source="Lemma 2", hypotheses=(A3.id, A5.id), errata=(ERRATA["erratum5"],),
    quantity_typst="(sigma_(i,\"eff\")^t)^2", methods=ADAPTIVE_AFO,
)
