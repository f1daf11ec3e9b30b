"""Numerical operations on results: evaluate, solve (inversion, :mod:`pflbounds.symbolic.
solver`), elasticities.

Evaluation is vectorised over numpy arrays through cached ``lambdify``. Inputs are checked
against each constant's domain and against the result's side conditions; a violated
condition raises :class:`HypothesisError` naming the condition and the values that broke it.
Hidden constants (O-notation) are set to one and reported, never silently.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import sympy as sp

from pflbounds.shown import shown
from pflbounds.symbolic.hidden import strip_hidden
from pflbounds.symbolic.inputs import (
    Hypothesis,
    check_relations,
    hypotheses,
    resolve_inputs,
)
from pflbounds.symbolic.numeric import (
    Evaluation,
    HypothesisError,
    InputError,
    TargetUnreachable,
    check_conditions,
    numeric,
    numeric_flags,
    require_finite,
)
from pflbounds.symbolic.result import Result
from pflbounds.symbolic.solver import solve

__all__ = [
    "Evaluation", "Hypothesis", "HypothesisError", "InputError", "TargetUnreachable",
    "check_conditions", "check_relations", "elasticities", "evaluate", "hypotheses", "numeric",
    "numeric_flags", "require_finite", "resolve_inputs", "solve",
]


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
