"""A restricted grammar for user-typed values: never ``eval`` or ``sympify``.

Grammar (numbers, known names, + - * / ^ **, parentheses, and the functions
log, ln, exp, sqrt, min, max)::

    expr   := term (('+' | '-') term)*
    term   := unary (('*' | '/') unary)*
    unary  := ('+' | '-') unary | power
    power  := atom (('^' | '**') unary)?
    atom   := NUMBER | NAME | FUNC '(' expr (',' expr)* ')' | '(' expr ')'

Names resolve to values already given (so ``eta=1/(2*L)`` works once ``L`` is known).
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


_TINY = 5e-324  # the smallest positive (subnormal) double


class ParseError(ValueError):
    """The text is not a value in the restricted grammar."""


def _tokens(text: str) -> list[tuple[str, str]]:
    pos, out = 0, []
    text = text.strip()
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if not m or m.end() == pos:
            raise ParseError(f"unexpected character {text[pos]!r} at position {pos} in {text!r}")
        kind = m.lastgroup
        out.append((kind, m.group(kind)))
        pos = m.end()
        while pos < len(text) and text[pos].isspace():
            pos += 1
    return out


class _Parser:
    def __init__(self, text: str, names: Mapping[str, float]):
        self.text = text
        self.toks = _tokens(text)
        self.i = 0
        self.names = names

    def peek(self) -> tuple[str, str] | None:
        return self.toks[self.i] if self.i < len(self.toks) else None

    def take(self, value: str | None = None) -> tuple[str, str]:
        t = self.peek()
        if t is None or (value is not None and t[1] != value):
            want = f"{value!r}" if value else "a value"
            got = repr(t[1]) if t else "end of input"
            raise ParseError(f"expected {want} but found {got} in {self.text!r}")
        self.i += 1
        return t

    def parse(self) -> float:
        try:
            v = self.expr()
        except (OverflowError, ZeroDivisionError) as e:
            raise ParseError(f"{self.text!r} cannot be evaluated: {e}") from None
        if self.peek() is not None:
            raise ParseError(f"unexpected {self.peek()[1]!r} in {self.text!r}")
        if isinstance(v, complex) or v != v:
            raise ParseError(f"{self.text!r} is not a real number")
        return float(v)

    def expr(self) -> float:
        v = self.term()
        while (t := self.peek()) and t[1] in "+-" and t[0] == "op":
            self.take()
            v = v + self.term() if t[1] == "+" else v - self.term()
        return v

    def term(self) -> float:
        v = self.unary()
        while (t := self.peek()) and t[0] == "op" and t[1] in ("*", "/"):
            self.take()
            r = self.unary()
            if t[1] == "*":
                v = v * r
            else:
                if r == 0:
                    raise ParseError(f"division by zero in {self.text!r}")
                v = v / r
        return v

    def unary(self) -> float:
        t = self.peek()
        if t and t[0] == "op" and t[1] in "+-":
            self.take()
            v = self.unary()
            return -v if t[1] == "-" else v
        return self.power()

    def power(self) -> float:
        v = self.atom()
        t = self.peek()
        if t and t[1] in ("^", "**"):
            self.take()
            v = v ** self.unary()
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
            return v
        if kind == "name":
            nxt = self.peek()
            if nxt and nxt[1] == "(":
                if val not in _FUNCS:
                    raise ParseError(
                        f"unknown function {val!r} in {self.text!r}; allowed: "
                        + ", ".join(sorted(_FUNCS))
                    )
                self.take("(")
                args = [self.expr()]
                while self.peek() and self.peek()[1] == ",":
                    self.take(",")
                    args.append(self.expr())
                self.take(")")
                try:
                    return float(_FUNCS[val](*args))
                except (ValueError, TypeError, OverflowError) as e:
                    raise ParseError(f"{val}{tuple(args)} is undefined in {self.text!r}") from e
            if val in ("inf", "Infinity"):
                return math.inf
            if val not in self.names:
                raise ParseError(
                    f"unknown name {val!r} in {self.text!r}; give it a value first"
                )
            return float(self.names[val])
        if val == "(":
            v = self.expr()
            self.take(")")
            return v
        raise ParseError(f"unexpected {val!r} in {self.text!r}")


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
