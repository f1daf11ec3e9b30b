"""Admissible input points of a result, and the hypotheses a point violates.

A result's hypotheses (:func:`~pflbounds.symbolic.evaluate.hypotheses`) are the domains of
its inputs, the instance relations of its paper over those inputs (``mu <= L``) and its side
conditions. :func:`violated` says, for arrays of candidate points, which of them each
hypothesis refuses; :func:`admissible_point` finds one point that satisfies all of them,
from the result's declared ``example`` or by a seeded random search over the domains; and
:func:`violating_point` moves one input of an admissible point so that exactly one chosen
hypothesis fails, which is how the tests show that every declared hypothesis is enforced.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from pflbounds.symbolic.constants import get_constant
from pflbounds.symbolic.evaluate import Hypothesis, hypotheses, numeric
from pflbounds.symbolic.numeric import holds
from pflbounds.symbolic.result import Result

_SCALES = (1e-6, 1e-3, 0.1, 0.5, 0.9, 0.99, 1.01, 1.1, 2.0, 10.0, 1e3, 1e6)
_SPECIAL = (0.0, 1.0, 0.5, 2.0, 1e-9, 1 - 1e-9, np.inf)


def _domain_mask(name: str, paper: str, values: np.ndarray) -> np.ndarray:
    c = get_constant(name, paper)
    try:
        c.check_value(values)
        return np.ones(np.shape(values), dtype=bool)
    except ValueError:
        pass
    return np.array([_in_domain(c, float(v)) for v in np.ravel(values)]).reshape(
        np.shape(values))


def _in_domain(c: Any, v: float) -> bool:
    try:
        c.check_value(v)
        return True
    except ValueError:
        return False


def violated(result: Result, form: str | None, values: Mapping[str, Any],
             hyps: list[Hypothesis] | None = None) -> dict[int, np.ndarray]:
    """For each hypothesis (by index in ``hyps``), a boolean array: True where the point
    violates it. ``values`` may hold arrays (candidate points, broadcast together)."""
    hyps = hypotheses(result, form) if hyps is None else hyps
    shape = np.broadcast(*[np.asarray(v, dtype=float) for v in values.values()]).shape
    out: dict[int, np.ndarray] = {}
    by_text = _relations_by_text(result, form)
    for i, h in enumerate(hyps):
        if h.kind == "domain":
            n = h.names[0]
            bad = ~_domain_mask(n, result.paper, np.asarray(values[n], dtype=float))
        else:
            rel = by_text[(h.kind, h.text)]
            with np.errstate(all="ignore"):
                ok, lhs, rhs = holds(rel, values)
                bad = ~np.asarray(ok) | np.isnan(lhs) | np.isnan(rhs)
        out[i] = np.broadcast_to(bad, shape)
    return out


def _relations_by_text(result: Result, form: str | None) -> dict[tuple[str, str], Any]:
    import sympy as sp

    from pflbounds.symbolic.catalog import applicable_relations

    out = {("instance", sp.sstr(r.relation)): r.relation
           for r in applicable_relations(result, form)}
    out.update({("condition", sp.sstr(c.relation)): c.relation
                for c in result.conditions_for(form)})
    return out


def _sample(name: str, paper: str, n: int, rng: np.random.Generator) -> np.ndarray:
    """Candidate values of one input, drawn over its domain (log-uniform for magnitudes)."""
    c = get_constant(name, paper)
    if c.domain == "unit_interval":
        v = rng.uniform(0.0, 1.0, n)
    elif c.domain == "real":
        v = rng.uniform(-10.0, 10.0, n)
    elif c.integer:
        v = np.round(np.exp(rng.uniform(0.0, np.log(2000.0), n)))
        if c.domain == "nonnegative_integer":
            v = v - (rng.uniform(size=n) < 0.1)
    else:
        v = np.exp(rng.uniform(np.log(1e-3), np.log(1e3), n))
        if c.domain == "at_least_one":  # its boundary 1 is a common case (rho(W) = 1)
            v = np.where(rng.uniform(size=n) < 0.2, 1.0, 1.0 + v)
        elif c.domain == "nonnegative":
            v = np.where(rng.uniform(size=n) < 0.1, 0.0, v)
    return v


def admissible_point(result: Result, form: str | None = None, *, seed: int = 0,
                     candidates: int = 20000) -> dict[str, float] | None:
    """An input point of ``result`` (one form) that satisfies every hypothesis and gives a
    finite value: the declared example when it does, else the first of ``candidates``
    seeded random points that does; None when neither does."""
    names = result.inputs(form)
    hyps = hypotheses(result, form)
    if result.example and all(n in result.example for n in names):
        point = {n: float(result.example[n]) for n in names}
        if _admissible(result, form, point, hyps).all():
            return point
    rng = np.random.default_rng(seed)
    cand = {n: _sample(n, result.paper, candidates, rng) for n in names}
    ok = _admissible(result, form, cand, hyps)
    if not ok.any():
        return None
    j = int(np.argmax(ok))
    return {n: float(cand[n][j]) for n in names}


def _admissible(result: Result, form: str | None, values: Mapping[str, Any],
                hyps: list[Hypothesis]) -> np.ndarray:
    bad = violated(result, form, values, hyps)
    shape = np.broadcast(*[np.asarray(v, dtype=float) for v in values.values()]).shape
    ok = np.ones(shape, dtype=bool)
    for b in bad.values():
        ok &= ~b
    f = result.form(form)
    with np.errstate(all="ignore"):
        for e in f.exprs.values():
            ok &= np.broadcast_to(np.isfinite(np.asarray(numeric(e, values), dtype=float)),
                                  shape)
    return ok


def violating_point(result: Result, form: str | None, point: Mapping[str, float],
                    index: int, hyps: list[Hypothesis] | None = None
                    ) -> tuple[dict[str, float] | None, bool]:
    """Move one input of the admissible ``point`` so that hypothesis ``index`` fails.

    Returns ``(point, alone)``: ``alone`` is True when every other hypothesis still holds
    there (the refusal can then only come from this one); ``(None, False)`` when no move of
    one input violates it."""
    hyps = hypotheses(result, form) if hyps is None else hyps
    h = hyps[index]
    fallback = None
    for name in h.names:
        base = float(point[name])
        trials = sorted({base * s for s in _SCALES} | set(_SPECIAL) | {-abs(base) - 1.0})
        vals = dict(point)
        vals[name] = np.array(trials)
        bad = violated(result, form, vals, hyps)
        mine = bad[index]
        others = np.zeros_like(mine)
        for i, b in bad.items():
            if i != index:
                others |= b
        alone = mine & ~others
        if alone.any():
            j = int(np.argmax(alone))
            return {**point, name: float(trials[j])}, True
        if fallback is None and mine.any():
            j = int(np.argmax(mine))
            fallback = {**point, name: float(trials[j])}
    return fallback, False
