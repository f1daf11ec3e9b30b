"""One-step descent and the effective-variance bound of philippenko2025: Lemma 1, (S2) and
Theorem 1 (digest §4.1-§4.3)."""

from __future__ import annotations

import sympy as sp

from pflbounds.papers.philippenko2025.assumptions import A1, A2, A5
from pflbounds.papers.philippenko2025.errata import ERRATA
from pflbounds.papers.philippenko2025.paper import ADAPTIVE_AFO, cond, form, result
from pflbounds.papers.philippenko2025.symbols import (
    ADsum,
    Asum,
    G,
    Gnext,
    S_eff,
    T,
    Valpha,
    Vprinted,
    beta,
    eps0,
    eta,
    kappa_w,
    mu,
    sigma_eff2,
)
from pflbounds.symbolic.result import Kind

_H12 = (A1.id, A2.id)
# mu <= beta (Assumptions 1 and 4/5) is an instance relation of the paper (symbols.py)

LEMMA1 = result(
    "lemma1", "Lemma 1 (descent lemma)", Kind.UPPER_BOUND,
    "E[R_i(theta_i^t) | theta_i^{t-1}] - R_i(theta_i^{t-1}): the one-step conditional expected "
    "change of client i's loss", "f",
    "Under A1-A2, for any alpha_ik^t >= 0 and eta_i^t < (beta sum_k alpha_ik^t)^-1: "
    "E[eps_i^t | theta_i^{t-1}] - eps_i^{t-1} <= eta/2 sum_k alpha_ik (||grad R_k(theta_i^{t-1})"
    " - grad R_i(theta_i^{t-1})||^2 - ||grad R_i(theta_i^t)||^2) + eta beta sigma_k^2 "
    "alpha_ik^2 (as printed). No convexity is needed.",
    [form("printed", eta / 2 * (ADsum - Asum * Gnext) + eta * beta * Vprinted,
          "As printed: the gradient norm at theta_i^t, and the variance term eta beta "
          "sigma_k^2 alpha_ik^2 outside the sum over k (read here as summed), eta not squared, "
          "no 1/2: not unit-consistent."),
     form("corrected", eta / 2 * (ADsum - Asum * G) + beta * eta**2 / 2 * Valpha,
          "Gradients at theta_i^{t-1} and the variance term (beta eta^2/2) sum_k alpha_ik^2 "
          "sigma_k^2, as in the proof's penultimate line, (S2) and Theorem 1.")],
    source="Lemma 1, App. B.1", hypotheses=_H12,
    conditions=(cond(sp.Lt(eta * beta * Asum, 1), "eta < (beta sum_k alpha_ik)^-1"),),
    errata=(ERRATA["erratum1"], ERRATA["erratum2"]),
    quantity_typst="EE[R_i (theta_i^t) | theta_i^(t-1)] - R_i (theta_i^(t-1))",
    methods=ADAPTIVE_AFO,
)

S2 = result(
    "s2", "Equation (S2) (descent with Definition-1 weights)", Kind.UPPER_BOUND,
    "E[R_i(theta_i^t) | theta_i^{t-1}] - R_i(theta_i^{t-1}) with Definition-1 weights", "f",
    "With Definition-1 weights, (I1) sum_k alpha_ik (D_k - G) = -G and (I2) sum_k alpha_ik^2 "
    "sigma_k^2 <= (sigma_{i,psi}^t)^2 turn Lemma 1 into E[eps_i^t | theta_i^{t-1}] - "
    "eps_i^{t-1} <= -(eta/2) ||grad R_i(theta_i^{t-1})||^2 + (eta sigma_{i,eff}^t)^2 beta/2.",
    [form("printed", -eta / 2 * G + beta * eta**2 / 2 * sigma_eff2)],
    source="App. B.2, Eq. (S2)", equations=("S2",), hypotheses=_H12,
    conditions=(cond(sp.Lt(eta * beta * Asum, 1),
                     "eta < (sigma_phi/sigma_psi)^2/beta = (beta sum_k alpha_ik)^-1"),
                cond(sp.Ge(Asum, 1), "Definition-1 weights sum to sum_k alpha_ik = "
                     "(sigma_psi/sigma_phi)^2 >= 1 ((I3): psi <= phi)")),
    quantity_typst="EE[R_i (theta_i^t) | theta_i^(t-1)] - R_i (theta_i^(t-1))",
    methods=ADAPTIVE_AFO,
)

THEOREM1 = result(
    "theorem1", "Theorem 1 (effective variance)", Kind.UPPER_BOUND,
    "E[eps_i^T] = E[R_i(theta_i^T)] - R_i^*: expected excess loss of client i's last iterate",
    "f",
    "All-for-one on client i with Definition-1 weights, A1-A2 (as printed; the proof also "
    "needs A4 or A5) and a constant step eta < (sigma_{i,phi}^t/sigma_{i,psi}^t)^2/beta for all "
    "t: E[eps_i^T] <= (1 - eta mu)^T eps_i^0 + (beta eta^2/2) sum_{t=1}^T (1 - eta mu)^(T-t) "
    "(sigma_{i,eff}^t)^2.",
    [form("printed", (1 - eta * mu) ** T * eps0 + beta * eta**2 / 2 * S_eff,
          "S_eff = sum_t (1 - eta mu)^(T-t) (sigma_eff^t)^2, treated as deterministic."),
     form("corrected", (1 - eta * mu) ** T * eps0 + beta * eta**2 / 2 * S_eff,
          "Under A4 or A5, with S_eff = sum_t (1 - eta mu)^(T-t) E[(sigma_eff^t)^2]: the "
          "effective variance is random (errata 3 and 6).")],
    source="Theorem 1, App. B.2", hypotheses=(*_H12, A5.id),
    conditions=(cond(sp.Lt(eta * beta, kappa_w),
                     "eta < kappa/beta <= (sigma_phi^t/sigma_psi^t)^2/beta for all t"),),
    errata=(ERRATA["erratum3"], ERRATA["erratum6"], ERRATA["erratum2"]),
    quantity_typst="EE[epsilon_i^T]", methods=ADAPTIVE_AFO,
)
