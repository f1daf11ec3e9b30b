"""Telling prose from math in scanned plain notation (:mod:`pflbounds.symbolic.plainmath`):
the strength of each token as math, and the runs of prose and math of a text."""

from __future__ import annotations

import unicodedata

from pflbounds.symbolic.plainmath_scan import (
    Atom,
    Group,
    Script,
    Tok,
    is_word,
    nest_tokens,
    next_item,
    quoted_text,
    scan_tokens,
    strength,
)
from pflbounds.symbolic.plainmath_words import ACCENTS, RELATIONS, paper_names


def _is_hyphen(items: list, k: int) -> bool:
    """A ``-``, ``/`` or ``|`` glued to a prose word (``mu-strongly``, ``measured/bound``,
    ``|residual|``), or a ``-`` between numbers (``1.1-1.6``)."""
    t = items[k]
    if not (isinstance(t, Tok) and t.kind == "op" and t.text in ("-", "/", "|", "=")):
        return False
    if t.text in "|=":
        near = [items[j] for j in (k - 1, k + 1) if 0 <= j < len(items)]
        return any(isinstance(x, (Tok, Atom)) and not (isinstance(x, Tok) and x.kind == "ws")
                   and strength(x, None) == "P" for x in near)
    if k == 0 or k + 1 >= len(items):
        return False
    left, right = items[k - 1], items[k + 1]
    if isinstance(left, Tok) and left.kind == "ws" or isinstance(right, Tok) \
            and right.kind == "ws":
        return False
    words = [x for x in (left, right) if isinstance(x, (Tok, Atom))
             and strength(x, None) == "P"]
    if words:
        return True
    return t.text == "-" and all(
        isinstance(x, Atom) and x.kind == "num" or isinstance(x, Group) and x.open == "("
        and len(x.items) == 1 and isinstance(x.items[0], Atom) and x.items[0].kind == "num"
        for x in (left, right))  # 1.1-1.6, equations (27)-(28)


def _article(items: list, k: int) -> bool:
    """``A`` opening a sentence before a lowercase word (``A fixed step``) is prose."""
    it = items[k]
    if not (isinstance(it, Atom) and it.base == "A" and not (it.sub or it.sup or it.accent)):
        return False
    before = [x for x in items[:k] if not (isinstance(x, Tok) and x.kind == "ws")]
    if before and not (isinstance(before[-1], Tok) and before[-1].text in ".:;!?"):
        return False
    nxt = next_item(items, k)
    return isinstance(nxt, Tok) and nxt.kind == "word" and nxt.text[:1].islower() or (
        isinstance(nxt, Atom) and nxt.base.islower() and is_word(nxt.base))


def parse(text: str, paper: str | None = None) -> list[tuple[str, object]]:
    """Segments ``("text", str)`` and ``("math", items)`` of a plain-notation text, with the
    constant names ``paper`` declares (default: the paper of :func:`notation_of`)."""
    text = quoted_text(unicodedata.normalize("NFC", str(text)))
    return _segments(nest_tokens(scan_tokens(text, paper_names(paper))))


def _segments(items: list) -> list[tuple[str, object]]:
    marks = []
    for k, it in enumerate(items):
        s = strength(it, next_item(items, k))
        if s == "W" and (_is_hyphen(items, k) or isinstance(it, Tok) and it.text == ":"):
            s = "P"
        elif s == "S" and _article(items, k):
            s = "P"
        marks.append(s)
    out: list[tuple[str, object]] = []
    k = 0
    while k < len(items):
        if isinstance(items[k], Script):  # a script after prose: (a lot)^2
            out.append(("text", _plain([items[k]])))
            k += 1
        elif marks[k] in ("S", "W"):
            j = k
            while j < len(items) and marks[j] in ("S", "W", "_"):
                j += 1
            while j > k and marks[j - 1] == "_":
                j -= 1
            run = items[k:j]
            run_marks = marks[k:j]
            nums = any(isinstance(x, Atom) and x.kind == "num" for x in run)
            ops = any(isinstance(x, Tok) and x.kind == "op" and x.text != "-" for x in run)
            rel = any(isinstance(x, Tok) and x.kind == "op" and (
                x.text in RELATIONS or x.text in "<>") for x in run)
            if "S" in run_marks or (nums and ops) or rel:
                out.append(("math", run))
            else:
                out.append(("text", _plain(run)))
            k = j
        elif isinstance(items[k], Group) and marks[k] == "P":
            g = items[k]
            out.append(("text", g.open))
            out.extend(_segments(g.items))
            out.append(("text", g.close))
            k += 1
        else:
            out.append(("text", _plain([items[k]])))
            k += 1
    merged: list[tuple[str, object]] = []
    for kind, val in out:
        if kind == "text" and merged and merged[-1][0] == "text":
            merged[-1] = ("text", merged[-1][1] + val)
        else:
            merged.append((kind, val))
    return merged


def _plain(items: list) -> str:
    """The original spelling of items (for prose)."""
    out = []
    for it in items:
        if isinstance(it, Group):
            out.append(it.open + _plain(it.items) + it.close)
        elif isinstance(it, Atom):
            out.append(_atom_plain(it))
        elif isinstance(it, Script):
            out.append(it.mark + "{" + _plain(it.items) + "}")
        elif it.kind == "op" and it.text == "*star":
            out.append("*")
        else:
            out.append(it.text)
    return "".join(out)


def _atom_plain(a: Atom) -> str:
    s = a.base
    if a.accent == "tilde" and not a.sub:
        s += "~"
    elif a.accent:
        s += "_" + {v: k for k, v in ACCENTS.items()}[a.accent]
    if a.sub:
        s += "_{" + _plain(a.sub) + "}"
    if a.sup:
        s += "^{" + _plain(a.sup) + "}"
    return s + "'" * a.primes
