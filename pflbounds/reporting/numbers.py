"""Numbers as the report prints them: four significant digits.

:func:`fmt` formats one number; :func:`round_numbers` rewrites the long decimals inside a
piece of prose (``offset=1.4142135623730951`` becomes ``offset=1.414``) and leaves integers,
identifiers and hashes alone.
"""

from __future__ import annotations

import math
import re

__all__ = ["SIGNIFICANT", "fmt", "round_numbers"]

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
