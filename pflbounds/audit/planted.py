"""Planted wrong formulas: can each check of a paper see a wrong result?

For every check of a paper, the forms it evaluates are recorded on a baseline run
(:func:`pflbounds.audit.mutants.baseline_task`). Wrong formulas are then planted in their
place, one at a time: the mutation audit's mutants of the form (:mod:`pflbounds.audit.mutate`)
that differ from it on the inputs the check evaluated, at most ``per_form`` of each direction
(smaller everywhere, larger everywhere, both), the farthest from the original first (the
largest ``|log(mutant/original)|`` over those inputs).
The check runs again with its baseline seed (a Monte Carlo check sees the same samples: only
the formula moves) until its verdict changes: the check *sees* a wrong formula. A check that
evaluates no form of the paper (it compares an exponent or an identity fixed in its code), or
whose verdict no planted formula changes, cannot see one; a paper declares those checks with
the reason (``audit.BLIND_CHECKS``, :mod:`pflbounds.audit.declarations`), and
:func:`unexplained` lists the ones it leaves out (and the declared ones that do see).

The runs bypass the task cache (its keys do not include the catalog's formulas).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np
import sympy as sp

from pflbounds.audit.mutants import baseline_task, paper_checks
from pflbounds.audit.mutate import Mutant, mutants
from pflbounds.audit.record import FormKey, substituted
from pflbounds.checking import registry
from pflbounds.running.executor import run_check
from pflbounds.symbolic.evaluate import numeric

PER_FORM = 3
"""Planted formulas tried per form and direction, the farthest from the original first."""


@dataclass
class Planted:
    """What planting wrong formulas did to one check."""

    check_id: str
    grid: str
    baseline: str
    expected: str
    forms: list[str] = field(default_factory=list)
    """The forms the check evaluated on its baseline run."""
    tried: list[str] = field(default_factory=list)
    """The planted formulas run, as ``form: change``."""
    seen_by: str | None = None
    """The planted formula that changed the verdict (None: none did)."""
    changed_to: str | None = None

    @property
    def sees(self) -> bool:
        return self.seen_by is not None

    def why_blind(self) -> str:
        """Why no planted formula changed the verdict, from the runs."""
        if not self.forms:
            return "evaluates no form of its paper"
        return f"{len(self.tried)} planted formulas left its verdict {self.baseline}"


def distance(original: sp.Basic, mutant: sp.Basic,
             inputs: Sequence[Mapping[str, np.ndarray]]) -> tuple[float, int]:
    """How far ``mutant`` lies from ``original`` over the evaluated ``inputs`` (entries where
    both are finite): the largest ``|log(mutant/original)|`` (``inf`` where one is 0 or their
    signs differ, 0 when they agree everywhere, NaN when the mutant is nowhere a number), and
    its direction: -1 nowhere larger, +1 nowhere smaller, 0 both."""
    worst, smaller, larger, seen = 0.0, False, False, False
    for vals in inputs:
        with np.errstate(all="ignore"):
            o = np.asarray(numeric(original, vals), dtype=float)
            m = np.asarray(numeric(mutant, vals), dtype=float)
        o, m = np.broadcast_arrays(o, m)
        ok = np.isfinite(o) & np.isfinite(m)
        if not ok.any():
            continue
        seen = True
        o, m = o[ok], m[ok]
        moved = ~np.isclose(o, m, rtol=1e-9, atol=0.0)
        smaller |= bool(np.any(moved & (m < o)))
        larger |= bool(np.any(moved & (m > o)))
        o, m = o[moved], m[moved]
        if np.any((o == 0) | (m == 0) | (np.sign(o) != np.sign(m))):
            worst = math.inf
        elif o.size:
            worst = max(worst, float(np.max(np.abs(np.log(m / o)))))
    if not seen:
        return math.nan, 0
    return worst, (-1 if smaller and not larger else 1 if larger and not smaller else 0)


def planted_formulas(key: FormKey, inputs: Sequence[Mapping[str, np.ndarray]],
                     per_form: int = PER_FORM) -> list[Mutant]:
    """The mutants of form ``key`` that differ from it on ``inputs``: up to ``per_form``
    smaller ones (which a bound that holds should catch), larger ones (which a claim found
    to fail should catch) and mixed ones, the farthest first in each, taken in turn."""
    original = key.expr()
    groups: dict[int, list[tuple[float, int, Mutant]]] = {-1: [], 1: [], 0: []}
    for i, mu in enumerate(mutants(original)):
        try:
            d, way = distance(original, mu.expr, inputs)
        except (TypeError, ValueError, KeyError, ZeroDivisionError):
            continue
        if d > 0 and not math.isnan(d):
            groups[way].append((-d, i, mu))
    ranked = [[mu for _, _, mu in sorted(g, key=lambda t: (t[0], t[1]))[:per_form]]
              for g in groups.values()]
    return [g[j] for j in range(per_form) for g in ranked if j < len(g)]


def plant_in_check(check_id: str, paper: str, *, grid: str = "quick", seed: int = 0,
                   per_form: int = PER_FORM) -> Planted:
    """Plant wrong formulas in the forms ``check_id`` evaluates (module docstring)."""
    check = registry.get(check_id)
    grid = grid if check.quick_grid is not None else "full"
    base, records = baseline_task(check_id, grid, seed, paper)
    out = Planted(check_id, grid, base.verdict, base.expected,
                  forms=sorted(str(k) for k in records))
    for key in sorted(records):
        for mu in planted_formulas(key, records[key], per_form):
            out.tried.append(f"{key}: {mu.change}")
            with substituted(key, mu.expr), np.errstate(all="ignore"):
                o = run_check(check, quick=grid == "quick", base_seed=seed, progress=False)
            if o.verdict.value != base.verdict:
                out.seen_by, out.changed_to = f"{key}: {mu.change}", o.verdict.value
                return out
    return out


def plant_in_paper(paper: str, *, checks: Sequence[str] | None = None, grid: str = "quick",
                   seed: int = 0, per_form: int = PER_FORM) -> dict[str, Planted]:
    """:func:`plant_in_check` for every check of ``paper`` (or the ids ``checks``)."""
    ids = list(checks) if checks is not None else [c.id for c in paper_checks(paper)]
    return {cid: plant_in_check(cid, paper, grid=grid, seed=seed, per_form=per_form)
            for cid in ids}


def unexplained(found: Mapping[str, Planted], blind: Mapping[str, str]
                ) -> tuple[list[str], list[str]]:
    """The checks that see no planted formula and are not declared ``blind`` (with their
    reason), and the declared ones that do see one (their declaration is out of date)."""
    unseen = sorted(c for c, p in found.items() if not p.sees and c not in blind)
    stale = sorted(c for c, p in found.items() if p.sees and c in blind)
    return unseen, stale
