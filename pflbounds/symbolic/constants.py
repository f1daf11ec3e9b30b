"""Named constants: sympy symbol, domain, meaning and unit.

Constants are shared across papers by name (``mu`` means the strong-convexity constant in
every paper). A paper may declare extra constants with :func:`constant`; declaring an
existing name again must agree on unit and domain.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import sympy as sp

from pflbounds.symbolic.units import Unit

DOMAINS = {
    "positive": "a number > 0",
    "nonnegative": "a number >= 0",
    "positive_integer": "an integer >= 1",
    "nonnegative_integer": "an integer >= 0",
    "unit_interval": "a number in [0, 1]",
    "real": "a real number",
}


@dataclass(frozen=True)
class Constant:
    """A named scalar input of the theory."""

    name: str
    meaning: str
    unit: Unit
    domain: str = "positive"
    latex: str = ""
    typst: str = ""
    symbol: sp.Symbol = field(init=False, compare=False)

    def __post_init__(self) -> None:
        if self.domain not in DOMAINS:
            raise ValueError(f"unknown domain {self.domain!r} for constant {self.name}")
        assumptions: dict[str, bool] = {}
        if self.domain in ("positive", "positive_integer"):
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
        if self.integer:
            bad |= arr != np.round(arr)
        if np.any(bad):
            first = arr[bad].flat[0]
            raise ValueError(
                f"{self.name}={first:g} is outside its domain: expected "
                f"{DOMAINS[self.domain]} ({self.meaning})"
            )


_TABLE: dict[str, Constant] = {}


def constant(
    name: str,
    meaning: str,
    unit: str | Unit,
    domain: str = "positive",
    latex: str = "",
    typst: str = "",
) -> sp.Symbol:
    """Declare (or look up) a constant and return its sympy symbol."""
    u = Unit.parse(unit) if isinstance(unit, str) else unit
    c = Constant(name, meaning, u, domain, latex, typst)
    old = _TABLE.get(name)
    if old is not None:
        if old.unit != c.unit or old.domain != c.domain:
            raise ValueError(
                f"constant {name} declared twice with different unit or domain: "
                f"{old.unit}/{old.domain} vs {c.unit}/{c.domain}"
            )
        return old.symbol
    _TABLE[name] = c
    return c.symbol


def get_constant(name: str) -> Constant:
    try:
        return _TABLE[name]
    except KeyError:
        raise KeyError(f"unknown constant {name!r}; known: {', '.join(sorted(_TABLE))}") from None


def all_constants() -> dict[str, Constant]:
    return dict(_TABLE)


def units_of(symbols: set[sp.Symbol]) -> dict[sp.Symbol, Unit]:
    return {s: get_constant(s.name).unit for s in symbols}


# ---------------------------------------------------------------------------------------
# Constants shared by the papers (names follow the digests).
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
