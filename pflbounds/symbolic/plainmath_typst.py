"""Plain notation (:mod:`pflbounds.symbolic.plainmath`) as Typst markup with inline equations."""

from __future__ import annotations

import re

from pflbounds.symbolic.plainmath_parse import parse
from pflbounds.symbolic.plainmath_scan import CAL, Atom, Group, Script, Tok, next_item
from pflbounds.symbolic.plainmath_words import (
    ALIAS,
    FUNCTIONS,
    GREEK,
    LIMIT_OPS,
    OPERATORS,
    PLACEHOLDERS,
    STOPWORDS,
    TYPST_GREEK,
    UPRIGHT,
)

# ------------------------------------------------------------------------------- Typst
_TYPST_TEXT_SPECIAL = set("\\#$*_@<>[]`~=-+/")
_TYPST_OPS = {"/": "\\/", "*": "dot", "*star": "*", "~": "tilde.op", "==": "=", "#": "\\#",
              "<~": "lt.tilde", ">~": "gt.tilde",
              "'": "'"}


def _typst_text(text: str, first: bool) -> str:
    text = "".join(ch for ch in text if ch in "\t" or ord(ch) >= 32)
    text = re.sub(r"\s+", " ", text)
    out = "".join("\\" + ch if ch in _TYPST_TEXT_SPECIAL else ch for ch in text)
    if first:
        out = re.sub(r"^(\s*\d+)\.", r"\1\\.", out)
    return out


def _typst_quote(s: str) -> str:
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _typst_number(s: str) -> str:
    m = re.fullmatch(r"(\d+(?:\.\d+)?)[eE]([-+]?\d+)", s)
    if not m:
        return s
    mant, exp = m.group(1), int(m.group(2))
    power = f"10^({exp})" if exp < 0 else f"10^{exp}"
    return power if float(mant) == 1 else f"{mant} dot {power}"


def _typst_ident(a: Atom, nxt) -> str:
    b = a.base
    if b in ALIAS:
        return ALIAS[b]
    if b in GREEK:
        return TYPST_GREEK.get(b, b)
    if b == "E" and isinstance(nxt, Group) and nxt.open in ("[", "||", "<"):
        return "EE"
    if b == "P" and isinstance(nxt, Group) and nxt.open == "(" and not a.sub:
        return "PP"
    if b in ("oo", "in"):
        return b  # infinity, element of
    if b == "O" and not (a.sub or a.sup) and (
            a.accent == "tilde" or isinstance(nxt, Group) and nxt.open == "("):
        return "cal(O)"  # O(1/K), O~(kappa): the printers' calligraphic O
    if b in OPERATORS or b in FUNCTIONS or b in LIMIT_OPS - {"argmin", "argmax"}:
        return b
    if b in ("argmin", "argmax"):
        return f'op("{b[:3]} {b[3:]}", limits: #true)'
    if b in UPRIGHT:
        return f'op("{UPRIGHT[b]}")'
    if CAL.fullmatch(b):
        return f"cal({b[0]})"
    if len(b) == 1:
        return b
    if len(b) == 2 and not b.isupper() and b.lower() not in STOPWORDS:
        return f"{b[0]} {b[1]}"
    return _typst_quote(b)


def _typst_script(items: list) -> str:
    inner = _typst_items(items)
    if len(items) == 1 and isinstance(items[0], Atom) and not items[0].sub \
            and not items[0].sup and not items[0].accent and (
            items[0].kind == "num" or len(inner) == 1):
        return inner
    if len(items) == 1 and isinstance(items[0], Tok) and items[0].text == "*star":
        return "*"
    return f"({inner})"


def _typst_atom(a: Atom, nxt) -> str:
    if a.kind == "num":
        s = _typst_number(a.base)
    elif a.decl is not None:
        s = a.decl[0]
        if (a.sub and "_" in s) or (a.sup and "^" in s) or (a.sup or a.sub) and "'" in s:
            s = f"({s})"
    else:
        s = _typst_ident(a, nxt)
    if a.accent:
        s = f"{a.accent}({s})"
    s += "'" * a.primes
    if a.sub:
        s += "_" + _typst_script(a.sub)
    if a.sup:
        s += "^" + _typst_script(a.sup)
    return s


def _typst_items(items: list) -> str:
    parts: list[str] = []
    skip: set[int] = set()
    for k, it in enumerate(items):
        nxt = items[k + 1] if k + 1 < len(items) else None
        if isinstance(it, Group):
            opener = "\\{" if it.open == "{" else it.open
            closer = "\\}" if it.close == "}" else it.close
            prev = parts[-1].strip() if parts else ""
            inner = _typst_items(it.items)
            if it.open == "||":
                parts.append(f" #math.norm(${inner}$)")
                continue
            if it.open == "<":
                parts.append(f" chevron.l {inner} chevron.r")
                continue
            if it.open == "|":
                parts.append(f" lr(| {inner} |)")
                continue
            if prev == "sqrt":  # a nested equation: commas inside stay commas
                parts[-1] = f" #math.sqrt(${inner}$)"
                continue
            if prev in ("ceil", "floor"):
                parts[-1] = f" {prev}.l {inner} {prev}.r"
                continue
            if prev == "1" and it.open == "{":
                parts[-1] = " bb(1)"
            parts.append(" " + opener + inner + closer)
        elif isinstance(it, Script):
            parts.append(it.mark + _typst_script(it.items))
        elif isinstance(it, Atom):
            if k in skip:
                continue
            after = next_item(items, k)
            if it.kind == "ident" and it.base == "sqrt" and isinstance(after, Atom):
                parts.append(f" sqrt({_typst_atom(after, None)})")  # sqrt e
                skip.add(items.index(after, k + 1))
                continue
            if it.kind == "ident" and it.base in FUNCTIONS and not isinstance(nxt, Group):
                parts.append(" " + _typst_quote(it.base))
                continue
            parts.append((" " if parts else "") + _typst_atom(it, next_item(items, k)))
        elif it.kind == "ws":
            continue
        elif it.kind == "op":
            parts.append(" " + _TYPST_OPS.get(it.text, it.text))
        elif it.kind == "indices":
            parts.append(" " + " ".join(it.text))
        elif it.kind == "placeholder":
            parts.append(" " + PLACEHOLDERS[it.text][0])
        elif it.kind == "word":
            parts.append(" in" if it.text == "in" else " " + _typst_quote(it.text))
        elif it.kind == "text":
            parts.append(" " + _typst_quote(it.text.strip('"')))
        elif it.text in ",;.":
            parts.append(it.text)
        else:
            parts.append(" " + _typst_quote(it.text))
    return "".join(parts).strip()


def to_typst(text: str, paper: str | None = None) -> str:
    """Typst markup for ``text``: prose escaped, notation as inline equations (``paper``: whose
    constant names to read, see :func:`parse`)."""
    out = []
    for k, (kind, val) in enumerate(parse(text, paper)):
        if kind == "text":
            out.append(_typst_text(val, first=k == 0))
        else:
            out.append("$" + _typst_items(val) + "$")
    return "".join(out).strip()


def to_typst_math(text: str, paper: str | None = None) -> str:
    """``text`` inside a Typst equation: its math when it is notation throughout
    (``E[F(x^K)] - F^*``), else the text as embedded content (``#[K such that $...$]``)."""
    segments = parse(text, paper)
    if len(segments) == 1 and segments[0][0] == "math":
        return _typst_items(segments[0][1])
    return "#[" + to_typst(text, paper) + "]"
