"""Markers for hidden constants: O(.), Õ(.), Ω(.), Ω̃(.).

A printed statement such as ``Õ(κσ²/(μK))`` hides constant and logarithmic factors. The
markers keep that visible in the formula: evaluation replaces ``Otilde(e)`` by ``e`` (hidden
constant set to one, hidden logarithms dropped) and always reports that it did so.
"""

from __future__ import annotations

import sympy as sp


class HiddenConstant(sp.Function):
    """Base class of the O-notation markers (one argument)."""

    nargs = 1
    hidden_constant = True
    typst_name = "O"
    latex_name = r"\mathcal{O}"
    meaning = "up to a constant factor"

    def _latex(self, printer, exp=None):  # noqa: D401 - sympy printer hook
        inner = printer._print(self.args[0])
        out = rf"{self.latex_name}\left({inner}\right)"
        return f"{out}^{{{exp}}}" if exp else out

    def _sympystr(self, printer):
        return f"{type(self).__name__}({printer._print(self.args[0])})"


class BigO(HiddenConstant):
    typst_name = "cal(O)"
    latex_name = r"\mathcal{O}"
    meaning = "up to a constant factor"


class Otilde(HiddenConstant):
    typst_name = "tilde(cal(O))"
    latex_name = r"\tilde{\mathcal{O}}"
    meaning = "up to constant and logarithmic factors"


class Omega(HiddenConstant):
    typst_name = "Omega"
    latex_name = r"\Omega"
    meaning = "at least a constant factor times"


class Omegatilde(HiddenConstant):
    typst_name = "tilde(Omega)"
    latex_name = r"\tilde{\Omega}"
    meaning = "at least, up to constant and logarithmic factors"


def hidden_terms(expr: sp.Basic) -> list[sp.Basic]:
    """The O-notation sub-expressions of ``expr``, outermost first."""
    return [a for a in sp.preorder_traversal(expr) if isinstance(a, HiddenConstant)]


def strip_hidden(expr: sp.Basic) -> sp.Basic:
    """Replace every marker by its argument (hidden constant = 1, hidden logs dropped)."""
    return expr.replace(lambda e: isinstance(e, HiddenConstant), lambda e: e.args[0])


def describe_hidden(expr: sp.Basic) -> list[str]:
    """One line per hidden term, e.g. ``"Otilde(kappa*sigma2*V/(K*mu)): ... set to 1"``."""
    out = []
    for term in hidden_terms(expr):
        out.append(
            f"{sp.sstr(term)} ({type(term).meaning}): evaluated with the hidden constant "
            "set to 1 and no hidden logarithm"
        )
    return out
