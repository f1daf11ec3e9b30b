"""Where everything about a result lives in the code: its formula, the method it is about,
the checks that test it and its errata (``pflbounds show``)."""

from __future__ import annotations

from typing import Any

from pflbounds.symbolic.location import dotted_location, object_location


def locate(result_id: str) -> dict[str, Any]:
    """``{"formula", "algorithms", "checks", "errata"}`` with ``path:line`` locations.

    ``checks`` lists every registered check whose ``result_id`` is this result or which
    demonstrates one of its errata.
    """
    from pflbounds.checking import registry
    from pflbounds.symbolic import catalog

    r = catalog.get(result_id)
    erratum_checks = {e.check_id for e in r.errata if e.check_id}
    checks = [
        {"id": c.id, "kind": c.kind.value, "expected": c.expected.value,
         "at": object_location(c.simulate)}
        for c in registry.all_checks(r.paper)
        if c.result_id == r.id or c.id in erratum_checks
    ]
    return {
        "formula": r.extra.get("defined_at", ""),
        "algorithms": [{"name": a, "at": dotted_location(a)} for a in catalog.algorithms_of(r.id)],
        "checks": checks,
        "errata": [{"id": e.id, "at": e.defined_at, "check": e.check_id} for e in r.errata],
    }
