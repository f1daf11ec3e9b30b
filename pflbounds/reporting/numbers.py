"""Numbers as the report prints them: four significant digits.

:func:`fmt` formats one number; :func:`round_numbers` rewrites the long decimals inside a
piece of prose (``offset=1.4142135623730951`` becomes ``offset=1.414``) and leaves integers,
identifiers and hashes alone. :func:`params_text` writes a grid point's parameters and
:func:`tidy_prose` cleans measured details: no Python repr (``(2,)``, ``np.float64(0.5)``,
``True``) ever reaches the report.
"""

from __future__ import annotations

import json
import math
import re

import numpy as np

__all__ = ["SIGNIFICANT", "fmt", "param_text", "params_text", "round_numbers", "tidy_prose"]

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
# Python reprs that may sit in a measured detail: np.float64(0.5), a one-element tuple (2,)
_NUMPY_SCALAR = re.compile(r"\bnp\.(?:float|int|uint)\d*\(([^()]*)\)")
_BOOL_VALUE = re.compile(r"(\w=)(True|False)\b")  # a parameter written isotropic=True
_ONE_TUPLE = re.compile(r"\(([-+]?\d[\d.]*),\s*\)")


def param_text(value: object) -> str:
    """One parameter value as prose: numbers to 4 significant digits, ``yes``/``no`` for
    booleans, ``(a, b)`` for a sequence (a one-element one as its element), ``{k=v}`` for a
    mapping; never a Python repr."""
    if isinstance(value, (bool, np.bool_)):
        return "yes" if value else "no"
    if isinstance(value, dict):
        return "{" + params_text(value) + "}"
    if isinstance(value, (list, tuple, np.ndarray)):
        items = [param_text(v) for v in value]
        return items[0] if len(items) == 1 else "(" + ", ".join(items) + ")"
    if value is None or isinstance(value, str):
        return "none" if value is None else value
    try:
        return fmt(float(value))  # int, float and the numpy scalars
    except (TypeError, ValueError):
        return str(value)


def params_text(params: dict) -> str:
    """``name=value`` pairs of a grid point (see :func:`param_text`)."""
    return ", ".join(f"{k}={param_text(v)}" for k, v in params.items())


def tidy_prose(text: str, digits: int = SIGNIFICANT) -> str:
    """Prose as the report prints it: JSON objects (``{"K":2000,"kappa":4.0}``) as
    ``{K=2000, kappa=4}`` (they can then break across lines), Python reprs of numbers and
    one-element tuples as the numbers, ``name=True``/``False`` as ``yes``/``no``, and long
    decimals rounded."""

    def repl(m: re.Match[str]) -> str:
        try:
            obj = json.loads(m.group(0))
        except ValueError:
            return m.group(0)
        return "{" + params_text(obj) + "}" if isinstance(obj, dict) else m.group(0)

    text = _NUMPY_SCALAR.sub(r"\1", _JSON_OBJECT.sub(repl, text))
    text = _BOOL_VALUE.sub(lambda m: m.group(1) + ("yes" if m.group(2) == "True" else "no"), text)
    return round_numbers(_ONE_TUPLE.sub(r"\1", text), digits)
