"""Mutants of a formula, generated from its sympy tree, and their classification.

Operators (each applied at every place it fits, duplicates removed):

* ``factor``: every numeric coefficient c (|c| != 1) of a product becomes c/2 and c/10; every
  additive term (and the whole expression) whose coefficient is +-1 is multiplied by 1/2 and
  by 1/10;
* ``exponent``: the exponent of a count (an integer-valued constant: K, T, N, n, S, d, ...)
  changes by +-1 (a bare count has exponent 1), or is halved when fractional; the exponent of
  a contraction factor (a power whose exponent, or an exponential whose argument, holds a
  count) changes by +-1, i.e. the count inside becomes count +- 1;
* ``drop``: every additive term is dropped;
* ``log``: every logarithm's argument is divided by e.

Inside an O-notation marker (hidden constant) constant factors and logarithms are left alone:
``Õ(2x)`` and ``Õ(x)`` state the same claim.

A mutant is classified against the original on the inputs the checks actually evaluated the
form with (:mod:`pflbounds.audit.record`): for an upper bound (and a sample-complexity count,
which the quantity must not exceed) ``stronger`` means never larger and somewhere smaller;
for a lower bound the reverse. ``weaker`` is the opposite, ``mixed`` both, ``equivalent``
neither (equal on every evaluated input), ``undefined`` a mutant that is not a number where
the original is.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import sympy as sp

from pflbounds.symbolic.evaluate import numeric
from pflbounds.symbolic.hidden import HiddenConstant
from pflbounds.symbolic.result import Kind, Result

FACTORS = (sp.Rational(1, 2), sp.Rational(1, 10))
CLASSES = ("stronger", "weaker", "mixed", "equivalent", "undefined", "no direction")
REL_TOL = 1e-9
"""Relative difference below which a mutant counts as equal to the original at an input."""


@dataclass(frozen=True)
class Mutant:
    """One mutation of a formula: the operator, what it changed, and the mutated formula."""

    operator: str
    change: str
    expr: sp.Basic

    @property
    def formula(self) -> str:
        return sp.sstr(self.expr)


def direction(result: Result) -> int:
    """+1 when smaller values make a stronger claim (upper bounds, and sample-complexity
    counts, which the measured cost must not exceed), -1 when larger ones do (lower bounds),
    0 when the result is no bound (step-size rules, identities)."""
    if result.relation == ">=" or result.kind is Kind.LOWER_BOUND:
        return -1
    if result.relation == "<=" or result.kind in (Kind.UPPER_BOUND, Kind.COMPLEXITY):
        return 1
    return 0


def count_symbols(expr: sp.Basic) -> set[sp.Symbol]:
    """The integer-valued constants of ``expr`` (iterations, agents, samples, dimension)."""
    return {s for s in expr.free_symbols if s.is_integer}


def _walk(e: sp.Basic, path: tuple[int, ...] = (), hidden: bool = False,
          parent: sp.Basic | None = None) -> Iterator[tuple[tuple[int, ...], sp.Basic, bool,
                                                            sp.Basic | None]]:
    yield path, e, hidden, parent
    inner = hidden or isinstance(e, HiddenConstant)
    for i, a in enumerate(e.args):
        yield from _walk(a, (*path, i), inner, e)


def _replace(e: sp.Basic, path: tuple[int, ...], new: sp.Basic) -> sp.Basic:
    if not path:
        return new
    args = list(e.args)
    args[path[0]] = _replace(args[path[0]], path[1:], new)
    return e.func(*args)


def _short(e: sp.Basic, width: int = 60) -> str:
    s = sp.sstr(e)
    return s if len(s) <= width else s[: width - 3] + "..."


def _node_mutations(node: sp.Basic, hidden: bool, parent: sp.Basic | None,
                    counts: set[sp.Symbol], root: bool) -> Iterator[tuple[str, str, sp.Basic]]:
    """(operator, change, replacement of ``node``) for one node of the tree."""
    if not hidden:
        if node.is_Mul:
            c, rest = node.as_coeff_Mul()
            if c.is_Number and abs(c) != 1 and c != 0:
                for f in FACTORS:
                    yield "factor", f"{c} -> {c * f} in {_short(node)}", c * f * rest
        term = root or (parent is not None and parent.is_Add)
        if term and not node.is_Number:
            c = node.as_coeff_Mul()[0] if node.is_Mul else sp.Integer(1)
            if abs(c) == 1:
                for f in FACTORS:
                    yield "factor", f"{_short(node)} x {f}", f * node
        if isinstance(node, sp.log):
            yield "log", f"log({_short(node.args[0], 40)}) -> log(.../e)", \
                sp.log(node.args[0] / sp.E)
    if node.is_Pow:
        base, e = node.args
        if base in counts:
            if e.is_Integer:
                for d in (1, -1):
                    yield "exponent", f"exponent of {base}: {e} -> {e + d}", base ** (e + d)
            elif e.is_Rational:
                yield "exponent", f"exponent of {base}: {e} -> {e / 2}", base ** (e / 2)
        elif e.free_symbols & counts:
            for d in (1, -1):
                yield "exponent", (f"exponent of the contraction factor {_short(base, 30)}: "
                                   f"{e} -> {e + d}"), base ** (e + d)
    if node in counts and not (parent is not None and parent.is_Pow and parent.args[0] == node):
        yield "exponent", f"exponent of {node}: 1 -> 2", node**2
        yield "exponent", f"exponent of {node}: 1 -> 0", sp.Integer(1)
    if isinstance(node, sp.exp):
        arg = node.args[0]
        for s in sorted(arg.free_symbols & counts, key=lambda s: s.name):
            for d in (1, -1):
                sign = "+" if d > 0 else "-"
                yield "exponent", (f"exponent of the contraction factor in exp({_short(arg, 30)})"
                                   f": {s} -> {s} {sign} 1"), sp.exp(arg.xreplace({s: s + d}))
    if node.is_Add and len(node.args) >= 2:
        for i, a in enumerate(node.args):
            rest = [b for j, b in enumerate(node.args) if j != i]
            yield "drop", f"drop {_short(a)}", sp.Add(*rest)


def mutants(expr: sp.Basic) -> list[Mutant]:
    """Every mutant of ``expr`` (see the module docstring), distinct and different from it."""
    counts = count_symbols(expr)
    seen = {expr}
    out: list[Mutant] = []
    for path, node, hidden, parent in _walk(expr):
        for op, change, new in _node_mutations(node, hidden, parent, counts, not path):
            mutated = _replace(expr, path, new)
            if mutated in seen or mutated.has(sp.zoo, sp.nan, sp.oo, -sp.oo):
                continue  # duplicates, and mutants that are not finite formulas (1/0)
            seen.add(mutated)
            out.append(Mutant(op, change, mutated))
    return out


def compare(original: sp.Basic, mutant: sp.Basic,
            inputs: Sequence[Mapping[str, np.ndarray]]) -> tuple[bool, bool, bool]:
    """Whether ``mutant`` is somewhere smaller, somewhere larger, somewhere undefined than
    ``original`` over the evaluated ``inputs`` (entries where the original is not a number
    are skipped)."""
    smaller = larger = undefined = False
    for vals in inputs:
        o = np.asarray(numeric(original, vals), dtype=float)
        m = np.asarray(numeric(mutant, vals), dtype=float)
        o, m = np.broadcast_arrays(o, m)
        keep = ~np.isnan(o)
        o, m = o[keep], m[keep]
        undefined |= bool(np.isnan(m).any())
        ok = ~np.isnan(m)
        o, m = o[ok], m[ok]
        with np.errstate(invalid="ignore", over="ignore"):
            same = (o == m) | (np.abs(m - o) <= REL_TOL * np.abs(o) + 1e-300)
        smaller |= bool(np.any(~same & (m < o)))
        larger |= bool(np.any(~same & (m > o)))
    return smaller, larger, undefined


def classify(original: sp.Basic, mutant: sp.Basic, inputs: Sequence[Mapping[str, np.ndarray]],
             sign: int) -> str:
    """One of :data:`CLASSES` (``sign`` from :func:`direction`)."""
    if sign == 0:
        return "no direction"
    try:
        smaller, larger, undefined = compare(original, mutant, inputs)
    except (TypeError, ValueError, KeyError, ZeroDivisionError):  # not evaluable numerically
        return "undefined"
    if undefined:
        return "undefined"
    if sign < 0:
        smaller, larger = larger, smaller
    if smaller and larger:
        return "mixed"
    if smaller:
        return "stronger"
    if larger:
        return "weaker"
    return "equivalent"
