"""Theorem 3.1 of scott2024 (App. C.3): printed, explicit and corrected forms, its step size
and the smallest T meeting its hidden step conditions (digest §4.1.6-§4.1.8).

Theorem 3.1 bounds (1/T) sum_t E||grad F(eta_t)||^2 for the proof's algorithm (digest §3.4)
with beta = 2 sqrt(c)/(k sqrt(T)). Its printed forms fix that beta, a number, so they hold
only in units where beta's [x]^2/[f] is 1 and fail the dimension check; the explicit form is
the paper's own general-beta bound (113)-(114) and is unit-consistent.
"""

from __future__ import annotations

import sympy as sp

from pflbounds.papers.scott2024.assumptions import A1, A2, A3, A4, IMPLICIT
from pflbounds.papers.scott2024.errata import ERRATA
from pflbounds.papers.scott2024.paper import PEFLL_TRAIN, cond, form, result
from pflbounds.papers.scott2024.symbols import (
    L1,
    Delta0,
    L,
    T,
    b,
    b1,
    b2,
    beta,
    c,
    gammaG2,
    k,
    sigma1_2,
    sigma2_2,
    sigma3_2,
)
from pflbounds.symbolic.result import Kind

_HYP = (A1.id, A2.id, A3.id, A4.id, IMPLICIT.id)
_NORMALIZED = (" beta = 2 sqrt(c)/(k sqrt(T)) is a pure number, so the form only holds in "
               "units where the step's [x]^2/[f] is 1 and fails the dimension check.")
_G2_Q = "(1/T) sum_{t=1}^T E||grad F(eta_t)||^2: average squared gradient norm of F"
_G2_TYPST = "1/T sum_(t=1)^T EE norm(nabla F(eta_t))^2"

BETA_STAR = 2 * sp.sqrt(c) / (k * sp.sqrt(T))
"""The step size of Theorem 3.1, beta = 2 sqrt(c)/(k sqrt(T)) (end of its proof)."""


def step_conditions(step: sp.Basic = beta, *, jacobian_on_noise: bool = False) -> tuple:
    """The step-size conditions hidden in the 'simplifying terms' step (107)-(110) of the
    proof of Theorem 3.1 (scott2024 digest §4.1.7 [DERIVED]): (a)-(e) at ``step``.

    (e) absorbs the sigma_1^2 terms 27 L1^2 b2^2 beta^3 k^3 + 56 L L1^2 b2^2 beta^4 k^4 of
    (104)-(106) into the jump from (102)'s 2 L beta^2 k/c to (107)'s 3 L beta^2 k/c. As the
    paper derives it (Lemma C.5 without b2^2 on sigma_1^2) that needs c (27 L1^2 b2^2 beta k^2
    + 56 L L1^2 b2^2 beta^2 k^3) <= L. With ``jacobian_on_noise`` (Lemma C.5 corrected,
    erratum5) both sides carry b2^2: the jump is L beta^2 k b2^2/c and b2^2 cancels, c (27
    L1^2 beta k^2 + 56 L L1^2 beta^2 k^3) <= L (weaker than the paper's for b2 > 1, stronger
    for b2 < 1)."""
    w = 1 if jacobian_on_noise else b2**2
    e_label = ("(e) c (27 L1^2 beta k^2 + 56 L L1^2 beta^2 k^3) <= L (b2^2 cancels: Lemma C.5 "
               "with b2^2 on sigma_1^2)" if jacobian_on_noise else
               "(e) c (27 L1^2 b2^2 beta k^2 + 56 L L1^2 b2^2 beta^2 k^3) <= L")
    return (
        cond(sp.Le(step, 1 / (8 * L * k)), "(a) beta <= 1/(8 L k)"),
        cond(sp.Le(step, 1 / (56 * L * k)), "(b) beta <= 1/(56 L k)"),
        cond(sp.Le(step, 1 / (6 * L * k)), "(c) beta <= 1/(6 L k)"),
        cond(sp.Le(step, 1 / (12 * L * k)), "(d) beta <= 1/(12 L k)"),
        cond(sp.Le(c * (27 * L1**2 * w * step * k**2
                        + 56 * L * L1**2 * w * step**2 * k**3) / L, 1), e_label),
    )


def t_min(jacobian_on_noise: bool) -> sp.Basic:
    """The smallest T from which beta = 2 sqrt(c)/(k sqrt(T)) meets :func:`step_conditions`:
    (b) dominates (a), (c), (d) and gives T >= 12544 L^2 c; (e) at x = 1/sqrt(T) reads
    A x^2 + B x <= L with A = 224 w L L1^2 k c^2 and B = 54 w L1^2 k c^(3/2) (w = b2^2 as the
    paper derives it, 1 with Lemma C.5 corrected), so T >= ((B + sqrt(B^2 + 4 A L))/(2 L))^2
    (scott2024, proof of Theorem 3.1 (107)-(110), digest §4.1.7, solved exactly)."""
    w = 1 if jacobian_on_noise else b2**2
    A = 224 * w * L * L1**2 * k * c**2
    B = 54 * w * L1**2 * k * c ** sp.Rational(3, 2)
    return sp.Max(12544 * L**2 * c, ((B + sp.sqrt(B**2 + 4 * A * L)) / (2 * L)) ** 2)


# --- Theorem 3.1 -----------------------------------------------------------------------
_HEAD = Delta0 / sp.sqrt(c * T) + 224 * c * L1**2 * b1**2 * b2**2 / T
_FLOOR_B = 8 * b1**2 * sigma2_2 / b + 14 * L1**2 * b2**2 * sigma3_2 / b
_FLOOR = 8 * b1**2 * sigma2_2 + 14 * L1**2 * b2**2 * sigma3_2


def general_beta_bound(noise_factor: sp.Basic = 1) -> sp.Basic:
    """(113)-(114) of scott2024 with A4's /b: 2 (F(eta_0) - F_*)/(beta k T) + 56 L1^2 b1^2
    b2^2 beta^2 k^2 + 8 b1^2 sigma_2^2/b + 14 L1^2 b2^2 sigma_3^2/b + 6 L beta
    ``noise_factor`` sigma_1^2/c + 4 L beta k gamma_G^2/c (``noise_factor`` b2^2: erratum5)."""
    return (2 * Delta0 / (beta * k * T) + 56 * L1**2 * b1**2 * b2**2 * beta**2 * k**2
            + _FLOOR_B + 6 * L * beta * noise_factor * sigma1_2 / c
            + 4 * L * beta * k * gammaG2 / c)


THEOREM3_1 = result(
    "theorem3_1", "Theorem 3.1 (convergence of PeFLL-train)", Kind.UPPER_BOUND, _G2_Q,
    "f^2/x^2",
    "Under A1-A4, with beta = 2 sqrt(c)/(k sqrt(T)): (1/T) sum_{t=1}^T E||grad F(eta_t)||^2 "
    "<= (F(eta_0) - F_*)/sqrt(cT) + L (6 sigma_1^2 + 4 k gamma_G^2)/(k sqrt(cT)) + 224 c "
    "L1^2 b1^2 b2^2/T + 8 b1^2 sigma_2^2/b + 14 L1^2 b2^2 sigma_3^2/b.",
    [form("printed", _HEAD + L * (6 * sigma1_2 + 4 * k * gammaG2) / (k * sp.sqrt(c * T))
          + _FLOOR_B, "Main text, (2)." + _NORMALIZED),
     form("appendix", _HEAD + _FLOOR + 4 * L * (2 * sigma1_2 + k * gammaG2)
          / (k * sp.sqrt(c * T)),
          "The appendix restatement (97)-(98): no /b, 4L(2, 1)." + _NORMALIZED),
     form("proof", _HEAD + _FLOOR + L * (6 * sigma1_2 + 4 * k * gammaG2) / (k * sp.sqrt(c * T)),
          "The proof's last line (115)-(116): no /b, L(6, 4)." + _NORMALIZED),
     form("rederived", _HEAD + _FLOOR_B + (12 * L * sigma1_2 + 8 * L * k * gammaG2)
          / (k * sp.sqrt(c * T)),
          "(113)-(114) at beta = 2 sqrt(c)/(k sqrt(T)) with /b (digest §4.1.8 (iii)): the "
          "main text's sigma_1/gamma_G term doubled; under the derivation's step conditions "
          "at that beta (T >= theorem3_1_T_min [explicit])." + _NORMALIZED,
          conditions=step_conditions(BETA_STAR)),
     form("explicit", general_beta_bound(),
          "The paper's general-beta bound (113)-(114) with A4's /b (erratum2), under the "
          "step-size conditions (a)-(e) its own derivation (107)-(110) needs (erratum7; (e) "
          "with b2^2, as the paper's Lemma C.5 has no b2^2 on sigma_1^2).",
          conditions=step_conditions()),
     form("corrected", general_beta_bound(b2**2),
          "(113)-(114) with /b, b2^2 on the sigma_1^2 term (erratum5) and the hidden "
          "step-size conditions as side conditions (erratum7). With b2^2 on sigma_1^2 in "
          "Lemma C.5 the condition (e) that absorbs the sigma_1^2 terms is c (27 L1^2 beta "
          "k^2 + 56 L L1^2 beta^2 k^3) <= L, b2^2 cancelled (re-derived from (102)-(108); "
          "the paper's b2^2-weighted (e) would accept b2 < 1 points the derivation does not "
          "cover).",
          conditions=step_conditions(jacobian_on_noise=True))],
    source="Theorem 3.1, App. C.3", equations=("2", "97", "98", "113", "114", "115", "116"),
    hypotheses=_HYP,
    errata=tuple(ERRATA[f"erratum{n}"] for n in (2, 4, 5, 6, 7, 9, 10, 11, 24)),
    quantity_typst=_G2_TYPST,
    methods=PEFLL_TRAIN,
)

THEOREM3_1_STEP = result(
    "theorem3_1_step", "Theorem 3.1, step size", Kind.STEP_SIZE,
    "beta: the step size of Theorem 3.1", "x^2/f",
    "beta = 2 sqrt(c)/(k sqrt(T)) (end of the proof of Theorem 3.1).",
    [form("printed", BETA_STAR, _NORMALIZED.strip())],
    relation="=", source="Theorem 3.1, App. C.3", quantity_typst="beta",
    unchecked=("a step-size rule, run by its theorem's checks. The population-D checks of errata "
               "C4 and C5 take this step from this encoding."),
    methods=PEFLL_TRAIN,
)

THEOREM3_1_T_MIN = result(
    "theorem3_1_T_min", "Theorem 3.1: smallest T meeting the hidden step conditions",
    Kind.COMPLEXITY, "T_min: rounds from which beta = 2 sqrt(c)/(k sqrt(T)) meets the "
    "step-size conditions (a)-(e)", "1",
    "At beta = 2 sqrt(c)/(k sqrt(T)), condition (b) beta <= 1/(56 L k) (which implies (a), "
    "(c), (d)) holds from T = 12544 L^2 c and condition (e) from T = ((B + sqrt(B^2 + 4 A "
    "L))/(2 L))^2 with A = 224 w L L1^2 k c^2, B = 54 w L1^2 k c^(3/2): w = b2^2 for the "
    "paper's derivation, w = 1 once Lemma C.5 carries b2^2 (erratum5). Derived (the paper "
    "states no condition, erratum7).",
    [form("corrected", t_min(jacobian_on_noise=True),
          "The conditions of theorem3_1 [corrected]: (e) without b2^2. Sufficient through "
          "(b): max(12544 L^2 c, 3136 L1^4 k^2 c^3/L^2). " + _NORMALIZED.strip()),
     form("explicit", t_min(jacobian_on_noise=False),
          "The conditions of theorem3_1 [explicit] and [rederived] (the paper's derivation). "
          "The digest's max(12544 L^2 c, 3136 L1^4 b2^4 k^2 c^3/L^2), which bounds (e) "
          "through (b), is a sufficient T, not the smallest. " + _NORMALIZED.strip())],
    relation="=", source="Proof of Theorem 3.1, (107)-(110)", hypotheses=_HYP,
    errata=(ERRATA["erratum5"], ERRATA["erratum7"]), quantity_typst="T_min",
    methods=PEFLL_TRAIN,
)

__all__ = ["BETA_STAR", "general_beta_bound", "step_conditions", "t_min"]

