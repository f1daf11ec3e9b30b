"""The collaboration weights of philippenko2025: the similarity ratio and the weights of
Definition 1, and the binary and continuous criteria of Definition 3 (digest §2-§3).

Definition 1 and 3 are stated per pair (i, k) with scalar inputs.
"""

from __future__ import annotations

import sympy as sp

from pflbounds.papers.philippenko2025.errata import ERRATA
from pflbounds.papers.philippenko2025.paper import WEIGHTS, cond, form, result
from pflbounds.papers.philippenko2025.symbols import (
    D,
    G,
    ind_ge,
    lam,
    n_k,
    nPsiSum,
    phi_r,
    r,
    sigma_eff2,
    sigma_k2,
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
    quantity_typst="r_(i k)^t", methods=WEIGHTS,
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
    quantity_typst="alpha_(i k)^t", methods=WEIGHTS,
)

REMARK1 = result(
    "remark1", "Remark 1 (batch-size weights)", Kind.IDENTITY,
    "collaboration weight alpha_ik^t when sigma_k = sigma/sqrt(n_k)", "1",
    "If sigma_k = sigma/sqrt(n_k), n_k the batch size of client k, then (sigma_{i,psi}^t/"
    "sigma_k)^2 = ((1/n_k) sum_{j in N_i^t} n_j psi(r_ij))^-1, so Definition 1's weight is "
    "alpha_ik^t = n_k phi(r_ik^t)/sum_{j in N_i^t} n_j psi(r_ij^t): no sigma is needed.",
    [form("printed", n_k * phi_r / nPsiSum,
          "phi(r_ik^t) times the printed (sigma_{i,psi}^t/sigma_k)^2; N_i^t is the set of "
          "collaborators (phi(r_ij^t) > 0), where psi(r_ij^t) = r_ij^t phi(r_ij^t) is nonzero.")],
    relation="=", source="Remark 1",
    quantity_typst="alpha_(i k)^t", methods=WEIGHTS,
)

DEFINITION3_BINARY = result(
    "definition3_binary", "Definition 3 (binary criterion)", Kind.IDENTITY,
    "phi_bin(r) and psi_bin(r) = r phi_bin(r)", "1",
    "phi_bin(x) = lambda 1{x >= lambda}, lambda in (0, 1] (hard threshold).",
    [form("printed", parts={"phi": lam * ind_ge(r, lam), "psi": r * lam * ind_ge(r, lam)})],
    relation="=", source="Definition 3",
    quantity_typst="(phi_\"bin\"(r), psi_\"bin\"(r))", methods=WEIGHTS,
    unchecked=("a definition. The runs compute it in the algorithms; check P1 tests the weights "
               "built on it."),
)

DEFINITION3_CONTINUOUS = result(
    "definition3_continuous", "Definition 3 (continuous criterion)", Kind.IDENTITY,
    "phi_cont(r) and psi_cont(r) = r phi_cont(r)", "1",
    "phi_cont(x) = x (soft threshold, no hyperparameter).",
    [form("printed", parts={"phi": r, "psi": r**2})],
    relation="=", source="Definition 3",
    quantity_typst="(phi_\"cont\"(r), psi_\"cont\"(r))", methods=WEIGHTS,
    unchecked=("a definition. The runs compute it in the algorithms; check P1 tests the weights "
               "built on it."),
)
