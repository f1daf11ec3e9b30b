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

from pflbounds.symbolic.catalog import get, register_complexity
from pflbounds.symbolic.evaluate import HypothesisError, InputError, evaluate

_METHODS = [
    ("no collaboration (SGD)", "sgd", "even2022.lemma6_eps", "corrected", "per_agent"),
    ("AFO / WGA", "afo", "even2022.theorem2_part2", "explicit", "N_per_agent"),
    ("AFA (printed)", "afa", "even2022.corollary1", "printed", "per_agent"),
    ("AFA (corrected)", "afa", "even2022.corollary1", "corrected", "per_agent"),
    ("lower bound (as printed: b^2 <= 4 mu eps)", "lower", "even2022.theorem1", "printed",
     "none"),
    ("lower bound (consistent instance: b^2 < 36 mu eps)", "lower", "even2022.theorem1",
     "corrected", "none"),
]


def _n_agents(values: Mapping[str, Any], matrices: Mapping[str, Any]) -> float | None:
    if "N" in values:
        return float(values["N"])
    for m in matrices.values():
        return float(np.asarray(m).shape[0])
    return None


def table(values: Mapping[str, Any], matrices: Mapping[str, Any], *, objective=None,
          algorithm=None) -> dict[str, Any]:
    if objective is not None:
        raise KeyError("even2022 has a single objective (each agent's own f_i); "
                       "omit --objective")
    algos = sorted({m[1] for m in _METHODS})
    if algorithm is not None and algorithm not in algos:
        raise KeyError(f"unknown algorithm {algorithm!r} for even2022; choose from "
                       f"{', '.join(algos)}")
    vals = dict(values)
    if "Delta0" in vals and "F0" not in vals:
        vals["F0"] = vals["Delta0"]
    if "F0" in vals and "Delta0" not in vals:
        vals["Delta0"] = vals["F0"]
    if "T" in vals:
        raise KeyError("give eps, not T: the table solves for the number of steps")
    if "mu" in vals and "r" not in vals:  # Theorem 1 sets mu = L = 1/r^2
        vals["r"] = 1.0 / np.sqrt(vals["mu"])
    n = _n_agents(vals, matrices)
    rows = []
    for method, algo, rid, form, cost in _METHODS:
        if algorithm is not None and algo != algorithm:
            continue
        r = get(rid)
        row: dict[str, Any] = {"method": method, "algorithm": algo, "result": rid, "form": form,
                               "relation": r.relation}
        need = set(r.inputs(form)) | {u for dv in r.derivations for u in dv.uses}
        try:
            given = {k: v for k, v in vals.items() if k in need}
            ev = evaluate(r, form, matrices=matrices, strict=False, **given)
            calls = np.asarray(ev.value, dtype=float)
            row["oracle_calls"] = calls if calls.ndim else float(calls)
            row["hidden_constants"] = ev.hidden_constants
            per_call = {"per_agent": n, "N_per_agent": None if n is None else n * n,
                        "none": n}[cost]
            row["gradients_per_call"] = per_call
            worst = float(np.max(calls))
            row["gradients"] = None if per_call is None else worst * per_call
            if calls.ndim:
                row["note"] = "per agent; gradients use the worst agent"
        except InputError as e:
            if not e.missing:  # an input out of its domain or inconsistent: no row can use it
                raise
            row.update(oracle_calls=None, gradients=None, hidden_constants=[], error=str(e),
                       missing=list(e.missing))
        except (HypothesisError, ValueError) as e:
            row.update(oracle_calls=None, gradients=None, hidden_constants=[], error=str(e))
        rows.append(row)
    for row in rows:  # a printed form with a known erratum is shown but not recommended
        has_fix = "corrected" in get(row["result"]).forms
        row["guaranteed"] = not (row["form"] == "printed" and has_fix)
    ok = [r for r in rows if r.get("gradients") is not None and r["algorithm"] != "lower"
          and r["guaranteed"]]
    cheapest = min(ok, key=lambda r: r["gradients"])["method"] if ok else None
    notes = ["oracle calls: samples per agent; gradients: total gradient evaluations",
             "the lower bound hides an unspecified constant (Omega)",
             "printed forms with an erratum are listed for comparison, not recommended"]
    return {"question": "oracle calls and gradients to reach an error eps",
            "rows": rows, "cheapest": cheapest, "notes": notes}


register_complexity("even2022", table)
