"""Table 3 regenerated: each printed cell against the generic formula with the objective's
constants substituted (:func:`pflbounds.papers.hanzely2023.table3.regenerated`).

A cell *agrees* when the ratio regenerated/printed is a constant (the table drops constants),
or, where the table also drops lower-order terms, stays within a constant band on the regime
where those terms are small (MT2: lambda <= Lambda L', lambda <= L'). The ratio is computed
symbolically and measured on log-uniform random points (a fixed seed), so that a ratio that
sympy cannot simplify is still classified. For the finite-sum columns, n + X against n + Y,
the ratio is that of the square-root terms X/Y. A blank cell and a ratio that depends on the
constants outside any stated regime (the Fed Residual mu' for mu) are disagreements.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

import numpy as np
import sympy as sp

from pflbounds.papers.hanzely2023.generic import TABLE3_COLUMNS, TABLE3_HEADERS
from pflbounds.papers.hanzely2023.objectives import OBJECTIVES
from pflbounds.papers.hanzely2023.symbols import Lam, Lcp, Lp, lam, n
from pflbounds.papers.hanzely2023.table3 import PRINTED, regenerated
from pflbounds.symbolic.evaluate import numeric

REGIMES: dict[tuple[str, str], tuple[str, tuple[sp.Rel, ...]]] = {
    ("mt2", "comm"): ("lambda <= Lambda L'", (sp.Le(lam, Lam * Lp),)),
    ("mt2", "grad_w"): ("lambda <= Lambda L'", (sp.Le(lam, Lam * Lp),)),
    ("mt2", "grad_beta"): ("lambda <= L'", (sp.Le(lam, Lp),)),
    ("mt2", "grad_w_i"): ("lambda <= Lambda Lcal'", (sp.Le(lam, Lam * Lcp),)),
    ("mt2", "grad_beta_i"): ("lambda <= Lcal'", (sp.Le(lam, Lcp),)),
}
"""Cells whose printed form drops a '+ lambda': the regime where that is a constant factor."""
ERRATUM = {("residual", "grad_w_i"): "hanzely2023.erratum4_residual",
           ("residual", "grad_beta_i"): "hanzely2023.erratum4_residual",
           ("mx2", "grad_w_i"): "hanzely2023.erratum4_mx2"}
BAND = 4.0
"""A ratio whose sampled range spans more than this factor is not 'a constant'."""
_SAMPLES = 4000


@dataclass
class Cell:
    """The comparison of one cell of Table 3."""

    objective: str
    column: str
    printed: str | None
    regenerated: str
    ratio: str | None
    verdict: str
    """'equal', 'constant factor', 'agrees in regime', 'blank in the paper' or 'disagrees'."""
    low: float | None = None
    high: float | None = None
    regime: str = ""
    erratum: str = ""

    def to_dict(self) -> dict:
        return asdict(self)


def _core(expr: sp.Expr) -> sp.Expr:
    """The square-root term of n + sqrt(...) (the whole cell otherwise)."""
    return sp.expand(expr - n) if expr.has(n) and (expr - n).has(n) else expr


def _sample(expr: sp.Expr, conditions: tuple[sp.Rel, ...], rng: np.random.Generator
            ) -> np.ndarray:
    """Values of ``expr`` at log-uniform random points (domain-respecting) that satisfy
    ``conditions``."""
    syms = sorted(expr.free_symbols | {s for c in conditions for s in c.free_symbols},
                  key=lambda s: s.name)
    vals = {}
    for s in syms:
        if s.name in ("amax", "amin", "alpha"):
            vals[s.name] = rng.uniform(0.0, 0.95, _SAMPLES)
        else:
            vals[s.name] = 10 ** rng.uniform(-3, 3, _SAMPLES)
    if "amax" in vals and "amin" in vals:
        vals["amax"], vals["amin"] = np.maximum(vals["amax"], vals["amin"]), \
            np.minimum(vals["amax"], vals["amin"])
    keep = np.ones(_SAMPLES, dtype=bool)
    for c in conditions:
        keep &= np.asarray(numeric(c.lhs - c.rhs, vals)) <= 0
    out = np.broadcast_to(np.asarray(numeric(expr, vals), dtype=float), (_SAMPLES,))
    return out[keep]


def compare_cell(key: str, column: str, seed: int = 2023) -> Cell:
    """Compare one cell of Table 3 with its regenerated value."""
    regen = regenerated(key)[column]
    printed = PRINTED[key].get(column)
    erratum = ERRATUM.get((key, column), "")
    if printed is None:
        return Cell(key, column, None, sp.sstr(regen), None, "blank in the paper",
                    erratum=erratum)
    if regen == printed or (regen == 0) != (printed == 0):
        verdict = "equal" if regen == printed else "disagrees"
        return Cell(key, column, sp.sstr(printed), sp.sstr(regen), None, verdict,
                    erratum=erratum)
    num, den = _core(regen), _core(printed)
    rng = np.random.default_rng(seed)
    r = _sample(num / den, (), rng)
    lo, hi = float(r.min()), float(r.max())
    cell = Cell(key, column, sp.sstr(printed), sp.sstr(regen), None, "", lo, hi,
                erratum=erratum)
    if hi <= lo * (1 + 1e-9):
        if abs(lo - 1) <= 1e-9:
            cell.verdict, cell.ratio = "equal", "1"
        else:
            cell.verdict = "constant factor"
            cell.ratio = sp.sstr(sp.nsimplify(lo, [sp.sqrt(2), sp.sqrt(3)], tolerance=1e-9))
        return cell
    cell.ratio = sp.sstr(sp.simplify(num / den))
    if (key, column) in REGIMES:
        label, conds = REGIMES[(key, column)]
        r = _sample(num / den, conds, rng)
        if float(r.max()) <= BAND * float(r.min()):
            cell.verdict, cell.regime = "agrees in regime", label
            cell.low, cell.high = float(r.min()), float(r.max())
            return cell
    cell.verdict = "disagrees"
    return cell


def compare_all(seed: int = 2023) -> list[Cell]:
    """Every cell of Table 3, row by row (the rows of the printed table)."""
    return [compare_cell(k, c, seed) for k in PRINTED for c in TABLE3_COLUMNS]


def summary(cells: list[Cell]) -> dict[str, int]:
    out: dict[str, int] = {}
    for c in cells:
        out[c.verdict] = out.get(c.verdict, 0) + 1
    return out


HEADERS = TABLE3_HEADERS
NAMES = {k: f"{OBJECTIVES[k].name} {OBJECTIVES[k].equation}" for k in PRINTED}
