"""P12 (digest §7): Table 3's simplified cells against the generic formulas of Theorems 7-8
with each objective's constants, up to constant factors (symbolic engine: the catalog only).

Measured per cell: the largest of regenerated/printed and printed/regenerated over log-uniform
random constants (in the cell's regime where the table drops a '+ lambda'); bound: 4 (a
constant factor). The blank MX2 cell is left out; the Fed Residual cells that divide by mu'
are the erratum check E_table3_residual.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import sympy as sp

from pflbounds.checking import Check, CheckKind, Verdict
from pflbounds.papers.hanzely2023.checks.common import P
from pflbounds.papers.hanzely2023.checks.maps import plot_table3
from pflbounds.papers.hanzely2023.generic import TABLE3_COLUMNS
from pflbounds.papers.hanzely2023.table3 import PRINTED, TABLE3, regenerated
from pflbounds.papers.hanzely2023.table3_compare import BAND, ERRATUM, compare_cell
from pflbounds.reporting.figure_specs import Plot
from pflbounds.symbolic.evaluate import numeric


def _cells(key: str) -> list[str]:
    return [c for c in TABLE3_COLUMNS
            if c in PRINTED[key] and (key, c) not in ERRATUM]


def simulate_p12(p: Mapping[str, Any], R: int, seed) -> dict:
    spreads = []
    for col in _cells(p["objective"]):
        cell = compare_cell(p["objective"], col)
        lo = 1.0 if cell.low is None else cell.low
        hi = 1.0 if cell.high is None else cell.high
        spreads.append(max(hi, 1 / lo))
    return {"ks": np.arange(len(spreads), dtype=float), "mean": np.array(spreads),
            "bound": np.full(len(spreads), BAND)}


def simulate_residual(p: Mapping[str, Any], R: int, seed) -> dict:
    """Generic count (Theorem 8 with mu) against BAND x the printed cell (mu') and BAND x the
    corrected cell, at log-uniform (mu, mu', Lcal_R, n)."""
    rng = np.random.default_rng(seed)
    vals = {k: 10 ** rng.uniform(-3, 3, 200) for k in ("mu", "mup", "LcwR", "LcbR")}
    vals["n"] = np.round(10 ** rng.uniform(0, 4, 200))
    regen = regenerated("residual")
    corrected = TABLE3["residual"].form("corrected").parts
    meas, bp, bc = [], [], []
    for col in ("grad_w_i", "grad_beta_i"):
        meas.append(numeric(regen[col], vals))
        bp.append(BAND * numeric(PRINTED["residual"][col], vals))
        bc.append(BAND * numeric(sp.sympify(corrected[col]).args[0], vals))
    return {"ks": np.arange(400, dtype=float), "mean": np.concatenate(meas),
            "bound_printed": np.concatenate(bp), "bound_corrected": np.concatenate(bc)}


CHECKS = [
    Check(P + "P12", "Table 3 agrees with Theorems 7-8 and the constants, up to constants",
          CheckKind.BOUND_HOLDS, Verdict.HOLDS, simulate_p12,
          grid=tuple({"objective": k} for k in PRINTED),
          quick_grid=({"objective": "mt2"}, {"objective": "mx2"}), engine="symbolic",
          result_id=P + "table3_mt2", form="printed", plot=plot_table3,
          description="Per cell, max(regenerated/printed, printed/regenerated) over random "
          "constants (MT2 cells on lambda <= Lambda L' or lambda <= L'); blank and erratum "
          "cells left out.", xlabel="cell of the row", ylabel="largest ratio"),
    Check(P + "E_table3_residual", "Table 3's Fed Residual finite-sum cells use mu' for mu",
          CheckKind.ERRATUM, Verdict.CONFIRMED, simulate_residual, grid=({"draws": 200},),
          engine="symbolic", result_id=P + "table3_residual", form="corrected",
          plot=Plot("scatter"),
          xlabel="random point (grad_w F_i, then grad_beta F_i)", ylabel="count"),
]
