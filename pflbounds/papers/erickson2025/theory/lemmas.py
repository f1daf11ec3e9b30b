"""Lemmas A.1 and A.2 of erickson2025 (App. A.2): the variance of Karula's variance-reduced
estimate, and one delta-inexact projected step with the distance of the inexact projection
to the exact one."""

from __future__ import annotations

import sympy as sp

from pflbounds.papers.erickson2025.assumptions import A4_1, A4_2, H
from pflbounds.papers.erickson2025.errata import ERRATA
from pflbounds.papers.erickson2025.paper import KARULA_ESTIMATE, KARULA_STEP, cond, form, result
from pflbounds.papers.erickson2025.symbols import (
    E_th_phi,
    L,
    a1,
    a2,
    a3,
    delta,
    eta,
    f_v,
    ip,
    n,
    s,
    sigma2,
)
from pflbounds.symbolic.result import Kind

LEMMA_A1 = result(
    "lemmaA1", "Lemma A.1 (variance of the VR estimator)", Kind.UPPER_BOUND,
    "E||nu^k - grad f(theta^k)||^2: mean squared error of the variance-reduced estimate",
    "f^2/x^2",
    "Under Assumptions 4.1-4.2 (Reading B of Algorithm 1): E||nu^k - grad f(theta^k)||^2 <= "
    "(2 L^2/(n s)) E||theta^k - phi^k||^2 + (4 (s + 1)/s) sigma^2.",
    [form("printed", 2 * L**2 / (n * s) * E_th_phi + 4 * (s + 1) / s * sigma2)],
    source="Lemma A.1, App. A.2", hypotheses=(A4_1.id, A4_2.id),
    conditions=(cond(sp.Ge(s, 2), "s >= 2"),),
    quantity_typst="EE norm(nu^k - nabla f(theta^k))^2", methods=KARULA_ESTIMATE,
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
    errata=(ERRATA["erratum10"],), quantity_typst="f(u)", methods=KARULA_STEP,
)

LEMMA_A2_5 = result(
    "lemmaA2_5", "Lemma A.2 (5) (distance to the exact projection)", Kind.UPPER_BOUND,
    "||u - u_bar||^2: squared distance between the inexact and the exact projection", "x^2",
    "(1/(2 eta)) ||u - u_bar||^2 <= delta, for a feasible delta-inexact projection u.",
    [form("printed", 2 * eta * delta)],
    source="Lemma A.2, App. A.2", equations=("5",), hypotheses=(H.id,),
    errata=(ERRATA["erratum7"],), quantity_typst="norm(u - overline(u))^2",
    methods=KARULA_STEP,
)
