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
from pflbounds.reporting.figure_specs import figure, series

LAMS = [0.5, 2.0, 8.0, 32.0]
"""The lambdas of the map's tables."""
MAP_LAMS = [0.5, 1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 64.0, 128.0]
"""The lambdas of the check's grid (the boundaries of the map's figure)."""
NS = [10, 100, 1000, 10000]
BASE = {"mup": 0.2, "Lp": 2.0, "Lcp": 20.0, "M": 20, "eps": 1e-6}
_SHORT = {"ACD-PFL": "ACD", "ASVRCD-PFL (rho = p_w/n)": "ASVRCD (p_w/n)",
          "ASVRCD-PFL (rho = p_beta/n)": "ASVRCD (p_beta/n)"}


def _winners(lam: float, n: int) -> tuple[dict[str, Any], dict[str, str | None]]:
    t = table({**BASE, "lam": lam, "n": n}, {}, objective="mx2")
    return t, t["best"]


def _acd_lead(lam: float, n: float, key: str) -> tuple[float, str]:
    """log(ACD-PFL's count / the fewest count of the other methods) for ``key`` at (lambda, n),
    and the other method with the fewest."""
    t, _ = _winners(lam, n)
    rows = [r for r in t["rows"] if r.get(key) is not None and r["algorithm"] != "lower-bound"]
    acd = next(r for r in rows if r["algorithm"] == "acd-pfl")[key]
    other = min((r for r in rows if r["algorithm"] != "acd-pfl"), key=lambda r: r[key])
    return float(np.log(acd / other[key])), other["method"]


N_MIN = int(np.ceil(BASE["Lcp"] / BASE["Lp"]))
"""The fewest components an instance with BASE's constants can have: n L' >= Lcal' (footnote
1 for L' and Lcal', an instance relation of the paper; smaller n describe no instance)."""


def boundary_n(lam: float, key: str, lo: int = N_MIN, hi: int = 10**7) -> tuple[float, str]:
    """The smallest n (geometric bisection over the integers in [lo, hi], to 2 %) from which
    ACD-PFL no longer needs the fewest ``key`` calls (it uses full gradients: n component
    gradients each), and the method that needs the fewest there; nan when ACD-PFL does not
    lose anywhere on the interval. ``lo`` defaults to the fewest components an instance with
    BASE's constants can have (N_MIN): the boundary is lo itself when ACD-PFL does not win
    even there."""
    a, b = _acd_lead(lam, lo, key), _acd_lead(lam, hi, key)
    if a[0] >= 0:
        return float(lo), a[1]
    if b[0] < 0:
        return float("nan"), ""
    while hi - lo > 1 and hi > 1.02 * lo:
        mid = int(round(np.sqrt(lo * hi)))
        mid = min(max(mid, lo + 1), hi - 1)
        if _acd_lead(lam, mid, key)[0] < 0:
            lo = mid
        else:
            hi = mid
    return float(hi), b[1]


def simulate_map(p: Mapping[str, Any], R: int, seed) -> dict:
    """ACD-PFL's rounds against the fewest rounds of the other methods, per n; with the n at
    which the fewest grad_w F_i and grad_beta F_i calls pass from ACD-PFL to another method
    (the regime map's boundaries at this lambda)."""
    meas, bound = [], []
    for n in NS:
        t, _ = _winners(p["lam"], n)
        rows = [r for r in t["rows"] if r.get("communication") is not None
                and r["algorithm"] != "lower-bound"]
        acd = next(r for r in rows if r["algorithm"] == "acd-pfl")["communication"]
        others = min(r["communication"] for r in rows if r["algorithm"] != "acd-pfl")
        meas.append(acd)
        bound.append(others)
    out = {"ks": np.array(NS, dtype=float), "mean": np.array(meas), "bound": np.array(bound)}
    for key in _BOUNDARY_KEYS:
        nb, winner = boundary_n(p["lam"], key)
        out[f"boundary_{key}"] = np.asarray(nb)
        out[f"beyond_{key}"] = np.asarray(float(_METHODS.index(winner)) if winner
                                          else np.nan)
    return out


_METHODS = ("ACD-PFL", "ASVRCD-PFL (rho = p_w/n)", "ASVRCD-PFL (rho = p_beta/n)")
"""The calculator's methods on MX2 (the evidence names the winner by its index here)."""
_BOUNDARY_KEYS = ("grad_w_stochastic", "grad_beta_stochastic")
_KEY_TEXT = {"grad_w_stochastic": "grad_w F_i", "grad_beta_stochastic": "grad_beta F_i"}


def map_figure(outcome) -> dict | None:
    """The regime map as a figure: in the (n, lambda) plane, the curves where the method with
    the fewest grad_w F_i (and grad_beta F_i) calls changes; ACD-PFL has the fewest to the
    left of each curve, the method named in the legend to the right. None without two
    lambdas with a boundary."""
    items, beyond = [], {}
    for key in _BOUNDARY_KEYS:
        pts = sorted((float(e["params"]["lam"]), float(np.asarray(e[f"boundary_{key}"])))
                     for e in outcome.evidence if f"boundary_{key}" in e)
        pts = [(lam, n) for lam, n in pts if np.isfinite(n)]
        if len(pts) < 2:
            continue
        codes = {float(np.asarray(e.get(f"beyond_{key}", np.nan))) for e in outcome.evidence}
        names = {_METHODS[int(c)] for c in codes if np.isfinite(c)}
        beyond[key] = " or ".join(sorted(_SHORT.get(x, x) for x in names))
        items.append(series(f"fewest {_KEY_TEXT[key]} calls",
                            [n for _, n in pts], [lam for lam, _ in pts], "measured",
                            group=key))
    if not items:
        return None
    fig = figure("curves", "Regime map", "n", "lambda", items, logx=True, logy=True)
    right = " or ".join(sorted(set(beyond.values())))
    fig["annotations"] = ["left of a curve: ACD-PFL", f"right of it: {right}",
                          "fewest rounds: ACD-PFL everywhere"]
    fig["caption"] = ("The calculator on MX2 (mu' = 0.2, L' = 2, Lcal' = 20, "
                      "M = 20, eps = 1e-6; Theorems 7-9, hidden constants 1): each curve is "
                      "the number n of local samples at which the method with the fewest "
                      "component-gradient calls changes, as a function of lambda (n >= Lcal'/L' "
                      "= 10, the fewest an instance has; a curve at 10 means ACD-PFL never "
                      "has the fewest). To its left "
                      "ACD-PFL (full local gradients) needs the fewest; to its right the "
                      "ASVRCD-PFL variant named in the box. ACD-PFL needs the fewest "
                      "rounds in the whole plane.")
    fig["name"] = "hanzely2023-regime-map"
    return fig


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
    fig = map_figure(outcome) if outcome is not None else None
    return [*([fig] if fig else []),
            {"kind": "table", "title": "Regime map: the method with the fewest rounds",
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
          grid=tuple({"lam": lam} for lam in MAP_LAMS),
          quick_grid=tuple({"lam": lam} for lam in MAP_LAMS[::8]),
          engine="symbolic", result_id=P + "theorem7", form="printed", plot=plot_map,
          description="The calculator's counts (hidden constants 1) on MX2: ACD-PFL's rounds "
          "against the fewest rounds of the other methods (ASVRCD-PFL with either rho).",
          xlabel="n", ylabel="rounds"),
]
