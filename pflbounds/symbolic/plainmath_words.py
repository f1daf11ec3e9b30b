"""The vocabulary of the plain notation (:mod:`pflbounds.symbolic.plainmath`): Greek
letters, operators, accents, index letters, relations; and the constant names a paper declares."""

from __future__ import annotations

import contextlib
import contextvars
import re
from collections.abc import Iterator

GREEK = frozenset(
    "alpha beta gamma delta epsilon varepsilon zeta eta theta vartheta iota kappa lambda mu "
    "nu xi pi rho sigma tau upsilon phi varphi chi psi omega Gamma Delta Theta Lambda Xi Pi "
    "Sigma Upsilon Phi Psi Omega".split()
)
TYPST_GREEK = {"varepsilon": "epsilon", "vartheta": "theta.alt", "varphi": "phi.alt"}
ALIAS = {"eps": "epsilon", "varepsilon": "epsilon", "grad": "nabla", "nabla": "nabla",
          "lam": "lambda", "lamda": "lambda"}
OPERATORS = frozenset("ln log exp sum prod lim det".split())
LIMIT_OPS = frozenset("min max sup inf argmin argmax".split())  # math only before ( { _
FUNCTIONS = frozenset("sqrt ceil floor".split())  # take their parenthesised argument
UPRIGHT = {"KL": "KL", "Tr": "Tr", "tr": "tr", "diag": "diag", "Diag": "Diag", "rank": "rank",
            "var": "Var", "Var": "Var", "Cov": "Cov"}
ACCENTS = {"hat": "hat", "bar": "overline", "tilde": "tilde"}
SUB_WORDS = frozenset(
    "eff max min sup inf loc glob tot opt avg lb ub LB UB mc th".split()
)
# A subscript run of these letters is a list of indices (b_ij, alpha_ik); other runs are a
# word (sigma_suf, psi_bin, T_lo, D_KL).
INDEX_LETTERS = frozenset("ijklmnpqrstuvw")
RELATIONS = frozenset(("<=", ">=", "!=", "->", "=>", "<<", ">>", "<~", ">~"))
INFINITY = frozenset(("inf", "infinity", "oo"))
PLACEHOLDERS = {".": ("dot.c", r"\cdot "), "\u00b7": ("dot.c", r"\cdot "),
                 "\u2026": ("dots.h", r"\ldots ")}  # f(.), ||.||, sqrt(…)
# Combining accents after a letter (Ω̃, Õ once decomposed).
COMBINING = {"\u0302": "hat", "\u0303": "tilde", "\u0304": "overline", "\u0305": "overline"}
STOPWORDS = frozenset(
    "a an as at be by do eg et al go he ie if in is it me my no of ok on or so to up us "
    "vs we eq".split()
)
OPEN = {"(": ")", "[": "]", "{": "}"}
CLOSE = {")": "(", "]": "[", "}": "{"}
OPS = ("<=", ">=", "!=", "->", "=>", "==", "||", "<<", ">>", "<~", ">~", "<", ">", "=", "+",
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


def paper_names(paper: str | None) -> dict[str, tuple[str, str]]:
    paper = paper if paper is not None else _CURRENT_PAPER.get()
    return declared_names(paper)
