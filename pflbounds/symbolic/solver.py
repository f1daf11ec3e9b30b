"""Inverting a form: the smallest value of one input for which the form is at most a
target (:func:`solve`)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import sympy as sp

from pflbounds.shown import shown
from pflbounds.symbolic.catalog import applicable_relations
from pflbounds.symbolic.constants import DOMAINS as DOMAINS_TEXT
from pflbounds.symbolic.constants import get_constant
from pflbounds.symbolic.inputs import check_relations, resolve_inputs
from pflbounds.symbolic.numeric import (
    Evaluation,
    InputError,
    TargetUnreachable,
    check_conditions,
    holds,
    numeric,
)
from pflbounds.symbolic.result import Result


def _feasible(result: Result, form: str | None, vals: Mapping[str, Any]) -> np.ndarray:
    """Elementwise mask of points satisfying every side condition."""
    ok = np.asarray(True)
    for c in result.conditions_for(form):
        ok = ok & holds(c.relation, vals)[0]
    for r in applicable_relations(result, form):
        if r.symbols <= set(vals):
            ok = ok & holds(r.relation, vals)[0]
    return ok


def solve(
    result: Result,
    var: str,
    target: float,
    form: str | None = None,
    *,
    matrices: Mapping[str, Any] | None = None,
    part: str = "",
    upper: float = 1e15,
    **values: Any,
) -> Evaluation:
    """Smallest value of ``var`` for which the form is ``<= target``.

    For an integer variable (K, N, T, S, ...) the answer is the smallest integer, found by an
    exhaustive vectorised scan up to the first crossing (exact even when the form is not
    monotone, e.g. with a ``Min`` in the step size); beyond 10^7 a bisection refines a
    geometric bracket. For a real variable the answer is bracketed on a logarithmic grid over
    the variable's domain (its closed end included: 0 for a number >= 0 or in [0, 1], 1 for
    a number >= 1; [0, 1] ends at 1; a real number is searched on both signs) and refined by
    bisection; a crossing between 0 and the grid's first positive point is searched down to
    the smallest normal float. Points that violate a side condition or an instance relation
    count as infeasible. An answer at the end of the domain is reported as such
    (``Evaluation.boundary``); a set of solutions that runs down to an excluded end (every
    x > 0 works, x = 0 does not) has no smallest element and is refused. Inputs may be
    per-agent arrays: the answer is then an array.
    """
    f = result.form(form)
    expr = f.exprs.get(part)
    if expr is None:
        raise InputError(f"{result.id} [{f.name}] has no part {part!r}; parts: {list(f.exprs)}")
    part_key = part if f.parts is not None else None
    if var not in result.inputs(form, part_key):
        inputs = result.inputs(form, part_key)
        raise InputError(
            f"{var} is not an input of {result.id} [{f.name}{':' + part if part else ''}]; "
            + (f"inputs: {', '.join(inputs)}" if inputs else "it takes no inputs")
        )
    if var in values:
        raise InputError(f"{var} is the unknown: do not also give it a value")
    vals, derived = resolve_inputs(result, form, values, matrices, free=(var,), part=part_key)
    fixed = tuple(c for c in result.conditions_for(form)
                  if var not in {s.name for s in c.relation.free_symbols})
    check_conditions(fixed, vals)  # conditions that no value of the unknown can repair
    # and instance relations among the given inputs of the whole form (a part's own
    # relations were checked above; the search below respects the whole form's)
    check_relations(applicable_relations(result, form), vals)
    target = float(target)
    const = get_constant(var, result.paper)
    shape = np.broadcast(*[np.asarray(v, dtype=float) for v in vals.values()]).shape
    flat = {n: np.broadcast_to(np.asarray(v, dtype=float), shape).ravel() for n, v in vals.items()}
    n_el = int(np.prod(shape)) if shape else 1
    answers = np.empty(n_el)
    points = [{n: (a[i] if a.size else a) for n, a in flat.items()} for i in range(n_el)]
    name = f"{result.id} [{f.name}{':' + part if part else ''}]"
    problem = _Problem(result, form, expr, var, target, const, upper)
    for i, point in enumerate(points):
        agent = f" (agent {i})" if n_el > 1 else ""
        answers[i] = _solve_scalar(problem, point, f"{name}{agent}")
    if np.isinf(answers).any():
        _unreachable(problem, points, answers, name)
    value: Any = float(answers[0]) if not shape else answers.reshape(shape)
    used = {n: vals[n] for n in result.inputs(form, part_key) if n != var}
    return Evaluation(result.id, f.name, value, f.hidden_constants, used, derived,
                      solved_for=var, target=target,
                      boundary=_boundary_note(problem, points, answers))


@dataclass(frozen=True)
class _Problem:
    """What :func:`solve` inverts: the form's expression in the unknown ``var``."""

    result: Result
    form: str | None
    expr: sp.Basic
    var: str
    target: float
    const: Any
    upper: float

    @property
    def integer(self) -> bool:
        return bool(self.const.integer)

    @property
    def end(self) -> float | None:
        """The closed lower end of the unknown's domain (None: open or unbounded)."""
        return {"nonnegative": 0.0, "unit_interval": 0.0, "at_least_one": 1.0,
                "positive_integer": 1.0, "nonnegative_integer": 0.0}.get(self.const.domain)


def _search_grid(problem: _Problem) -> np.ndarray:
    """The values of the unknown that :func:`_solve_scalar` brackets on: a log grid over its
    domain, starting at the domain's closed end when it has one."""
    domain, upper = problem.const.domain, problem.upper
    if problem.integer:
        return np.unique(np.round(np.geomspace(1, upper, 4001)))
    if domain == "unit_interval":
        return np.concatenate(([0.0], np.geomspace(_LOW, 1.0, 3001)))
    if domain == "nonnegative":
        return np.concatenate(([0.0], np.geomspace(_LOW, upper, 3001)))
    if domain == "at_least_one":
        return np.geomspace(1.0, upper, 3001)
    if domain == "real":
        pos = np.geomspace(_LOW, upper, 1501)
        return np.concatenate((-pos[::-1], [0.0], pos))
    return np.geomspace(_LOW, upper, 3001)


_LOW = 1e-15
"""The smallest positive value on the bracketing grid of a real unknown."""


def _unreachable(problem: _Problem, points, answers, name: str) -> None:
    """Raise :class:`TargetUnreachable` with the floor of the form over the searched range:
    the smallest value it takes at points that satisfy the conditions."""
    grid = _search_grid(problem)
    var, target = problem.var, problem.target
    floors = np.full(len(points), np.nan)
    where = np.full(len(points), np.nan)
    for i, point in enumerate(points):
        vals = dict(point)
        vals[var] = grid
        with np.errstate(all="ignore"):
            v = np.broadcast_to(np.asarray(numeric(problem.expr, vals), dtype=float),
                                grid.shape)
            feas = (np.broadcast_to(_feasible(problem.result, problem.form, vals), grid.shape)
                    & np.isfinite(v))
        if feas.any():
            j = int(np.argmin(np.where(feas, v, np.inf)))
            floors[i], where[i] = v[j], grid[j]
    bad = np.flatnonzero(np.isinf(answers))
    i = int(bad[0])
    agent = f" (agent {i}; {bad.size} of {len(points)} agents)" if len(points) > 1 else ""
    span = f"{var} in [{grid[0]:g}, {grid[-1]:g}]"
    if np.isnan(floors[i]):
        conds = [sp.sstr(c.relation) for c in problem.result.conditions_for(problem.form)
                 if var in {s.name for s in c.relation.free_symbols}]
        msg = (f"no {span} satisfies the conditions of {name}{agent}: "
               + "; ".join(conds or ["(its value is not finite)"]))
    else:
        msg = (f"target {shown(target)} is below the floor of {name}{agent}: its smallest value "
               f"over {span} is {floors[i]:.6g} (first reached at {var}={where[i]:.6g}); "
               "choose a target above the floor")
    raise TargetUnreachable(msg, floors if len(points) > 1 else float(floors[0]))


def _ok(problem: _Problem, point, grid) -> np.ndarray:
    vals = dict(point)
    vals[problem.var] = grid
    with np.errstate(all="ignore"):
        v = np.broadcast_to(np.asarray(numeric(problem.expr, vals), dtype=float), grid.shape)
        feas = np.broadcast_to(_feasible(problem.result, problem.form, vals), grid.shape)
    return feas & np.isfinite(v) & (v <= problem.target)


def _solve_scalar(problem: _Problem, point, name: str) -> float:
    if problem.integer:
        return _solve_integer(problem, point)
    grid = _search_grid(problem)
    hit = _ok(problem, point, grid)
    if not hit.any():
        return float("inf")
    j = int(np.argmax(hit))
    if j == 0:
        if problem.end is not None and grid[0] == problem.end:
            return float(grid[0])  # the domain's closed end itself
        if grid[0] < 0:
            raise InputError(
                f"no smallest {problem.var} for {name}: the value is <= {problem.target:g} "
                f"already at {problem.var}={grid[0]:g}, the end of the range searched, and "
                f"{problem.var} is unbounded below ({DOMAINS_TEXT['real']})")
        return _towards_zero(problem, point, float(grid[0]), name)
    lo, hi = float(grid[j - 1]), float(grid[j])
    if lo == 0.0:
        return _towards_zero(problem, point, hi, name)
    return _bisect(problem, point, lo, hi)


def _towards_zero(problem: _Problem, point, hi: float, name: str) -> float:
    """The crossing in (0, hi], where ``hi`` meets the target and 0 does not (or is not in
    the domain): searched on a log grid down to the smallest normal float. Refused when the
    target is met all the way down, or down to where the value overflows (the crossing, if
    there is one, lies below the floating-point range)."""
    tiny = float(np.finfo(float).tiny)
    grid = np.geomspace(tiny, hi, 700)
    vals = dict(point)
    vals[problem.var] = grid
    with np.errstate(all="ignore"):
        v = np.broadcast_to(np.asarray(numeric(problem.expr, vals), dtype=float), grid.shape)
    hit = _ok(problem, point, grid)
    j = int(np.argmax(hit))
    if j == 0 or not np.isfinite(v[j - 1]):
        at_zero = ("is not in its domain" if problem.end is None else
                   "gives no finite value within the conditions")
        low = grid[j]
        raise InputError(
            f"no smallest {problem.var} for {name}: every {problem.var} > 0 down to "
            f"{low:.3g} gives a value <= {problem.target:g} (below it the value is not "
            f"representable), and {problem.var} = 0 {at_zero}: the infimum 0 is not attained")
    return _bisect(problem, point, float(grid[j - 1]), float(grid[j]))


def _bisect(problem: _Problem, point, lo: float, hi: float) -> float:
    """Bisect between ``lo`` (misses the target) and ``hi`` (meets it)."""
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        if _ok(problem, point, np.array([mid]))[0]:
            hi = mid
        else:
            lo = mid
        if hi - lo <= 1e-13 * abs(hi):
            break
    return float(hi)


def _solve_integer(problem: _Problem, point) -> float:
    """The smallest integer that meets the target: every integer up to 10^7 in turn (in
    chunks that grow from 1024 to 10^6, so that a small answer costs a small evaluation),
    then a geometric grid and bisection beyond."""
    scan = 10**7
    chunk = 10**6
    size = 1024
    start = int(problem.end if problem.end is not None else 1)
    upper = problem.upper
    while start <= min(scan, upper):
        grid = np.arange(start, min(start + size, scan + 1), dtype=float)
        hit = _ok(problem, point, grid)
        if hit.any():
            return float(grid[np.argmax(hit)])
        start += size
        size = min(32 * size, chunk)
    geo = np.unique(np.round(np.geomspace(scan, upper, 400)))
    hit = _ok(problem, point, geo)
    if not hit.any():
        return float("inf")
    j = int(np.argmax(hit))
    lo, hi = geo[j - 1], geo[j]
    while hi - lo > 1:
        mid = np.floor((lo + hi) / 2)
        if _ok(problem, point, np.array([mid]))[0]:
            hi = mid
        else:
            lo = mid
    return float(hi)


def _boundary_note(problem: _Problem, points, answers) -> str:
    """Say so when an answer is the closed end of the unknown's domain: no smaller value is
    an instance, and the value there already meets the target."""
    end = problem.end
    if end is None:
        return ""
    at = np.flatnonzero(answers == end)
    if at.size == 0:
        return ""
    vals = dict(points[int(at[0])])
    vals[problem.var] = np.asarray(end)
    with np.errstate(all="ignore"):
        v = float(np.asarray(numeric(problem.expr, vals), dtype=float))
    who = "" if len(points) == 1 else (
        f" for agent{'s' if at.size > 1 else ''} {', '.join(str(int(i)) for i in at[:6])}"
        + (", ..." if at.size > 6 else ""))
    return (f"the end of {problem.var}'s domain, {DOMAINS_TEXT[problem.const.domain]}{who}: "
            f"the value there, {v:.6g}, is already <= {problem.target:g}, and no smaller "
            f"{problem.var} is in the domain")
