"""The corollaries of Theorem 4.3 for erickson2025 (digest §5.6), at eta = 3/(8L): the floor
left by oracle noise and inexact projections as K -> infinity, the iterations for a target,
and the per-step inexactness of Lemma A.2 (5)."""

from __future__ import annotations

import sympy as sp

from pflbounds.papers.erickson2025.assumptions import A4_1, A4_2, H
from pflbounds.papers.erickson2025.errata import ERRATA
from pflbounds.papers.erickson2025.paper import KARULA, cond, form, result
from pflbounds.papers.erickson2025.symbols import Delta0, L, delta, epsG, eta, n, s, sigma2
from pflbounds.papers.erickson2025.theory.general_step import (
    C38,
    EPS_CORR,
    EPS_PRINTED,
    ETA38,
    Q_G_TYPST,
    S_CORR,
    S_PRINTED,
)
from pflbounds.symbolic.result import Kind

COROLLARY_FLOOR = result(
    "corollary_floor", "Theorem 4.3: noise and projection floor (K -> infinity)",
    Kind.UPPER_BOUND,
    "lim_K min_{k<K} E||G_eta(theta^k)||^2: the neighbourhood left by oracle noise and "
    "inexact projections", "f^2/x^2",
    "At eta = 3/(8L), letting K -> infinity in Theorem 4.3: the floor (8L/3) eps (digest §5.6).",
    [form("printed", 8 * L / 3 * EPS_PRINTED, conditions=S_PRINTED),
     form("explicit", C38 * EPS_PRINTED, conditions=S_PRINTED),
     form("corrected", 32 * (s + 1) / s * sigma2 + sp.Rational(128, 3) * L * delta,
          conditions=(*S_CORR, cond(sp.Ge(10 * s**4, 9 * n**2 + 9 * n * s),
                                    "10 s^4 >= 9 n^2 + 9 n s")))],
    source="Theorem 4.3 (digest §5.6)", hypotheses=(A4_1.id, A4_2.id, H.id),
    errata=(ERRATA["erratum2"],), quantity_typst="lim_(K -> infinity) " + Q_G_TYPST,
    methods=KARULA,
)

COROLLARY_ITERATIONS = result(
    "corollary_iterations", "Theorem 4.3: iterations for a target", Kind.COMPLEXITY,
    "K such that min_{k<K} E||G_eta(theta^k)||^2 <= epsG is guaranteed", "1",
    "K >= C Delta0/(epsG - C eps), for epsG > C eps (digest §5.6), at eta = 3/(8L).",
    [form("printed", 8 * L / 3 * Delta0 / (epsG - 8 * L / 3 * EPS_PRINTED),
          conditions=(*S_PRINTED, cond(sp.Gt(epsG, 8 * L / 3 * EPS_PRINTED),
                                       "epsG > (8L/3) eps"))),
     form("explicit", C38 * Delta0 / (epsG - C38 * EPS_PRINTED),
          conditions=(*S_PRINTED, cond(sp.Gt(epsG, C38 * EPS_PRINTED),
                                       "epsG > (64L/3) eps"))),
     form("corrected", C38 * Delta0 / (epsG - C38 * EPS_CORR.subs(eta, ETA38)),
          conditions=(*S_CORR, cond(sp.Gt(epsG, C38 * EPS_CORR.subs(eta, ETA38)),
                                    "epsG > (64L/3) eps_corr"),
                      cond(sp.Ge(10 * s**4, 9 * n**2 + 9 * n * s), "10 s^4 >= 9 n^2 + 9 n s")))],
    relation="=", source="Theorem 4.3 (digest §5.6)", hypotheses=(A4_1.id, A4_2.id, H.id),
    errata=(ERRATA["erratum1"], ERRATA["erratum2"]),
    methods=KARULA,
)

COROLLARY_INEXACT_STEP = result(
    "corollary_inexact_step", "Lemma A.2 (5): per-step inexactness", Kind.UPPER_BOUND,
    "||theta^{k+1} - theta_bar^{k+1}||: distance of the iterate to the exact projected step",
    "x",
    "Each iterate lies within sqrt(2 eta delta) of the exact projection of its step.",
    [form("printed", sp.sqrt(2 * eta * delta))],
    source="Lemma A.2 (5) (digest §5.6)", hypotheses=(H.id,),
    quantity_typst="norm(theta^(k+1) - overline(theta)^(k+1))",
    methods=KARULA,
)
