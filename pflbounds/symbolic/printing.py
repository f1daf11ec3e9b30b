"""LaTeX and Typst rendering of result forms, with each constant's own notation."""

from __future__ import annotations

import sympy as sp

from pflbounds.symbolic.constants import all_constants
from pflbounds.symbolic.plainmath import to_typst_math

_REL_LATEX = {"<=": r"\le", ">=": r"\ge", "=": "="}
_REL_TYPST = {"<=": "<=", ">=": ">=", "=": "="}


def _latex_names(paper: str | None) -> dict[sp.Symbol, str]:
    return {c.symbol: c.latex for c in all_constants(paper).values() if c.latex}


def _typst_names(paper: str | None) -> dict[str, str]:
    return {c.name: c.typst for c in all_constants(paper).values() if c.typst}


def latex_expr(expr: sp.Basic, paper: str | None = None) -> str:
    """LaTeX of ``expr`` with each constant's notation as ``paper`` declares it."""
    return sp.latex(expr, symbol_names=_latex_names(paper))


def typst_expr(expr: sp.Basic, paper: str | None = None) -> str:
    """Typst math of ``expr`` with each constant's notation as ``paper`` declares it."""
    from pflbounds.symbolic.typst_printer import typst_math

    return typst_math(expr, _typst_names(paper))


_TEXT_ESCAPES = {
    "\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#",
    "_": r"\_", "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}", "^": r"\^{}",
}


def latex_text(text: str) -> str:
    """``\\text{...}`` with LaTeX's special characters escaped."""
    return r"\text{" + "".join(_TEXT_ESCAPES.get(ch, ch) for ch in text) + "}"


def latex_form(result, form: str | None = None) -> str:
    """``quantity <= expression`` in LaTeX (one line per part for multi-part forms, each
    named by its part)."""
    f = result.form(form)
    q = result.extra.get("quantity_latex", latex_text(result.quantity))
    rel = _REL_LATEX[result.relation]
    lines = []
    for part, e in f.exprs.items():
        lhs = result.extra.get("part_latex", {}).get(part, latex_text(part)) if part else q
        lines.append(f"{lhs} {rel} {latex_expr(e, result.paper)}")
    return r" \\ ".join(lines)


def typst_form(result, form: str | None = None) -> str:
    """``quantity <= expression`` as Typst math (parts separated by line breaks); a quantity
    without a declared ``quantity_typst`` is read as plain notation."""
    f = result.form(form)
    q = result.extra.get("quantity_typst") or to_typst_math(result.quantity, result.paper)
    rel = _REL_TYPST[result.relation]
    lines = []
    for part, e in f.exprs.items():
        lhs = result.extra.get("part_typst", {}).get(part, q) if part else q
        lines.append(f"{lhs} {rel} {typst_expr(e, result.paper)}")
    return " \\\n".join(lines)
