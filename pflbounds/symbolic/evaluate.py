"""Numerical operations on results: evaluate, solve (inversion), elasticities.

Evaluation is vectorised over numpy arrays through cached ``lambdify``. Inputs are checked
against each constant's domain and against the result's side conditions; a violated
condition raises :class:`HypothesisError` naming the condition and the values that broke it.
Hidden constants (O-notation) are set to one and reported, never silently.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import sympy as sp

from pflbounds.shown import LARGEST, shown
from pflbounds.symbolic.catalog import applicable_relations
from pflbounds.symbolic.constants import DOMAINS as DOMAINS_TEXT
from pflbounds.symbolic.constants import get_constant
from pflbounds.symbolic.hidden import strip_hidden
from pflbounds.symbolic.result import Condition, Derivation, InstanceRelation, Result


class HypothesisError(ValueError):
    """An input lies outside a side condition of the result."""


class InputError(ValueError):
    """A missing, unknown, conflicting or out-of-domain input.

    ``missing`` names the inputs that were needed and not given (empty for other errors).
    """

    def __init__(self, message: str, missing: tuple[str, ...] = ()) -> None:
        super().__init__(message)
        self.missing = tuple(missing)


class TargetUnreachable(InputError):
    """``solve``: no value of the unknown brings the form down to the target.

    ``floor`` is the smallest value the form takes over the range searched (per agent for
    per-agent inputs; ``nan`` where no point of the range satisfies the conditions).
    """

    def __init__(self, message: str, floor: Any) -> None:
        super().__init__(message)
        self.floor = floor


def _heaviside(x, h0=0.5):
    return np.heaviside(np.asarray(x, dtype=float), h0)


# the numpy module itself, not the name "numpy": lambdify would run `from numpy import *`,
# which imports numpy's lazy submodules (about 0.15 s of every cold start); same printer,
# same functions
_MODULES = [{"Heaviside": _heaviside, "ceiling": np.ceil, "floor": np.floor}, np]


@functools.lru_cache(maxsize=4096)
def _compile(expr: sp.Basic) -> tuple[Any, tuple[str, ...]]:
    e = strip_hidden(expr)
    names = tuple(sorted(s.name for s in e.free_symbols))
    syms = [sp.Symbol(n) for n in names]
    # rebuild with plain symbols so that lambdify's argument order is ours
    plain = e.xreplace({s: sp.Symbol(s.name) for s in e.free_symbols})
    fn = sp.lambdify(syms, plain, modules=_MODULES)
    return fn, names


def numeric(expr: sp.Basic, values: Mapping[str, Any]) -> np.ndarray | float:
    """Evaluate an expression (hidden constants set to 1) on numbers or arrays."""
    return numeric_flags(expr, values)[0]


def numeric_flags(expr: sp.Basic, values: Mapping[str, Any]
                  ) -> tuple[np.ndarray | float, set[str]]:
    """:func:`numeric`, with the floating-point events met on the way (numpy's names:
    ``overflow``, ``divide by zero``, ``invalid value``, ``underflow``); none is warned."""
    fn, names = _compile(expr)
    missing = [n for n in names if n not in values]
    if missing:
        raise InputError(f"missing input(s) {', '.join(missing)} for {sp.sstr(expr)}")
    flags: set[str] = set()
    with np.errstate(all="call", call=lambda kind, _flag: flags.add(kind)):
        out = fn(*[np.asarray(values[n], dtype=float) for n in names])
        out = np.asarray(out, dtype=float)
    return (float(out) if out.ndim == 0 else out), flags


def require_finite(label: str, value: Any, flags: set[str], inputs: Mapping[str, Any]) -> None:
    """Raise :class:`InputError` when ``value`` (of ``label``, e.g. ``even2022.lemma4
    [printed]``) is not finite at finite ``inputs``: an overflow of double precision, or a
    value undefined (0/0) or infinite (x/0) there, naming the inputs that are 0."""
    a = np.asarray(value, dtype=float)
    bad = ~np.isfinite(a)
    if not bad.any():
        return
    idx = int(np.flatnonzero(bad.ravel())[0])
    where = f" (first at index {idx})" if a.ndim else ""
    first = a.ravel()[idx]
    zeros = [n for n, v in inputs.items() if np.ndim(v) == 0 and float(v) == 0.0
             or np.ndim(v) and np.any(np.asarray(v, dtype=float) == 0.0)]
    at = f" at {', '.join(f'{n}=0' for n in zeros)}" if zeros else " at these inputs"
    if np.isnan(first):
        raise InputError(f"{label} is undefined{at}{where} (a 0/0 or inf - inf in its "
                         "formula)")
    if "overflow" in flags and not zeros:
        shown_in = ", ".join(f"{n}={_fmt(v)}" for n, v in inputs.items())
        raise InputError(f"{label} overflows double precision{where}: its value exceeds "
                         f"{LARGEST:.1e} at {shown_in}; rescale the units of the inputs")
    raise InputError(f"{label} is infinite{at}{where} (a division by zero in its formula)")


def _fmt(v: Any, exact: bool = True) -> str:
    """A value in a message: a number with enough digits to show why it fails
    (``eta=0.25000001``; ``exact=False``, for a computed value: six digits), an array by its
    first entries (four digits)."""
    a = np.asarray(v, dtype=float)
    if a.ndim == 0:
        return shown(a) if exact else f"{float(a):.6g}"
    return "[" + ", ".join(f"{x:.4g}" for x in a.ravel()[:6]) + (", ...]" if a.size > 6 else "]")


def _holds(rel: sp.Basic, values: Mapping[str, Any]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Elementwise truth of a relation (with a 1e-12 relative tolerance on non-strict ones),
    and its two evaluated sides."""
    lhs = np.asarray(numeric(rel.lhs, values), dtype=float)
    rhs = np.asarray(numeric(rel.rhs, values), dtype=float)
    tol = 1e-12 * np.maximum(np.abs(lhs), np.abs(rhs))
    ops = {
        "<=": lambda: lhs <= rhs + tol,
        "<": lambda: lhs < rhs,
        ">=": lambda: lhs + tol >= rhs,
        ">": lambda: lhs > rhs,
        "==": lambda: np.abs(lhs - rhs) <= tol,
    }
    if rel.rel_op not in ops:  # pragma: no cover - other relations are not used
        raise ValueError(f"unsupported relation {rel.rel_op}")
    ok = np.broadcast_to(ops[rel.rel_op](), np.broadcast(lhs, rhs).shape)
    return ok, lhs, rhs


def check_conditions(conds: tuple[Condition, ...], values: Mapping[str, Any]) -> None:
    """Raise :class:`HypothesisError` on the first violated condition."""
    for c in conds:
        rel = c.relation
        ok, lhs, rhs = _holds(rel, values)
        if not np.all(ok):
            used = sorted(s.name for s in rel.free_symbols)
            given = ", ".join(f"{n}={_fmt(values[n])}" for n in used)
            where = ""
            if np.ndim(ok) > 0:
                idx = int(np.flatnonzero(~np.asarray(ok))[0])
                where = f" (first at index {idx})"
            label = f" [{c.label}]" if c.label else ""
            raise HypothesisError(
                f"condition {sp.sstr(rel)}{label} fails{where}: {given} "
                f"({_sides(lhs, rhs)})"
            )


def _sides(lhs: np.ndarray, rhs: np.ndarray) -> str:
    """The two sides of a failed condition: six digits, or all the digits it takes to tell
    them apart (left side 0.50000001, right side 0.5)."""
    if np.ndim(lhs) == 0 and np.ndim(rhs) == 0:
        a, b = f"{float(lhs):.6g}", f"{float(rhs):.6g}"
        if a == b:
            a, b = shown(lhs), shown(rhs)
        return f"left side {a}, right side {b}"
    return f"left side {_fmt(lhs, False)}, right side {_fmt(rhs, False)}"


@dataclass
class Evaluation:
    """The outcome of :func:`evaluate` or :func:`solve`."""

    id: str
    form: str
    value: Any
    hidden_constants: list[str]
    inputs: dict[str, Any]
    derived: dict[str, str] = field(default_factory=dict)
    solved_for: str | None = None
    target: float | None = None
    boundary: str = ""
    """``solve``: why the answer is the closed end of the unknown's domain (empty when not)."""

    def to_json(self) -> dict[str, Any]:
        def conv(v: Any) -> Any:
            if isinstance(v, dict):
                return {k: conv(x) for k, x in v.items()}
            a = np.asarray(v)
            if a.dtype.kind in "fiub":
                if a.ndim == 0:
                    x = float(a)
                    return x if np.isfinite(x) else str(x)
                return [conv(x) for x in a]
            return v

        out = {
            "id": self.id,
            "form": self.form,
            "value": conv(self.value),
            "hidden_constants": self.hidden_constants,
            "inputs": conv(self.inputs),
        }
        if self.derived:
            out["derived"] = self.derived
        if self.solved_for:
            out["solved_for"] = self.solved_for
            out["target"] = self.target
        if self.boundary:
            out["boundary"] = self.boundary
        return out


def resolve_inputs(
    result: Result,
    form: str | None,
    values: Mapping[str, Any],
    matrices: Mapping[str, Any] | None = None,
    *,
    strict: bool = True,
    free: tuple[str, ...] = (),
    part: str | None = None,
) -> tuple[dict[str, Any], dict[str, str]]:
    """Complete scalar inputs with the result's derivations from matrices, and validate.

    Returns the full input mapping and a description of each derived input. With ``part``,
    only the inputs of that part of a multi-part form are needed.
    """
    needed = result.inputs(form, part)
    for n, v in values.items():
        if n in needed:
            try:
                get_constant(n, result.paper).check_value(v)
            except ValueError as e:
                raise InputError(str(e)) from None
    vals: dict[str, Any] = dict(values)
    derived: dict[str, str] = {}
    matrices = dict(matrices or {})
    fname = result.form(form).name
    for dv in result.derivations:
        if dv.forms and fname not in dv.forms:
            continue
        if dv.symbol in needed and dv.symbol in vals and all(m in matrices for m in dv.needs):
            _check_agrees(dv, matrices, vals)
            continue
        if dv.symbol in needed and dv.symbol not in vals and all(m in matrices for m in dv.needs):
            missing_uses = [u for u in dv.uses if u not in vals]
            if missing_uses:
                raise InputError(
                    f"{dv.symbol} is computed from {', '.join(dv.needs)} but also needs "
                    f"{', '.join(missing_uses)}"
                )
            vals[dv.symbol] = _derive(dv, matrices, vals)
            derived[dv.symbol] = dv.description
    if strict:
        used_by_derivations = {u for dv in result.derivations
                               if dv.symbol in derived for u in dv.uses}
        whole_form = set(result.inputs(form))  # inputs of the other parts are tolerated
        unknown = sorted(set(values) - set(needed) - set(free) - used_by_derivations
                         - whole_form)
        if unknown:
            takes = f"it needs: {', '.join(needed)}" if needed else "it takes no inputs"
            raise InputError(
                f"unexpected input(s) {', '.join(unknown)} for {result.id} "
                f"[{result.form(form).name}]; {takes}"
            )
    missing = [n for n in needed if n not in vals and n not in free]
    if missing:
        hints = []
        for n in missing:
            c = get_constant(n, result.paper)
            how = [
                dv for dv in result.derivations
                if dv.symbol == n and (not dv.forms or fname in dv.forms)
            ]
            extra = f" (or give {' and '.join(how[0].needs)})" if how else ""
            hints.append(f"{n} ({c.meaning}, unit {c.unit}){extra}")
        raise InputError(
            f"{result.id} [{result.form(form).name}] needs: " + "; ".join(hints), missing
        )
    for n, v in vals.items():
        if n in needed:
            get_constant(n, result.paper).check_value(v)
    check_relations(applicable_relations(result, form, part), vals)
    return vals, derived


def _derive(dv: Derivation, matrices: Mapping[str, Any], vals: Mapping[str, Any]) -> Any:
    """The value of a derivation, without numpy warnings; one that overflows double
    precision is an :class:`InputError` naming it and its matrices."""
    flags: set[str] = set()
    with np.errstate(all="call", call=lambda kind, _flag: flags.add(kind)):
        value = dv.func(matrices, vals)
    if "overflow" in flags and not np.all(np.isfinite(np.asarray(value, dtype=float))):
        raise InputError(f"{dv.symbol} ({dv.description}) computed from "
                         f"{' and '.join(dv.needs)} overflows double precision; rescale the "
                         "units of the inputs")
    return value


def _check_agrees(dv: Derivation, matrices: Mapping[str, Any], vals: Mapping[str, Any]) -> None:
    """A value given by name must agree with the one its matrices imply (``V=0.9`` together
    with a ``Lambda`` whose V_i differ is a conflict, never a silent choice)."""
    if any(u not in vals for u in dv.uses):
        return
    implied = np.asarray(_derive(dv, matrices, vals), dtype=float)
    given = np.asarray(vals[dv.symbol], dtype=float)
    try:
        same = np.allclose(given, implied, rtol=1e-9, atol=0.0)
    except ValueError:  # shapes that do not broadcast
        same = False
    if not same:
        raise InputError(
            f"{dv.symbol}={_fmt(given)} conflicts with {' and '.join(dv.needs)}, which give "
            f"{dv.symbol}={_fmt(implied, exact=False)} ({dv.description}): give {dv.symbol} or "
            f"{' and '.join(dv.needs)}, not both"
        )


def check_relations(relations: list[InstanceRelation], values: Mapping[str, Any]) -> None:
    """Raise :class:`InputError` on the first instance relation that the given values
    violate (relations with a symbol not given are skipped): the point describes no instance,
    and the message says why."""
    for r in relations:
        if not r.symbols <= set(values):
            continue
        ok, lhs, rhs = _holds(r.relation, values)
        if np.all(ok):
            continue
        rel = r.relation
        names = [str(rel.lhs), str(rel.rhs)]
        if all(isinstance(side, sp.Symbol) for side in (rel.lhs, rel.rhs)):
            negated = {"<=": ">", "<": ">=", ">=": "<", ">": "<=", "==": "!="}[rel.rel_op]
            head = (f"{names[0]}={_fmt(values[names[0]])} {negated} "
                    f"{names[1]}={_fmt(values[names[1]])}")
        else:
            used = sorted(r.symbols)
            given = ", ".join(f"{n}={_fmt(values[n])}" for n in used)
            label = f" [{r.label}]" if r.label else ""
            head = f"{sp.sstr(rel)}{label} fails: {given} ({_sides(lhs, rhs)})"
        raise InputError(f"{head}: {r.reason}")


@dataclass(frozen=True)
class Hypothesis:
    """One thing an input point of a result must satisfy: an input's domain (``domain``), a
    relation between constants that every instance satisfies (``instance``), or a side
    condition of the result or of its form (``condition``)."""

    kind: str
    text: str
    reason: str = ""
    names: tuple[str, ...] = ()


def hypotheses(result: Result, form: str | None = None) -> list[Hypothesis]:
    """Everything an input point of ``result`` (one form) must satisfy, in the order it is
    checked: each input's domain, the paper's instance relations over its inputs, then the
    side conditions."""
    from pflbounds.symbolic.constants import DOMAINS

    out = []
    for n in result.inputs(form):
        c = get_constant(n, result.paper)
        out.append(Hypothesis("domain", f"{n}: {DOMAINS[c.domain]}", c.meaning, (n,)))
    for r in applicable_relations(result, form):
        out.append(Hypothesis("instance", sp.sstr(r.relation), r.reason, tuple(sorted(r.symbols))))
    for c in result.conditions_for(form):
        names = tuple(sorted(s.name for s in c.relation.free_symbols))
        out.append(Hypothesis("condition", sp.sstr(c.relation), c.label, names))
    return out


def evaluate(
    result: Result,
    form: str | None = None,
    *,
    matrices: Mapping[str, Any] | None = None,
    strict: bool = True,
    finite: bool = False,
    **values: Any,
) -> Evaluation:
    """Evaluate a form of ``result`` on scalar or array inputs.

    ``finite``: a value that is not finite (an overflow, a 0/0, a division by zero) raises
    :class:`InputError` naming it (:func:`require_finite`) instead of being returned.

    Example: ``evaluate(get("even2022.theorem2"), "explicit", eta=0.1, mu=1, L=2, ...)``.
    """
    f = result.form(form)
    vals, derived = resolve_inputs(result, form, values, matrices, strict=strict)
    check_conditions(result.conditions_for(form), vals)
    used = {n: vals[n] for n in result.inputs(form)}
    out = {}
    for part, e in f.exprs.items():
        out[part], flags = numeric_flags(e, vals)
        if finite:
            require_finite(f"{result.id} [{f.name}{':' + part if part else ''}]", out[part],
                           flags, used)
    value = out[""] if list(out) == [""] else out
    return Evaluation(result.id, f.name, value, f.hidden_constants, used, derived)


def _feasible(result: Result, form: str | None, vals: Mapping[str, Any]) -> np.ndarray:
    """Elementwise mask of points satisfying every side condition."""
    ok = np.asarray(True)
    for c in result.conditions_for(form):
        ok = ok & _holds(c.relation, vals)[0]
    for r in applicable_relations(result, form):
        if r.symbols <= set(vals):
            ok = ok & _holds(r.relation, vals)[0]
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
    scan = 10**7
    chunk = 10**6
    start = int(problem.end if problem.end is not None else 1)
    upper = problem.upper
    while start <= min(scan, upper):
        grid = np.arange(start, min(start + chunk, scan + 1), dtype=float)
        hit = _ok(problem, point, grid)
        if hit.any():
            return float(grid[np.argmax(hit)])
        start += chunk
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


def elasticities(
    result: Result,
    form: str | None = None,
    *,
    matrices: Mapping[str, Any] | None = None,
    part: str = "",
    **values: Any,
) -> dict[str, Any]:
    """d log(form) / d log(constant) for each input, by symbolic differentiation.

    The elasticity says how sensitive the bound is to each constant: 1 means proportional,
    -1 inversely proportional. Hidden constants are set to 1 first. Floor, ceiling and step
    functions have derivative 0 between their jumps. Where an elasticity is not a number, its
    entry says why instead (``"undefined at sigma2=0"``, ``"undefined where the value is
    0"``); for array inputs such an entry replaces the number in a list.
    """
    f = result.form(form)
    if part not in f.exprs:
        parts = ", ".join(p for p in f.exprs if p)
        raise InputError(f"{result.id} [{f.name}] has parts {parts}: name the one whose "
                         "elasticities to compute with --part" if not part else
                         f"{result.id} [{f.name}] has no part {part!r}; parts: {parts}")
    expr = strip_hidden(f.exprs[part])
    vals, _ = resolve_inputs(result, form, values, matrices)
    check_conditions(result.conditions_for(form), vals)
    base, _ = numeric_flags(expr, vals)
    out: dict[str, Any] = {}
    for s in sorted(expr.free_symbols, key=lambda s: s.name):
        x = np.asarray(vals[s.name], dtype=float)
        try:
            dv, _ = numeric_flags(_derivative(expr, s), vals)
        except Exception:  # noqa: BLE001 - a derivative numpy cannot evaluate
            out[s.name] = "not available (the form is not differentiable in " + s.name + ")"
            continue
        with np.errstate(all="ignore"):
            e = np.asarray(dv, dtype=float) * x / np.asarray(base, dtype=float)
        out[s.name] = _explained(e, s.name, x, np.asarray(base, dtype=float))
    return out


def _derivative(expr: sp.Basic, s: sp.Symbol) -> sp.Basic:
    """d expr / d s, with the derivatives of step functions (DiracDelta, and those sympy
    leaves unevaluated: floor, ceiling) set to 0, their value between jumps."""
    d = sp.diff(expr, s)
    d = d.replace(lambda e: isinstance(e, sp.DiracDelta), lambda e: sp.S.Zero)
    return d.replace(lambda e: isinstance(e, sp.Derivative)
                     and isinstance(e.expr, (sp.floor, sp.ceiling, sp.Heaviside)),
                     lambda e: sp.S.Zero)


def _explained(e: np.ndarray, name: str, x: np.ndarray, base: np.ndarray) -> Any:
    """An elasticity array as a float (scalar) or list, a reason where it is not finite."""
    def why(i: int | None) -> str:
        xi = x if x.ndim == 0 else np.broadcast_to(x, e.shape).ravel()[i]
        bi = base if base.ndim == 0 else np.broadcast_to(base, e.shape).ravel()[i]
        if float(xi) == 0:
            return f"undefined at {name}=0"
        if float(bi) == 0:
            return "undefined where the value is 0"
        if not np.isfinite(bi):
            return "undefined where the value is not finite"
        return f"undefined at {name}={shown(xi)} (the derivative is not finite there)"

    if e.ndim == 0:
        return float(e) if np.isfinite(e) else why(None)
    if np.isfinite(e).all():
        return e
    return [float(v) if np.isfinite(v) else why(i) for i, v in enumerate(e.ravel())]
