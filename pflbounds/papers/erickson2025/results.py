"""Proposition 3.4, Lemmas A.1-A.2, Theorem 4.3 and the corollaries of digest §5.6 for
erickson2025, in printed, explicit (the proof's own last line) and corrected forms."""

from __future__ import annotations

import sympy as sp

from pflbounds.papers.erickson2025.assumptions import A3_1, A3_2, A4_1, A4_2, H
from pflbounds.papers.erickson2025.errata import ERRATA
from pflbounds.papers.erickson2025.paper import cond, form, result
from pflbounds.papers.erickson2025.symbols import (
    L_X,
    W1,
    Delta0,
    E_th_phi,
    K,
    L,
    a1,
    a2,
    a3,
    delta,
    epsG,
    eta,
    f_v,
    gamma,
    gap,
    ip,
    n,
    s,
    sigma2,
)
from pflbounds.symbolic.result import Kind

ETA38 = sp.Rational(3, 8) / L
"""The theorem's step size eta = 3/(8L)."""

_S_PRINTED = (cond(sp.Ge(s, 2), "s >= 2"), cond(sp.Le(s, n - 1), "s <= n - 1"))
_S_CORR = (cond(sp.Ge(s, 2), "s >= 2"),)
"""The corrected forms allow s = n; s <= n itself is an instance relation (symbols.py)."""
_ETA_HALF = cond(sp.Lt(eta * L, sp.Rational(1, 2)), "eta < 1/(2L)")


def c_eta(step: sp.Basic) -> sp.Basic:
    """C(eta) = 2/(eta (1 - 2 eta L)), the proof's final prefactor (erickson2025, proof of
    Theorem 4.3, last line); 64L/3 at eta = 3/(8L)."""
    return 2 / (step * (1 - 2 * step * L))


EPS_PRINTED = 4 * sigma2 * (s + 1) / s + 2 * delta
"""epsilon = 4 sigma^2 (s+1)/s + 2 delta as printed in Theorem 4.3 (not unit-consistent)."""
EPS_CORR = 4 * eta * sigma2 * (s + 1) / s + 2 * delta
"""epsilon with the eta of the inner-product step restored (digest §5.5 G1)."""

PAPER_CONDITION = eta * L + 4 * eta**2 * L**2 * n**2 / (s**2 * (n**2 - s**2))
"""2 eta times the proof's sufficient condition, plus 1 (step 7, printed c_0): the proof
needs it <= 1, i.e. L/2 - 1/(2 eta) + 2 eta L^2 n^2/(s^2 (n^2 - s^2)) <= 0."""
CORRECTED_CONDITION = eta * L + 4 * eta**2 * L**2 * n * (n + s) / s**4
"""2 eta times the corrected condition, plus 1 (digest §5.5, G2 and G3 fixed): <= 1, i.e.
L/2 - 1/(2 eta) + 2 eta L^2 n (n + s)/s^4 <= 0."""

_Q_G = "min_{k<K} E||G_eta(theta^k)||^2: the squared exact gradient mapping at the iterates"
_Q_G_TYPST = "min_(k<K) EE norm(bold(G)_eta (theta^k))^2"

PROPOSITION3_4 = result(
    "proposition3_4", "Proposition 3.4", Kind.UPPER_BOUND,
    "||theta_i^* - theta_j^*||^2: squared distance between two clients' ideal models", "x^2",
    "Under Assumptions 3.1 and 3.2, ||theta_i^* - theta_j^*||_2^2 <= (2 L_X/gamma) "
    "W_1(mu_i, mu_j).",
    [form("printed", 2 * L_X / gamma * W1)],
    source="Proposition 3.4, App. A.1", equations=("2",), hypotheses=(A3_1.id, A3_2.id),
    errata=(ERRATA["erratum8"], ERRATA["erratum9"]),
    quantity_typst="norm(theta_i^star - theta_j^star)^2",
)

PROPOSITION3_4_EQ3 = result(
    "proposition3_4_eq3", "Proposition 3.4, intermediate bound (3)", Kind.UPPER_BOUND,
    "||theta_i^* - theta_j^*||^2 bounded through the loss gaps at the two ideal models", "x^2",
    "Growth at the other client's optimum, added: ||theta_i^* - theta_j^*||^2 <= (1/gamma) "
    "(f_i(theta_j^*) - f_j(theta_j^*) + f_j(theta_i^*) - f_i(theta_i^*)).",
    [form("printed", gap / gamma)],
    source="App. A.1", equations=("3",), hypotheses=(A3_1.id,),
    quantity_typst="norm(theta_i^star - theta_j^star)^2",
    unchecked=("tested inside another result's check. Checks P8 and P8_ridge of Proposition 3.4 "
               "evaluate (3) at every pair of clients."),
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

LEMMA_A1 = result(
    "lemmaA1", "Lemma A.1 (variance of the VR estimator)", Kind.UPPER_BOUND,
    "E||nu^k - grad f(theta^k)||^2: mean squared error of the variance-reduced estimate",
    "f^2/x^2",
    "Under Assumptions 4.1-4.2 (Reading B of Algorithm 1): E||nu^k - grad f(theta^k)||^2 <= "
    "(2 L^2/(n s)) E||theta^k - phi^k||^2 + (4 (s + 1)/s) sigma^2.",
    [form("printed", 2 * L**2 / (n * s) * E_th_phi + 4 * (s + 1) / s * sigma2)],
    source="Lemma A.1, App. A.2", hypotheses=(A4_1.id, A4_2.id), conditions=_S_CORR,
    quantity_typst="EE norm(nu^k - nabla f(theta^k))^2",
)

LEMMA_A2_4 = result(
    "lemmaA2_4", "Lemma A.2 (4) (one inexact projected step)", Kind.UPPER_BOUND,
    "f(u), u = Pi^delta_K(theta - eta nu): the objective after a delta-inexact projected step",
    "f",
    "For all v in K: f(u) <= f(v) + <u - v, grad f(theta) - nu> + (L/2 - 1/(2 eta)) "
    "||u - theta||^2 + (L/2 + 1/(2 eta)) ||v - theta||^2 - (1/(2 eta)) ||u_bar - v||^2 + delta.",
    [form("printed", f_v + ip + (L / 2 - 1 / (2 * eta)) * a1 + (L / 2 + 1 / (2 * eta)) * a2
          - a3 / (2 * eta) + delta)],
    source="Lemma A.2, App. A.2", equations=("4",), hypotheses=(A4_1.id, H.id),
    errata=(ERRATA["erratum10"],), quantity_typst="f(u)",
)

LEMMA_A2_5 = result(
    "lemmaA2_5", "Lemma A.2 (5) (distance to the exact projection)", Kind.UPPER_BOUND,
    "||u - u_bar||^2: squared distance between the inexact and the exact projection", "x^2",
    "(1/(2 eta)) ||u - u_bar||^2 <= delta, for a feasible delta-inexact projection u.",
    [form("printed", 2 * eta * delta)],
    source="Lemma A.2, App. A.2", equations=("5",), hypotheses=(H.id,),
    errata=(ERRATA["erratum7"],), quantity_typst="norm(u - overline(u))^2",
)

_T43_STATEMENT = (
    "Under Assumptions 4.1-4.2, feasible theta^0, eta = 3/(8L) and 2 <= s <= n - 1: "
    "min_{k<K} E||G_eta(theta^k)||^2 <= (8L/3) ((f(theta^0) - f(theta^*))/K + eps), "
    "eps = 4 sigma^2 (s + 1)/s + 2 delta.")

THEOREM4_3 = result(
    "theorem4_3", "Theorem 4.3 (convergence of Karula, general step)", Kind.UPPER_BOUND,
    _Q_G, "f^2/x^2", _T43_STATEMENT,
    [form("printed", 8 * L / 3 * (Delta0 / K + EPS_PRINTED),
          "As stated (eta = 3/(8L) is built in): the prefactor 8L/3 and eps with sigma^2 not "
          "multiplied by eta.", conditions=_S_PRINTED),
     form("explicit", c_eta(eta) * (Delta0 / K + EPS_PRINTED),
          "The proof's last line, 2/(eta (1 - 2 eta L)) (Delta0/K + eps), under its own "
          "(printed) condition; 64L/3 at eta = 3/(8L).",
          conditions=(*_S_PRINTED, _ETA_HALF,
                      cond(sp.Le(PAPER_CONDITION, 1),
                           "L/2 - 1/(2 eta) + 2 eta L^2 n^2/(s^2 (n^2 - s^2)) <= 0"))),
     form("corrected", c_eta(eta) * (Delta0 / K + EPS_CORR),
          "G1-G3 fixed: eta on sigma^2, the geometric sum with 1 - r = s^2/n^2 and the "
          "coefficient 1 + n/s; s = n allowed.",
          conditions=(*_S_CORR, _ETA_HALF,
                      cond(sp.Le(CORRECTED_CONDITION, 1),
                           "L/2 - 1/(2 eta) + 2 eta L^2 n (n + s)/s^4 <= 0")))],
    source="Theorem 4.3, App. A.3", equations=("8", "9", "10"),
    hypotheses=(A4_1.id, A4_2.id, H.id),
    errata=(ERRATA["erratum1"], ERRATA["erratum2"], ERRATA["erratum3"], ERRATA["erratum4"],
            ERRATA["erratum5"], ERRATA["erratum6"], ERRATA["erratum9"], ERRATA["erratum10"],
            ERRATA["erratum11"]),
    quantity_typst=_Q_G_TYPST,
)

_C38 = sp.Rational(64, 3) * L
THEOREM4_3_ETA38 = result(
    "theorem4_3_eta38", "Theorem 4.3 at eta = 3/(8L)", Kind.UPPER_BOUND,
    _Q_G, "f^2/x^2", _T43_STATEMENT,
    [form("printed", 8 * L / 3 * (Delta0 / K + EPS_PRINTED), conditions=_S_PRINTED),
     form("explicit", _C38 * (Delta0 / K + EPS_PRINTED),
          "2/(eta (1 - 2 eta L)) at eta = 3/(8L) is 64L/3; the paper's own condition holds "
          "there for every 2 <= s <= n - 1.", conditions=_S_PRINTED),
     form("corrected", _C38 * Delta0 / K + 32 * (s + 1) / s * sigma2
          + sp.Rational(128, 3) * L * delta,
          "(64L/3)(Delta0/K + 4 eta sigma^2 (s+1)/s + 2 delta) at eta = 3/(8L), valid when "
          "10 s^4 >= 9 n^2 + 9 n s (n = 30: s >= 6).",
          conditions=(*_S_CORR, cond(sp.Ge(10 * s**4, 9 * n**2 + 9 * n * s),
                                     "10 s^4 >= 9 n^2 + 9 n s")))],
    source="Theorem 4.3, App. A.3", hypotheses=(A4_1.id, A4_2.id, H.id),
    errata=(ERRATA["erratum1"], ERRATA["erratum2"], ERRATA["erratum3"], ERRATA["erratum4"]),
    quantity_typst=_Q_G_TYPST,
)

COROLLARY_FLOOR = result(
    "corollary_floor", "Theorem 4.3: noise and projection floor (K -> infinity)",
    Kind.UPPER_BOUND,
    "lim_K min_{k<K} E||G_eta(theta^k)||^2: the neighbourhood left by oracle noise and "
    "inexact projections", "f^2/x^2",
    "At eta = 3/(8L), letting K -> infinity in Theorem 4.3: the floor (8L/3) eps (digest §5.6).",
    [form("printed", 8 * L / 3 * EPS_PRINTED, conditions=_S_PRINTED),
     form("explicit", _C38 * EPS_PRINTED, conditions=_S_PRINTED),
     form("corrected", 32 * (s + 1) / s * sigma2 + sp.Rational(128, 3) * L * delta,
          conditions=(*_S_CORR, cond(sp.Ge(10 * s**4, 9 * n**2 + 9 * n * s),
                                     "10 s^4 >= 9 n^2 + 9 n s")))],
    source="Theorem 4.3 (digest §5.6)", hypotheses=(A4_1.id, A4_2.id, H.id),
    errata=(ERRATA["erratum2"],), quantity_typst="lim_(K -> infinity) " + _Q_G_TYPST,
)

COROLLARY_ITERATIONS = result(
    "corollary_iterations", "Theorem 4.3: iterations for a target", Kind.COMPLEXITY,
    "K such that min_{k<K} E||G_eta(theta^k)||^2 <= epsG is guaranteed", "1",
    "K >= C Delta0/(epsG - C eps), for epsG > C eps (digest §5.6), at eta = 3/(8L).",
    [form("printed", 8 * L / 3 * Delta0 / (epsG - 8 * L / 3 * EPS_PRINTED),
          conditions=(*_S_PRINTED, cond(sp.Gt(epsG, 8 * L / 3 * EPS_PRINTED),
                                        "epsG > (8L/3) eps"))),
     form("explicit", _C38 * Delta0 / (epsG - _C38 * EPS_PRINTED),
          conditions=(*_S_PRINTED, cond(sp.Gt(epsG, _C38 * EPS_PRINTED),
                                        "epsG > (64L/3) eps"))),
     form("corrected", _C38 * Delta0 / (epsG - _C38 * EPS_CORR.subs(eta, ETA38)),
          conditions=(*_S_CORR, cond(sp.Gt(epsG, _C38 * EPS_CORR.subs(eta, ETA38)),
                                     "epsG > (64L/3) eps_corr"),
                      cond(sp.Ge(10 * s**4, 9 * n**2 + 9 * n * s), "10 s^4 >= 9 n^2 + 9 n s")))],
    relation="=", source="Theorem 4.3 (digest §5.6)", hypotheses=(A4_1.id, A4_2.id, H.id),
    errata=(ERRATA["erratum1"], ERRATA["erratum2"]),
    unchecked=("a derived count, not evaluated by a check. Theorem 4.3's bound solved for K; its "
               "checks test the bound, not this count."),
)

COROLLARY_INEXACT_STEP = result(
    "corollary_inexact_step", "Lemma A.2 (5): per-step inexactness", Kind.UPPER_BOUND,
    "||theta^{k+1} - theta_bar^{k+1}||: distance of the iterate to the exact projected step",
    "x",
    "Each iterate lies within sqrt(2 eta delta) of the exact projection of its step.",
    [form("printed", sp.sqrt(2 * eta * delta))],
    source="Lemma A.2 (5) (digest §5.6)", hypotheses=(H.id,),
    quantity_typst="norm(theta^(k+1) - overline(theta)^(k+1))",
    unchecked=("no check yet. The square root of Lemma A.2 (5); the controlled-delta runs of check"
               " P5 could measure it."),
)

ADMISSIBLE_S = result(
    "admissible_s", "Theorem 4.3: admissible participation size", Kind.STEP_SIZE,
    "eta L + 2 eta c_bar, c_bar the bound on the Lyapunov weights: the proof needs it <= 1; "
    "solve for s at target 1 gives the smallest admissible s", "1",
    "The proof's condition L/2 - 1/(2 eta) + (sup_k c_k) n/s <= 0, times 2 eta: printed "
    "eta L + 4 eta^2 L^2 n^2/(s^2 (n^2 - s^2)) <= 1; corrected eta L + 4 eta^2 L^2 n (n + s)/"
    "s^4 <= 1 (10 s^4 >= 9 n^2 + 9 n s at eta = 3/(8L)).",
    [form("printed", PAPER_CONDITION, conditions=_S_PRINTED),
     form("corrected", CORRECTED_CONDITION, conditions=_S_CORR)],
    relation="<=", source="Theorem 4.3 proof, step 7 (digest §5.5)", hypotheses=(A4_1.id,),
    errata=(ERRATA["erratum3"], ERRATA["erratum4"]),
    quantity_typst="eta L + 2 eta overline(c)",
)
