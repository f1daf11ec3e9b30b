"""Definitions 1-3, Remark 3 and Property 1 of philippenko2025 (digest §2-§4).

Definition 1 and 3 are stated per pair (i, k) with scalar inputs; Definition 2's sufficient
cluster and variance sum over the collaborators: they are computed per client from the
matrices b and c by the derivations of :mod:`pflbounds.papers.philippenko2025.inputs`.
"""

from __future__ import annotations

import numpy as np
import sympy as sp

from pflbounds.algorithms.similarity_weights import Criterion
from pflbounds.papers.philippenko2025 import inputs
from pflbounds.papers.philippenko2025.errata import ERRATA
from pflbounds.papers.philippenko2025.paper import cond, form, result
from pflbounds.papers.philippenko2025.symbols import (
    IAA,
    Axi,
    D,
    G,
    Nstar,
    SinvSum,
    b,
    c,
    eps,
    ind_ge,
    lam,
    mu,
    phi_r,
    r,
    sigma_eff2,
    sigma_k2,
    sigma_suf2,
)
from pflbounds.symbolic.result import Kind

# lambda <= 1 (Definition 3) is an instance relation of the paper (symbols.py)

DEFINITION1_RATIO = result(
    "definition1_ratio", "Definition 1 (similarity ratio)", Kind.IDENTITY,
    "similarity ratio r_ik^t", "1",
    "r_ik^t = (1 - ||grad R_k(theta_i^{t-1}) - grad R_i(theta_i^{t-1})||^2/||grad R_i("
    "theta_i^{t-1})||^2)_+ in [0, 1], r_ii^t = 1 (Section 3, before Definition 1).",
    [form("printed", sp.Max(1 - D / G, 0),
          "Undefined when grad R_i(theta_i^{t-1}) = 0 (convention: stay local, erratum 21).")],
    relation="=", source="Section 3", errata=(ERRATA["erratum21"],),
    conditions=(cond(sp.Gt(G, 0), "r_ik^t is defined only where grad R_i(theta_i^{t-1}) != 0 "
                     "(implicit assumption (v); the convention there is to stay local, "
                     "erratum 21)"),),
    quantity_typst="r_(i k)^t",
    unchecked=("a definition. The runs compute it in the algorithms; check P1 tests the weights "
               "built on it."),
)

DEFINITION1 = result(
    "definition1", "Definition 1 (collaboration weights)", Kind.IDENTITY,
    "collaboration weight alpha_ik^t", "1",
    "alpha_ik^t = phi(r_ik^t) (sigma_{i,psi}^t/sigma_k)^2 with psi(x) = x phi(x) and "
    "sigma_{i,f}^t = (sum_k sigma_k^-2 f(r_ik^t))^-1/2, for phi non-decreasing with phi(0) = 0 "
    "and phi(x) <= x; (sigma_{i,psi}^t)^2 is the effective variance.",
    [form("printed", phi_r * sigma_eff2 / sigma_k2)],
    relation="=", source="Definition 1",
    errata=(ERRATA["erratum20"], ERRATA["erratum19"], ERRATA["erratum22"], ERRATA["erratum25"],
            ERRATA["erratum31"]),
    quantity_typst="alpha_(i k)^t",
)

DEFINITION3_BINARY = result(
    "definition3_binary", "Definition 3 (binary criterion)", Kind.IDENTITY,
    "phi_bin(r) and psi_bin(r) = r phi_bin(r)", "1",
    "phi_bin(x) = lambda 1{x >= lambda}, lambda in (0, 1] (hard threshold).",
    [form("printed", parts={"phi": lam * ind_ge(r, lam), "psi": r * lam * ind_ge(r, lam)})],
    relation="=", source="Definition 3",
    quantity_typst="(phi_\"bin\"(r), psi_\"bin\"(r))",
    unchecked=("a definition. The runs compute it in the algorithms; check P1 tests the weights "
               "built on it."),
)

DEFINITION3_CONTINUOUS = result(
    "definition3_continuous", "Definition 3 (continuous criterion)", Kind.IDENTITY,
    "phi_cont(r) and psi_cont(r) = r phi_cont(r)", "1",
    "phi_cont(x) = x (soft threshold, no hyperparameter).",
    [form("printed", parts={"phi": r, "psi": r**2})],
    relation="=", source="Definition 3",
    quantity_typst="(phi_\"cont\"(r), psi_\"cont\"(r))",
    unchecked=("a definition. The runs compute it in the algorithms; check P1 tests the weights "
               "built on it."),
)

DEFINITION2_RATIO = result(
    "definition2_ratio", "Definition 2 (argument of psi)", Kind.IDENTITY,
    "x_ik(eps): the argument of psi in the sufficient cluster and variance", "1",
    "N_i^*(eps) = {k : psi((1 - b_ik/(2 mu eps) - c_ik)_+) > 0} and sigma_{i,suf}^2(eps) = "
    "(sum_k sigma_k^-2 psi((1 - b_ik/(2 mu eps) - c_ik)_+))^-1 (b_ik unsquared as printed).",
    [form("printed", sp.Max(1 - b / (2 * mu * eps) - c, 0),
          "As printed: b_ik unsquared (not dimensionless)."),
     form("corrected", sp.Max(1 - b**2 / (2 * mu * eps) - c, 0),
          "b_ik^2, as in the proof of Lemma 2 and the authors' code.")],
    relation="=", source="Definition 2", hypotheses=("philippenko2025.A3",),
    errata=(ERRATA["erratum4"],), derivations=inputs.pair_derivations(),
    quantity_typst="x_(i k)(epsilon)",
)


def _definition2(criterion: str, psi_text: str):
    return result(
        f"definition2_{criterion}", f"Definition 2 ({criterion} criterion)", Kind.IDENTITY,
        "size of the sufficient cluster |N_i^*(eps)| and sufficient variance "
        "sigma_{i,suf}^2(eps)", "f^2/x^2",
        f"With psi = {psi_text}: N_i^*(eps) = {{k : psi(x_ik(eps)) > 0}} and "
        "sigma_{i,suf}^2(eps) = (sum_k sigma_k^-2 psi(x_ik(eps)))^-1, x_ik(eps) = (1 - "
        "b_ik/(2 mu eps) - c_ik)_+ as printed. Computed per client from the matrices b (and "
        "c, 0 when absent) and sigma2 (one value, or one per client). sigma_suf^2 is "
        "non-increasing in eps and at most sigma_i^2/psi(1).",
        [form("printed", parts={"Nstar": Nstar, "sigma_suf2": sigma_suf2},
              note="b_ik unsquared, as printed."),
         form("corrected", parts={"Nstar": Nstar, "sigma_suf2": sigma_suf2},
              note="b_ik^2 (erratum 4).")],
        relation="=", source="Definition 2", hypotheses=("philippenko2025.A3",),
        errata=(ERRATA["erratum4"], ERRATA["erratum12"]),
        derivations=inputs.sufficient_derivations(criterion),
        part_units={"Nstar": "1", "sigma_suf2": "f^2/x^2"},
        quantity_typst="(|cal(N)_i^star (epsilon)|, sigma_(i,\"suf\")^2 (epsilon))",
    )


DEFINITION2_BINARY = _definition2("binary", "psi_bin(x) = lambda x 1{x >= lambda}")
DEFINITION2_CONTINUOUS = _definition2("continuous", "psi_cont(x) = x^2")

REMARK3_BINARY = result(
    "remark3_binary", "Remark 3 (binary criterion)", Kind.LOWER_BOUND,
    "step ratio (sigma_{i,phi}^t/sigma_{i,psi}^t)^2", "1",
    "psi_bin >= lambda phi_bin gives (sigma_phi/sigma_psi)^2 >= lambda, so any constant "
    "eta < lambda/beta satisfies the step condition of Lemma 1 and Theorems 1-3.",
    [form("printed", lam)],
    relation=">=", source="Remark 3", errata=(ERRATA["erratum17"],),
    quantity_typst="(sigma_(i,phi)^t \\/ sigma_(i,psi)^t)^2",
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
    quantity_typst="(sigma_(i,phi)^t \\/ sigma_(i,psi)^t)^2",
)

PROPERTY1 = result(
    "property1", "Property 1 (quadratics)", Kind.IDENTITY,
    "admissible Assumption-3 constants (b_ik, c_ik) for R_i(theta) = (theta + xi_i)^T A_i "
    "(theta + xi_i)", "f/x",
    "For R_i(theta) = (theta + xi_i)^T A_i (theta + xi_i): b_ik <= sqrt(2) ||A_k(xi_i - xi_k)|| "
    "and c_ik <= 2 ||I - A_k A_i^-1||_2^2 (read: these values are admissible).",
    [form("printed", parts={"b": sp.sqrt(2) * Axi, "c": 2 * IAA**2},
          note="sqrt(2) is right for the 1/2-normalised quadratic only."),
     form("corrected", parts={"b": 2 * sp.sqrt(2) * Axi, "c": 2 * IAA**2},
          note="With the paper's normalisation (no 1/2), grad R_i = 2 A_i (theta + xi_i) and "
               "Young's inequality give b_ik = 2 sqrt(2) ||A_k(xi_i - xi_k)|| (A_i symmetric "
               "invertible).")],
    relation="=", source="Property 1", hypotheses=("philippenko2025.A3",),
    errata=(ERRATA["erratum18"],), part_units={"b": "f/x", "c": "1"},
    quantity_typst="(b_(i k), c_(i k))",
)


# ------------------------------------------------------------------ limits of Definition 2
def suf_limit_small_eps(b_: np.ndarray, c_: np.ndarray | None, sigma2: np.ndarray,
                        crit: Criterion, printed: bool = False) -> np.ndarray:
    """lim_{eps -> 0} sigma_{i,suf}^2(eps) (Definition 2, digest §4.4) per client:
    (sum_k sigma_k^-2 psi((1 - c_ik)_+) 1{b_ik = 0})^-1; ``printed=True`` gives the paper's
    version with sigma_k^2 for sigma_k^-2 (erratum 12)."""
    cc = np.zeros_like(b_) if c_ is None else np.asarray(c_, dtype=float)
    w = crit.psi(np.maximum(1.0 - cc, 0.0)) * (np.asarray(b_) == 0)
    s = np.asarray(sigma2, dtype=float)
    return 1.0 / np.sum(w * (s if printed else 1.0 / s), axis=-1)


def suf_limit_large_eps(c_: np.ndarray | None, sigma2: np.ndarray, crit: Criterion,
                        N: int) -> np.ndarray:
    """lim_{eps -> inf} sigma_{i,suf}^2(eps) = (sum_k sigma_k^-2 psi((1 - c_ik)_+))^-1
    (Definition 2, digest §4.4; printed as sigma_{i,cont}^2)."""
    cc = np.zeros((N, N)) if c_ is None else np.asarray(c_, dtype=float)
    return 1.0 / np.sum(crit.psi(np.maximum(1.0 - cc, 0.0)) / np.asarray(sigma2, float),
                        axis=-1)
