"""Method comparison for even2022: oracle calls and gradients to reach eps.

Methods: no collaboration (local SGD, Lemma 6 corrected), AFO (Theorem 2 explicit), AFA
(Corollary 1, printed and corrected), and the lower bound (Theorem 1, hidden constant) twice:
as printed (neighbours b_ij^2 <= 4 mu eps, with mu = 1/r^2) and on the consistent hard
instance of its proof (b_ij^2 < 36 mu eps).
One oracle call is one sample per agent; AFO evaluates N gradients per agent per call
(every agent's model), AFA and local SGD one.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from pflbounds.papers.even2022.theory.afo import THEOREM2_PART2
from pflbounds.papers.even2022.theory.lower_bound import THEOREM1
from pflbounds.papers.even2022.theory.oracle_weights import COROLLARY1
from pflbounds.papers.even2022.theory.sgd import LEMMA6_EPS
from pflbounds.symbolic.catalog import get
from pflbounds.symbolic.complexity import (
    ComplexityRow,
    ComplexityTable,
    accepted_inputs,
    check_inputs,
    evaluate_row,
)

PAPER = "even2022"
_METHODS = [
    ("no collaboration (SGD)", "sgd", LEMMA6_EPS.id, "corrected", "per_agent"),
    ("AFO / WGA", "afo", THEOREM2_PART2.id, "explicit", "N_per_agent"),
    ("AFA (printed)", "afa", COROLLARY1.id, "printed", "per_agent"),
    ("AFA (corrected)", "afa", COROLLARY1.id, "corrected", "per_agent"),
    ("lower bound (as printed: b^2 <= 4 mu eps)", "lower", THEOREM1.id, "printed", "none"),
    ("lower bound (consistent instance: b^2 < 36 mu eps)", "lower", THEOREM1.id, "corrected",
     "none"),
]
"""(method, algorithm, result id, form, gradients per oracle call) of each row."""
OWN_INPUTS = ("N", "F0", "Delta0", "r")
"""Inputs the table reads besides those of its forms: N (gradients per call), F0 and Delta0
(each stands for the other), r (Theorem 1 as printed sets mu = 1/r^2)."""


def _n_agents(values: Mapping[str, Any], matrices: Mapping[str, Any]) -> float | None:
    if "N" in values:
        return float(values["N"])
    for m in matrices.values():
        return float(np.asarray(m).shape[0])
    return None


def table(values: Mapping[str, Any], matrices: Mapping[str, Any], *, objective=None,
          algorithm=None) -> ComplexityTable:
    """Oracle calls and gradients of each method to reach eps (see the module docstring)."""
    if objective is not None:
        raise KeyError("even2022 has a single objective (each agent's own f_i); "
                       "omit --objective")
    algos = sorted({m[1] for m in _METHODS})
    if algorithm is not None and algorithm not in algos:
        raise KeyError(f"unknown algorithm {algorithm!r} for even2022; choose from "
                       f"{', '.join(algos)}")
    if "T" in values:
        raise KeyError("give eps, not T: the table solves for the number of steps")
    check_inputs(PAPER, values, accepted_inputs((m[2], m[3]) for m in _METHODS)
                 | set(OWN_INPUTS))
    vals = dict(values)
    if "Delta0" in vals and "F0" not in vals:
        vals["F0"] = vals["Delta0"]
    if "F0" in vals and "Delta0" not in vals:
        vals["Delta0"] = vals["F0"]
    if "mu" in vals and "r" not in vals:  # Theorem 1 sets mu = L = 1/r^2
        vals["r"] = 1.0 / np.sqrt(vals["mu"])
    n = _n_agents(vals, matrices)
    rows = []
    for method, algo, rid, form, cost in _METHODS:
        if algorithm is not None and algo != algorithm:
            continue
        row = ComplexityRow(method, algo, rid, form)
        value = evaluate_row(row, vals, matrices)
        if value is None:
            row.counts = {"oracle_calls": None, "gradients": None}
        else:
            calls = np.asarray(value, dtype=float)
            per_call = {"per_agent": n, "N_per_agent": None if n is None else n * n,
                        "none": n}[cost]
            worst = float(np.max(calls))
            row.counts = {"oracle_calls": calls if calls.ndim else float(calls),
                          "gradients": None if per_call is None else worst * per_call}
            row.extra["gradients_per_call"] = per_call
            if calls.ndim:
                row.note = "per agent; gradients use the worst agent"
        rows.append(row)
    for row in rows:  # a printed form with a known erratum is shown but not recommended
        has_fix = "corrected" in get(row.result).forms
        row.guaranteed = not (row.form == "printed" and has_fix)
    out = ComplexityTable(
        PAPER, "oracle calls and gradients to reach an error eps", rows,
        cheapest_by="gradients",
        notes=["oracle calls: samples per agent; gradients: total gradient evaluations",
               "the lower bound hides an unspecified constant (Omega)",
               "printed forms with an erratum are listed for comparison, not recommended"])
    out.cheapest = out.fewest("gradients")
    return out
