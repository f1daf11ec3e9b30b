"""Max, Min, inequalities, exp, log and ceiling built as written (sympy's ``evaluate=False``),
for fast imports.

Built the usual way, sympy tries to simplify each one as it is made: a Max or Min compares its
arguments pairwise through the assumptions system (about 10 ms each), a relation tries to
decide itself, exp and log look for a number, a logarithm or a power to fold, and ceiling asks
whether its argument is an integer (the assumptions system again). On the symbolic arguments
of a paper's formulas this finds nothing to do (an argument that could be dropped, or a
condition that always holds, would be a slip in the encoding), so the expression built
unevaluated is the same one, made at a fraction of the cost: these constructions were most of
the time a cold ``eval`` spent building formulas.
``tests/symbolic/test_unevaluated.py`` checks, for every Max, Min, exp, log, ceiling and
condition of every paper, that building it the usual way gives the identical expression.
"""

from __future__ import annotations

import sympy as sp


def Max(*args: sp.Basic) -> sp.Basic:
    """``sympy.Max(*args)``, unevaluated."""
    return sp.Max(*args, evaluate=False)


def Min(*args: sp.Basic) -> sp.Basic:
    """``sympy.Min(*args)``, unevaluated."""
    return sp.Min(*args, evaluate=False)


def Le(lhs: sp.Basic, rhs: sp.Basic) -> sp.Basic:
    """``lhs <= rhs``, unevaluated."""
    return sp.Le(lhs, rhs, evaluate=False)


def Lt(lhs: sp.Basic, rhs: sp.Basic) -> sp.Basic:
    """``lhs < rhs``, unevaluated."""
    return sp.Lt(lhs, rhs, evaluate=False)


def Ge(lhs: sp.Basic, rhs: sp.Basic) -> sp.Basic:
    """``lhs >= rhs``, unevaluated."""
    return sp.Ge(lhs, rhs, evaluate=False)


def Gt(lhs: sp.Basic, rhs: sp.Basic) -> sp.Basic:
    """``lhs > rhs``, unevaluated."""
    return sp.Gt(lhs, rhs, evaluate=False)


def exp(arg: sp.Basic) -> sp.Basic:
    """``sympy.exp(arg)``, unevaluated."""
    return sp.exp(arg, evaluate=False)


def log(arg: sp.Basic) -> sp.Basic:
    """``sympy.log(arg)`` (natural logarithm), unevaluated."""
    return sp.log(arg, evaluate=False)


def ceiling(arg: sp.Basic) -> sp.Basic:
    """``sympy.ceiling(arg)``, unevaluated."""
    return sp.ceiling(arg, evaluate=False)
