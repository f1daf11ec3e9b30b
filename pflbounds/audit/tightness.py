"""Tightness against PEPit: encoded bounds against the exact worst case of their method.

PEPit (performance estimation) computes, by semidefinite programming, the largest value a
performance measure can take after K steps of a first-order method over a whole function
class. Where a result has a deterministic special case that PEPit can model, that worst case
is an independent judge of the encoded bound: a bound below it is false (VIOLATED, with
PEPit's worst-case function as the evidence), and ``bound / worst case`` says how loose the
bound is.

A paper declares its cases in an optional ``audit`` module (``TIGHTNESS``, a list of
:class:`TightnessCase`); the methods modelled here are gradient descent with a constant step
on L-smooth mu-strongly convex functions, measured by f(x_K) - f* under
f(x_0) - f* <= Delta0 (by default), or under ||x_0 - x*||^2 <= R0 (``initial_condition``
``"distance"``), and at the weighted average of x_0..x_K with weights (1 - eta mu)^(-k-1)
(``measure`` ``"weighted_average"``, the output of local-SGD analyses).

Accuracy. Solves use Clarabel through cvxpy. The solver's status word is not a reliable
judge here (Clarabel reports ``optimal_inaccurate`` from K = 10 on while matching the known
worst case to 1e-7; SCS at its default accuracy returns 0 at K = 50 while reporting
``optimal``), so every number is judged by PEPit's own diagnostics, kept with it: the
relative duality gap between PEPit's dual bound (a proof that the worst case is at most this)
and its primal value (the value of an explicit worst-case function), and the PSD errors of
the Gram and dual matrices. A number whose relative gap exceeds :data:`MAX_GAP` is refused.
The verdict compares the bound with both: HOLDS when it is at least the dual bound, VIOLATED
when it is below the primal value (a function does worse than the bound), INCONCLUSIVE in
between. Solves are cached in a JSON file keyed by the scale-free parameters (mu/L, eta L, K).
"""

from __future__ import annotations

import json
import math
import time
import warnings
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import sympy as sp

from pflbounds.running.atomic import atomic_write
from pflbounds.symbolic import catalog
from pflbounds.symbolic.evaluate import check_conditions, numeric
from pflbounds.symbolic.hidden import strip_hidden

MAX_GAP = 1e-3
"""Largest relative duality gap of a PEPit number that is used."""
SOLVER = "CLARABEL"
METHODS = ("gradient_descent",)
FUNCTION_CLASSES = ("smooth_strongly_convex",)
INITIAL_CONDITIONS = ("function_gap", "distance")
MEASURES = ("last", "weighted_average")


@dataclass(frozen=True)
class TightnessCase:
    """A deterministic special case of a result that PEPit can model.

    ``forms``: each form to compare, mapped to ``None`` when the step size is an input of the
    form (taken from the point's ``eta``) or to the id of the step-size rule the form is
    stated for (evaluated at each distinct (mu, L) of the points, with the fixed inputs).
    ``fixed``: inputs that make the result deterministic (e.g. sigma2 = 0, B = 0); a value 0
    is taken as a limit from above where the formula is not defined at 0 (sigma^2 log 1/sigma^2).
    ``points``: (mu, L, eta) triples. ``initial``: the input bounding f(x_0) - f* (or
    ||x_0 - x*||^2 with ``initial_condition="distance"``; set to 1: the bounds and the worst
    case are linear in it). ``horizon``: the iteration count. ``measure``: ``"last"``
    (f(x_K) - f*) or ``"weighted_average"`` (f at the (1 - eta mu)^(-k-1)-weighted average of
    x_0..x_K, minus f*).
    """

    result_id: str
    forms: Mapping[str, str | None]
    fixed: Mapping[str, float]
    points: tuple[Mapping[str, float], ...]
    horizons: tuple[int, ...] = (1, 2, 5, 10, 20, 50)
    method: str = "gradient_descent"
    function_class: str = "smooth_strongly_convex"
    initial: str = "Delta0"
    horizon: str = "K"
    title: str = ""
    initial_condition: str = "function_gap"
    measure: str = "last"

    def __post_init__(self) -> None:
        if self.method not in METHODS:
            raise ValueError(f"method {self.method!r}: PEPit cases model {METHODS}")
        if self.function_class not in FUNCTION_CLASSES:
            raise ValueError(f"function class {self.function_class!r}: expected one of "
                             f"{FUNCTION_CLASSES}")
        if self.initial_condition not in INITIAL_CONDITIONS:
            raise ValueError(f"initial condition {self.initial_condition!r}: expected one of "
                             f"{INITIAL_CONDITIONS}")
        if self.measure not in MEASURES:
            raise ValueError(f"measure {self.measure!r}: expected one of {MEASURES}")
        for p in self.points:
            if not {"mu", "L", "eta"} <= set(p) or not 0 < p["mu"] <= p["L"]:
                raise ValueError(f"point {dict(p)}: expected 0 < mu <= L and a step eta")


# ---------------------------------------------------------------------------------------
# PEPit


@dataclass
class WorstCase:
    """PEPit's worst case of f(x_K) - f* for f(x_0) - f* <= 1, with its diagnostics and the
    worst-case function's values along the iterates (f(x_k) - f*, ||g_k||^2,
    ||x_k - x*||^2 for k = 0..K)."""

    mu_over_L: float
    eta_L: float
    K: int
    dual: float
    primal: float
    relative_gap: float
    psd_error: float
    dual_psd_error: float
    status: str
    solver: str
    seconds: float
    f_gap: list[float] = field(default_factory=list)
    grad_norm2: list[float] = field(default_factory=list)
    dist2: list[float] = field(default_factory=list)
    initial_condition: str = "function_gap"
    measure: str = "last"

    @property
    def accepted(self) -> bool:
        return bool(np.isfinite(self.relative_gap) and abs(self.relative_gap) <= MAX_GAP
                    and self.primal > 0)


def gd_worst_case(mu_over_L: float, eta_L: float, K: int, solver: str = SOLVER,
                  initial_condition: str = "function_gap", measure: str = "last") -> WorstCase:
    """Worst case of gradient descent x_{k+1} = x_k - eta grad f(x_k), K steps, over
    L-smooth mu-strongly convex f with f(x_0) - f* <= 1 (or ||x_0 - x*||^2 <= 1), in units
    where L = 1 (the worst case depends on mu/L, eta L and K only; with the distance
    condition it is in units of L R0). ``measure``: f(x_K) - f*, or f - f* at the average of
    x_0..x_K weighted by (1 - eta mu)^(-k-1). Solved by PEPit with ``solver`` through
    cvxpy."""
    from PEPit import PEP
    from PEPit.functions import SmoothStronglyConvexFunction

    t0 = time.perf_counter()
    problem = PEP()
    f = problem.declare_function(SmoothStronglyConvexFunction, mu=float(mu_over_L), L=1.0)
    xs = f.stationary_point()
    fs = f(xs)
    x = problem.set_initial_point()
    if initial_condition == "distance":
        problem.set_initial_condition((x - xs) ** 2 <= 1)
    else:
        problem.set_initial_condition(f(x) - fs <= 1)
    points = [x]
    for _ in range(int(K)):
        x = x - float(eta_L) * f.gradient(x)
        points.append(x)
    if measure == "weighted_average":
        f(x)  # x_K enters the interpolation set, so that its values can be read after the solve
        q = 1.0 - float(eta_L) * float(mu_over_L)
        weights = [q ** (-k - 1) for k in range(len(points))]
        x = points[0] * (weights[0] / sum(weights))
        for wk, p in zip(weights[1:], points[1:], strict=True):
            x = x + p * (wk / sum(weights))
    problem.set_performance_metric(f(x) - fs)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # cvxpy's "solution may be inaccurate": judged below
        dual = problem.solve(wrapper="cvxpy", solver=solver, verbose=0)
    primal = float(problem.objective.eval())
    dual = float("nan") if dual is None else float(dual)
    gap = (dual - primal) / abs(primal) if primal != 0 else float("inf")
    prob = getattr(problem.wrapper, "prob", None)
    return WorstCase(
        mu_over_L=float(mu_over_L), eta_L=float(eta_L), K=int(K), dual=dual, primal=primal,
        relative_gap=float(gap),
        psd_error=float(max(0.0, -np.linalg.eigvalsh(problem.G_value).min())),
        dual_psd_error=float(max(0.0, -np.linalg.eigvalsh(problem.residual).min())),
        status=str(getattr(prob, "status", "")), solver=solver,
        seconds=round(time.perf_counter() - t0, 3),
        f_gap=[float((f(p) - fs).eval()) for p in points],
        grad_norm2=[float((f.gradient(p) ** 2).eval()) for p in points],
        dist2=[float(((p - xs) ** 2).eval()) for p in points],
        initial_condition=initial_condition, measure=measure,
    )


def _key(mu_over_L: float, eta_L: float, K: int, solver: str, **variant: str) -> str:
    """The cache key; a non-default initial condition or measure is appended."""
    extra = "".join(f"|{k}={v}" for k, v in sorted(variant.items())
                    if v not in ("function_gap", "last"))
    return f"{mu_over_L:.12g}|{eta_L:.12g}|{int(K)}|{solver}{extra}"


class Cache:
    """Solved worst cases in a JSON file (written atomically after each new solve)."""

    def __init__(self, path: str | Path | None) -> None:
        self.path = Path(path) if path is not None else None
        self.data: dict[str, dict[str, Any]] = {}
        if self.path is not None and self.path.is_file():
            try:
                self.data = json.loads(self.path.read_text(encoding="utf-8"))
            except (OSError, ValueError):
                self.data = {}  # an unreadable cache is rebuilt, never trusted

    def get(self, mu_over_L: float, eta_L: float, K: int, solver: str,
            solve: Callable[..., WorstCase] = gd_worst_case, **variant: str
            ) -> tuple[WorstCase, bool]:
        """The cached worst case, or a new solve (then saved); and whether it was cached.
        ``variant``: ``initial_condition`` and ``measure``, passed to ``solve`` when not the
        defaults."""
        variant = {k: v for k, v in variant.items() if v not in ("function_gap", "last")}
        key = _key(mu_over_L, eta_L, K, solver, **variant)
        if key in self.data:
            return WorstCase(**self.data[key]), True
        wc = solve(mu_over_L, eta_L, K, solver, **variant)
        self.data[key] = asdict(wc)
        self._save()
        return wc, False

    def _save(self) -> None:
        if self.path is None:
            return
        self.path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write(self.path, json.dumps(self.data, indent=1, sort_keys=True))


# ---------------------------------------------------------------------------------------
# Bounds in their deterministic special case


def deterministic_value(result_id: str, form: str, values: Mapping[str, float],
                        fixed: Mapping[str, float]) -> float:
    """The form evaluated at ``values`` with the ``fixed`` inputs; hidden constants set to 1
    (they multiply terms that vanish in the special case). A fixed 0 that leaves the formula
    undefined (0 x log(1/0)) is taken as the limit from above. The result's conditions are
    checked at the point."""
    r = catalog.get(result_id)
    expr = strip_hidden(r.form(form).expr)
    vals = {**{k: float(v) for k, v in values.items()}, **{k: float(v) for k, v in fixed.items()}}
    check_conditions(r.conditions_for(form), vals)
    value = float(np.asarray(numeric(expr, vals)))
    if math.isnan(value):
        syms = {s.name: s for s in expr.free_symbols}
        e = expr.subs({syms[k]: v for k, v in fixed.items() if k in syms and v != 0})
        for k, v in fixed.items():
            if k in syms and v == 0:
                e = sp.limit(e, syms[k], 0, "+")
        value = float(np.asarray(numeric(e, vals)))
    return value


# ---------------------------------------------------------------------------------------
# The audit


@dataclass
class TightnessRow:
    """One comparison: a form at (mu, L, eta, K) against PEPit's worst case."""

    form: str
    mu: float
    L: float
    eta: float
    K: int
    bound: float
    worst: float | None
    primal: float | None
    ratio: float | None
    relative_gap: float
    psd_error: float
    status: str
    verdict: str
    cached: bool


def _verdict(bound: float, wc: WorstCase, scale: float = 1.0) -> str:
    if not wc.accepted:
        return "REFUSED"
    dual, primal = wc.dual * scale, wc.primal * scale
    slack = 1e-12 * max(abs(dual), 1e-300)
    if bound >= dual - slack:
        return "HOLDS"
    if bound < primal - slack:
        return "VIOLATED"
    return "INCONCLUSIVE"


def case_points(case: TightnessCase, form: str) -> list[dict[str, float]]:
    """The (mu, L, eta) points of one form: the case's points for a form with an input step,
    the step rule's value at each distinct (mu, L) (and each K: see :func:`audit_case`)."""
    if case.forms[form] is None:
        return [dict(p) for p in case.points]
    seen: list[dict[str, float]] = []
    for p in case.points:
        q = {"mu": float(p["mu"]), "L": float(p["L"])}
        if q not in seen:
            seen.append(q)
    return seen


def _variant(case: TightnessCase) -> dict[str, str]:
    return {"initial_condition": case.initial_condition, "measure": case.measure}


def audit_case(case: TightnessCase, cache: Cache, horizons: Sequence[int] | None = None,
               solve: Callable[..., WorstCase] = gd_worst_case) -> list[TightnessRow]:
    """Every (form, point, K) of ``case`` against PEPit."""
    rows = []
    for form, rule in case.forms.items():
        for p in case_points(case, form):
            for K in horizons or case.horizons:
                vals = {"mu": p["mu"], "L": p["L"], case.horizon: float(K), case.initial: 1.0}
                if rule is None:
                    eta = float(p["eta"])
                else:
                    eta = deterministic_value(rule, "printed", vals, case.fixed)
                vals["eta"] = eta
                bound = deterministic_value(case.result_id, form, vals, case.fixed)
                wc, cached = cache.get(p["mu"] / p["L"], eta * p["L"], int(K), SOLVER, solve,
                                       **_variant(case))
                ok = wc.accepted
                s = p["L"] if case.initial_condition == "distance" else 1.0  # units of L R0
                rows.append(TightnessRow(
                    form=form, mu=p["mu"], L=p["L"], eta=eta, K=int(K), bound=bound,
                    worst=wc.dual * s if ok else None, primal=wc.primal * s if ok else None,
                    ratio=bound / (wc.dual * s) if ok and wc.dual > 0 else None,
                    relative_gap=wc.relative_gap, psd_error=wc.psd_error, status=wc.status,
                    verdict=_verdict(bound, wc, s), cached=cached))
    return rows


@dataclass
class TightnessAudit:
    """The tightness audit of one paper: one list of rows per case."""

    paper: str
    cases: list[tuple[TightnessCase, list[TightnessRow]]]
    evidence: dict[str, dict[str, Any]]
    elapsed: float = 0.0

    @property
    def verdict(self) -> str:
        vs = [r.verdict for _, rows in self.cases for r in rows]
        if not vs:
            return "NO CASES"
        if "VIOLATED" in vs:
            return "VIOLATED"
        return "HOLDS" if all(v == "HOLDS" for v in vs) else "INCONCLUSIVE"

    def to_dict(self) -> dict[str, Any]:
        return {
            "paper": self.paper, "verdict": self.verdict, "max_gap": MAX_GAP, "solver": SOLVER,
            "elapsed": round(self.elapsed, 1),
            "cases": [{"result": c.result_id, "title": c.title, "method": c.method,
                       "function_class": c.function_class, "fixed": dict(c.fixed),
                       "initial_condition": c.initial_condition, "measure": c.measure,
                       "rows": [asdict(r) for r in rows]} for c, rows in self.cases],
            "evidence": self.evidence,
        }


def audit_tightness(paper: str, cases: Sequence[TightnessCase], *,
                    cache_path: str | Path | None = None,
                    horizons: Sequence[int] | None = None,
                    solve: Callable[..., WorstCase] = gd_worst_case) -> TightnessAudit:
    """Run every case; a violated comparison keeps PEPit's worst-case function (its values
    along the iterates) as ``evidence``."""
    t0 = time.perf_counter()
    cache = Cache(cache_path)
    out, evidence = [], {}
    for case in cases:
        rows = audit_case(case, cache, horizons, solve)
        out.append((case, rows))
        for r in rows:
            if r.verdict == "VIOLATED":
                wc, _ = cache.get(r.mu / r.L, r.eta * r.L, r.K, SOLVER, solve,
                                  **_variant(case))
                evidence[f"{case.result_id} [{r.form}] mu={r.mu:g} L={r.L:g} eta={r.eta:g} "
                         f"K={r.K}"] = asdict(wc)
    return TightnessAudit(paper, out, evidence, time.perf_counter() - t0)


def format_table(audit: TightnessAudit) -> str:
    """The comparisons as a plain-text table."""
    lines = [f"{audit.paper}: tightness against PEPit ({SOLVER} through cvxpy; numbers with "
             f"a relative duality gap above {MAX_GAP:g} refused) -- {audit.verdict}"]
    for case, rows in audit.cases:
        lines.append(f"  {case.result_id}: {case.title}")
        lines.append(f"    {'form':<10} {'mu':>5} {'L':>6} {'eta':>9} {'K':>4} {'bound':>11} "
                     f"{'PEPit worst':>11} {'ratio':>10} {'rel. gap':>9} {'PSD err':>8}  verdict")
        for r in rows:
            w = "-" if r.worst is None else f"{r.worst:.5g}"
            ratio = "-" if r.ratio is None else f"{r.ratio:.4g}"
            lines.append(f"    {r.form:<10} {r.mu:>5g} {r.L:>6g} {r.eta:>9.4g} {r.K:>4} "
                         f"{r.bound:>11.5g} {w:>11} {ratio:>10} {r.relative_gap:>9.1e} "
                         f"{r.psd_error:>8.1e}  {r.verdict}")
    return "\n".join(lines)
