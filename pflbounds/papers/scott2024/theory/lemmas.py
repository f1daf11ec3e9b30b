"""Lemmas C.1-C.5 of scott2024 (App. C.2), the steps of Theorem 3.1's proof: printed, explicit
and corrected forms (digest §4.1.1-§4.1.5)."""

from __future__ import annotations

import sympy as sp

from pflbounds.papers.scott2024.assumptions import A1, A2, A3, A4, IMPLICIT
from pflbounds.papers.scott2024.errata import ERRATA
from pflbounds.papers.scott2024.paper import PEFLL_ROUND, form, result
from pflbounds.papers.scott2024.symbols import (
    G2,
    L1,
    L2,
    L3,
    Sg,
    Vsum,
    a_max,
    b,
    b1,
    b2,
    beta,
    c,
    ell,
    gammaG2,
    ip_f,
    k,
    lam_h,
    lam_v,
    n,
    sigma1_2,
    sigma2_2,
    sigma3_2,
    theta0,
)
from pflbounds.symbolic.result import Kind

_HYP = (A1.id, A2.id, A3.id, A4.id, IMPLICIT.id)

# --- Lemma C.1 -------------------------------------------------------------------------
LEMMA_C1 = result(
    "lemmaC1", "Lemma C.1 (smoothness of F)", Kind.IDENTITY,
    "L: the smoothness constant of F built in (36)-(43)", "f/x^2",
    "Each F_i is L'-smooth with L' = b1 L2 + b2^2 L1, and F is L-smooth with L = L' + L3.",
    [form("printed", b1 * L2 + b2**2 * L1 + L3),
     form("explicit", b1 * L2 + b2**2 * L1 + 2 * sp.Max(lam_h, lam_v),
          "With L3 = 2 max(lam_h, lam_v) for f = lam_h ||eta_h||^2 + lam_v ||eta_v||^2.")],
    relation="=", source="Lemma C.1, App. C.2", equations=("36", "43"),
    hypotheses=(A1.id, A2.id), errata=(ERRATA["erratum10"], ERRATA["erratum11"]),
    quantity_typst="L",
)

# --- Lemma C.2 -------------------------------------------------------------------------
LEMMA_C2 = result(
    "lemmaC2", "Lemma C.2 (client sampling), (44)", Kind.UPPER_BOUND,
    "E||sum_{i in C} (a_i - E a_i)||^2 for a uniform c-subset C of n independent vectors",
    "x^2",
    "For independent random vectors a_1..a_n and C uniform of size c: E||sum_{i in C} a_i - "
    "E a_i||^2 <= (c/n) sum_i E||a_i - E a_i||^2 (equality for independent a_i).",
    [form("printed", c / n * Vsum)],
    source="Lemma C.2, App. C.2", equations=("44",), hypotheses=(IMPLICIT.id,),
    errata=(ERRATA["erratum13"],),
    quantity_typst="EE norm(sum_(i in C) (a_i - EE a_i))^2",
    no_method=("a fact about any c-subset drawn uniformly without replacement from n "
               "independent random vectors (the client sampling of every round)"),
)

LEMMA_C2_45 = result(
    "lemmaC2_45", "Lemma C.2 (client sampling), (45)", Kind.UPPER_BOUND,
    "E||sum_{i in C} a_i||^2 (uncentred, as (50)-(52) prove)", "x^2",
    "If moreover ||E a_i|| <= a for every i: E||sum_{i in C} a_i||^2 <= (c/n) sum_i "
    "E||a_i - E a_i||^2 + c^2 a^2 (printed with a centred left side, erratum13).",
    [form("printed", c / n * Vsum
          + c**2 * a_max**2)],
    source="Lemma C.2, App. C.2", equations=("45", "50", "52"), hypotheses=(IMPLICIT.id,),
    errata=(ERRATA["erratum13"],), quantity_typst="EE norm(sum_(i in C) a_i)^2",
    no_method=("a fact about any c-subset drawn uniformly without replacement from n "
               "independent random vectors (the client sampling of every round)"),
)

# --- Lemma C.3 -------------------------------------------------------------------------
_C3_HEAD = 27 * L1**2 * b2**2 * beta**2 * ell**2 * (b1**2 + sigma1_2)
LEMMA_C3 = result(
    "lemmaC3", "Lemma C.3 (error of the chained local gradient)", Kind.UPPER_BOUND,
    "E||grad F_i(eta_t) - grad_theta f_i(theta_{i,l-1}) grad h(B_i, eta_t)^T||^2 at local "
    "step l", "f^2/x^2",
    "For every t, i and 1 <= l <= k: E||grad F_i(eta_t) - grad f_i(h(B_i, eta_t) - beta "
    "sum_{j<l} g_{t,i,j}) grad h(B_i, eta_t)^T||^2 <= 27 L1^2 b2^2 beta^2 l^2 (b1^2 + "
    "sigma_1^2) + 3 b1^2 sigma_2^2 + 6 L1^2 b2^2 sigma_3^2.",
    [form("printed", _C3_HEAD + 3 * b1**2 * sigma2_2 + 6 * L1**2 * b2**2 * sigma3_2,
          "As printed (54): sigma_2^2, sigma_3^2 without the /b of A4."),
     form("corrected", _C3_HEAD + 3 * b1**2 * sigma2_2 / b + 6 * L1**2 * b2**2 * sigma3_2 / b,
          "With A4's /b (erratum2).")],
    source="Lemma C.3, App. C.2", equations=("53", "54", "60", "62"), hypotheses=_HYP,
    errata=(ERRATA["erratum2"], ERRATA["erratum3"]),
    quantity_typst="EE norm(nabla F_i (eta_t) - nabla f_i (theta_(i,l-1)) nabla h(B_i, "
                   "eta_t)^T)^2",
    methods=PEFLL_ROUND,
)

LEMMA_C3_ITERATE = result(
    "lemmaC3_iterate", "Lemma C.3: the local iterate in (53)", Kind.IDENTITY,
    "theta_{i,l-1}: the point at which Lemma C.3 evaluates grad f_i", "x",
    "The statement writes the local iterate as h(B_i, eta_t) - sum_j g_{t,i,j} (no step), "
    "the proof as h(B_i, eta_t) - beta sum_j g_{t,i,j}.",
    [form("printed", theta0 - Sg, "As printed in (53) and (55): fails the dimension check."),
     form("corrected", theta0 - beta * Sg, "As in the proof from (56) on (erratum3).")],
    relation="=", source="Lemma C.3, App. C.2", equations=("53", "55", "56"),
    errata=(ERRATA["erratum3"],), quantity_typst="theta_(i,l-1)",
    unchecked=("a definition. The point of Lemma C.3's gradient; the check of erratum3 tests its "
               "units."),
)

# --- Lemma C.4 -------------------------------------------------------------------------
_C4_HEAD = (-sp.Rational(3, 4) * beta * k * G2
            + 27 * L1**2 * b2**2 * beta**3 * k**3 * (b1**2 + sigma1_2))
LEMMA_C4 = result(
    "lemmaC4", "Lemma C.4 (descent inner product)", Kind.UPPER_BOUND,
    "E<grad F(eta_t), eta_{t+1} - eta_t>", "f",
    "For the proof's update (71) (server step beta k grad f): E<grad F(eta_t), eta_{t+1} - "
    "eta_t> <= -(3 beta k/4) ||grad F(eta_t)||^2 + 27 L1^2 b2^2 beta^3 k^3 (b1^2 + sigma_1^2) "
    "+ 3 beta k b1^2 sigma_2^2 + 6 beta k L1^2 b2^2 sigma_3^2.",
    [form("printed", _C4_HEAD + 3 * beta * k * b1**2 * sigma2_2
          + 6 * beta * k * L1**2 * b2**2 * sigma3_2, "As printed (70), no /b."),
     form("corrected", _C4_HEAD + 3 * beta * k * b1**2 * sigma2_2 / b
          + 6 * beta * k * L1**2 * b2**2 * sigma3_2 / b, "With A4's /b (erratum2)."),
     form("alg2", _C4_HEAD + 3 * beta * k * b1**2 * sigma2_2 / b
          + 6 * beta * k * L1**2 * b2**2 * sigma3_2 / b + beta * (k - 1) * ip_f,
          "For Algorithm 2's regularizer step beta grad f (erratum1): the cancellation "
          "(75) -> (78) leaves + beta (k - 1) <grad F, grad f>.")],
    source="Lemma C.4, App. C.2", equations=("70", "71", "75", "78"), hypotheses=_HYP,
    errata=(ERRATA["erratum1"], ERRATA["erratum2"], ERRATA["erratum8"]),
    quantity_typst="EE chevron.l nabla F(eta_t), eta_(t+1) - eta_t chevron.r",
    methods=PEFLL_ROUND,
)

# --- Lemma C.5 -------------------------------------------------------------------------


def _c5(noise_factor: sp.Basic, per_b: sp.Basic) -> sp.Basic:
    return (4 * beta**2 * k * noise_factor * sigma1_2 / c + 4 * beta**2 * k**2 * gammaG2 / c
            + 4 * beta**2 * k**2 * G2 + 108 * L1**2 * b2**2 * beta**4 * k**4 * (b1**2 + sigma1_2)
            + 12 * b1**2 * k**2 * beta**2 * sigma2_2 * per_b
            + 24 * L1**2 * b2**2 * k**2 * beta**2 * sigma3_2 * per_b)


LEMMA_C5 = result(
    "lemmaC5", "Lemma C.5 (step length)", Kind.UPPER_BOUND,
    "E||eta_{t+1} - eta_t||^2", "x^2",
    "E||eta_{t+1} - eta_t||^2 <= (4 beta^2 k/c) sigma_1^2 + (4 beta^2 k^2/c) gamma_G^2 + "
    "4 beta^2 k^2 E||grad F(eta_t)||^2 + 108 L1^2 b2^2 beta^4 k^4 (b1^2 + sigma_1^2) + "
    "12 b1^2 k^2 beta^2 sigma_2^2 + 24 L1^2 b2^2 k^2 beta^2 sigma_3^2.",
    [form("printed", _c5(1, 1), "As printed (81)-(82)."),
     form("explicit", _c5(1, 1 / b), "With A4's /b (erratum2)."),
     form("corrected", _c5(b2**2, 1 / b),
          "/b restored and b2^2 on the sigma_1^2 term: the local noise passes through the "
          "Jacobian (erratum5).")],
    source="Lemma C.5, App. C.2", equations=("81", "82", "85", "93"), hypotheses=_HYP,
    errata=(ERRATA["erratum2"], ERRATA["erratum5"]),
    quantity_typst="EE norm(eta_(t+1) - eta_t)^2",
    methods=PEFLL_ROUND,
)

