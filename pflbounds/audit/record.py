"""Which formulas a check evaluates, on which inputs; and runs with a formula substituted.

Checks compute their bounds by evaluating catalog results (:func:`pflbounds.symbolic.catalog.get`
then :func:`pflbounds.symbolic.evaluate.evaluate` or ``numeric``). Every evaluation goes
through the compiled (lambdified) form of the expression
(:func:`pflbounds.symbolic.numeric.numeric_flags`), so recording the calls of the
compiled functions of known expressions tells which forms a check uses and with which inputs,
whatever path the check takes to them. A substituted result (a mutated form) is served by
the catalog for the duration of a run (:func:`pflbounds.symbolic.catalog.replaced`); the
compile cache is keyed by the expression, so a new expression is compiled afresh.
"""

from __future__ import annotations

import contextlib
import dataclasses
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import sympy as sp

import pflbounds.symbolic.numeric as _numeric
from pflbounds.symbolic import catalog
from pflbounds.symbolic.result import Result


@dataclass(frozen=True, order=True)
class FormKey:
    """One expression of a result: its id, the form, and the part (``""`` for single-part
    forms)."""

    result_id: str
    form: str
    part: str = ""

    def __str__(self) -> str:
        return f"{self.result_id} [{self.form}{':' + self.part if self.part else ''}]"

    def expr(self) -> sp.Basic:
        return catalog.get(self.result_id).form(self.form).exprs[self.part]


def paper_forms(paper: str) -> dict[sp.Basic, list[FormKey]]:
    """Every expression of every result of ``paper``, mapped to the forms that hold it."""
    out: dict[sp.Basic, list[FormKey]] = {}
    for r in catalog.results(paper):
        for name, f in r.forms.items():
            for part, e in f.exprs.items():
                out.setdefault(e, []).append(FormKey(r.id, name, part))
    return out


Calls = list[tuple[FormKey, dict[str, np.ndarray]]]


@contextlib.contextmanager
def distinct_forms(paper: str) -> Iterator[dict[sp.Basic, list[FormKey]]]:
    """:func:`paper_forms` with one form per expression: where several forms hold the same
    expression (a corrected form equal to another result's), the others are served for the
    duration of the block as an unevaluated product with 1, which evaluates to the same
    numbers but is a distinct expression, so that a recorded evaluation names its form."""
    tracked: dict[sp.Basic, list[FormKey]] = {}
    swaps: dict[str, Result] = {}
    for expr, keys in paper_forms(paper).items():
        tracked[expr] = [keys[0]]
        for n, key in enumerate(keys[1:], start=1):
            tagged = sp.Mul(expr, *([sp.Integer(1)] * n), evaluate=False)
            r = swaps.get(key.result_id, catalog.get(key.result_id))
            swaps[key.result_id] = with_expression(r, key, tagged)
            tracked[tagged] = [key]
    with contextlib.ExitStack() as stack:
        for r in swaps.values():
            stack.enter_context(catalog.replaced(r))
        yield tracked


@contextlib.contextmanager
def recording(tracked: Mapping[sp.Basic, Sequence[FormKey]]) -> Iterator[Calls]:
    """Record every evaluation of a tracked expression made inside the block: yields a list
    that fills with ``(key, inputs)`` pairs (inputs by name, as numpy arrays)."""
    calls: Calls = []
    original = _numeric._compile

    def compile_and_record(expr: sp.Basic):
        fn, names = original(expr)
        keys = tracked.get(expr)
        if not keys:
            return fn, names

        def recorded(*args):
            vals = {n: np.array(a, dtype=float, copy=True) for n, a in zip(names, args,
                                                                             strict=True)}
            calls.extend((k, vals) for k in keys)
            return fn(*args)

        return recorded, names

    _numeric._compile = compile_and_record
    try:
        yield calls
    finally:
        _numeric._compile = original


def with_expression(result: Result, key: FormKey, expr: sp.Basic) -> Result:
    """A copy of ``result`` whose form ``key.form`` (part ``key.part``) is ``expr``."""
    form = result.form(key.form)
    if form.parts is None:
        new_form = dataclasses.replace(form, expr=expr)
    else:
        new_form = dataclasses.replace(form, parts={**form.parts, key.part: expr})
    return dataclasses.replace(result, forms={**result.forms, key.form: new_form})


def keeping_inputs(original: sp.Basic, expr: sp.Basic) -> sp.Basic:
    """``expr``, with the inputs of ``original`` it lost kept as inputs: a mutant that drops
    the only term holding a symbol would otherwise make every evaluation that passes that
    input fail (an unexpected input), so that no check ever ran it. The lost symbols enter
    as ``0 * original``, unevaluated: the same value wherever the original is finite, and
    the same units, so the dimension check reads the mutant's units."""
    if original.free_symbols <= expr.free_symbols:
        return expr
    return sp.Add(expr, sp.Mul(sp.Integer(0), original, evaluate=False), evaluate=False)


@contextlib.contextmanager
def substituted(key: FormKey, expr: sp.Basic) -> Iterator[Calls]:
    """Serve ``expr`` as the form ``key`` while the block runs (with the form's inputs, see
    :func:`keeping_inputs`); yields the record of the evaluations of ``expr`` (empty
    afterwards if nothing evaluated it)."""
    result = catalog.get(key.result_id)
    served = keeping_inputs(key.expr(), expr)
    with catalog.replaced(with_expression(result, key, served)), \
            recording({served: [key]}) as calls:
        yield calls
