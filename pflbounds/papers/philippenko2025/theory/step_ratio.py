"""Remark 3 of philippenko2025: a uniform lower bound kappa on the step ratio
(sigma_{i,phi}^t/sigma_{i,psi}^t)^2 = 1/sum_k alpha_ik^t, per criterion (digest §4.3), which
makes a constant step admissible for Lemma 1 and Theorems 1-3."""

from __future__ import annotations

from pflbounds.papers.philippenko2025.errata import ERRATA
from pflbounds.papers.philippenko2025.paper import WEIGHTS, form, result
from pflbounds.papers.philippenko2025.symbols import SinvSum, lam
from pflbounds.symbolic.result import Kind

REMARK3_BINARY = result(
    "remark3_binary", "Remark 3 (binary criterion)", Kind.LOWER_BOUND,
    "step ratio (sigma_{i,phi}^t/sigma_{i,psi}^t)^2", "1",
    "psi_bin >= lambda phi_bin gives (sigma_phi/sigma_psi)^2 >= lambda, so any constant "
    "eta < lambda/beta satisfies the step condition of Lemma 1 and Theorems 1-3.",
    [form("printed", lam)],
    relation=">=", source="Remark 3", errata=(ERRATA["erratum17"],),
    quantity_typst="(sigma_(i,phi)^t \\/ sigma_(i,psi)^t)^2", methods=WEIGHTS,
)

REMARK3_CONTINUOUS = result(
    "remark3_continuous", "Remark 3 (continuous criterion)", Kind.LOWER_BOUND,
    "step ratio (sigma_{i,phi}^t/sigma_{i,psi}^t)^2", "1",
    "(sigma_phi/sigma_psi)^2 >= sigma_i^-2 (sum_k sigma_k^-2)^-1 (1/N for equal variances); "
    "printed with psi for phi in sigma_{i,phi} and 'for any t in [N]'.",
    [form("printed", 1 / SinvSum),
     form("corrected", 1 / SinvSum,
          "With (sigma_{i,phi}^t)^2 = (sum_k sigma_k^-2 phi(r_ik^t))^-1 (erratum 11).")],
    relation=">=", source="Remark 3", errata=(ERRATA["erratum11"],),
    quantity_typst="(sigma_(i,phi)^t \\/ sigma_(i,psi)^t)^2", methods=WEIGHTS,
)
