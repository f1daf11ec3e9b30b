"""A restricted grammar for user-typed values: never ``eval`` or ``sympify``.

Grammar (numbers, known names, + - * / ^ **, parentheses, and the functions
log, ln, exp, sqrt, min, max)::

    expr   := term (('+' | '-') term)*
    term   := unary (('*' | '/') unary)*
    unary  := ('+' | '-') unary | power
    power  := atom (('^' | '**') unary)?
    atom   := NUMBER | NAME | FUNC '(' expr (',' expr)* ')' | '(' expr ')'

Names resolve to values already given (so ``eta=1/(2*L)`` works once ``L`` is known).

A value is at most :data:`MAX_LENGTH` characters long and nests at most :data:`MAX_DEPTH`
levels (parentheses, function calls, signs and exponents each open one), so that no input
can exhaust the parser's stack. Arithmetic is double precision: a result that overflows it
(``1e400``, ``exp(710)``, ``10^400``, ``1e200*1e200``) is an error that says so, never
``inf``.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping

_TOKEN = re.compile(
    r"\s*(?:(?P<num>(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)|(?P<name>[A-Za-z_][A-Za-z_0-9]*)"
    r"|(?P<op>\*\*|[-+*/^(),]))"
)
_FUNCS = {
    "log": math.log,
    "ln": math.log,
    "exp": math.exp,
    "sqrt": math.sqrt,
    "min": min,
    "max": max,
}
_ARITY = {"log": (1, 2), "ln": (1, 2), "exp": (1, 1), "sqrt": (1, 1), "min": (1, None),
          "max": (1, None)}
_DOMAIN = {"log": "a number > 0 (and a base > 0 other than 1)",
           "ln": "a number > 0 (and a base > 0 other than 1)", "sqrt": "a number >= 0"}

MAX_LENGTH = 1000
"""The longest value accepted, in characters."""
MAX_DEPTH = 100
"""The deepest nesting accepted (parentheses, calls, signs, exponents)."""
_TINY = 5e-324  # the smallest positive (subnormal) double
_HUGE = 1.7976931348623157e308  # the largest double
_OVER = f"overflows double precision (the largest number is about {_HUGE:.1e})"


def _num(v: float) -> str:
    """A number as the user would type it back (``710``, ``0.5``, ``1e+300``)."""
    if not math.isfinite(v):
        return str(v)
    if v == int(v) and abs(v) < 1e16:
        return str(int(v))
    short = f"{v:g}"
    return short if float(short) == v else repr(v)


class ParseError(ValueError):
    """The text is not a value in the restricted grammar."""


def _tokens(text: str) -> list[tuple[str, str]]:
    pos, out = 0, []
    text = text.strip()
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if not m or m.end() == pos:
            raise ParseError(f"unexpected character {text[pos]!r} at position {pos} in "
                             f"{_quoted(text)}")
        kind = m.lastgroup
        out.append((kind, m.group(kind)))
        pos = m.end()
        while pos < len(text) and text[pos].isspace():
            pos += 1
    return out


def _base(v: float) -> str:
    """A base of a power as typed: in parentheses when negative."""
    return f"({_num(v)})" if v < 0 else _num(v)


def _quoted(text: str) -> str:
    """The text as messages quote it: whole when short, else its start."""
    return repr(text) if len(text) <= 60 else repr(text[:40]) + f" … ({len(text)} characters)"


class _Parser:
    def __init__(self, text: str, names: Mapping[str, float]):
        if len(text) > MAX_LENGTH:
            raise ParseError(f"value longer than {MAX_LENGTH} characters "
                             f"({len(text)}): {_quoted(text)}")
        self.text = text
        self.shown = _quoted(text)
        self.toks = _tokens(text)
        self.i = 0
        self.depth = 0
        self.names = names

    def enter(self) -> None:
        """One more level of nesting; deeper than MAX_DEPTH is an error."""
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise ParseError(f"expression nesting deeper than {MAX_DEPTH} in {self.shown}")

    def finite(self, v: float, what: str) -> float:
        """``v``, unless finite operands gave an infinite result (an overflow)."""
        if isinstance(v, float) and math.isinf(v):
            raise ParseError(f"{what} {_OVER} in {self.shown}")
        return v

    def peek(self) -> tuple[str, str] | None:
        return self.toks[self.i] if self.i < len(self.toks) else None

    def take(self, value: str | None = None) -> tuple[str, str]:
        t = self.peek()
        if t is None or (value is not None and t[1] != value):
            want = f"{value!r}" if value else "a value"
            got = repr(t[1]) if t else "end of input"
            raise ParseError(f"expected {want} but found {got} in {self.shown}")
        self.i += 1
        return t

    def parse(self) -> float:
        try:
            v = self.expr()
        except ZeroDivisionError:
            raise ParseError(f"division by zero in {self.shown}") from None
        if self.peek() is not None:
            raise ParseError(f"unexpected {self.peek()[1]!r} in {self.shown}")
        if isinstance(v, complex) or v != v:
            raise ParseError(f"{self.shown} is not a real number")
        return float(v)

    def expr(self) -> float:
        v = self.term()
        while (t := self.peek()) and t[1] in "+-" and t[0] == "op":
            self.take()
            r = self.term()
            out = v + r if t[1] == "+" else v - r
            if math.isfinite(v) and math.isfinite(r):
                out = self.finite(out, "the sum" if t[1] == "+" else "the difference")
            v = out
        return v

    def term(self) -> float:
        v = self.unary()
        while (t := self.peek()) and t[0] == "op" and t[1] in ("*", "/"):
            self.take()
            r = self.unary()
            if t[1] == "/" and r == 0:
                raise ParseError(f"division by zero in {self.shown}")
            out = v * r if t[1] == "*" else v / r
            if math.isfinite(v) and math.isfinite(r):
                what = "the product" if t[1] == "*" else "the quotient"
                out = self.finite(out, f"{what} of {_num(v)} and {_num(r)}")
            v = out
        return v

    def unary(self) -> float:
        t = self.peek()
        if t and t[0] == "op" and t[1] in "+-":
            self.take()
            self.enter()
            v = self.unary()
            self.depth -= 1
            return -v if t[1] == "-" else v
        return self.power()

    def power(self) -> float:
        v = self.atom()
        t = self.peek()
        if t and t[1] in ("^", "**"):
            self.take()
            self.enter()
            r = self.unary()
            self.depth -= 1
            try:
                out = v ** r
            except OverflowError:
                raise ParseError(f"{_base(v)}^{_base(r)} {_OVER} in {self.shown}") from None
            except ZeroDivisionError:
                raise ParseError(f"0^{_base(r)} is a division by zero in {self.shown}") from None
            if isinstance(out, complex):
                raise ParseError(f"{_base(v)}^{_base(r)} is not a real number in {self.shown}")
            if math.isfinite(v) and math.isfinite(r):
                out = self.finite(out, f"{_base(v)}^{_base(r)}")
            v = out
        return v

    def call(self, name: str) -> float:
        """``name(args)`` after its name: arity, domain and overflow checked."""
        if name not in _FUNCS:
            raise ParseError(f"unknown function {name!r} in {self.shown}; allowed: "
                             + ", ".join(sorted(_FUNCS)))
        self.take("(")
        self.enter()
        args = [self.expr()]
        while self.peek() and self.peek()[1] == ",":
            self.take(",")
            args.append(self.expr())
        self.take(")")
        self.depth -= 1
        low, high = _ARITY[name]
        shown = f"{name}({', '.join(_num(a) if math.isfinite(a) else str(a) for a in args)})"
        if len(args) < low or (high is not None and len(args) > high):
            want = f"{low} or {high}" if high and high != low else str(low)
            raise ParseError(f"{name} takes {want} argument{'s' if want != '1' else ''}, "
                             f"got {len(args)}: {shown} in {self.shown}")
        try:
            v = float(_FUNCS[name](args) if name in ("min", "max") else _FUNCS[name](*args))
        except OverflowError:
            raise ParseError(f"{shown} {_OVER} in {self.shown}") from None
        except (ValueError, ZeroDivisionError):
            raise ParseError(f"{shown} is undefined in {self.shown}: {name} needs "
                             f"{_DOMAIN.get(name, 'other arguments')}") from None
        if all(math.isfinite(a) for a in args):
            v = self.finite(v, shown)
        return v

    def atom(self) -> float:
        t = self.take()
        kind, val = t
        if kind == "num":
            v = float(val)
            if v == 0 and re.match(r"0*\.?0*[1-9]", val):  # 1e-400 is not zero, but reads as 0.0
                raise ParseError(
                    f"{val} underflows to 0 in double precision (the smallest positive number "
                    f"is about {_TINY:.1e}); rescale the units of the inputs"
                )
            if math.isinf(v):
                raise ParseError(f"{val} {_OVER}; rescale the units of the inputs")
            return v
        if kind == "name":
            nxt = self.peek()
            if nxt and nxt[1] == "(":
                return self.call(val)
            if val in ("inf", "Infinity"):
                return math.inf
            if val not in self.names:
                raise ParseError(
                    f"unknown name {val!r} in {self.shown}; give it a value first"
                )
            return float(self.names[val])
        if val == "(":
            self.enter()
            v = self.expr()
            self.take(")")
            self.depth -= 1
            return v
        raise ParseError(f"unexpected {val!r} in {self.shown}")


def parse_value(text: str, names: Mapping[str, float] | None = None) -> float:
    """Parse a numeric value such as ``"0.1"``, ``"1e-3"`` or ``"1/(2*L)"``."""
    return _Parser(text, names or {}).parse()


def parse_assignments(items: list[str]) -> dict[str, str]:
    """Split ``name=value`` words (values still text), with one clear error per bad word."""
    out: dict[str, str] = {}
    for item in items:
        name, sep, value = item.partition("=")
        name = name.strip()
        if not sep or not re.fullmatch(r"[A-Za-z_][A-Za-z_0-9]*", name) or not value.strip():
            raise ParseError(f"expected name=value, got {item!r}")
        if name in out:
            raise ParseError(f"{name} is given twice")
        out[name] = value.strip()
    return out


def resolve_assignments(raw: Mapping[str, str]) -> dict[str, float]:
    """Evaluate assignments in dependency order (``eta=1/(2*L)`` may precede ``L=1``)."""
    done: dict[str, float] = {}
    pending = dict(raw)
    while pending:
        progressed = False
        for name, text in list(pending.items()):
            try:
                done[name] = parse_value(text, done)
            except ParseError as e:
                if "unknown name" in str(e) and any(
                    re.search(rf"\b{re.escape(n)}\b", text) for n in pending if n != name
                ):
                    continue
                raise ParseError(f"{name}: {e}") from None
            del pending[name]
            progressed = True
        if not progressed:
            raise ParseError(f"circular definitions among {', '.join(pending)}")
    return done
