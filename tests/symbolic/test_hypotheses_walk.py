"""Every hypothesis that a result declares is enforced: for every result and form of every
paper, an admissible point is found (the declared example, or a seeded search over the
domains), evaluation succeeds there, and for each declared hypothesis (an input's domain, an
instance relation such as mu <= L, a side condition) one input is moved so that the
hypothesis fails: evaluation must then refuse the point, naming the hypothesis. A form
encoded as printed whose hypotheses contradict each other (a paper error, recorded as an
erratum) declares it in its result's ``extra["unsatisfiable"]``: no point may satisfy it.
"""

from __future__ import annotations

import numpy as np
import pytest
import sympy as sp

from pflbounds.symbolic import HypothesisError, InputError, evaluate, results
from pflbounds.symbolic.admissible import admissible_point, violating_point
from pflbounds.symbolic.evaluate import hypotheses


def _cases():
    for r in results():
        for f in r.forms:
            yield pytest.param(r, f, id=f"{r.id}[{f}]")


CASES = list(_cases())


def _refusal(r, f, point) -> str | None:
    try:
        evaluate(r, f, **point)
    except (HypothesisError, InputError) as e:
        return str(e)
    return None


@pytest.mark.parametrize(("r", "f"), CASES)
def test_every_declared_hypothesis_is_refused_when_violated(r, f):
    point = admissible_point(r, f)
    unsatisfiable = r.extra.get("unsatisfiable", {})
    if f in unsatisfiable:
        # a form encoded as printed whose hypotheses contradict each other (an erratum says
        # so): it must refuse every point, and the declaration must name that erratum
        assert point is None, (
            f"{r.id} [{f}] is declared unsatisfiable ({unsatisfiable[f]}) but {point} "
            "satisfies every hypothesis")
        assert any(e.id in unsatisfiable[f] for e in r.errata), (
            f"{r.id} [{f}]: an unsatisfiable form must name the erratum that says why")
        return
    assert point is not None, (
        f"{r.id} [{f}]: no admissible point found; declare an example= that satisfies "
        "every hypothesis of every form")
    ev = evaluate(r, f, **point)
    for v in (ev.value.values() if isinstance(ev.value, dict) else [ev.value]):
        assert np.all(np.isfinite(v)), f"{r.id} [{f}] is not finite at {point}"
    hyps = hypotheses(r, f)
    for i, h in enumerate(hyps):
        bad, alone = violating_point(r, f, point, i, hyps)
        assert bad is not None, (
            f"{r.id} [{f}]: no move of one input violates {h.kind} {h.text!r} from {point}: "
            "a hypothesis that never binds")
        msg = _refusal(r, f, bad)
        assert msg is not None, f"{r.id} [{f}]: {h.kind} {h.text!r} violated at {bad}, accepted"
        if alone:
            if h.kind == "domain":
                name = h.names[0]
                assert name in msg and "domain" in msg, msg
            elif h.kind == "instance":
                assert h.reason in msg, msg
            else:
                assert h.text in msg, msg


def test_every_instance_relation_binds_in_its_paper():
    """An instance relation over symbols no result uses is dead code."""
    from pflbounds.symbolic.catalog import instance_relations, papers

    for p in papers():
        used = set()
        for r in results(p):
            for f in r.forms:
                used |= {sp.sstr(x.relation) for x in _instance(r, f)}
        for rel in instance_relations(p):
            if rel.paper == p:
                assert sp.sstr(rel.relation) in used, f"{p}: relation {rel} is used by no result"


def _instance(r, f):
    from pflbounds.symbolic.catalog import applicable_relations

    return applicable_relations(r, f)
