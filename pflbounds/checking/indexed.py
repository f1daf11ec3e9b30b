"""Checks rebuilt from a paper's index: every field of the check, and a stand-in for its code.

The index of a paper (:mod:`pflbounds.running.index`) stores each check as a JSON record
(:func:`record_of`): every field of :class:`~pflbounds.checking.check.Check` but the two
callables (``simulate`` and ``plot``), the module whose import registers it, where its
``simulate`` is defined, and what its code fingerprint is made of
(:func:`pflbounds.running.fingerprint.check_fingerprint`). :func:`check_of` rebuilds a
``Check`` from the record without importing the check's module: listing checks, showing where
they are, planning a run and building outcomes from cached tasks need only the fields. Its
``simulate`` is an :class:`IndexedSimulate`, which imports the real check the first time it is
called (:func:`real_check`); a run swaps the real check in before it computes a task.

A check is recorded only when the record gives it back exactly (every field equal, with the
same types, after a JSON round trip): a grid holding tuples or numpy values, say, is not, and
its paper is then read from its modules as before.
"""

from __future__ import annotations

import dataclasses
import json
import math
from collections.abc import Mapping
from typing import Any

from pflbounds.checking.check import Check

CODE_FIELDS = ("simulate", "plot")
"""The fields of a check that are code, not data: never recorded."""
FIELDS = tuple(f.name for f in dataclasses.fields(Check) if f.name not in CODE_FIELDS)
"""The recorded fields, in the order of the dataclass."""


@dataclasses.dataclass(frozen=True, eq=False)
class IndexedSimulate:
    """The ``simulate`` of a check read from an index: what its fingerprint and ``pflbounds
    show`` need, and the way to the real function.

    ``module``: the module whose import registers the check; ``sim_module``: the
    ``__module__`` of the real ``simulate`` (``""`` when it has none); ``origin``: its
    fingerprint origin (module, qualified name, closed-over values; None when it cannot be
    pinned to source, so never cached); ``origin_file``: the source file of that module;
    ``source``: the file and line where ``simulate`` is defined (as :mod:`inspect` gives
    them), or None.
    """

    check_id: str
    module: str | None
    sim_module: str
    origin: Mapping[str, Any] | None
    origin_file: str | None
    source: tuple[str, int] | None

    def __call__(self, params: Mapping[str, Any], n_replicas: int, seed: Any) -> Any:
        return self.real().simulate(params, n_replicas, seed)

    def real(self) -> Check:
        """The registered check, its module imported (and only that, when it is known)."""
        from pflbounds.checking import registry

        return registry.get(self.check_id, module=self.module)


def is_indexed(check: Check) -> bool:
    """Whether ``check`` was rebuilt from an index (its ``simulate`` stands in for the code)."""
    return isinstance(check.simulate, IndexedSimulate)


def real_check(check: Check) -> Check:
    """``check`` itself, or, for a check rebuilt from an index, the registered one."""
    sim = check.simulate
    return sim.real() if isinstance(sim, IndexedSimulate) else check


def _plain(name: str, value: Any) -> Any:
    if name in ("kind", "expected"):
        return value.value
    if name == "plan" and value is not None:  # a comparison's DrawPlan: its fields
        return dataclasses.asdict(value)
    if name in ("grid", "quick_grid", "requires", "methods") and value is not None:
        return [dict(v) if isinstance(v, Mapping) else v for v in value]
    return value


def _same(a: Any, b: Any) -> bool:
    """Equal values of the same types, all the way down (NaN equals NaN)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return list(a) == list(b) and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, (list, tuple)):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, float) and math.isnan(a):
        return math.isnan(b)
    return bool(a == b)


def record_of(check: Check, *, module: str | None, sim_module: str,
              origin: Mapping[str, Any] | None, origin_file: str | None,
              source: tuple[str, int] | None) -> dict[str, Any] | None:
    """The JSON record of ``check`` (module docstring), or None when a JSON round trip would
    not give it back exactly (then it is not indexed)."""
    if type(check) is not Check:
        return None  # a subclass may carry behaviour of its own
    rec = {f: _plain(f, getattr(check, f)) for f in FIELDS}
    rec["_code"] = {"module": module, "sim_module": sim_module, "origin": origin,
                    "origin_file": origin_file, "source": list(source) if source else None}
    try:
        back = check_of(json.loads(json.dumps(rec)))
    except (TypeError, ValueError):
        return None
    if not all(_same(getattr(check, f), getattr(back, f)) for f in FIELDS):
        return None
    sim = back.simulate
    assert isinstance(sim, IndexedSimulate)
    if not _same(sim.origin, origin) or (source and sim.source != tuple(source)):
        return None
    return rec


def check_of(record: Mapping[str, Any]) -> Check:
    """The check of a record written by :func:`record_of` (``ValueError`` or ``KeyError``
    for a record that is not one)."""
    code = record["_code"]
    source = code.get("source")
    sim = IndexedSimulate(
        check_id=str(record["id"]), module=code.get("module"),
        sim_module=str(code.get("sim_module") or ""), origin=code.get("origin"),
        origin_file=code.get("origin_file"),
        source=(str(source[0]), int(source[1])) if source else None)
    fields = {f: record[f] for f in FIELDS}
    for f in ("grid", "quick_grid", "requires", "methods"):
        if fields.get(f) is not None:
            fields[f] = tuple(fields[f])
    if fields.get("plan") is not None:
        from pflbounds.checking.draws import DrawPlan

        fields["plan"] = DrawPlan(**fields["plan"])
    return Check(simulate=sim, **fields)
