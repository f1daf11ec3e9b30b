"""Typesetting the plain-text math notation of statements, labels and captions.

Statements, assumptions, notes, check titles and axis labels are written in the plain
notation of the papers' digests: ``E||grad l(x, xi_i) - grad f_i(x)||^2 <= sigma^2``,
``f_i(x_j^*) - f_i^* <= b_ij^2/(2 mu)``, ``K_eps (oracle calls)``. :func:`parse` splits such a
text into prose and math runs; :func:`to_typst` turns it into Typst markup with inline
equations and :func:`to_mathtext` into a matplotlib label with ``$...$`` segments.

The notation: ``x_i``, ``b_ij`` (two indices), ``x_{...}`` and ``x^{...}`` (grouped),
``x^*``/``f_i*`` (a star), ``x_bar``/``b_hat_ij``/``Fbar``/``hat theta``/``er~``/``er^``/
``Õ``/``Ω̃`` (accents), ``cal(C)``/``Lcal`` (calligraphic; ``O(...)`` is the calligraphic O),
Greek letters by name (``eps`` for epsilon, ``lam`` for lambda, ``grad`` for nabla; ``sigma2``
is sigma squared but ``sigma2^2`` is sigma_2 squared), ``E[...]``/``P(...)`` (expectation,
probability), ``<= >= != -> << >~ ~``, ``||x||`` (norm), ``|S|``, ``<u, v>`` (inner
product), ``(.)``, ``||.||``, ``sqrt(…)`` (a placeholder argument), ``1{...}``
(indicator), ``#{...}`` (cardinality), ``T = inf`` (infinity), ``ln exp min max sup inf sum
sqrt ceil floor Tr``. Words that are not notation stay prose; a hyphen glued to a word
(``mu-strongly``, ``eps-close``) is a hyphen; ``'...'`` quotes are quotation marks.

A paper's own constant names (``L1``, ``epsG``, ``lam_h``) are read as the symbols the paper
declares for them (``L_1``, ``epsilon_G``, ``lambda_h``): pass ``paper=`` or typeset inside
``with notation_of(paper):``. Names the generic rules read as ids (``A1``, ``P15``, ``C2``)
stay ids unless the paper declares them as constants.
The output always compiles: names Typst does not know become upright text.
"""

from __future__ import annotations

import contextlib
import contextvars
import re
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass, field

__all__ = ["declared_names", "notation_of", "parse", "to_mathtext", "to_typst",
           "to_typst_math"]

GREEK = frozenset(
    "alpha beta gamma delta epsilon varepsilon zeta eta theta vartheta iota kappa lambda mu "
    "nu xi pi rho sigma tau upsilon phi varphi chi psi omega Gamma Delta Theta Lambda Xi Pi "
    "Sigma Upsilon Phi Psi Omega".split()
)
_TYPST_GREEK = {"varepsilon": "epsilon", "vartheta": "theta.alt", "varphi": "phi.alt"}
_ALIAS = {"eps": "epsilon", "varepsilon": "epsilon", "grad": "nabla", "nabla": "nabla",
          "lam": "lambda", "lamda": "lambda"}
_OPERATORS = frozenset("ln log exp sum prod lim det".split())
_LIMIT_OPS = frozenset("min max sup inf argmin argmax".split())  # math only before ( { _
_FUNCTIONS = frozenset("sqrt ceil floor".split())  # take their parenthesised argument
_UPRIGHT = {"KL": "KL", "Tr": "Tr", "tr": "tr", "diag": "diag", "Diag": "Diag", "rank": "rank",
            "var": "Var", "Var": "Var", "Cov": "Cov"}
_ACCENTS = {"hat": "hat", "bar": "overline", "tilde": "tilde"}
_SUB_WORDS = frozenset(
    "eff max min sup inf loc glob tot opt avg lb ub LB UB mc th".split()
)
# A subscript run of these letters is a list of indices (b_ij, alpha_ik); other runs are a
# word (sigma_suf, psi_bin, T_lo, D_KL).
_INDEX_LETTERS = frozenset("ijklmnpqrstuvw")
_RELATIONS = frozenset(("<=", ">=", "!=", "->", "=>", "<<", ">>", "<~", ">~"))
_INFINITY = frozenset(("inf", "infinity", "oo"))
_PLACEHOLDERS = {".": ("dot.c", r"\cdot "), "\u00b7": ("dot.c", r"\cdot "),
                 "\u2026": ("dots.h", r"\ldots ")}  # f(.), ||.||, sqrt(…)
# Combining accents after a letter (Ω̃, Õ once decomposed).
_COMBINING = {"\u0302": "hat", "\u0303": "tilde", "\u0304": "overline", "\u0305": "overline"}
_STOPWORDS = frozenset(
    "a an as at be by do eg et al go he ie if in is it me my no of ok on or so to up us "
    "vs we eq".split()
)
_OPEN = {"(": ")", "[": "]", "{": "}"}
_CLOSE = {")": "(", "]": "[", "}": "{"}
_OPS = ("<=", ">=", "!=", "->", "=>", "==", "||", "<<", ">>", "<~", ">~", "<", ">", "=", "+",
        "-", "*", "/", "|", "~", ":", "!")


# ------------------------------------------------------------------ declared constant names
_CURRENT_PAPER: contextvars.ContextVar[str | None] = contextvars.ContextVar(
    "plainmath_paper", default=None)
_DECLARED_CACHE: dict[tuple[str | None, int], dict[str, tuple[str, str]]] = {}
# A declared rendering is used in prose only when it is a symbol (a letter, a Greek letter,
# cal(X), an accent, with sub- and superscripts): not an expression (norm(u)^2, f(v), a sum).
_SYMBOL_OPENERS = re.compile(r"(?:_|\^|cal|hat|overline|tilde|bb)$")
_ENGLISH_LIKE = re.compile(r"[a-z]{5,}")  # "clusters": a parameter name, and an English word


def _symbol_like(typst: str) -> bool:
    if not typst or re.search(r"[\s|\[\]]", typst):
        return False
    return all(_SYMBOL_OPENERS.search(typst[:j]) for j, ch in enumerate(typst) if ch == "(")


def declared_names(paper: str | None) -> dict[str, tuple[str, str]]:
    """``name -> (typst, latex)`` for the constants ``paper`` declares (and the shared core)
    whose rendering is a symbol: ``L1 -> ("L_1", "L_1")``, ``epsG -> ("epsilon_G", ...)``.

    Without a paper: the core constants only (a name means different things in different
    papers: scott2024's C2 is an equation label, hanzely2023's a constant)."""
    from pflbounds.symbolic.constants import all_constants

    consts = all_constants(paper)
    key = (paper, len(consts))
    if key not in _DECLARED_CACHE:
        table = {}
        for name, c in consts.items():
            if len(name) < 2 or _ENGLISH_LIKE.fullmatch(name) or not _symbol_like(c.typst):
                continue
            latex = c.latex if c.latex and not re.search(r"\s", c.latex) else ""
            table[name] = (c.typst, latex)
        _DECLARED_CACHE[key] = table
    return _DECLARED_CACHE[key]


@contextlib.contextmanager
def notation_of(paper: str | None) -> Iterator[None]:
    """Typeset with ``paper``'s constant names (the default of ``paper=`` inside the block)."""
    token = _CURRENT_PAPER.set(paper)
    try:
        yield
    finally:
        _CURRENT_PAPER.reset(token)


def current_paper() -> str | None:
    """The paper whose constant names are in use (:func:`notation_of`), or None."""
    return _CURRENT_PAPER.get()


def _names(paper: str | None) -> dict[str, tuple[str, str]]:
    paper = paper if paper is not None else _CURRENT_PAPER.get()
    return declared_names(paper)


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
_CAL = re.compile(r"[A-Z]cal")
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


def _is_word(s: str) -> bool:
    """A prose word (not notation), judged on its own."""
    if s in GREEK or s in _ALIAS or s in _OPERATORS or s in _FUNCTIONS or s in _UPRIGHT \
            or s in _LIMIT_OPS or _CAL.fullmatch(s):
        return False
    if len(s) == 1:
        return s == "a"
    if len(s) == 2 and s.lower() not in _STOPWORDS and not s.isupper():
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
    if run in GREEK or run in _ALIAS:
        return Atom(run, "ident")
    letters = run.rstrip("0123456789")
    if letters in GREEK or letters in _ALIAS:
        digits = run[len(letters):]
        return Atom(letters, "ident", sup=[Atom("2", "num")]) if digits == "2" else \
            Atom(letters, "ident", sub=[Atom(digits, "num")])
    if run in _SUB_WORDS or len(run) > 3 or run.isalpha() and not set(run) <= _INDEX_LETTERS:
        return Tok("word", run)
    return Tok("indices", run)


def _quotes(text: str) -> str:
    """ASCII quotation marks as typographic ones, so that a closing quote is not a prime."""
    return _QUOTED.sub(lambda m: "\u2018" + m.group(1) + "\u2019", text)


def _unicode_symbol(run: str) -> Atom | None:
    """A standalone Greek letter or accented letter (``Ω``, ``Ω̃``, ``Õ``) as an atom."""
    parts = unicodedata.normalize("NFD", run)
    base, marks = parts[:1], parts[1:]
    if len(marks) > 1 or (marks and marks not in _COMBINING):
        return None
    accent = _COMBINING.get(marks, "")
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
    greek = letters in GREEK or letters in _ALIAS
    wordy = (digits and not (greek or (len(letters) == 1 and letters.islower()))) or (
        len(letters) > 2 and _is_word(letters))
    pair = len(letters) == 2 and not digits and not greek and not _is_word(letters)
    decl = _declared_at(text, start, names) if (wordy or pair) else None
    accented = _ACCENTED.fullmatch(word)
    if decl is not None:
        atom = Atom(decl[0], "decl", decl=names[decl[0]])
        i = decl[1]
    elif accented and (accented.group(1) in GREEK or accented.group(1) in _ALIAS or (
            len(accented.group(1)) == 1 and accented.group(2) != "hat")):
        atom = Atom(accented.group(1), "ident", accent=_ACCENTS[accented.group(2)])
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
        if text[i] == "_" and name in _ACCENTS and not atom.accent:
            atom.accent = _ACCENTS[name]
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


def _scan(text: str, names: dict) -> list:
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
        elif ch in _OPEN:
            out.append(Tok("open", ch))
            i += 1
        elif ch in _CLOSE:
            out.append(Tok("close", ch))
            i += 1
        else:
            op = next((o for o in _OPS if text.startswith(o, i)), None)
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


def _nest(tokens: list) -> list:
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
                o == _CLOSE[t.text] for o, _ in stack[1:]):
            while stack[-1][0] != _CLOSE[t.text]:  # an unclosed < or || inside: tokens
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
        if isinstance(x, Tok) and x.kind == "word" and x.text in _ACCENTS and isinstance(
                out[k], Tok) and out[k].kind == "ws" and isinstance(nxt, Atom) \
                and nxt.kind == "ident" and not nxt.accent and _strength(nxt, None) == "S":
            nxt.accent = _ACCENTS[x.text]
            del out[k - 1 : k + 1]
    solid = [k for k, x in enumerate(out) if not (isinstance(x, Tok) and x.kind == "ws")]
    for pos, k in enumerate(solid):
        x = out[k]
        prev = out[solid[pos - 1]] if pos else None
        nxt = out[solid[pos + 1]] if pos + 1 < len(solid) else None
        if in_group and isinstance(x, Tok) and x.kind == "punct" and x.text in _PLACEHOLDERS:
            if all(y is None or isinstance(y, Tok) and y.text == "," for y in (prev, nxt)):
                out[k] = Tok("placeholder", x.text)
        elif isinstance(prev, Tok) and prev.kind == "op" and prev.text in (
                *_RELATIONS, "=", "<", ">", "-", "+") and (
                isinstance(x, Tok) and x.kind == "word" and x.text == "infinity"
                or isinstance(x, Atom) and x.kind == "ident" and x.base in _INFINITY
                and not (x.sub or x.sup or x.accent) and not isinstance(nxt, Group)):
            out[k] = Atom("oo", "ident")
    return out


def _math_items(text: str, names: dict) -> list:
    """Items of a text that is math throughout (inside a script)."""
    return _nest(_scan(text, names))


# ------------------------------------------------------------------------- classification
def _strength(item, nxt) -> str:
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
        if b in _LIMIT_OPS:
            return "S" if isinstance(nxt, Group) else "P"
        return "P" if _is_word(b) else "S"
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
        nxt = _next(items, k)
        s = _strength(it, nxt)
        if s == "P":
            if isinstance(it, Tok) and it.kind == "punct" and it.text in ",;.'":
                continue
            if isinstance(it, Atom) and it.base == "a":
                article = True  # (1 - eta a): the symbol a, if nothing else is prose
                continue
            return False
        kinds.add(s)
    return "S" in kinds if article else ("S" in kinds or "W" in kinds)


def _next(items: list, k: int):
    for it in items[k + 1 :]:
        if not (isinstance(it, Tok) and it.kind == "ws"):
            return it
    return None


def _is_hyphen(items: list, k: int) -> bool:
    """A ``-``, ``/`` or ``|`` glued to a prose word (``mu-strongly``, ``measured/bound``,
    ``|residual|``), or a ``-`` between numbers (``1.1-1.6``)."""
    t = items[k]
    if not (isinstance(t, Tok) and t.kind == "op" and t.text in ("-", "/", "|", "=")):
        return False
    if t.text in "|=":
        near = [items[j] for j in (k - 1, k + 1) if 0 <= j < len(items)]
        return any(isinstance(x, (Tok, Atom)) and not (isinstance(x, Tok) and x.kind == "ws")
                   and _strength(x, None) == "P" for x in near)
    if k == 0 or k + 1 >= len(items):
        return False
    left, right = items[k - 1], items[k + 1]
    if isinstance(left, Tok) and left.kind == "ws" or isinstance(right, Tok) \
            and right.kind == "ws":
        return False
    words = [x for x in (left, right) if isinstance(x, (Tok, Atom))
             and _strength(x, None) == "P"]
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
    nxt = _next(items, k)
    return isinstance(nxt, Tok) and nxt.kind == "word" and nxt.text[:1].islower() or (
        isinstance(nxt, Atom) and nxt.base.islower() and _is_word(nxt.base))


def parse(text: str, paper: str | None = None) -> list[tuple[str, object]]:
    """Segments ``("text", str)`` and ``("math", items)`` of a plain-notation text, with the
    constant names ``paper`` declares (default: the paper of :func:`notation_of`)."""
    text = _quotes(unicodedata.normalize("NFC", str(text)))
    return _segments(_nest(_scan(text, _names(paper))))


def _segments(items: list) -> list[tuple[str, object]]:
    marks = []
    for k, it in enumerate(items):
        s = _strength(it, _next(items, k))
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
                x.text in _RELATIONS or x.text in "<>") for x in run)
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
        s += "_" + {v: k for k, v in _ACCENTS.items()}[a.accent]
    if a.sub:
        s += "_{" + _plain(a.sub) + "}"
    if a.sup:
        s += "^{" + _plain(a.sup) + "}"
    return s + "'" * a.primes


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
    if b in _ALIAS:
        return _ALIAS[b]
    if b in GREEK:
        return _TYPST_GREEK.get(b, b)
    if b == "E" and isinstance(nxt, Group) and nxt.open in ("[", "||", "<"):
        return "EE"
    if b == "P" and isinstance(nxt, Group) and nxt.open == "(" and not a.sub:
        return "PP"
    if b in ("oo", "in"):
        return b  # infinity, element of
    if b == "O" and not (a.sub or a.sup) and (
            a.accent == "tilde" or isinstance(nxt, Group) and nxt.open == "("):
        return "cal(O)"  # O(1/K), O~(kappa): the printers' calligraphic O
    if b in _OPERATORS or b in _FUNCTIONS or b in _LIMIT_OPS - {"argmin", "argmax"}:
        return b
    if b in ("argmin", "argmax"):
        return f'op("{b[:3]} {b[3:]}", limits: #true)'
    if b in _UPRIGHT:
        return f'op("{_UPRIGHT[b]}")'
    if _CAL.fullmatch(b):
        return f"cal({b[0]})"
    if len(b) == 1:
        return b
    if len(b) == 2 and not b.isupper() and b.lower() not in _STOPWORDS:
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
            after = _next(items, k)
            if it.kind == "ident" and it.base == "sqrt" and isinstance(after, Atom):
                parts.append(f" sqrt({_typst_atom(after, None)})")  # sqrt e
                skip.add(items.index(after, k + 1))
                continue
            if it.kind == "ident" and it.base in _FUNCTIONS and not isinstance(nxt, Group):
                parts.append(" " + _typst_quote(it.base))
                continue
            parts.append((" " if parts else "") + _typst_atom(it, _next(items, k)))
        elif it.kind == "ws":
            continue
        elif it.kind == "op":
            parts.append(" " + _TYPST_OPS.get(it.text, it.text))
        elif it.kind == "indices":
            parts.append(" " + " ".join(it.text))
        elif it.kind == "placeholder":
            parts.append(" " + _PLACEHOLDERS[it.text][0])
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
    if b in _ALIAS:
        return r"\varepsilon" if _ALIAS[b] == "epsilon" else "\\" + _ALIAS[b]
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
    if b in _OPERATORS or b in _LIMIT_OPS - {"argmin", "argmax"}:
        return "\\" + b
    if b in _UPRIGHT or b in ("argmin", "argmax"):
        return _mt_rm(_UPRIGHT.get(b, b))
    if _CAL.fullmatch(b):
        return r"\mathcal{" + b[0] + "}"
    if len(b) == 1:
        return b
    if len(b) == 2 and not b.isupper() and b.lower() not in _STOPWORDS:
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
            if it.kind == "ident" and it.base in _FUNCTIONS and isinstance(nxt, Group):
                parts.append(it.base)
            elif k in skip:
                continue
            elif it.kind == "ident" and it.base == "sqrt" and isinstance(_next(items, k), Atom):
                after = _next(items, k)
                parts.append(r"\sqrt{" + _mt_atom(after, None) + "}")  # sqrt e
                skip.add(items.index(after, k + 1))
            else:
                atom = _mt_atom(it, _next(items, k))
                parts.append(atom + " " if atom[-1:].isalpha() and "\\" in atom else atom)
        elif it.kind == "ws":
            parts.append(" ")
        elif it.kind == "op":
            op = _MT_OPS.get(it.text, it.text)
            parts.append(op + " " if op[-1:].isalpha() else op)
        elif it.kind == "indices":
            parts.append(it.text)
        elif it.kind == "placeholder":
            parts.append(_PLACEHOLDERS[it.text][1])
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
