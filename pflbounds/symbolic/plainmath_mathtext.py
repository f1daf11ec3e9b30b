"""Plain notation (:mod:`pflbounds.symbolic.plainmath`) as a matplotlib label with ``$...$``
segments (mathtext)."""

from __future__ import annotations

import re

from pflbounds.symbolic.plainmath_parse import parse
from pflbounds.symbolic.plainmath_scan import CAL, Atom, Group, Script, next_item
from pflbounds.symbolic.plainmath_words import (
    ALIAS,
    FUNCTIONS,
    GREEK,
    LIMIT_OPS,
    OPERATORS,
    PLACEHOLDERS,
    STOPWORDS,
    UPRIGHT,
)

# ----------------------------------------------------------------------------- mathtext
_MT_OPS = {"<=": r"\leq", ">=": r"\geq", "!=": r"\neq", "->": r"\to", "=>": r"\Rightarrow",
           "==": "=", "*": r"\cdot", "*star": "*", "||": r"\Vert", "~": r"\sim", "#": r"\#",
           "'": r"\prime", "|": "|", ":": ":", "±": r"\pm", "<<": r"\ll", ">>": r"\gg",
           "<~": r"\lesssim", ">~": r"\gtrsim"}


def _mt_escape_text(s: str) -> str:
    return s.replace("$", r"\$")


def _mt_rm(s: str) -> str:
    s = re.sub(r"([#$%&_{}])", r"\\\1", s)
    return r"\mathrm{" + s.replace(" ", r"\ ") + "}"


def _mt_ident(a: Atom, nxt) -> str:
    b = a.base
    if b in ALIAS:
        return r"\varepsilon" if ALIAS[b] == "epsilon" else "\\" + ALIAS[b]
    if b in GREEK:
        return r"\varepsilon" if b in ("epsilon", "varepsilon") else "\\" + b
    if b == "E" and isinstance(nxt, Group) and nxt.open in ("[", "||", "<"):
        return r"\mathbb{E}"
    if b == "P" and isinstance(nxt, Group) and nxt.open == "(" and not a.sub:
        return r"\mathbb{P}"
    if b in ("oo", "in"):
        return r"\infty" if b == "oo" else r"\in"
    if b == "O" and not (a.sub or a.sup) and (
            a.accent == "tilde" or isinstance(nxt, Group) and nxt.open == "("):
        return r"\mathcal{O}"
    if b in OPERATORS or b in LIMIT_OPS - {"argmin", "argmax"}:
        return "\\" + b
    if b in UPRIGHT or b in ("argmin", "argmax"):
        return _mt_rm(UPRIGHT.get(b, b))
    if CAL.fullmatch(b):
        return r"\mathcal{" + b[0] + "}"
    if len(b) == 1:
        return b
    if len(b) == 2 and not b.isupper() and b.lower() not in STOPWORDS:
        return b
    return _mt_rm(b)


def _mt_atom(a: Atom, nxt) -> str:
    if a.decl is not None:
        s = a.decl[1] or _mt_rm(a.base)
        s = "{" + s + "}" if a.sub or a.sup or a.primes or a.accent else s
    else:
        s = a.base if a.kind == "num" else _mt_ident(a, nxt)
    if a.kind == "num":
        m = re.fullmatch(r"(\d+(?:\.\d+)?)[eE]([-+]?\d+)", s)
        if m:
            power = f"10^{{{int(m.group(2))}}}"
            s = power if float(m.group(1)) == 1 else rf"{m.group(1)}\times {power}"
    if a.accent:
        s = {"hat": r"\hat", "overline": r"\bar", "tilde": r"\tilde"}[a.accent] + "{" + s + "}"
    if a.sub:
        s += "_{" + _mt_items(a.sub) + "}"
    if a.sup or a.primes:
        s += "^{" + r"\prime " * a.primes + _mt_items(a.sup) + "}"
    return s


def _mt_items(items: list) -> str:
    parts: list[str] = []
    skip: set[int] = set()
    for k, it in enumerate(items):
        nxt = items[k + 1] if k + 1 < len(items) else None
        if isinstance(it, Group):
            inner = _mt_items(it.items)
            prev = parts[-1] if parts else ""
            if prev == "sqrt":
                parts[-1] = r"\sqrt{" + inner + "}"
            elif prev in ("ceil", "floor"):
                parts[-1] = rf"\l{prev} {inner}\r{prev} "
            else:
                opener = {"{": r"\{", "||": r"\Vert ", "<": r"\langle "}.get(it.open, it.open)
                closer = {"}": r"\}", "||": r"\Vert ", ">": r"\rangle "}.get(it.close, it.close)
                if prev == "1" and it.open == "{":
                    parts[-1] = r"\mathbb{1}"
                parts.append(opener + inner + closer)
        elif isinstance(it, Script):
            parts.append(it.mark + "{" + _mt_items(it.items) + "}")
        elif isinstance(it, Atom):
            if it.kind == "ident" and it.base in FUNCTIONS and isinstance(nxt, Group):
                parts.append(it.base)
            elif k in skip:
                continue
            elif it.kind == "ident" and it.base == "sqrt" and isinstance(next_item(items, k), Atom):
                after = next_item(items, k)
                parts.append(r"\sqrt{" + _mt_atom(after, None) + "}")  # sqrt e
                skip.add(items.index(after, k + 1))
            else:
                atom = _mt_atom(it, next_item(items, k))
                parts.append(atom + " " if atom[-1:].isalpha() and "\\" in atom else atom)
        elif it.kind == "ws":
            parts.append(" ")
        elif it.kind == "op":
            op = _MT_OPS.get(it.text, it.text)
            parts.append(op + " " if op[-1:].isalpha() else op)
        elif it.kind == "indices":
            parts.append(it.text)
        elif it.kind == "placeholder":
            parts.append(PLACEHOLDERS[it.text][1])
        elif it.kind == "word" and it.text == "in":
            parts.append(r"\in ")
        elif it.kind in ("word", "text"):
            parts.append(_mt_rm(it.text.strip('"')))
        elif it.text in ",;.":
            parts.append(it.text)
        else:
            parts.append(_mt_rm(it.text))
    return "".join(parts).strip()


def to_mathtext(text: str, paper: str | None = None) -> str:
    """A matplotlib label for ``text``: notation in ``$...$`` (mathtext), prose as is
    (``paper``: whose constant names to read, see :func:`parse`).

    A text that already holds ``$`` is taken to be mathtext and returned unchanged."""
    if "$" in text:
        return text
    out = []
    for kind, val in parse(text, paper):
        out.append(_mt_escape_text(val) if kind == "text"
                   else "$" + re.sub(" {2,}", " ", _mt_items(val)) + "$")
    return "".join(out).strip()
