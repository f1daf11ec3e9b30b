"""The regime map of the calculator and the Table 3 comparison, as checks whose figures are
tables in the report.

* ``hanzely2023.regime_map`` (symbolic): over a grid of (lambda, n) on MX2, ACD-PFL needs no
  more rounds than any other method of the calculator (it meets Theorem 6's communication
  bound); its report table names, per cell, the method with the fewest rounds and the method
  with the fewest local (component) gradients.
* the Table 3 comparison (every cell, printed against regenerated) is P12's report table.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import sympy as sp

from pflbounds.checking import Check, CheckKind, Verdict
from pflbounds.papers.hanzely2023.checks.common import P
from pflbounds.papers.hanzely2023.complexity import table
from pflbounds.papers.hanzely2023.generic import TABLE3_HEADERS
from pflbounds.papers.hanzely2023.table3_compare import compare_all

LAMS = [0.5, 2.0, 8.0, 32.0]
NS = [10, 100, 1000, 10000]
BASE = {"mup": 0.2, "Lp": 2.0, "Lcp": 20.0, "M": 20, "eps": 1e-6}
_SHORT = {"ACD-PFL": "ACD", "ASVRCD-PFL (rho = p_w/n)": "ASVRCD (p_w/n)",
          "ASVRCD-PFL (rho = p_beta/n)": "ASVRCD (p_beta/n)"}


def _winners(lam: float, n: int) -> tuple[dict[str, Any], dict[str, str | None]]:
    t = table({**BASE, "lam": lam, "n": n}, {}, objective="mx2")
    return t, t["best"]


def simulate_map(p: Mapping[str, Any], R: int, seed) -> dict:
    """ACD-PFL's rounds against the fewest rounds of the other methods, per n."""
    meas, bound = [], []
    for n in NS:
        t, _ = _winners(p["lam"], n)
        rows = [r for r in t["rows"] if r.get("communication") is not None
                and r["algorithm"] != "lower-bound"]
        acd = next(r for r in rows if r["algorithm"] == "acd-pfl")["communication"]
        others = min(r["communication"] for r in rows if r["algorithm"] != "acd-pfl")
        meas.append(acd)
        bound.append(others)
    return {"ks": np.array(NS, dtype=float), "mean": np.array(meas), "bound": np.array(bound)}


def plot_map(outcome) -> list[dict]:
    rows_c, rows_g = [], []
    for lam in LAMS:
        rc, rg = [f"{lam:g}"], [f"{lam:g}"]
        for n in NS:
            _, best = _winners(lam, n)
            rc.append(_SHORT.get(best["communication"], best["communication"]))
            g = best["grad_w_stochastic"], best["grad_beta_stochastic"]
            rg.append(" / ".join(_SHORT.get(x, x) for x in g))
        rows_c.append(rc)
        rows_g.append(rg)
    cols = ["lambda (rows), n (columns)", *(f"{n:g}" for n in NS)]
    cap = ("MX2 with mu' = 0.2, L' = 2, Lcal' = 20, M = 20, eps = 1e-6, from pflbounds "
           "complexity (Theorems 7-9, hidden constants 1).")
    return [{"kind": "table", "title": "Regime map: the method with the fewest rounds",
             "columns": cols, "rows": rows_c, "caption": cap},
            {"kind": "table", "title": "Regime map: the fewest grad_w F_i / grad_beta F_i calls",
             "columns": cols, "rows": rows_g, "caption": cap}]


_PLAIN = {"Lp": "L'", "mup": "mu'", "Lcp": "Lcal'", "lam": "lambda", "Lam": "Lambda",
          "amax": "alpha_max", "amin": "alpha_min", "LwR": "L^w_R", "LbR": "L^beta_R",
          "LcwR": "Lcal^w_R", "LcbR": "Lcal^beta_R", "M": "M", "n": "n", "mu": "mu"}


def plain(text: str | None) -> str:
    """A sympy string in the digest's plain notation (L' for Lp, lambda for lam, ...)."""
    if text is None:
        return "(blank)"
    e = sp.sympify(text, locals={k: sp.Symbol(k) for k in _PLAIN})
    e = e.replace(sp.Abs, lambda a: -a)  # only |alpha - 1| = 1 - alpha occurs (alpha <= 1)
    e = e.xreplace({s: sp.Symbol(_PLAIN.get(s.name, s.name)) for s in e.free_symbols})
    return sp.sstr(e).replace("**", "^").replace("*", " ")


def plot_table3(outcome) -> list[dict]:
    """Table 3 regenerated: every cell, printed against the generic formula."""
    rows = []
    for c in compare_all():
        ratio = plain(c.ratio) if c.ratio else ("-" if c.verdict != "equal" else "1")
        if c.verdict == "agrees in regime":
            ratio = f"{c.low:.3g} to {c.high:.3g} when {c.regime}"
        rows.append([c.objective, TABLE3_HEADERS[c.column], plain(c.printed),
                     plain(c.regenerated), ratio, c.verdict])
    return [{"kind": "table", "title": "Table 3 regenerated from Theorems 7-8 and the "
             "objectives' constants", "columns": ["objective", "cell", "printed",
                                                  "regenerated", "ratio", "verdict"],
             "rows": rows, "caption": "Ratio regenerated/printed (of the square-root terms in "
             "the n + sqrt(...) columns): equal, a constant factor, within a constant band on "
             "the stated regime, blank, or disagreeing."}]


CHECKS = [
    Check(P + "regime_map", "ACD-PFL needs the fewest rounds in every regime of (lambda, n)",
          CheckKind.BOUND_HOLDS, Verdict.HOLDS, simulate_map,
          grid=tuple({"lam": lam} for lam in LAMS), quick_grid=({"lam": LAMS[1]},),
          engine="symbolic", result_id=P + "theorem7", form="printed", plot=plot_map,
          description="The calculator's counts (hidden constants 1) on MX2: ACD-PFL's rounds "
          "against the fewest rounds of the other methods (ASVRCD-PFL with either rho).",
          xlabel="n", ylabel="rounds"),
]
