"""Declare a paper's constants and results tersely: one :class:`PaperBuilder` per paper.

A paper module writes::

    P = PaperBuilder("mypaper")
    B = P.constant("B", "minibatch size", "1", "positive_integer")
    THM1 = P.result("theorem1", "Theorem 1", Kind.UPPER_BOUND, "E[f(x^K)] - f^*", "f",
                    "statement ...", [P.form("printed", ...)])

Results get the id ``<paper>.<key>``, are registered in the catalog, and remember the file
and line that declared them (``pflbounds show`` prints it). The key is typed once, as the
first argument of ``result`` (the paper loader's per-result index is generated from these
declarations); everything else refers to the result through the object it returns (``.id``).

``methods=("pflbounds.algorithms.collaborative.run_afo", ...)`` names the code that
implements the method the result is about (dotted names, so that building the result imports
no algorithm); a bound or complexity result that is about no method says why in
``no_method="..."`` (a lower bound over all methods names its hard instance in ``methods``).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import sympy as sp

from pflbounds.symbolic.catalog import (
    register,
    register_algorithms,
    register_assumption,
    register_paper,
    register_relation,
)
from pflbounds.symbolic.constants import constant
from pflbounds.symbolic.location import caller_location
from pflbounds.symbolic.result import (
    Assumption,
    Condition,
    Form,
    InstanceRelation,
    Kind,
    Result,
)
from pflbounds.symbolic.units import Unit

_EXTRA_TEXT = ("quantity_typst", "quantity_latex", "part_units", "part_typst", "part_latex")


class PaperBuilder:
    """Constants, conditions, forms and results of one paper, registered under its id."""

    def __init__(self, paper: str) -> None:
        if not paper or not paper.isidentifier():
            raise ValueError(f"paper id must be a Python identifier, got {paper!r}")
        self.paper = paper

    def register(self, title: str, citation: str, digest: str = "") -> None:
        """Register the paper itself (title and citation for listings and reports)."""
        register_paper(self.paper, title, citation, digest=digest)

    def constant(self, name: str, meaning: str, unit: str | Unit, domain: str = "positive",
                 latex: str = "", typst: str = "") -> sp.Symbol:
        """A constant of this paper (see :func:`pflbounds.symbolic.constants.constant`)."""
        return constant(name, meaning, unit, domain, latex, typst, paper=self.paper)

    def algorithms(self, implementations: dict[str, Iterable[str]]) -> None:
        """Name the functions that implement the method each result is about:
        ``{"theorem2": ["pflbounds.algorithms.collaborative.run_afo"]}`` (keys are result
        keys of this paper; values dotted names of functions). A paper in the template
        layout names them where it declares each result (``result(..., methods=...)``); this
        serves the papers not converted yet."""
        register_algorithms({f"{self.paper}.{k}": tuple(v) for k, v in implementations.items()})

    def assumption(self, key: str, name: str, statement: str,
                   constants: tuple[str, ...] = ()) -> Assumption:
        """Register the assumption ``<paper>.<key>``."""
        return register_assumption(Assumption(f"{self.paper}.{key}", name, statement, constants))

    def relation(self, rel: sp.Basic, reason: str, label: str = "") -> InstanceRelation:
        """Declare a relation that every instance of this paper's hypotheses satisfies
        (``P.relation(sp.Le(mu, Lw), "...")``): every result whose inputs include all of its
        symbols refuses a point that violates it, with ``reason``."""
        if not isinstance(rel, sp.core.relational.Relational):
            raise ValueError(f"a relation must be a sympy relation, got {rel!r}")
        return register_relation(InstanceRelation(rel, reason, label, self.paper))

    @staticmethod
    def cond(rel: sp.Basic, label: str = "") -> Condition:
        """A side condition (a sympy relation) with a human label."""
        return Condition(rel, label)

    @staticmethod
    def form(name: str, expr: sp.Basic | None = None, note: str = "", *,
             parts: dict[str, sp.Basic] | None = None, conditions: tuple[Condition, ...] = (),
             normalized: str = "") -> Form:
        """One form (``printed``, ``explicit``, ``corrected``, ...) of a result."""
        return Form(name, expr, parts, note, tuple(conditions), normalized)

    def result(self, key: str, label: str, kind: Kind, quantity: str, unit: str,
               statement: str, forms: list[Form], *, relation: str | None = None,
               **kw: Any) -> Result:
        """Build and register the result ``<paper>.<key>``.

        ``relation`` (how the quantity relates to each form) defaults to the kind's: ``>=``
        for a lower bound, ``<=`` otherwise. ``methods``: dotted names of the functions (or
        instance classes) the result is about, for ``pflbounds show``; ``no_method``: why
        there is none.

        Keyword arguments are :class:`Result` fields; ``quantity_typst``, ``quantity_latex``,
        ``part_units``, ``part_typst`` and ``part_latex`` go to ``extra``.
        """
        methods = tuple(kw.pop("methods", ()))
        if any(not isinstance(m, str) or "." not in m for m in methods):
            raise ValueError(f"{self.paper}.{key}: methods must be dotted names "
                             f"(package.module.function), got {methods!r}")
        extra = kw.pop("extra", {})
        for k in _EXTRA_TEXT:
            if k in kw:
                extra[k] = kw.pop(k)
        if "part_units" in extra:
            extra["part_units"] = {p: Unit.parse(u) for p, u in extra["part_units"].items()}
        extra.setdefault("defined_at", caller_location(2))
        r = Result(
            id=f"{self.paper}.{key}", paper=self.paper, label=label, kind=kind,
            quantity=quantity, quantity_unit=Unit.parse(unit), statement=statement,
            forms={f.name: f for f in forms},
            relation=relation or (">=" if kind is Kind.LOWER_BOUND else "<="), extra=extra, **kw,
        )
        register(r)
        if methods:
            register_algorithms({r.id: methods})
        return r
