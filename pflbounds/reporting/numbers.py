"""Numbers as the report prints them: four significant digits.

:func:`fmt` formats one number; :func:`round_numbers` rewrites the long decimals inside a
piece of prose (``offset=1.4142135623730951`` becomes ``offset=1.414``) and leaves integers,
identifiers and hashes alone.
"""

from __future__ import annotations

import json
import math
import re

__all__ = ["SIGNIFICANT", "fmt", "round_numbers", "tidy_prose"]

SIGNIFICANT = 4

# A decimal with more significant digits than we print, not glued to a word or another
# number (so ids like P15 and hex hashes are untouched): 1.4142135, 0.0012345678, 2.5e-07.
_LONG_DECIMAL = re.compile(
    r"(?<![\w.])([-+]?(?:\d+\.\d+|\.\d+)(?:[eE][-+]?\d+)?|\d+[eE][-+]?\d+)(?![\w.])"
)


def fmt(value: float | int | str | None, digits: int = SIGNIFICANT) -> str:
    """``value`` with at most ``digits`` significant digits (``inf``, ``nan`` and ``—`` for
    None); integers that fit are printed in full."""
    if value is None:
        return "—"
    if isinstance(value, str):
        return value
    if isinstance(value, bool):
        return str(value)
    v = float(value)
    if math.isnan(v):
        return "nan"
    if math.isinf(v):
        return "inf" if v > 0 else "-inf"
    if v == int(v) and abs(v) < 10 ** (digits + 2):
        return str(int(v))
    return f"{v:.{digits}g}"


def round_numbers(text: str, digits: int = SIGNIFICANT) -> str:
    """``text`` with every decimal of more than ``digits`` significant digits rounded."""

    def repl(m: re.Match[str]) -> str:
        s = m.group(1)
        mantissa = re.split(r"[eE]", s)[0].lstrip("+-").replace(".", "").lstrip("0")
        if len(mantissa) <= digits:
            return s
        return f"{float(s):.{digits}g}"

    return _LONG_DECIMAL.sub(repl, text)


_JSON_OBJECT = re.compile(r'\{"[^{}]*\}')


def _pairs(obj: dict) -> str:
    def one(v: object) -> str:
        if isinstance(v, (int, float)) and not isinstance(v, bool):
            return fmt(v)
        if isinstance(v, list):
            return "(" + ", ".join(one(u) for u in v) + ")"
        return str(v)

    return ", ".join(f"{k}={one(v)}" for k, v in obj.items())


def tidy_prose(text: str, digits: int = SIGNIFICANT) -> str:
    """Prose as the report prints it: JSON objects (``{"K":2000,"kappa":4.0}``) as
    ``{K=2000, kappa=4}`` (they can then break across lines) and long decimals rounded."""

    def repl(m: re.Match[str]) -> str:
        try:
            obj = json.loads(m.group(0))
        except ValueError:
            return m.group(0)
        return "{" + _pairs(obj) + "}" if isinstance(obj, dict) else m.group(0)

    return round_numbers(_JSON_OBJECT.sub(repl, text), digits)
