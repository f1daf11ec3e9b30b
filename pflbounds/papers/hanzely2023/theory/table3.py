"""Table 3 (Section 2): the complexity of ACD-PFL (communication, grad_w F, grad_beta F) and
ASVRCD-PFL (grad_w F_i, grad_beta F_i) on each objective, constants and logs ignored.

``printed`` is the table as printed; ``corrected`` substitutes the objective's constants
(best reading) into the generic formulas of the columns (:func:`table3_generic`, Theorems 7-8
with constants and logs dropped) without simplifying, so that it equals the regenerated table
cell by cell. Check P12 (:mod:`pflbounds.papers.hanzely2023.checks.table3`) compares the two.
"""

from __future__ import annotations

from typing import Any

import sympy as sp

from pflbounds.papers.hanzely2023.errata import ERRATA
from pflbounds.papers.hanzely2023.paper import ACD, ASVRCD, form, result
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
    amax,
    amin,
    lam,
    mu,
    mup,
    n,
)
from pflbounds.papers.hanzely2023.theory.objectives import NAMES, OBJECTIVES, RESIDUAL_EXAMPLE
from pflbounds.symbolic.hidden import BigO
from pflbounds.symbolic.result import Form, Kind

TABLE3_COLUMNS = ("comm", "grad_w", "grad_beta", "grad_w_i", "grad_beta_i")
TABLE3_HEADERS = {"comm": "# Comm", "grad_w": "# grad_w F", "grad_beta": "# grad_beta F",
                  "grad_w_i": "# grad_w F_i", "grad_beta_i": "# grad_beta F_i"}


def table3_generic(has_w: bool = True, has_beta: bool = True) -> dict[str, sp.Expr]:
    """Table 3's columns from the generic formulas (constants and logs dropped): ACD-PFL for
    the first three, ASVRCD-PFL for the last two. A block the objective lacks costs 0."""
    zero = sp.Integer(0)
    return {
        "comm": sp.sqrt(Lw / mu) if has_w else zero,
        "grad_w": sp.sqrt(Lw / mu) if has_w else zero,
        "grad_beta": sp.sqrt(Lb / mu) if has_beta else zero,
        "grad_w_i": n + sp.sqrt(n * Lcw / mu) if has_w else zero,
        "grad_beta_i": n + sp.sqrt(n * Lcb / mu) if has_beta else zero,
    }


sq = sp.sqrt
_Z = sp.Integer(0)
_APFL_MU = (1 - amax) ** 2 * mup
PRINTED: dict[str, dict[str, sp.Expr]] = {
    "fl": {"comm": sq(Lp / mup), "grad_w": sq(Lp / mup), "grad_beta": _Z,
           "grad_w_i": n + sq(n * Lcp / mup), "grad_beta_i": _Z},
    "full": {"comm": _Z, "grad_w": _Z, "grad_beta": sq(Lp / mup), "grad_w_i": _Z,
             "grad_beta_i": n + sq(n * Lcp / mup)},
    "mt2": {"comm": sq(Lam * Lp / lam), "grad_w": sq(Lam * Lp / lam),
            "grad_beta": sq(Lp / lam), "grad_w_i": n + sq(n * Lam * Lcp / lam),
            "grad_beta_i": n + sq(n * Lcp / lam)},
    "mx2": {"comm": sq(lam / mup), "grad_w": sq(lam / mup), "grad_beta": sq((Lp + lam) / mup),
            "grad_beta_i": n + sq(n * (Lcp + lam) / mup)},
    "apfl2": {"comm": sq((Lam + amax**2) * Lp / _APFL_MU),
              "grad_w": sq((Lam + amax**2) * Lp / _APFL_MU),
              "grad_beta": sq((1 - amin) ** 2 * Lp / _APFL_MU),
              "grad_w_i": n + sq(n * (Lam + amax**2) * Lcp / _APFL_MU),
              "grad_beta_i": n + sq(n * (1 - amin) ** 2 * Lcp / _APFL_MU)},
    "ws2": {"comm": sq(Lp / mup), "grad_w": sq(Lp / mup), "grad_beta": sq(Lp / mup),
            "grad_w_i": n + sq(n * Lcp / mup), "grad_beta_i": n + sq(n * Lcp / mup)},
    "residual": {"comm": sq(LwR / mu), "grad_w": sq(LwR / mu), "grad_beta": sq(LbR / mu),
                 "grad_w_i": n + sq(n * LcwR / mup), "grad_beta_i": n + sq(n * LcbR / mup)},
}
"""Table 3 as printed (the MX2 grad_w F_i cell is blank)."""


def regenerated(key: str) -> dict[str, sp.Expr]:
    """Table 3's row for objective ``key`` from the generic formulas and the objective's
    constants (best reading), unsimplified."""
    o = OBJECTIVES[key]
    return {col: _subs(e, o.constants) for col, e in table3_generic(o.has_w, o.has_beta).items()}


def _subs(expr: sp.Expr, constants: dict[str, sp.Expr]) -> sp.Expr:
    by_name = {s: constants[s.name] for s in expr.free_symbols if s.name in constants}
    return expr.xreplace(by_name)


_HEAD = {"comm": "\"# Comm\"", "grad_w": "\"#\" nabla_w F", "grad_beta": "\"#\" nabla_beta F",
         "grad_w_i": "\"#\" nabla_w F_i", "grad_beta_i": "\"#\" nabla_beta F_i"}
_HEAD_TEX = {"comm": r"\#\,\mathrm{Comm}", "grad_w": r"\#\nabla_w F",
             "grad_beta": r"\#\nabla_\beta F", "grad_w_i": r"\#\nabla_w F_i",
             "grad_beta_i": r"\#\nabla_\beta F_i"}
_ERRATA = {"residual": (ERRATA["erratum4_residual"],), "mx2": (ERRATA["erratum4_mx2"],),
           "mt2": (ERRATA["erratum1"],), "apfl2": (ERRATA["erratum3"],),
           "ws2": (ERRATA["erratum4_ws2"],)}


def _big(cells: dict[str, sp.Expr]) -> dict[str, sp.Expr]:
    return {c: (BigO(e) if e != 0 else e) for c, e in cells.items()}


_P12 = ("tested inside another result's check. Check P12 (named for the MT2 row) compares "
        "this row's cells with Theorems 7-8's")



def _row(key: str, note: str = "", unchecked: str = "") -> dict[str, Any]:
    """What the row ``key`` of Table 3 declares: its cells as printed and regenerated, the
    objective's conditions and errata, and why no check names the row (``unchecked``)."""
    o = OBJECTIVES[key]
    forms: list[Form] = [
        form("printed", parts=_big(PRINTED[key]), note=note),
        form("corrected", parts=_big(regenerated(key)),
             note="Generic formulas (Theorems 7-8) with the objective's constants ("
             f"{', '.join(NAMES)}) of the best reading substituted, unsimplified.")]
    return {
        "label": f"Table 3 ({o.name})", "kind": Kind.COMPLEXITY,
        "quantity": f"ACD-PFL and ASVRCD-PFL complexities on {o.name} {o.equation} (times "
                    "log(1/eps))", "unit": "1",
        "statement": f"Table 3, row {o.name}: communication, grad_w F and grad_beta F calls of "
                     "ACD-PFL (Algorithm 2) and grad_w F_i, grad_beta F_i calls of ASVRCD-PFL "
                     "(Algorithm 3), constant and log factors ignored.",
        "forms": forms, "relation": "=", "source": "Table 3", "hypotheses": (),
        "conditions": o.conditions, "errata": _ERRATA.get(key, ()),
        "part_typst": {c: _HEAD[c] for c in TABLE3_COLUMNS},
        "example": {**RESIDUAL_EXAMPLE, "mup": 0.5, "n": 10} if key == "residual" else {},
        "part_latex": {c: _HEAD_TEX[c] for c in TABLE3_COLUMNS}, "unchecked": unchecked,
        "methods": (*ACD, *ASVRCD)}


_ONE_BLOCK = (" (full grid only). No measured check: the objective has one block (L^{} = 0), "
              "and the exact engine's ACD-PFL draws divide by the missing block's smoothness.")
TABLE3_FL = result("table3_fl", **_row("fl", unchecked=_P12 + _ONE_BLOCK.format("beta")))
TABLE3_FULL = result("table3_full", **_row("full", unchecked=_P12 + _ONE_BLOCK.format("w")))
TABLE3_MT2 = result("table3_mt2", **_row("mt2"))
TABLE3_MX2 = result("table3_mx2", **_row(
    "mx2", "The # grad_w F_i cell is blank ('-') in the paper.",
    _P12 + "; P2 (named for Theorem 7) measures its communication cell's sqrt(lambda) growth "
    "on MX2."))
TABLE3_APFL2 = result("table3_apfl2", **_row("apfl2"))
TABLE3_WS2 = result("table3_ws2", **_row("ws2"))
TABLE3_RESIDUAL = result("table3_residual", **_row("residual"))
TABLE3 = {"fl": TABLE3_FL, "full": TABLE3_FULL, "mt2": TABLE3_MT2, "mx2": TABLE3_MX2,
          "apfl2": TABLE3_APFL2, "ws2": TABLE3_WS2, "residual": TABLE3_RESIDUAL}
"""The rows of Table 3 by objective."""
