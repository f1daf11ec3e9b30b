"""The objectives catalogue (Section 2): every special case of Eq. (1) with its constants.

Each :class:`Objective` names its client function f_m(w, beta_m) in the (w, beta) form,
which blocks it has, its constants (mu, L^w, L^beta, Lcal^w, Lcal^beta) of Assumptions 1-2
as functions of the base constants (mu', L', Lcal', lambda, Lambda, alpha, M), as Table 2
prints them and as the best reading gives them (Lemmas 1-4 and the digest's §3.9), and the
conditions under which they hold. Lemmas 1-4 and the rows of Table 2 declare the same
expressions as results (``RESULT_OF`` names the result that holds each objective's constants).

The un-rescaled variants (§1.5) follow from one derived fact: without the M^{-1/2} factor,
F_un(w, beta) = F(sqrt(M) w, beta), so the Hessian is D H D with D = diag(sqrt(M) I, I)
(>= I): mu_un >= mu, L^w_un = M L^w, L^beta_un = L^beta (and the same for the calligraphic
constants). The relaxed objective (7) is un-rescaled MT2 with lambda replaced by 2 lambda.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import sympy as sp

from pflbounds.papers.hanzely2023.errata import ERRATA
from pflbounds.papers.hanzely2023.paper import OBJECTIVE, cond, form, result
from pflbounds.papers.hanzely2023.symbols import (
    Lam,
    Lb,
    LbR,
    Lcb,
    LcbR,
    Lcp,
    Lcw,
    LcwR,
    Lp,
    Lw,
    LwR,
    M,
    amax,
    amin,
    lam,
    mu,
    mup,
)
from pflbounds.symbolic.result import Condition, Form, Kind, Result

NAMES = ("mu", "Lw", "Lb", "Lcw", "Lcb")
"""The constants of Assumptions 1-2, in the order of Table 2."""
_PART_TYPST = {"mu": "mu", "Lw": "L^w", "Lb": "L^beta", "Lcw": "cal(L)^w",
               "Lcb": "cal(L)^beta"}
_PART_LATEX = {"mu": r"\mu", "Lw": "L^w", "Lb": r"L^\beta", "Lcw": r"\mathcal{L}^w",
               "Lcb": r"\mathcal{L}^\beta"}


def _c(mu_, lw, lb, lcw, lcb) -> dict[str, sp.Expr]:
    return dict(zip(NAMES, map(sp.sympify, (mu_, lw, lb, lcw, lcb)), strict=True))


def apfl_g(a: sp.Expr) -> sp.Expr:
    """3 alpha^2 + (1 - alpha)^2/2: Lemma 3 needs Lambda >= max_m of it."""
    return 3 * a**2 + (1 - a) ** 2 / 2


MT2_COND = cond(sp.Ge(Lam, 3 * lam / (2 * mup)), "Lambda >= 3 lambda/(2 mu') (Lemma 1)")
MX2_COND = cond(sp.Le(mup, lam / 2), "mu' <= lambda/2 (Lemma 2)")
APFL2_COND = cond(sp.Ge(Lam, sp.Max(apfl_g(amax), apfl_g(amin))),
                  "Lambda >= max_m (3 alpha_m^2 + (1 - alpha_m)^2/2) (Lemma 3; the maximum "
                  "over [alpha_min, alpha_max] sits at an end)")
EXT_COND = cond(sp.Ge(Lam, 3 * lam / mup), "Lambda >= 3 lambda/mu' (Lemma 1 with 2 lambda)")


@dataclass(frozen=True)
class Objective:
    """One personalized FL objective in the (w, beta) form of Eq. (1)."""

    key: str
    name: str
    equation: str
    source: str
    f_m: str
    """The client function f_m(w, beta_m), in words and symbols."""
    has_w: bool
    has_beta: bool
    rescaled: bool
    constants: dict[str, sp.Expr]
    """The best reading (Assumption-1 normalisation): what the calculator uses."""
    printed: dict[str, sp.Expr] | None = None
    """Table 2 as printed (None where the paper gives no constants)."""
    conditions: tuple[Condition, ...] = ()
    note: str = ""
    derived: bool = False
    """True when the constants are derived here (not stated by the paper)."""
    personalization: str = ""
    """The parameter that controls personalization, and which way means 'more'."""

    @property
    def result_id(self) -> str:
        """The catalog result that holds these constants (:data:`RESULT_OF`)."""
        return RESULT_OF[self.key].id

    @property
    def inputs(self) -> list[str]:
        """Base inputs the constants and conditions need."""
        syms: set[sp.Symbol] = set()
        for e in self.constants.values():
            syms |= e.free_symbols
        for c in self.conditions:
            syms |= c.relation.free_symbols
        return sorted(s.name for s in syms)


def _unrescaled(c: dict[str, sp.Expr]) -> dict[str, sp.Expr]:
    """Constants of the objective without the M^{-1/2} rescaling of w (derived, §1.5)."""
    return {"mu": c["mu"], "Lw": sp.expand(M * c["Lw"]), "Lb": c["Lb"],
            "Lcw": sp.expand(M * c["Lcw"]), "Lcb": c["Lcb"]}


FL = _c(mup, Lp, 0, Lcp, 0)
FULL = _c(mup / M, 0, Lp / M, 0, Lcp / M)
MT2_PRINTED = _c(lam / (2 * M), (Lam * Lp + lam) / (2 * M), (Lp + lam) / (2 * M),
                 (Lam * Lcp + lam) / (2 * M), (Lcp + lam) / (2 * M))
MT2 = _c(lam / (2 * M), (Lam * Lp + lam) / M, (Lp + lam) / M, (Lam * Lcp + lam) / M,
         (Lcp + lam) / M)
MX2 = _c(mup / (3 * M), lam / M, (Lp + lam) / M, lam / M, (Lcp + lam) / M)
APFL2_PRINTED = _c(mup * (1 - amax) ** 2 / M, (Lam + amax**2) * Lp / M,
                   (1 - amin) ** 2 * Lp / M, (Lam + amax**2) * Lcp / M,
                   (1 - amin) ** 2 * Lcp / M)
APFL2 = {**APFL2_PRINTED, "mu": mup * (1 - amax) ** 2 / (2 * M)}
WS2_PRINTED = _c(mup, Lp, Lp, Lcp, Lcp)
WS2 = _c(mup / M, Lp / M, Lp / M, Lcp / M, Lcp / M)
RESIDUAL = _c(mu, LwR, LbR, LcwR, LcbR)
MT_EXTENDED = _unrescaled({k: v.subs(lam, 2 * lam) for k, v in MT2.items()})

OBJECTIVES: dict[str, Objective] = {o.key: o for o in (
    Objective("fl", "Traditional FL", "(4)", "McMahan et al. 2017",
              "f_m(w) = f'_m(w) (no local parameters)", True, False, False, FL, FL,
              personalization="none"),
    Objective("full", "Fully personalized FL", "(5)", "local training",
              "f_m(beta_m) = f'_m(beta_m) (no shared parameters)", False, True, False, FULL,
              FULL, personalization="complete"),
    Objective("mt2", "MT2 (multi-task, Li et al.)", "(8)", "Li et al. 2020",
              "f_m = Lambda f'_m(M^{-1/2} w) + f'_m(beta_m) + (lambda/2)||beta_m - M^{-1/2} w||^2",
              True, True, True, MT2, MT2_PRINTED, (MT2_COND,),
              personalization="lambda (smaller: more personalization)"),
    Objective("mt-extended", "Relaxed multi-task objective", "(7)", "Li et al. 2020",
              "f_m = Lambda f'_m(w) + f'_m(beta_m) + lambda ||w - beta_m||^2 (not rescaled)",
              True, True, False, MT_EXTENDED, None, (EXT_COND,),
              "Objective (7) is MT2 without the rescaling and with 2 lambda for lambda.",
              derived=True, personalization="lambda (smaller: more personalization)"),
    Objective("mx2", "MX2 (mixture / implicit MAML)", "(11)", "Smith et al. 2017; "
              "Hanzely & Richtarik 2020",
              "f_m = f'_m(beta_m) + (lambda/2)||M^{-1/2} w - beta_m||^2",
              True, True, True, MX2, MX2, (MX2_COND,),
              personalization="lambda (smaller: more personalization)"),
    Objective("apfl2", "APFL2 (adaptive personalized FL)", "(14)", "Deng et al. 2020",
              "f_m = Lambda f'_m(M^{-1/2} w) + f'_m((1 - alpha_m) beta_m + alpha_m M^{-1/2} w)",
              True, True, True, APFL2, APFL2_PRINTED, (APFL2_COND,),
              personalization="alpha (smaller: more personalization)"),
    Objective("ws2", "WS2 (explicit weight sharing)", "(16)", "Liang et al. 2020",
              "f_m = f'_m([M^{-1/2} w, beta_m]) (w: shared layers, beta_m: personal ones)",
              True, True, True, WS2, WS2_PRINTED, ()),
    Objective("residual", "Federated residual learning", "(18)", "Agarwal et al. 2020",
              "f_m = l(A^w(M^{-1/2} w, x^w_m), A^beta(beta_m, x^beta_m))",
              True, True, True, RESIDUAL, RESIDUAL, (),
              "The constants are assumed (no relation to mu', L'); whether L^w_R includes the "
              "M normalisation is unspecified."),
    Objective("mt2-unscaled", "MT2 without the M^{-1/2} rescaling", "(8), w for M^{-1/2} w",
              "§1.5", "f_m = Lambda f'_m(w) + f'_m(beta_m) + (lambda/2)||beta_m - w||^2",
              True, True, False, _unrescaled(MT2), None, (MT2_COND,), derived=True,
              personalization="lambda (smaller: more personalization)"),
    Objective("mx2-unscaled", "MX2 without the M^{-1/2} rescaling", "(11), w for M^{-1/2} w",
              "§1.5", "f_m = f'_m(beta_m) + (lambda/2)||w - beta_m||^2",
              True, True, False, _unrescaled(MX2), None, (MX2_COND,), derived=True,
              personalization="lambda (smaller: more personalization)"),
    Objective("apfl2-unscaled", "APFL2 without the M^{-1/2} rescaling",
              "(14), w for M^{-1/2} w", "§1.5",
              "f_m = Lambda f'_m(w) + f'_m((1 - alpha_m) beta_m + alpha_m w)",
              True, True, False, _unrescaled(APFL2), None, (APFL2_COND,), derived=True,
              personalization="alpha (smaller: more personalization)"),
    Objective("ws2-unscaled", "Weight sharing without rescaling (WS)", "(15)",
              "Liang et al. 2020", "f_m = f'_m([w, beta_m])",
              True, True, False, _unrescaled(WS2), None, (), derived=True),
)}
MAML_NOTE = ("The MAML objective (19), f_m(w) = f'_m(w - alpha grad f'_m(w)), is non-convex even "
             "for convex f'_m: only the non-convex LSGD-PFL theory (Theorems 3-4) applies, and "
             "Table 2 has no row for it.")


def objective(key: str) -> Objective:
    """The objective ``key``; ``KeyError`` listing the choices."""
    try:
        return OBJECTIVES[key]
    except KeyError:
        extra = " (maml has no constants: non-convex)" if key == "maml" else ""
        raise KeyError(f"unknown objective {key!r}{extra}; choose from "
                       f"{', '.join(OBJECTIVES)}") from None


# ------------------------------------------------------------- exact isotropic values (derived)
_a = sp.Symbol("alpha", positive=True)
MU_ISOTROPIC = {
    "mt2": ((Lam * mup + mup + 2 * lam) / 2 - sp.sqrt(((Lam - 1) * mup / 2) ** 2 + lam**2)) / M,
    "mx2": (lam + mup / 2 - sp.sqrt(lam**2 + mup**2 / 4)) / M,
    "apfl2": mup / M * ((Lam + _a**2 + (1 - _a) ** 2) / 2
                        - sp.sqrt(((Lam + _a**2 - (1 - _a) ** 2) / 2) ** 2
                                  + _a**2 * (1 - _a) ** 2)),
}
"""Derived (digest §3): the exact strong-convexity constant when every client loss is
(mu'/2)||x||^2 (equal alpha_m = alpha for APFL2, symbol ``alpha``)."""


# ------------------------------------------------------------------------- catalog results
def _constants_of(what: str, statement: str, forms: list[Form]) -> dict[str, Any]:
    """What every result on an objective's constants shares: the quantity (mu, L^w, L^beta,
    Lcal^w, Lcal^beta) of ``what``, its kind, unit and typesetting, the statement and the
    forms (a constant identically 0, an absent block, carries no unit)."""
    kw: dict[str, Any] = {
        "kind": Kind.IDENTITY, "quantity": f"(mu, L^w, L^beta, Lcal^w, Lcal^beta) of {what}",
        "unit": "f/x^2", "statement": statement, "forms": forms, "relation": "=",
        "part_typst": _PART_TYPST, "part_latex": _PART_LATEX}
    zero = {p for f in forms for p, e in f.exprs.items() if e == 0}
    if zero:
        kw["part_units"] = {p: "1" if p in zero else "f/x^2" for p in NAMES}
    return kw


LEMMA1 = result(
    "lemma1", "Lemma 1", **_constants_of(
        "MT2 (8)",
        "If Lambda >= 3 lambda/(2 mu'), (8) is jointly lambda/(2M)-strongly convex and f_m is "
        "jointly convex, ((Lambda L' + lambda)/M)-smooth in w and (L' + lambda)-smooth in "
        "beta_m; f_{m,j} likewise with Lcal'.",
        [form("printed", parts=MT2, note="Assumption-1 normalisation: f_m (L' + lambda)-smooth "
              "in beta_m means L^beta = (L' + lambda)/M. Confirmed by Hessians (check P8).")]),
    hypotheses=("hanzely2023.Obj",), conditions=(MT2_COND,), source="Lemma 1, App. B.1",
    methods=OBJECTIVE,
)
LEMMA2 = result(
    "lemma2", "Lemma 2", **_constants_of(
        "MX2 (11)",
        "If mu' <= lambda/2, (11) is jointly mu'/(3M)-strongly convex, f_m is (lambda/M)-smooth "
        "in w and (L' + lambda)-smooth in beta; f_{m,i} likewise with Lcal'.",
        [form("printed", parts=MX2, note="Table 2 agrees.")]),
    hypotheses=("hanzely2023.Obj",), conditions=(MX2_COND,), source="Lemma 2, App. B.2",
    errata=(ERRATA["erratum2"],),
    unchecked=("tested inside another result's check. Check P8 (named for Lemma 1) compares these "
               "constants with Hessian-certified ones."),
    methods=OBJECTIVE,
)
LEMMA3 = result(
    "lemma3", "Lemma 3", **_constants_of(
        "APFL2 (14)",
        "If Lambda >= max_m (3 alpha_m^2 + (1 - alpha_m)^2/2), F_APFL2 is jointly "
        "mu'(1 - alpha_max)^2/M-strongly convex, ((Lambda + alpha_max^2) L'/M)-smooth in w and "
        "((1 - alpha_min)^2 L'/M)-smooth in beta.",
        [form("printed", parts=APFL2_PRINTED),
         form("corrected", parts=APFL2, note="The proof's own matrix bound gives "
              "mu'(1 - alpha_max)^2/(2M).")]),
    hypotheses=("hanzely2023.Obj",), conditions=(APFL2_COND,),
    source="Lemma 3, App. B.3", errata=(ERRATA["erratum3"],), methods=OBJECTIVE,
)
WS2_LEMMA_PRINTED = _c(mup, Lp / M, Lp, Lcp / M, Lcp / M)
LEMMA4 = result(
    "lemma4", "Lemma 4", **_constants_of(
        "WS2 (16)",
        "F_WS2 is jointly mu'-strongly convex, (L'/M)-smooth w.r.t. w and L'-smooth w.r.t. beta; "
        "f_m is jointly convex, (Lcal'/M)-smooth w.r.t. w and Lcal'-smooth w.r.t. beta (proof "
        "omitted).",
        [form("printed", parts=WS2_LEMMA_PRINTED,
              note="Read literally: F is L'-smooth in beta gives L^beta = L'; f_m Lcal'-smooth "
              "in beta_m gives Lcal^beta = Lcal'/M."),
         form("corrected", parts=WS2, note="Assumption-1 normalisation, from the Hessian "
              "(digest §3.6): every constant is the base constant over M.")]),
    hypotheses=("hanzely2023.Obj",), source="Lemma 4", errata=(ERRATA["erratum4_ws2"],),
    unchecked=("tested inside another result's check. Check P8 (named for Lemma 1) tests the "
               "corrected constants; the printed mu is hanzely2023.erratum4_ws2's."),
    methods=OBJECTIVE,
)

UNRESCALED = result(
    "unrescaled", "Rescaling of w (derived)", **_constants_of(
        "the objective without M^{-1/2}, given the rescaled one's",
        "Derived (digest §1.5): without the rescaling, F_un(w, beta) = F(sqrt(M) w, beta), whose "
        "Hessian is D H D with D = diag(sqrt(M) I, I) >= I; hence mu_un >= mu, L^w_un = M L^w "
        "and L^beta_un = L^beta (and Lcal likewise), where the right-hand sides are the "
        "rescaled objective's constants. Objective (7) is un-rescaled MT2 with 2 lambda for "
        "lambda.",
        [form("printed", parts=_c(mu, M * Lw, Lb, M * Lcw, Lcb),
              note="Not a result of the paper: derived from Section 1.5's change of "
              "variable.")]),
    example={"Lb": 0, "Lcb": 0, "Lcw": 4, "Lw": 1, "M": 10, "mu": 0.5},
    source="derived from §1.5", methods=OBJECTIVE,
)

_P8 = ("tested inside another result's check. Check P8 (named for Lemma 1) compares these "
       "constants with Hessian-certified ones.")
RESIDUAL_EXAMPLE = {"mu": 0.5, "LwR": 1, "LbR": 0, "LcwR": 4, "LcbR": 0}
"""A federated residual instance without a beta-block (a point where each block relation
binds; any objective has some block, so L^w_R = L^beta_R = 0 is refused)."""


def _table2(key: str, forms: list[Form], errata: tuple = (), unchecked: str = ""
            ) -> dict[str, Any]:
    """What the row ``key`` of Table 2 declares: the objective's constants as the table gives
    them (``forms``), its conditions, and why no check names the row (``unchecked``; MT2 and
    WS2 have their checks)."""
    o = OBJECTIVES[key]
    return {"label": f"Table 2 ({o.name})", **_constants_of(
        f"{o.name} {o.equation}",
        f"Table 2, row {o.name}: the parameters of Assumptions 1 and 2.", forms),
        "conditions": o.conditions, "source": "Table 2", "errata": errata,
        "hypotheses": ("hanzely2023.Obj",) if key != "residual" else (),
        "example": RESIDUAL_EXAMPLE if key == "residual" else {}, "unchecked": unchecked}


TABLE2_FL = result("table2_fl", **_table2(
    "fl", [form("printed", parts=FL)], (ERRATA["erratum4_section21"],), _P8), methods=OBJECTIVE)
TABLE2_FULL = result("table2_full", **_table2(
    "full", [form("printed", parts=FULL)], (), _P8), methods=OBJECTIVE)
TABLE2_MT2 = result("table2_mt2", **_table2(
    "mt2", [form("printed", parts=MT2_PRINTED),
            form("corrected", parts=MT2, note="Lemma 1's denominators M.")],
    (ERRATA["erratum1"],)), methods=OBJECTIVE)
TABLE2_MX2 = result("table2_mx2", **_table2(
    "mx2", [form("printed", parts=MX2)], (), _P8), methods=OBJECTIVE)
TABLE2_APFL2 = result("table2_apfl2", **_table2(
    "apfl2", [form("printed", parts=APFL2_PRINTED),
              form("corrected", parts=APFL2, note="mu with 2M (erratum to Lemma 3).")],
    (ERRATA["erratum3"],),
    "tested inside another result's check. Check P8 (named for Lemma 1) tests the corrected "
    "constants; the printed mu is hanzely2023.erratum3's."), methods=OBJECTIVE)
TABLE2_WS2 = result("table2_ws2", **_table2(
    "ws2", [form("printed", parts=WS2_PRINTED),
            form("corrected", parts=WS2, note="Assumption-1 normalisation.")],
    (ERRATA["erratum4_ws2"],)), methods=OBJECTIVE)
TABLE2_RESIDUAL = result("table2_residual", **_table2(
    "residual", [form("printed", parts=RESIDUAL, note="Assumed constants.")], (),
    "assumed constants: nothing to test. The row names the objective's constants without a "
    "formula for them."))
TABLE2 = {"fl": TABLE2_FL, "full": TABLE2_FULL, "mt2": TABLE2_MT2, "mx2": TABLE2_MX2,
          "apfl2": TABLE2_APFL2, "ws2": TABLE2_WS2, "residual": TABLE2_RESIDUAL}
"""The rows of Table 2 by objective."""

RESULT_OF: dict[str, Result] = {
    "fl": TABLE2_FL, "full": TABLE2_FULL, "mt2": LEMMA1, "mt-extended": UNRESCALED,
    "mx2": LEMMA2, "apfl2": LEMMA3, "ws2": LEMMA4, "residual": TABLE2_RESIDUAL,
    "mt2-unscaled": UNRESCALED, "mx2-unscaled": UNRESCALED, "apfl2-unscaled": UNRESCALED,
    "ws2-unscaled": UNRESCALED}
"""The result that holds each objective's constants (Objective.result_id)."""
