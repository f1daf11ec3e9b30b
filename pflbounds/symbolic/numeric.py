"""Expressions as numbers: the compiled (lambdified, cached) form of an expression, its value
on numbers or arrays with the floating-point events met, the side conditions it is
evaluated under, the errors of a bad input and the record of an evaluation."""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import sympy as sp

from pflbounds.shown import LARGEST, shown
from pflbounds.symbolic.hidden import strip_hidden
from pflbounds.symbolic.result import Condition


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
        shown_in = ", ".join(f"{n}={value_text(v)}" for n, v in inputs.items())
        raise InputError(f"{label} overflows double precision{where}: its value exceeds "
                         f"{LARGEST:.1e} at {shown_in}; rescale the units of the inputs")
    raise InputError(f"{label} is infinite{at}{where} (a division by zero in its formula)")


def value_text(v: Any, exact: bool = True) -> str:
    """A value in a message: a number with enough digits to show why it fails
    (``eta=0.25000001``; ``exact=False``, for a computed value: six digits), an array by its
    first entries (four digits)."""
    a = np.asarray(v, dtype=float)
    if a.ndim == 0:
        return shown(a) if exact else f"{float(a):.6g}"
    return "[" + ", ".join(f"{x:.4g}" for x in a.ravel()[:6]) + (", ...]" if a.size > 6 else "]")


def holds(rel: sp.Basic, values: Mapping[str, Any]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
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
        ok, lhs, rhs = holds(rel, values)
        if not np.all(ok):
            used = sorted(s.name for s in rel.free_symbols)
            given = ", ".join(f"{n}={value_text(values[n])}" for n in used)
            where = ""
            if np.ndim(ok) > 0:
                idx = int(np.flatnonzero(~np.asarray(ok))[0])
                where = f" (first at index {idx})"
            label = f" [{c.label}]" if c.label else ""
            raise HypothesisError(
                f"condition {sp.sstr(rel)}{label} fails{where}: {given} "
                f"({sides(lhs, rhs)})"
            )


def sides(lhs: np.ndarray, rhs: np.ndarray) -> str:
    """The two sides of a failed condition: six digits, or all the digits it takes to tell
    them apart (left side 0.50000001, right side 0.5)."""
    if np.ndim(lhs) == 0 and np.ndim(rhs) == 0:
        a, b = f"{float(lhs):.6g}", f"{float(rhs):.6g}"
        if a == b:
            a, b = shown(lhs), shown(rhs)
        return f"left side {a}, right side {b}"
    return f"left side {value_text(lhs, False)}, right side {value_text(rhs, False)}"


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
