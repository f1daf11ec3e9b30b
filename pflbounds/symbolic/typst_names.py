"""Typst math for the names of symbols, and Typst string literals.

A ``symbol_names`` mapping (sympy name -> raw Typst math) always wins. Otherwise these rules
apply, so that the names used across pflbounds render conventionally:

* a Greek name becomes the Greek letter (``mu`` -> μ, ``Delta`` -> Δ, ``eps`` -> ε,
  ``lamda`` -> λ);
* trailing digits on a single letter or a Greek name become a subscript (``Delta0`` -> Δ₀,
  ``F0`` -> F₀), except a trailing ``2`` on a Greek name, which is a square (``sigma2`` ->
  σ², ``nu2`` -> ν², ``Delta2`` -> Δ²); a longer Latin name keeps its digits
  (``SumLam2`` -> "SumLam2");
* each ``_part`` becomes a subscript; parts are joined by commas (``Delta0_i`` -> Δ_(0,i)).
  A part made only of index letters ``i j k l m n`` is printed as italic indices
  (``b_ij`` -> b_(i j)); ``star`` becomes a superscript ``*`` (``D_star`` -> D^*); ``hat``,
  ``bar``, ``tilde`` put an accent on the base (``lambda_hat`` -> λ̂); any other multi-letter
  part is quoted upright text (``d_eff`` -> d_"eff");
* a multi-letter base that is not Greek is quoted upright text (``BiasSum`` -> "BiasSum");
* a name with characters outside ``[A-Za-z0-9_]`` is printed as one quoted string with Typst
  escapes, so no name can inject Typst code.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

__all__ = ["GREEK", "attachment", "symbol_to_typst", "typst_string"]

GREEK: frozenset[str] = frozenset(
    """alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho
    sigma tau upsilon phi chi psi omega Alpha Beta Gamma Delta Epsilon Zeta Eta Theta Iota Kappa
    Lambda Mu Nu Xi Omicron Pi Rho Sigma Tau Upsilon Phi Chi Psi Omega""".split()
)
_GREEK_ALIASES = {"eps": "epsilon", "lamda": "lambda", "Lamda": "Lambda", "varepsilon": "epsilon"}
_INDEX_LETTERS = frozenset("ijklmn")
_ACCENTS = {"hat": "hat", "bar": "overline", "tilde": "tilde"}
_SIMPLE_NAME = re.compile(r"^[A-Za-z][A-Za-z0-9_]*$")
_BASE = re.compile(r"^([A-Za-z]+?)(\d+)$")
def typst_string(text: str) -> str:
    """Return ``text`` as a Typst string literal (quotes included), escaping ``\\`` and ``"``.

    In math mode a string literal renders as upright text, so this is the safe way to put
    arbitrary characters into an equation.
    """
    out = []
    for ch in text:
        if ch == "\\":
            out.append("\\\\")
        elif ch == '"':
            out.append('\\"')
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\r":
            out.append("\\r")
        elif ch == "\t":
            out.append("\\t")
        elif ord(ch) < 32:
            out.append(f"\\u{{{ord(ch):x}}}")
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


_QUOTED = re.compile(r'^"[^"\\]*"$')


def attachment(s: str) -> str:
    """Wrap a sub/superscript in parentheses unless it is a single token.

    Typst removes one pair of parentheses around an attachment, so ``x_(i j)`` groups
    ``i j`` without printing the parentheses.
    """
    if len(s) == 1 or s.isdigit() or _QUOTED.match(s):
        return s
    return f"({s})"


def _name_part(part: str) -> str:
    """Typst for one piece of a name: a letter, a Greek name, digits, or quoted text."""
    if part in _GREEK_ALIASES:
        return _GREEK_ALIASES[part]
    if part in GREEK or len(part) == 1 or part.isdigit():
        return part
    return typst_string(part)


def symbol_to_typst(name: str, symbol_names: Mapping[str, str] | None = None) -> str:
    """Typst math for a symbol called ``name`` (see the module docstring for the rules).

    ``symbol_names`` maps a sympy name to raw Typst math and takes precedence over the rules.
    """
    if symbol_names and name in symbol_names:
        return symbol_names[name]
    if not _SIMPLE_NAME.match(name) or name.endswith("_") or "__" in name:
        return typst_string(name)
    base, *parts = name.split("_")
    subs: list[str] = []
    sup = ""
    m = _BASE.match(base)
    if m:
        letters, digits = m.groups()
        greek = _GREEK_ALIASES.get(letters, letters) in GREEK
        if greek and digits == "2":
            sup = "2"
            base = letters
        elif greek or len(letters) == 1:
            subs.append(digits)
            base = letters
        # A multi-letter Latin base keeps its digits inside the upright name ("SumLam2").
    base_t = _name_part(base)
    for part in parts:
        if part == "star":
            sup = "*" if not sup else f"{sup} *"
        elif part in _ACCENTS:
            base_t = f"{_ACCENTS[part]}({base_t})"
        elif part.isalpha() and set(part) <= _INDEX_LETTERS and len(part) > 1:
            subs.append(" ".join(part))
        else:
            subs.append(_name_part(part))
    out = base_t
    if subs:
        out += "_" + attachment(",".join(subs))
    if sup:
        out += "^" + attachment(sup)
    return out
