"""The inputs of a result's form: completed from matrices by its derivations, checked
against each constant's domain and the instance relations, and the hypotheses an input
point must satisfy."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import sympy as sp

from pflbounds.symbolic.catalog import applicable_relations
from pflbounds.symbolic.constants import get_constant
from pflbounds.symbolic.numeric import InputError, holds, sides, value_text
from pflbounds.symbolic.result import Derivation, InstanceRelation, Result


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
            f"{dv.symbol}={value_text(given)} conflicts with {' and '.join(dv.needs)}, which "
            f"give {dv.symbol}={value_text(implied, exact=False)} ({dv.description}): give "
            f"{dv.symbol} or {' and '.join(dv.needs)}, not both"
        )


def check_relations(relations: list[InstanceRelation], values: Mapping[str, Any]) -> None:
    """Raise :class:`InputError` on the first instance relation that the given values
    violate (relations with a symbol not given are skipped): the point describes no instance,
    and the message says why."""
    for r in relations:
        if not r.symbols <= set(values):
            continue
        ok, lhs, rhs = holds(r.relation, values)
        if np.all(ok):
            continue
        rel = r.relation
        names = [str(rel.lhs), str(rel.rhs)]
        if all(isinstance(side, sp.Symbol) for side in (rel.lhs, rel.rhs)):
            negated = {"<=": ">", "<": ">=", ">=": "<", ">": "<=", "==": "!="}[rel.rel_op]
            head = (f"{names[0]}={value_text(values[names[0]])} {negated} "
                    f"{names[1]}={value_text(values[names[1]])}")
        else:
            used = sorted(r.symbols)
            given = ", ".join(f"{n}={value_text(values[n])}" for n in used)
            label = f" [{r.label}]" if r.label else ""
            head = f"{sp.sstr(rel)}{label} fails: {given} ({sides(lhs, rhs)})"
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
