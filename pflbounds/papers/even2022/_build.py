"""Small helpers to declare even2022 results tersely."""

from __future__ import annotations

from typing import Any

import sympy as sp

from pflbounds.symbolic.catalog import register
from pflbounds.symbolic.result import Condition, Form, Kind, Result
from pflbounds.symbolic.units import Unit

PAPER = "even2022"


def cond(rel: sp.Basic, label: str = "") -> Condition:
    return Condition(rel, label)


def form(name: str, expr: sp.Basic | None = None, note: str = "", *,
         parts: dict[str, sp.Basic] | None = None, conditions: tuple[Condition, ...] = (),
         normalized: str = "") -> Form:
    return Form(name, expr, parts, note, tuple(conditions), normalized)


def result(key: str, label: str, kind: Kind, quantity: str, unit: str, statement: str,
           forms: list[Form], *, relation: str = "<=", **kw: Any) -> Result:
    extra = kw.pop("extra", {})
    for k in ("quantity_typst", "quantity_latex", "part_units", "part_typst", "part_latex"):
        if k in kw:
            extra[k] = kw.pop(k)
    if "part_units" in extra:
        extra["part_units"] = {p: Unit.parse(u) for p, u in extra["part_units"].items()}
    r = Result(
        id=f"{PAPER}.{key}", paper=PAPER, label=label, kind=kind, quantity=quantity,
        quantity_unit=Unit.parse(unit), statement=statement,
        forms={f.name: f for f in forms}, relation=relation, extra=extra, **kw,
    )
    return register(r)
