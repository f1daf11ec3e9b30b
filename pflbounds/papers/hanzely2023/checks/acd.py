"""Checks of ACD-PFL (Theorem 7) on quadratic objectives, by the exact propagator (no Monte
Carlo): P1 (contraction at most 1 - theta), P2 (communications scale as sqrt(L^w/mu); the
non-accelerated control as L^w/mu) and the erratum on Algorithm 2's beta-step; and the
regime map of the calculator (symbolic), whose figures are tables in the report.

``hanzely2023.regime_map``: over a grid of (lambda, n) on MX2, ACD-PFL needs no more rounds
than any other method of the calculator (it meets Theorem 6's communication bound); its report
table names, per cell, the method with the fewest rounds and the method with the fewest local
(component) gradients."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from pflbounds.checking import Check, CheckKind, Verdict, bound
from pflbounds.exact import block_coordinate_draws, propagate
from pflbounds.exact.propagator_metrics import QuadraticMetrics
from pflbounds.papers.hanzely2023.checks.common import (
    ISO,
    LPS,
    REL,
    ROW,
    P,
    acd_exact,
    instance,
    simulate_comm,
    simulate_row,
)
from pflbounds.papers.hanzely2023.complexity import table
from pflbounds.papers.hanzely2023.theory.acd import (
    ACD_CONTRACTION,
    TABLE1_ACD,
    THEOREM7,
    THEOREM7_PARAMETERS,
)
from pflbounds.papers.hanzely2023.theory.objectives import apfl_g
from pflbounds.reporting.figure_specs import figure, series
from pflbounds.symbolic.complexity import ComplexityTable


# ------------------------------------------------------------------------------ P1
def simulate_p1(p: Mapping[str, Any], R: int, seed) -> dict:
    """Geometric mean per-iteration factor of the exact E[F(y^k) - F^*] over [K/2, K], K
    where (1 - theta)^K = 1e-10, against the derived contraction 1 - theta."""
    obj = instance(p)
    c = obj.constants
    theta = float(bound(THEOREM7_PARAMETERS, "printed", mu=c["mu"], Lw=c["Lw"],
                        Lb=c["Lb"])["theta"])
    K = int(np.ceil(np.log(1e10) / theta))
    ks, e, _ = acd_exact(obj, K, ks=np.array([0, K // 2, K]))
    factor = (e[2] / e[1]) ** (1 / (K - K // 2))
    contraction = float(bound(ACD_CONTRACTION, "printed", mu=c["mu"], Lw=c["Lw"], Lb=c["Lb"]))
    return {"ks": np.array([float(K)]), "mean": np.array([factor]),
            "bound": np.array([contraction]), "E_K_over_E_0": np.asarray(e[2] / e[0])}


_P1_GRID = ({"objective": "mx2", "lam": 1.0}, {"objective": "mx2", "lam": 20.0},
            {"objective": "mt2", "lam": 0.5, "Lam": 4.0},
            {"objective": "apfl2", "Lam": float(apfl_g(0.2)), "alpha": [0.2] * 5},
            {"objective": "ws2", "d_w": 1})


# ------------------------------------------------------------------------------ P2
def simulate_scd_comm(p: Mapping[str, Any], R: int, seed) -> dict:
    """SCD-PFL with full gradients, steps 1/L^w and 1/L^beta per block, p_w = L^w/(L^w +
    L^beta) (the non-accelerated control): expected rounds to REL, exact."""
    obj = instance(p)
    c = obj.constants
    pw = c["Lw"] / (c["Lw"] + c["Lb"])
    H, xs = obj.hessian, obj.optimum["x"]
    draws = block_coordinate_draws(H, xs, [np.arange(obj.d0), np.arange(obj.d0, obj.N)],
                                   [pw, 1 - pw], [1 / c["Lw"], 1 / c["Lb"]])
    metric = QuadraticMetrics(Q=H[None, None], x_star=xs[None, None])
    rel = p.get("rel", REL)
    K = int(4 * (c["Lw"] + c["Lb"]) / c["mu"] * np.log(1 / rel)) + 50
    ks = np.arange(K + 1)
    e = propagate(draws, np.zeros(obj.N), ks, metrics=metric).metrics[:, 0]
    reached = np.flatnonzero(e <= rel * e[0])
    if reached.size == 0:
        raise ValueError(f"SCD-PFL did not reach rel = {rel:g} in K = {K} iterations: the "
                         f"excess fell to {e[-1] / e[0]:.3g} of its start; expected a rel "
                         "that the iterations reach")
    k = int(ks[reached[0]])
    return {"cost": np.asarray(pw * k), "iterations": np.asarray(float(k))}


_LAMS = [float(x) for x in np.geomspace(1.0, 100.0, 5)]
_P2_GRID = tuple({**ISO, "lam": lam} for lam in _LAMS)
_P2_QUICK = tuple({**ISO, "lam": lam} for lam in (_LAMS[0], _LAMS[2], _LAMS[4]))
_SCD_GRID = tuple({**ISO, "lam": float(lam), "rel": 1e-4} for lam in np.geomspace(1, 31.6, 4))
"""Gradient steps need (L/mu) log(1/eps) iterations: a shorter sweep and target."""


# ------------------------------------------------------------------------------ erratum
def simulate_beta_scale(p: Mapping[str, Any], R: int, seed) -> dict:
    """Exact E[F(y^K) - F^*] of ACD-PFL with the printed beta-step (grad_beta f_m, factor M)
    and with grad_beta F, against F(0) - F^* (a method that converges never exceeds it)."""
    obj = instance(p)
    K = int(p["K"])
    ks = np.arange(0, K + 1, max(1, K // 20))
    _, lit, _ = acd_exact(obj, K, beta_factor=float(obj.M), ks=ks)
    _, best, _ = acd_exact(obj, K, ks=ks)
    f0 = np.full(ks.size, best[0])
    if p["step"] == "printed":
        return {"ks": ks.astype(float), "mean": lit, "bound_printed": f0,
                "bound_corrected": np.full(ks.size, np.inf)}
    return {"ks": ks.astype(float), "mean": best, "bound_printed": np.full(ks.size, np.inf),
            "bound_corrected": f0}


# ------------------------------------------------------------------------------ regime map
LAMS = [0.5, 2.0, 8.0, 32.0]
"""The lambdas of the map's tables."""
MAP_LAMS = [0.5, 1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 64.0, 128.0]
"""The lambdas of the check's grid (the boundaries of the map's figure)."""
NS = [10, 100, 1000, 10000]
BASE = {"mup": 0.2, "Lp": 2.0, "Lcp": 20.0, "M": 20, "eps": 1e-6}
_SHORT = {"ACD-PFL": "ACD", "ASVRCD-PFL (rho = p_w/n)": "ASVRCD (p_w/n)",
          "ASVRCD-PFL (rho = p_beta/n)": "ASVRCD (p_beta/n)"}


def _winners(lam: float, n: int) -> tuple[ComplexityTable, dict[str, str | None]]:
    t = table({**BASE, "lam": lam, "n": n}, {}, objective="mx2")
    return t, t.best or {}


def _acd_lead(lam: float, n: float, key: str) -> tuple[float, str]:
    """log(ACD-PFL's count / the fewest count of the other methods) for ``key`` at (lambda, n),
    and the other method with the fewest."""
    t, _ = _winners(lam, n)
    rows = [r for r in t.rows if r.counts.get(key) is not None and r.algorithm != "lower-bound"]
    acd = next(r for r in rows if r.algorithm == "acd-pfl").counts[key]
    other = min((r for r in rows if r.algorithm != "acd-pfl"), key=lambda r: r.counts[key])
    return float(np.log(acd / other.counts[key])), other.method


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
        rows = [r for r in t.rows if r.counts.get("communication") is not None
                and r.algorithm != "lower-bound"]
        acd = next(r for r in rows if r.algorithm == "acd-pfl").counts["communication"]
        others = min(r.counts["communication"] for r in rows if r.algorithm != "acd-pfl")
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


_XL = "lambda"
CHECKS = [
    Check(P + "P1", "ACD-PFL contracts E[F(y^k) - F^*] by at most 1 - theta per iteration",
          CheckKind.BOUND_HOLDS, Verdict.HOLDS, simulate_p1, grid=_P1_GRID,
          quick_grid=_P1_GRID[:2], engine="exact", result_id=ACD_CONTRACTION.id,
          form="printed", rel_tol=1e-9,
          description="Exact expectation (propagator), geometric mean factor over the second "
          "half of the horizon where (1 - theta)^K = 1e-10.",
          xlabel="horizon K", ylabel="per-iteration factor"),
    Check(P + "P2", "ACD-PFL communications to eps scale as sqrt(L^w/mu) (MX2: sqrt(lambda))",
          CheckKind.SCALING, Verdict.HOLDS, simulate_comm, grid=_P2_GRID, quick_grid=_P2_QUICK,
          engine="exact", result_id=THEOREM7.id, form="printed", predicted=0.5,
          tolerance=0.1, x_param="lam",
          description="MX2 with isotropic clients (mu' = L' = 0.2), M = 5: expected rounds "
          "(p_w x iterations) to 1e-6 of the initial error, exact.", xlabel=_XL,
          ylabel="rounds to eps"),
    Check(P + "P2_scd", "Non-accelerated control: SCD-PFL communications scale as L^w/mu",
          CheckKind.SCALING, Verdict.HOLDS, simulate_scd_comm, grid=_SCD_GRID,
          quick_grid=_SCD_GRID[:2], engine="exact", result_id=THEOREM7.id, form="printed",
          predicted=1.0, tolerance=0.1, x_param="lam",
          description="SCD-PFL with full gradients, steps 1/L per block and p_w proportional "
          "to L^w, to 1e-4 of the initial error: slope 1 (acceleration halves the "
          "exponent).",
          xlabel=_XL, ylabel="rounds to eps"),
    Check(P + "E_acd_beta_scale", "Algorithm 2's beta-step with grad_beta f_m diverges; "
          "grad_beta F converges", CheckKind.ERRATUM, Verdict.CONFIRMED, simulate_beta_scale,
          grid=({"objective": "mx2", "lam": 1.0, "M": 10, "K": 40, "step": "printed"},
                {"objective": "mx2", "lam": 1.0, "M": 10, "K": 40, "step": "corrected"}),
          engine="exact", result_id=THEOREM7.id, form="printed",
          description="MX2, M = 10: the printed step moves beta_m along grad_beta f_m = M "
          "grad_{beta_m} F with the step 1/L^beta of F.", xlabel="k", ylabel="E[F(y^k) - F^*]"),
    Check(P + "P_table1_acd", "Table 1 (ACD-PFL): grad_beta F calls grow as sqrt(L^beta/mu)",
          CheckKind.SCALING, Verdict.HOLDS, simulate_row,
          grid=tuple({**ROW, "objective": "ws2", "d_w": 1, "Lp": x, "count": "grad_beta"}
                     for x in LPS),
          quick_grid=tuple({**ROW, "objective": "ws2", "d_w": 1, "Lp": x,
                            "count": "grad_beta"} for x in LPS[::3]),
          engine="exact", result_id=TABLE1_ACD.id, form="printed", predicted=0.5,
          tolerance=0.1, x_param="Lp",
          description="WS2 with identical clients (L^beta/mu proportional to L'/mu'): exact "
          "expected grad_beta F calls ((1 - p_w) x iterations) of ACD-PFL to 1e-6 of the "
          "initial error, L' swept; predicted: the exponent 1/2 of Table 1's sqrt(L^beta/mu).",
          xlabel="Lp", ylabel="grad_beta F calls"),
    Check(P + "regime_map", "ACD-PFL needs the fewest rounds in every regime of (lambda, n)",
          CheckKind.BOUND_HOLDS, Verdict.HOLDS, simulate_map,
          grid=tuple({"lam": lam} for lam in MAP_LAMS),
          quick_grid=tuple({"lam": lam} for lam in MAP_LAMS[::8]),
          engine="symbolic", result_id=THEOREM7.id, form="printed", plot=plot_map,
          description="The calculator's counts (hidden constants 1) on MX2: ACD-PFL's rounds "
          "against the fewest rounds of the other methods (ASVRCD-PFL with either rho).",
          xlabel="n", ylabel="rounds"),
]
