"""Named constants: sympy symbol, domain, meaning and unit, scoped by paper.

A small *core* of constants means the same thing in every paper (``mu``, ``L``, ``sigma2``,
``eta``, ``K``, ``N``, ``T``, ``d``, ``eps``, ``Delta0``, ``F0``). Everything else is declared by
a paper and keyed by ``(paper, name)``: two papers may use the same letter for different
things (even2022's bias factor ``B`` and a minibatch size ``B``), and a paper may give a core
name its own meaning (its own ``L``). Lookups take the paper: the paper's own declaration wins,
then the core. Declaring a name again in the same scope must agree on unit and domain.
Input names on the command line stay the paper's own symbols.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import sympy as sp

from pflbounds.shown import shown
from pflbounds.symbolic.units import Unit

DOMAINS = {
    "positive": "a number > 0",
    "nonnegative": "a number >= 0",
    "positive_integer": "an integer >= 1",
    "nonnegative_integer": "an integer >= 0",
    "unit_interval": "a number in [0, 1]",
    "at_least_one": "a number >= 1",
    "real": "a real number",
}
CORE = ""
"""The scope of the shared core constants."""


@dataclass(frozen=True)
class Constant:
    """A named scalar input of the theory."""

    name: str
    meaning: str
    unit: Unit
    domain: str = "positive"
    latex: str = ""
    typst: str = ""
    paper: str = CORE
    """The declaring paper (``""`` for the shared core)."""
    symbol: sp.Symbol = field(init=False, compare=False)

    def __post_init__(self) -> None:
        if self.domain not in DOMAINS:
            raise ValueError(f"unknown domain {self.domain!r} for constant {self.name}")
        assumptions: dict[str, bool] = {}
        if self.domain in ("positive", "positive_integer", "at_least_one"):
            assumptions["positive"] = True
        if self.domain in ("nonnegative", "nonnegative_integer", "unit_interval"):
            assumptions["nonnegative"] = True
        if self.domain.endswith("integer"):
            assumptions["integer"] = True
        if self.domain != "real":
            assumptions["real"] = True
        object.__setattr__(self, "symbol", sp.Symbol(self.name, **assumptions))

    @property
    def integer(self) -> bool:
        return self.domain.endswith("integer")

    def check_value(self, value: np.ndarray | float) -> None:
        """Raise ``ValueError`` naming the constant if ``value`` is outside its domain."""
        arr = np.asarray(value, dtype=float)
        bad = ~np.isfinite(arr)
        if self.domain in ("positive", "positive_integer"):
            bad |= arr <= 0
        elif self.domain in ("nonnegative", "nonnegative_integer"):
            bad |= arr < 0
        elif self.domain == "unit_interval":
            bad |= (arr < 0) | (arr > 1)
        elif self.domain == "at_least_one":  # computed values may round to just below 1
            bad |= arr < 1 - 1e-12
        if self.integer:
            bad |= arr != np.round(arr)
        if np.any(bad):
            first = arr[bad].flat[0]
            raise ValueError(
                f"{self.name}={shown(first)} is outside its domain: expected "
                f"{DOMAINS[self.domain]} ({self.meaning})"
            )


_CORE: dict[str, Constant] = {}
_PAPER: dict[tuple[str, str], Constant] = {}


def constant(
    name: str,
    meaning: str,
    unit: str | Unit,
    domain: str = "positive",
    latex: str = "",
    typst: str = "",
    *,
    paper: str | None = None,
) -> sp.Symbol:
    """Declare (or look up) a constant and return its sympy symbol.

    ``paper=None`` declares a core constant (shared by every paper); otherwise the constant
    belongs to ``paper`` only and may reuse a name that another paper, or the core, uses.
    """
    scope = paper or CORE
    u = Unit.parse(unit) if isinstance(unit, str) else unit
    c = Constant(name, meaning, u, domain, latex, typst, scope)
    table_key = (scope, name)
    old = _CORE.get(name) if scope == CORE else _PAPER.get(table_key)
    if old is not None:
        if old.unit != c.unit or old.domain != c.domain:
            where = "the core" if scope == CORE else f"paper {scope}"
            raise ValueError(
                f"constant {name} declared twice in {where} with different unit or domain: "
                f"{old.unit}/{old.domain} vs {c.unit}/{c.domain}"
            )
        return old.symbol
    if scope == CORE:
        _CORE[name] = c
    else:
        _PAPER[table_key] = c
    return c.symbol


def find_constant(name: str, paper: str | None = None) -> Constant | None:
    """The constant ``name`` as ``paper`` sees it (its own, else the core), or None."""
    if paper:
        own = _PAPER.get((paper, name))
        if own is not None:
            return own
    return _CORE.get(name)


def get_constant(name: str, paper: str | None = None) -> Constant:
    """The constant ``name`` as ``paper`` sees it; ``KeyError`` listing the known names."""
    c = find_constant(name, paper)
    if c is None:
        known = ", ".join(sorted(all_constants(paper)))
        scope = f"paper {paper}" if paper else "the core"
        raise KeyError(f"unknown constant {name!r} for {scope}; known: {known}")
    return c


def all_constants(paper: str | None = None) -> dict[str, Constant]:
    """Every constant ``paper`` sees, by name (the core, overridden by the paper's own)."""
    out = dict(_CORE)
    if paper:
        out.update({n: c for (p, n), c in _PAPER.items() if p == paper})
    return out


def paper_constants(paper: str) -> dict[str, Constant]:
    """The constants declared by ``paper`` itself, by name."""
    return {n: c for (p, n), c in _PAPER.items() if p == paper}


def forget_paper_constants(paper: str) -> None:
    """Remove the constants declared by ``paper`` (tests that load a paper temporarily)."""
    for key in [k for k in _PAPER if k[0] == paper]:
        del _PAPER[key]


def units_of(symbols: set[sp.Symbol], paper: str | None = None) -> dict[sp.Symbol, Unit]:
    """Unit of each symbol, as ``paper`` declares it."""
    return {s: get_constant(s.name, paper).unit for s in symbols}


# ---------------------------------------------------------------------------------------
# The core: constants that mean the same thing in every paper (names follow the digests).
# ---------------------------------------------------------------------------------------
mu = constant("mu", "strong-convexity constant", "f/x^2", latex=r"\mu", typst="mu")
L = constant("L", "smoothness constant", "f/x^2", latex="L", typst="L")
sigma2 = constant(
    "sigma2", "bound on the stochastic-gradient noise variance", "f^2/x^2", "nonnegative",
    latex=r"\sigma^2", typst="sigma^2",
)
eta = constant("eta", "step size", "x^2/f", latex=r"\eta", typst="eta")
K = constant(
    "K", "number of oracle calls (iterations)", "1", "positive_integer", latex="K", typst="K"
)
N = constant("N", "number of agents", "1", "positive_integer", latex="N", typst="N")
T = constant(
    "T", "number of stochastic-gradient steps", "1", "positive_integer", latex="T", typst="T"
)
d = constant("d", "model dimension", "1", "positive_integer", latex="d", typst="d")
eps = constant(
    "eps", "target precision on function values", "f", latex=r"\varepsilon", typst="epsilon"
)
Delta0 = constant(
    "Delta0", "initial excess error f(x^0) - f^*", "f", "nonnegative",
    latex=r"\Delta_0", typst="Delta_0",
)
F0 = constant(
    "F0", "initial averaged excess error F^0", "f", "nonnegative", latex="F^0", typst="F^0"
)
kappa = L / mu
