"""Reading plain notation (:mod:`pflbounds.symbolic.plainmath`) into tokens: identifiers with
their scripts, numbers, operators, prose words, and the groups of brackets they nest in."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field

from pflbounds.symbolic.plainmath_words import (
    ACCENTS,
    ALIAS,
    CLOSE,
    COMBINING,
    FUNCTIONS,
    GREEK,
    INDEX_LETTERS,
    INFINITY,
    LIMIT_OPS,
    OPEN,
    OPERATORS,
    OPS,
    PLACEHOLDERS,
    RELATIONS,
    STOPWORDS,
    SUB_WORDS,
    UPRIGHT,
)


@dataclass
class Atom:
    """An identifier or number with its sub- and superscripts."""

    base: str
    kind: str  # "ident", "num"
    sub: list = field(default_factory=list)  # items (math)
    sup: list = field(default_factory=list)
    accent: str = ""
    primes: int = 0
    decl: tuple[str, str] | None = None  # a declared constant: (typst, latex)


@dataclass
class Tok:
    """A scanned token: ws, op, punct, open, close, word (prose), text (verbatim)."""

    kind: str
    text: str


@dataclass
class Group:
    open: str
    close: str
    items: list
    math: bool = False  # the argument of sqrt(...): notation throughout


@dataclass
class Script:
    """A ``^`` or ``_`` script after a bracket or a norm: ``||x||^2``, ``(a + b)^2``."""

    mark: str
    items: list


# ----------------------------------------------------------------------------- scanning
_IDENT = re.compile(r"[A-Za-z]+[0-9]*")
_NAME = re.compile(r"[A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)*")
_ACCENTED = re.compile(r"([A-Za-z]+)(bar|hat|tilde)")
_REF = re.compile(r"[A-Z]\.\d+(?:\.\d+)*(?![\w.])")  # Lemma C.2, Theorem B.1
_UWORD = re.compile(r"(?:[^\W\d_][\u0300-\u036f]*)+")
# 'quoted text': an opening quote not glued to a word on its left, a closing one not glued on
# its right (apostrophes and primes stay: method's, mu', al.'s)
_QUOTED = re.compile(r"(?<![\w')\].}])'(?=\S)(.+?)(?<=\S)'(?!\w)")
_NUM = re.compile(r"[0-9]+(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?")
_ATT_RUN = re.compile(r"-?[A-Za-z0-9]+")
CAL = re.compile(r"[A-Z]cal")
_ABBREV = re.compile(r"(?:[A-Za-z]\.){2,}")
_WORD_TAIL = re.compile(r"(?:[_^][A-Za-z0-9]+)*(?:'[a-z]+)?")


def _balanced(text: str, i: int) -> int:
    """Index after the brace group starting at ``text[i] == '{'`` (or len(text))."""
    depth = 0
    for j in range(i, len(text)):
        if text[j] == "{":
            depth += 1
        elif text[j] == "}":
            depth -= 1
            if depth == 0:
                return j + 1
    return len(text)


def is_word(s: str) -> bool:
    """A prose word (not notation), judged on its own."""
    if s in GREEK or s in ALIAS or s in OPERATORS or s in FUNCTIONS or s in UPRIGHT \
            or s in LIMIT_OPS or CAL.fullmatch(s):
        return False
    if len(s) == 1:
        return s == "a"
    if len(s) == 2 and s.lower() not in STOPWORDS and not s.isupper():
        return False  # Su, ij: a product of two symbols
    return True


def _scan_attachment(text: str, i: int, names: dict) -> tuple[list, int]:
    """The script after ``_`` or ``^`` at ``text[i]``: a brace group, a star or a run
    (``g_w,m``: runs glued by commas are one list of indices)."""
    if i < len(text) and text[i] == "{":
        j = _balanced(text, i)
        return _math_items(text[i + 1 : j - 1], names), j
    if i < len(text) and text[i] == "*":
        return [Tok("op", "*star")], i + 1
    if i < len(text) and text[i] == "(":
        depth = 0
        for j in range(i, len(text)):
            depth += {"(": 1, ")": -1}.get(text[j], 0)
            if depth == 0:
                return _math_items(text[i + 1 : j], names), j + 1
        return [], i
    if i < len(text) and text[i] in "+-" and (i + 1 == len(text) or not text[i + 1].isalnum()):
        return [Tok("op", text[i])], i + 1
    m = _ATT_RUN.match(text, i)
    if not m:
        return [], i
    run = m.group(0)
    sign = [Tok("op", "-")] if run.startswith("-") else []
    items = [*sign, _script_run(run.lstrip("-"))]
    end = m.end()
    while end + 1 < len(text) and text[end] == "," and text[end + 1].isalnum() and not sign:
        m = _ATT_RUN.match(text, end + 1)
        items += [Tok("punct", ","), _script_run(m.group(0))]
        end = m.end()
    if end < len(text) and text[end] == "'":
        return [*items, Tok("op", "'")], end + 1
    return items, end


def _script_run(run: str):
    """``ij`` -> two indices, ``eff``/``suf`` -> upright text, ``eps`` -> epsilon, ``phi2`` ->
    phi squared, ``-1`` -> -1."""
    if run.isdigit() or len(run) == 1:
        return Atom(run, "num" if run.isdigit() else "ident")
    if run in GREEK or run in ALIAS:
        return Atom(run, "ident")
    letters = run.rstrip("0123456789")
    if letters in GREEK or letters in ALIAS:
        digits = run[len(letters):]
        return Atom(letters, "ident", sup=[Atom("2", "num")]) if digits == "2" else \
            Atom(letters, "ident", sub=[Atom(digits, "num")])
    if run in SUB_WORDS or len(run) > 3 or run.isalpha() and not set(run) <= INDEX_LETTERS:
        return Tok("word", run)
    return Tok("indices", run)


def quoted_text(text: str) -> str:
    """ASCII quotation marks as typographic ones, so that a closing quote is not a prime."""
    return _QUOTED.sub(lambda m: "\u2018" + m.group(1) + "\u2019", text)


def _unicode_symbol(run: str) -> Atom | None:
    """A standalone Greek letter or accented letter (``Ω``, ``Ω̃``, ``Õ``) as an atom."""
    parts = unicodedata.normalize("NFD", run)
    base, marks = parts[:1], parts[1:]
    if len(marks) > 1 or (marks and marks not in COMBINING):
        return None
    accent = COMBINING.get(marks, "")
    if base.isascii():
        return Atom(base, "ident", accent=accent) if accent else None
    words = unicodedata.name(base, "").split()
    if words[:1] != ["GREEK"] or "LETTER" not in words:
        return None
    name = words[-1].lower()
    name = {"lamda": "lambda"}.get(name, name)
    name = name.capitalize() if "CAPITAL" in words else name
    return Atom(name, "ident", accent=accent) if name in GREEK else None


def _declared_at(text: str, i: int, names: dict) -> tuple[str, int] | None:
    """The longest declared constant name starting at ``text[i]`` (``lam_h``, ``L1``)."""
    m = _NAME.match(text, i)
    if not m or not names:
        return None
    parts = m.group(0).split("_")
    for k in range(len(parts), 0, -1):
        name = "_".join(parts[:k])
        if name in names:
            return name, i + len(name)
    return None


def _scan_ident(text: str, i: int, names: dict) -> tuple[Atom | Tok, int]:
    """An identifier at ``text[i]`` with its scripts, or a prose word."""
    n = len(text)
    start = i
    m = _IDENT.match(text, i)
    assert m is not None
    word = m.group(0)
    i = m.end()
    if i < n and text[i].isalpha() and not text[i].isascii():  # Hölder, Rényi: prose
        m2 = _UWORD.match(text, i)
        return Tok("word", word + m2.group(0)), m2.end()
    letters = word.rstrip("0123456789")
    digits = word[len(letters):]
    greek = letters in GREEK or letters in ALIAS
    wordy = (digits and not (greek or (len(letters) == 1 and letters.islower()))) or (
        len(letters) > 2 and is_word(letters))
    pair = len(letters) == 2 and not digits and not greek and not is_word(letters)
    decl = _declared_at(text, start, names) if (wordy or pair) else None
    accented = _ACCENTED.fullmatch(word)
    if decl is not None:
        atom = Atom(decl[0], "decl", decl=names[decl[0]])
        i = decl[1]
    elif accented and (accented.group(1) in GREEK or accented.group(1) in ALIAS or (
            len(accented.group(1)) == 1 and accented.group(2) != "hat")):
        atom = Atom(accented.group(1), "ident", accent=ACCENTS[accented.group(2)])
    elif word == "cal" and re.match(r"\([A-Z]\)", text[i:i + 3]):
        atom = Atom(text[i + 1] + "cal", "ident")
        i += 3
    elif pair and text.startswith("=", i) and not text.startswith("==", i):
        return Tok("word", word), i  # lo=0.6: a parameter's name, not the product l o
    elif word in ("floor", "ceil") and not text.startswith("(", i):
        return Tok("word", word), i  # the noise floor: a word
    elif wordy:
        # A1, P15, SumLam2, bound_printed: an identifier or a word, not notation
        m2 = _WORD_TAIL.match(text, i)
        return Tok("word", word + m2.group(0)), m2.end()
    else:
        atom = Atom(letters, "ident")
        if digits:
            # sigma2, nu2, Delta2: the project's squares; sigma2^2 is sigma_2 squared
            if greek and digits == "2" and not (i < n and text[i] == "^"):
                atom.sup.append(Atom("2", "num"))
            else:
                atom.sub.append(Atom(digits, "num"))
    while i < n and text[i] in "_^'":
        if text[i] == "'":
            if i + 1 < n and text[i + 1].isalpha():
                break  # an apostrophe: method's
            atom.primes += 1
            i += 1
            continue
        script, j = _scan_attachment(text, i + 1, names)
        if not script:
            if text[i] == "^" and not atom.accent:
                atom.accent = "hat"  # er^ beside er~: an accent written after its symbol
                i += 1
            break
        name = script[0].text if len(script) == 1 and isinstance(script[0], Tok) else ""
        if text[i] == "_" and name in ACCENTS and not atom.accent:
            atom.accent = ACCENTS[name]
        else:
            (atom.sub if text[i] == "_" else atom.sup).extend(script)
        i = j
    if i < n and text[i] == "*" and (i + 1 == n or not (text[i + 1].isalnum()
                                                         or text[i + 1] in "({")):
        atom.sup.insert(0, Tok("op", "*star"))
        i += 1
        while i < n and text[i] == "^":
            script, i = _scan_attachment(text, i + 1, names)
            atom.sup.extend(script)
    if i < n and text[i] == "~" and not atom.accent and (
            i + 1 == n or not (text[i + 1].isalnum() or text[i + 1] in "~{[")):
        atom.accent = "tilde"  # O~(kappa), O~ alone, er~
        i += 1
    return atom, i


def scan_tokens(text: str, names: dict) -> list:
    """Flat token list: Atom, Tok."""
    out: list = []
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch.isspace():
            j = i
            while j < n and text[j].isspace():
                j += 1
            out.append(Tok("ws", " "))
            i = j
        elif ch == "'" and i and (text[i - 1].isalnum() or text[i - 1] in ".)") \
                and i + 1 < n and text[i + 1].isalpha():
            m = re.compile(r"'[A-Za-z]+").match(text, i)
            out.append(Tok("word", m.group(0)))
            i = m.end()
        elif (m := _ABBREV.match(text, i)) and (i == 0 or not text[i - 1].isalnum()):
            out.append(Tok("word", m.group(0)))
            i = m.end()
        elif (m := _REF.match(text, i)) and (i == 0 or not text[i - 1].isalnum()):
            out.append(Tok("word", m.group(0)))
            i = m.end()
        elif ch == '"':
            j = text.find('"', i + 1)
            j = n if j < 0 else j + 1
            out.append(Tok("text", text[i:j]))
            i = j
        elif ch.isalpha() and ch.isascii():
            tok, i = _scan_ident(text, i, names)
            out.append(tok)
        elif ch.isalpha():
            m = _UWORD.match(text, i)
            symbol = _unicode_symbol(m.group(0)) if (
                i == 0 or not text[i - 1].isalnum()) and (
                m.end() == n or not text[m.end()].isalnum()) else None
            out.append(symbol or Tok("word", m.group(0)))
            i = m.end()
        elif ch in "0123456789":
            m = _NUM.match(text, i)
            assert m is not None
            atom = Atom(m.group(0), "num")
            i = m.end()
            while i < n and text[i] == "^":  # 10^6, 1 1^T, 2^-j
                script, j = _scan_attachment(text, i + 1, names)
                if not script:
                    break
                atom.sup.extend(script)
                i = j
            out.append(atom)
        elif ch in "^_" and out and (isinstance(out[-1], Tok) and out[-1].text in ("||", "|")
                                    or isinstance(out[-1], Tok) and out[-1].kind == "close"
                                    or isinstance(out[-1], Script)):
            script, j = _scan_attachment(text, i + 1, names)
            if script:
                out.append(Script(ch, script))
                i = j
            else:
                out.append(Tok("punct", ch))
                i += 1
        elif ch in OPEN:
            out.append(Tok("open", ch))
            i += 1
        elif ch in CLOSE:
            out.append(Tok("close", ch))
            i += 1
        else:
            op = next((o for o in OPS if text.startswith(o, i)), None)
            if op is not None:
                out.append(Tok("op", op))
                i += len(op)
            elif ch == "#" and i + 1 < n and text[i + 1] == "{":
                out.append(Tok("op", "#"))
                i += 1
            elif unicodedata.category(ch) == "Sm":
                out.append(Tok("op", ch))
                i += 1
            else:
                out.append(Tok("punct", ch))
                i += 1
    return out


def _is_ws(t) -> bool:
    return isinstance(t, Tok) and t.kind == "ws"


def _flatten(opener: str, items: list, closer: str = "") -> list:
    """An unmatched bracket's items back as tokens."""
    kind = "op" if opener in ("||", "<", "|") else "punct"
    return [Tok(kind, opener), *items, *([Tok("op", closer)] if closer else [])]


def nest_tokens(tokens: list) -> list:
    """Match brackets into Groups (an unmatched bracket stays a token). ``<u, v>`` (no space
    inside the brackets, a comma between) is an inner product."""
    stack: list[tuple[str, list]] = [("", [])]
    for k, t in enumerate(tokens):
        nxt = tokens[k + 1] if k + 1 < len(tokens) else None
        if isinstance(t, Tok) and t.kind == "op" and t.text == "||":
            if stack[-1][0] == "||":
                opener, items = stack.pop()
                stack[-1][1].append(Group("||", "||", _tidy(items, True)))
            else:
                stack.append(("||", []))
        elif isinstance(t, Tok) and t.kind == "open":
            stack.append((t.text, []))
        elif isinstance(t, Tok) and t.kind == "op" and t.text == "|" and stack[-1][0] == "|" \
                and stack[-1][1] and not _is_ws(stack[-1][1][-1]):
            opener, items = stack.pop()  # |S_i|: an absolute value or a cardinality
            stack[-1][1].append(Group("|", "|", _tidy(items, True)))
        elif isinstance(t, Tok) and t.kind == "op" and t.text == "|" and nxt is not None \
                and not _is_ws(nxt) and (k == 0 or _is_ws(tokens[k - 1])
                                         or tokens[k - 1].kind in ("open", "op", "punct")):
            stack.append(("|", []))
        elif isinstance(t, Tok) and t.text == "<" and nxt is not None \
                and not (isinstance(nxt, Tok) and nxt.kind == "ws"):
            stack.append(("<", []))
        elif isinstance(t, Tok) and t.text == ">" and stack[-1][0] == "<" and stack[-1][1] \
                and not (isinstance(stack[-1][1][-1], Tok) and stack[-1][1][-1].kind == "ws"):
            opener, items = stack.pop()
            if any(isinstance(x, Tok) and x.text == "," for x in items):
                stack[-1][1].append(Group("<", ">", _tidy(items, True)))
            else:
                stack[-1][1].extend(_flatten("<", items, ">"))
        elif isinstance(t, Tok) and t.kind == "close" and any(
                o == CLOSE[t.text] for o, _ in stack[1:]):
            while stack[-1][0] != CLOSE[t.text]:  # an unclosed < or || inside: tokens
                opener, items = stack.pop()
                stack[-1][1].extend(_flatten(opener, items))
            opener, items = stack.pop()
            frame = stack[-1][1]
            sqrt = bool(frame) and isinstance(frame[-1], Atom) and frame[-1].base == "sqrt"
            frame.append(Group(opener, t.text, _tidy(items, True), math=sqrt))
        else:
            stack[-1][1].append(t)
    while len(stack) > 1:  # unclosed: flatten back
        opener, items = stack.pop()
        stack[-1][1].extend(_flatten(opener, items))
    return _tidy(stack[0][1], False)


def _tidy(items: list, in_group: bool) -> list:
    """A lone ``.`` or ``·`` argument in a group is a placeholder (``(.)``, ``||.||``,
    ``max(., x)``); ``inf``/``infinity`` after a relation is the symbol ∞."""
    out = list(items)
    for k in range(len(out) - 2, 0, -1):  # hat theta: an accent written before its symbol
        x, nxt = out[k - 1], out[k + 1]
        if isinstance(x, Tok) and x.kind == "word" and x.text in ACCENTS and isinstance(
                out[k], Tok) and out[k].kind == "ws" and isinstance(nxt, Atom) \
                and nxt.kind == "ident" and not nxt.accent and strength(nxt, None) == "S":
            nxt.accent = ACCENTS[x.text]
            del out[k - 1 : k + 1]
    solid = [k for k, x in enumerate(out) if not (isinstance(x, Tok) and x.kind == "ws")]
    for pos, k in enumerate(solid):
        x = out[k]
        prev = out[solid[pos - 1]] if pos else None
        nxt = out[solid[pos + 1]] if pos + 1 < len(solid) else None
        if in_group and isinstance(x, Tok) and x.kind == "punct" and x.text in PLACEHOLDERS:
            if all(y is None or isinstance(y, Tok) and y.text == "," for y in (prev, nxt)):
                out[k] = Tok("placeholder", x.text)
        elif isinstance(prev, Tok) and prev.kind == "op" and prev.text in (
                *RELATIONS, "=", "<", ">", "-", "+") and (
                isinstance(x, Tok) and x.kind == "word" and x.text == "infinity"
                or isinstance(x, Atom) and x.kind == "ident" and x.base in INFINITY
                and not (x.sub or x.sup or x.accent) and not isinstance(nxt, Group)):
            out[k] = Atom("oo", "ident")
    return out


def _math_items(text: str, names: dict) -> list:
    """Items of a text that is math throughout (inside a script)."""
    return nest_tokens(scan_tokens(text, names))


# ------------------------------------------------------------------------- classification
def strength(item, nxt) -> str:
    """S strong math, W weak (numbers, operators), P prose, _ space."""
    if isinstance(item, Group):
        if item.open == "(" and len(item.items) == 1 and isinstance(item.items[0], Atom) \
                and item.items[0].kind == "num" and not item.items[0].sup:
            return "W"  # (27): an equation number, math only inside a formula
        return "S" if _group_is_math(item) else "P"
    if isinstance(item, Script):
        return "W"
    if isinstance(item, Atom):
        if item.kind == "decl":
            return "S"
        if item.kind == "num":
            return "S" if re.search("[eE]", item.base) or item.sup else "W"
        if item.sub or item.sup or item.accent or item.primes:
            return "S"
        b = item.base
        if b in LIMIT_OPS:
            return "S" if isinstance(nxt, Group) else "P"
        return "P" if is_word(b) else "S"
    if item.kind == "ws":
        return "_"
    if item.kind == "op":
        return "W"
    if item.kind in ("indices", "placeholder"):
        return "S"
    return "P"


def _group_is_math(g: Group) -> bool:
    if g.open in ("||", "<") or g.math:
        return True  # a norm, an inner product: notation throughout
    kinds = set()
    items = g.items
    article = False
    for k, it in enumerate(items):
        nxt = next_item(items, k)
        s = strength(it, nxt)
        if s == "P":
            if isinstance(it, Tok) and it.kind == "punct" and it.text in ",;.'":
                continue
            if isinstance(it, Atom) and it.base == "a":
                article = True  # (1 - eta a): the symbol a, if nothing else is prose
                continue
            return False
        kinds.add(s)
    return "S" in kinds if article else ("S" in kinds or "W" in kinds)


def next_item(items: list, k: int):
    for it in items[k + 1 :]:
        if not (isinstance(it, Tok) and it.kind == "ws"):
            return it
    return None
