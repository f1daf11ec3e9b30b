"""Physical units of constants and dimension analysis of formulas.

Every constant carries a unit built from two base dimensions: ``[f]`` (function value)
and ``[x]`` (parameter length). A gradient has unit ``[f]/[x]``, so the strong-convexity
and smoothness constants have unit ``[f]/[x]^2``, a gradient-noise variance
``[f]^2/[x]^2`` and a step size ``[x]^2/[f]``. Counts (K, N) are dimensionless.

A paper may need a further base dimension (e.g. ``[xi]``, the length of a data sample in
its metric space): :func:`declare_base_dimension` adds one by name, and units then combine
``[f]``, ``[x]`` and every declared base.

A bound must carry the unit of the quantity it bounds; the arguments of ``exp`` and
``log``, of indicators and of comparisons inside ``Min``/``Max`` must be homogeneous.
This catches typos such as a squared threshold where a plain one belongs.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction

import sympy as sp


class DimensionError(ValueError):
    """A formula mixes incompatible units."""


_EXTRA_BASES: set[str] = set()
_BASE_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_]*\Z")


def declare_base_dimension(name: str) -> str:
    """Declare a base dimension beyond ``f`` and ``x`` (idempotent); returns ``name``.

    After ``declare_base_dimension("xi")``, ``Unit.parse("f/xi")`` is ``[f]/[xi]``.
    """
    if not isinstance(name, str) or not _BASE_NAME.match(name) or name in ("f", "x"):
        raise ValueError(
            f"bad base dimension name {name!r} (expected an identifier other than f and x)"
        )
    _EXTRA_BASES.add(name)
    return name


def extra_base_dimensions() -> tuple[str, ...]:
    """The declared base dimensions beyond ``f`` and ``x``, sorted."""
    return tuple(sorted(_EXTRA_BASES))


def _merge(a: tuple, b: tuple, sign: int) -> tuple:
    out = dict(a)
    for name, e in b:
        out[name] = out.get(name, Fraction(0)) + sign * e
    return tuple(sorted((k, v) for k, v in out.items() if v != 0))


@dataclass(frozen=True)
class Unit:
    """A unit ``[f]^f * [x]^x`` (times declared extra bases) with rational exponents.

    ``extra`` holds ``(name, exponent)`` pairs of declared bases, sorted, nonzero only.
    """

    f: Fraction = Fraction(0)
    x: Fraction = Fraction(0)
    extra: tuple[tuple[str, Fraction], ...] = ()

    def __post_init__(self) -> None:
        if self.extra:
            object.__setattr__(self, "extra", _merge((), tuple(self.extra), 1))

    def __mul__(self, other: Unit) -> Unit:
        return Unit(self.f + other.f, self.x + other.x, _merge(self.extra, other.extra, 1))

    def __truediv__(self, other: Unit) -> Unit:
        return Unit(self.f - other.f, self.x - other.x, _merge(self.extra, other.extra, -1))

    def __pow__(self, p: Fraction | int) -> Unit:
        p = Fraction(p)
        return Unit(self.f * p, self.x * p, tuple((n, e * p) for n, e in self.extra))

    @property
    def dimensionless(self) -> bool:
        return self.f == 0 and self.x == 0 and not self.extra

    def __str__(self) -> str:
        if self.dimensionless:
            return "1"
        parts = []
        bases = (("f", self.f), ("x", self.x), *self.extra)
        for name, e in bases:
            if e == 0:
                continue
            base = f"[{name}]"
            parts.append(base if e == 1 else f"{base}^{e}")
        return "*".join(parts)

    @classmethod
    def parse(cls, text: str) -> Unit:
        """Parse ``"f^2/x^2"``, ``"x^2/f"``, ``"f"``, ``"1"`` (a tiny unit grammar).

        Declared extra bases (:func:`declare_base_dimension`) parse by name: ``"f/xi"``.
        """
        text = text.replace(" ", "")
        if text in ("", "1"):
            return cls()
        unit = cls()
        for sign, chunk in _split_units(text):
            base, _, exp = chunk.partition("^")
            e = Fraction(exp).limit_denominator(64) if exp else Fraction(1)
            if base == "f":
                u = cls(f=e)
            elif base == "x":
                u = cls(x=e)
            elif base == "1":
                u = cls()
            elif base in _EXTRA_BASES:
                u = cls(extra=((base, e),))
            else:
                extra = "".join(f", {b}" for b in extra_base_dimensions())
                raise ValueError(
                    f"unknown base dimension {base!r} in unit {text!r} (use f, x{extra})"
                )
            unit = unit * u if sign > 0 else unit / u
        return unit


def _split_units(text: str) -> list[tuple[int, str]]:
    out: list[tuple[int, str]] = []
    sign, buf = 1, ""
    for ch in text:
        if ch in "*/":
            if buf:
                out.append((sign, buf))
            sign, buf = (1 if ch == "*" else -1), ""
        else:
            buf += ch
    if buf:
        out.append((sign, buf))
    return out


DIMENSIONLESS = Unit()


def dimension(expr: sp.Basic, units: dict[sp.Symbol, Unit]) -> Unit:
    """Return the unit of ``expr`` given the units of its symbols.

    Raises :class:`DimensionError` naming the offending sub-expression when terms of a sum,
    arguments of ``Min``/``Max``, the two sides of a relation, or the argument of a
    transcendental function are not homogeneous.
    """
    return _dim(sp.sympify(expr), units)


def _same(args: list[Unit], expr: sp.Basic, what: str) -> Unit:
    first = args[0]
    for a in args[1:]:
        if a != first:
            raise DimensionError(
                f"{what} mixes units {first} and {a} in {sp.sstr(expr)}"
            )
    return first


def _dim(expr: sp.Basic, units: dict[sp.Symbol, Unit]) -> Unit:
    from pflbounds.symbolic.hidden import HiddenConstant

    if isinstance(expr, sp.Symbol):
        if expr not in units:
            raise DimensionError(f"symbol {expr} has no declared unit")
        return units[expr]
    if expr.is_Number or expr in (sp.pi, sp.E, sp.S.Infinity):
        return DIMENSIONLESS
    if isinstance(expr, sp.Add):
        return _same([_dim(a, units) for a in expr.args], expr, "a sum")
    if isinstance(expr, sp.Mul):
        u = DIMENSIONLESS
        for a in expr.args:
            u = u * _dim(a, units)
        return u
    if isinstance(expr, sp.Pow):
        base, e = expr.args
        ub = _dim(base, units)
        ue = _dim(e, units)
        if not ue.dimensionless:
            raise DimensionError(f"exponent {sp.sstr(e)} carries unit {ue}")
        if ub.dimensionless:
            return DIMENSIONLESS
        if not e.is_Rational:
            raise DimensionError(
                f"non-rational power of a dimensional quantity: {sp.sstr(expr)}"
            )
        return ub ** Fraction(int(e.p), int(e.q))
    if isinstance(expr, (sp.Min, sp.Max)):
        return _same([_dim(a, units) for a in expr.args], expr, f"{type(expr).__name__}")
    if isinstance(expr, sp.Abs):
        return _dim(expr.args[0], units)
    if isinstance(expr, (sp.ceiling, sp.floor)):
        u = _dim(expr.args[0], units)
        if not u.dimensionless:
            raise DimensionError(f"rounding of a dimensional quantity: {sp.sstr(expr)}")
        return u
    if isinstance(expr, sp.Heaviside):
        _dim(expr.args[0], units)  # any unit, but it must be homogeneous
        return DIMENSIONLESS
    if isinstance(expr, sp.Piecewise):
        vals = []
        for e, c in expr.args:
            vals.append(_dim(e, units))
            if c not in (sp.true, sp.false):
                _dim(c, units)
        return _same(vals, expr, "a piecewise expression")
    if isinstance(expr, sp.Rel):
        # 0 carries every unit: a dimensional quantity may be compared with it (G > 0)
        sides = [s for s in (expr.lhs, expr.rhs) if not s.is_zero]
        return _same([_dim(s, units) for s in sides] or [DIMENSIONLESS], expr, "a relation")
    if isinstance(expr, HiddenConstant):
        return _dim(expr.args[0], units)
    if isinstance(expr, (sp.exp, sp.log, sp.sin, sp.cos, sp.tanh)):
        u = _dim(expr.args[0], units)
        if not u.dimensionless:
            raise DimensionError(
                f"argument of {type(expr).__name__} has unit {u}: {sp.sstr(expr)}"
            )
        return DIMENSIONLESS
    if isinstance(expr, sp.Tuple):
        raise DimensionError("a tuple has no single unit")
    raise DimensionError(f"no dimension rule for {type(expr).__name__}: {sp.sstr(expr)}")
