"""Max, Min, exp, log, ceiling and conditions built unevaluated (a fast import) are the
expressions sympy's usual construction gives: for every result of every paper, rebuilding each
one evaluated changes nothing."""

from __future__ import annotations

import sympy as sp

from pflbounds.symbolic import catalog
from pflbounds.symbolic.unevaluated import Ge, Gt, Le, Lt, Max, Min, ceiling, exp, log

FOLDED = (sp.Max, sp.Min, sp.exp, sp.log, sp.ceiling)
"""The functions the papers build unevaluated."""


def _conditions(r):
    yield from r.conditions
    for f in r.forms.values():
        yield from f.conditions


def test_helpers_build_what_sympy_builds_when_nothing_simplifies():
    x, y = sp.symbols("x y", positive=True)
    assert Max(x, 2 * y) == sp.Max(x, 2 * y) and Min(x, 1 / y) == sp.Min(x, 1 / y)
    assert [Le(x, y), Lt(x, y), Ge(x, y), Gt(x, y)] == [x <= y, x < y, x >= y, x > y]
    # where sympy would simplify, the unevaluated form keeps what was written: the test below
    # is what guarantees that no encoded formula is such a case
    assert [exp(-x / y), log(2 * x), ceiling(x / y)] == [sp.exp(-x / y), sp.log(2 * x),
                                                         sp.ceiling(x / y)]
    assert Max(x, x + 1) != sp.Max(x, x + 1) and Gt(x + 1, x) is not sp.true
    assert log(exp(x)) != sp.log(sp.exp(x)) and ceiling(sp.Integer(2)) != 2


def test_every_max_min_and_condition_of_every_paper_is_already_in_sympy_form():
    checked = 0
    for r in catalog.results():
        for f in r.forms.values():
            for e in f.exprs.values():
                for node in e.atoms(*FOLDED):
                    assert type(node)(*node.args) == node, (r.id, f.name, node)
                    checked += 1
        for c in _conditions(r):
            rel = c.relation
            if isinstance(rel, sp.core.relational.Relational):
                assert type(rel)(*rel.args) == rel, (r.id, c)
                checked += 1
            for node in rel.atoms(*FOLDED):
                assert type(node)(*node.args) == node, (r.id, c, node)
    assert checked > 150
