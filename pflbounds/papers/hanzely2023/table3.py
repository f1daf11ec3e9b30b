"""Table 3 (Section 2): the complexity of ACD-PFL (communication, grad_w F, grad_beta F) and
ASVRCD-PFL (grad_w F_i, grad_beta F_i) on each objective, constants and logs ignored.

``printed`` is the table as printed; ``corrected`` substitutes the objective's constants
(best reading) into the generic formulas of :mod:`pflbounds.papers.hanzely2023.generic`
without simplifying, so that it equals the regenerated table cell by cell.
:mod:`pflbounds.papers.hanzely2023.table3_compare` compares the two.
"""

from __future__ import annotations

import sympy as sp

from pflbounds.papers.hanzely2023.errata import ERRATA
from pflbounds.papers.hanzely2023.generic import TABLE3_COLUMNS, table3_generic
from pflbounds.papers.hanzely2023.objectives import NAMES, OBJECTIVES, RESIDUAL_EXAMPLE
from pflbounds.papers.hanzely2023.paper import form, result
from pflbounds.papers.hanzely2023.symbols import (
    Lam,
    LbR,
    LcbR,
    Lcp,
    LcwR,
    Lp,
    LwR,
    amax,
    amin,
    lam,
    mu,
    mup,
    n,
)
from pflbounds.symbolic.hidden import BigO
from pflbounds.symbolic.result import Kind

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
_UNCHECKED = {**dict.fromkeys(("fl", "full", "apfl2", "ws2"), _P12 + " (full grid only)."),
              "mx2": _P12 + "."}
"""Why the rows of Table 3 that no check names have no check of their own."""

TABLE3 = {}
for _key, _cells in PRINTED.items():
    _o = OBJECTIVES[_key]
    _note = "The # grad_w F_i cell is blank ('-') in the paper." if _key == "mx2" else ""
    TABLE3[_key] = result(
        f"table3_{_key}", f"Table 3 ({_o.name})", Kind.COMPLEXITY,
        f"ACD-PFL and ASVRCD-PFL complexities on {_o.name} {_o.equation} (times log(1/eps))",
        "1",
        f"Table 3, row {_o.name}: communication, grad_w F and grad_beta F calls of ACD-PFL "
        "(Algorithm 2) and grad_w F_i, grad_beta F_i calls of ASVRCD-PFL (Algorithm 3), "
        "constant and log factors ignored.",
        [form("printed", parts=_big(_cells), note=_note),
         form("corrected", parts=_big(regenerated(_key)),
              note="Generic formulas (Theorems 7-8) with the objective's constants ("
              f"{', '.join(NAMES)}) of the best reading substituted, unsimplified.")],
        relation="=", source="Table 3", hypotheses=(), conditions=_o.conditions,
        errata=_ERRATA.get(_key, ()), part_typst={c: _HEAD[c] for c in TABLE3_COLUMNS},
        example={**RESIDUAL_EXAMPLE, "mup": 0.5, "n": 10} if _key == "residual" else {},
        part_latex={c: _HEAD_TEX[c] for c in TABLE3_COLUMNS}, unchecked=_UNCHECKED.get(_key, ""),
    )
