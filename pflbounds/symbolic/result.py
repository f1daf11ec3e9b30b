"""The Result model: one lemma, theorem, corollary, proposition or equation of a paper.

A result has a ``kind`` (what sort of statement it is), a ``quantity`` (what it bounds),
named hypotheses (assumptions) and side conditions (sympy relations), and one or more
``forms``: the ``printed`` form exactly as the paper states it, an ``explicit`` form with
constants recovered from the proof, and a ``corrected`` form with errata applied. Further
named forms (e.g. ``proof`` for a display of the proof) are allowed.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

import sympy as sp

from pflbounds.symbolic.constants import get_constant, units_of
from pflbounds.symbolic.hidden import describe_hidden, hidden_terms
from pflbounds.symbolic.units import Unit, dimension

STANDARD_FORMS = ("printed", "explicit", "corrected")
FORM_NAMES = {
    "printed": "as the paper states it (hidden constants named, set to 1 when evaluated)",
    "explicit": "with the constants recovered from the paper's proof",
    "corrected": "with the errata applied",
    "proof": "an intermediate display of the paper's proof",
    "appendix": "the version stated in the paper's appendix",
    "rederived": "derived again from the paper's assumptions where its proof does not hold",
    "general": "the printed statement without a simplification its proof makes",
    "continuous": "the same statement for the paper's continuous criterion",
    "alg2": "the same statement for the paper's second algorithm",
}
"""Every form name a result may use, with what it means (the report explains them once)."""

ERRATUM_SEVERITIES = {
    "substantive": "a statement of the paper is wrong (a bound, a rate, a condition, a count)",
    "proof": "the statement may stand, but a step of its proof is wrong or missing",
    "notation": "a symbol, index or transpose is written wrongly; the meaning is clear",
    "typo": "a misprint with no effect on any result",
}
"""How serious an erratum is; the report lists substantive errata first and counts the rest."""

ERRATUM_KNOWN = {
    "run": "shown by a run: its check, on instances that meet the hypotheses",
    "counterexample": "shown by an exact counterexample (a closed-form or certified instance)",
    "text": "argued from the paper's text; no computation can show it",
}
"""How an erratum is known."""

RESULT_ROLES = ("claim", "control")


class Kind(StrEnum):
    UPPER_BOUND = "upper bound"
    LOWER_BOUND = "lower bound"
    COMPLEXITY = "complexity"
    STEP_SIZE = "step-size rule"
    IDENTITY = "identity"


@dataclass(frozen=True)
class Assumption:
    """A named assumption of a paper (e.g. ``even2022.A1`` "Noise")."""

    id: str
    name: str
    statement: str
    constants: tuple[str, ...] = ()


@dataclass(frozen=True)
class Condition:
    """A side condition, a sympy relation such as ``eta <= 1/(2*L)``."""

    relation: sp.Basic
    label: str = ""

    def __str__(self) -> str:
        return sp.sstr(self.relation)


@dataclass(frozen=True)
class InstanceRelation:
    """A relation between constants that every instance of a paper's hypotheses satisfies,
    such as ``mu <= L`` (a mu-strongly convex function with an L-Lipschitz gradient has
    mu <= L): an input point that violates it describes no instance, so every result whose
    inputs include all of its symbols refuses that point, with ``reason``.

    Declared once per paper (:meth:`~pflbounds.symbolic.builder.PaperBuilder.relation`), or in
    the core for the core constants; unlike a :class:`Condition`, which is a side condition
    of one result (a step-size rule), a relation belongs to the constants themselves.
    """

    relation: sp.Basic
    reason: str
    label: str = ""
    paper: str = ""
    """The declaring paper (``""`` for the core)."""

    def __str__(self) -> str:
        return self.label or sp.sstr(self.relation)

    @property
    def symbols(self) -> frozenset[str]:
        return frozenset(s.name for s in self.relation.free_symbols)


@dataclass(frozen=True)
class Form:
    """One form of a result: a sympy expression (or named parts) with its own conditions."""

    name: str
    expr: sp.Basic | None = None
    parts: Mapping[str, sp.Basic] | None = None
    note: str = ""
    conditions: tuple[Condition, ...] = ()
    normalized: str = ""
    """Non-empty when the form is stated in normalised units (e.g. mu = L = 1): the
    explanation; the dimension check then does not apply."""

    def __post_init__(self) -> None:
        if (self.expr is None) == (self.parts is None):
            raise ValueError(f"form {self.name}: give exactly one of expr or parts")

    @property
    def exprs(self) -> dict[str, sp.Basic]:
        """The expression(s) keyed by part name (``""`` for a single expression)."""
        if self.parts is not None:
            return dict(self.parts)
        return {"": self.expr}

    @property
    def hidden_constants(self) -> list[str]:
        out: list[str] = []
        for e in self.exprs.values():
            out.extend(describe_hidden(e))
        return out

    @property
    def has_hidden(self) -> bool:
        return any(hidden_terms(e) for e in self.exprs.values())


@dataclass(frozen=True)
class Erratum:
    """Something wrong in the paper, its fix, and the check that demonstrates it."""

    id: str
    where: str
    what: str
    fix: str
    check_id: str | None = None
    digest_ref: str = ""
    forms: tuple[str, ...] = ()
    defined_at: str = field(default="", compare=False)
    """``path:line`` of the code that declared it (filled in on construction)."""
    severity: str = "substantive"
    """One of :data:`ERRATUM_SEVERITIES`."""
    known: str = ""
    """How it is known, one of :data:`ERRATUM_KNOWN`; empty: ``run`` when it names a check,
    else ``text``."""

    def __post_init__(self) -> None:
        if self.severity not in ERRATUM_SEVERITIES:
            raise ValueError(f"erratum {self.id}: severity {self.severity!r} is not one of "
                             f"{', '.join(ERRATUM_SEVERITIES)}")
        if self.known and self.known not in ERRATUM_KNOWN:
            raise ValueError(f"erratum {self.id}: known {self.known!r} is not one of "
                             f"{', '.join(ERRATUM_KNOWN)}")
        if not self.known:
            object.__setattr__(self, "known", "run" if self.check_id else "text")
        if not self.defined_at:
            from pflbounds.symbolic.location import caller_location

            # frames: caller_location <- __post_init__ <- __init__ <- the declaring code
            object.__setattr__(self, "defined_at", caller_location(3))


@dataclass(frozen=True)
class Derivation:
    """How to compute a scalar input from user matrices (``b``, ``Lambda``).

    ``func(matrices, values)`` returns a number or a per-agent array.
    """

    symbol: str
    needs: tuple[str, ...]
    func: Callable[[Mapping[str, Any], Mapping[str, Any]], Any]
    description: str
    per_agent: bool = False
    uses: tuple[str, ...] = ()
    """Scalar inputs the derivation reads (e.g. ``mu`` and ``eps`` for a threshold)."""
    forms: tuple[str, ...] = ()
    """Forms the derivation applies to (empty: all). Thresholds may differ between forms."""


@dataclass(frozen=True)
class Result:
    """One lemma, theorem, corollary, proposition or equation of a paper."""

    id: str
    paper: str
    label: str
    kind: Kind
    quantity: str
    quantity_unit: Unit
    statement: str
    forms: Mapping[str, Form]
    source: str = ""
    equations: tuple[str, ...] = ()
    hypotheses: tuple[str, ...] = ()
    conditions: tuple[Condition, ...] = ()
    errata: tuple[Erratum, ...] = ()
    derivations: tuple[Derivation, ...] = ()
    notes: str = ""
    unchecked: str = ""
    """Why no check tests this result (a definition, a step-size rule checked through the
    theorem that uses it, no instance family yet); empty when a check does."""
    no_method: str = ""
    """Why no method is named for this result (a lower bound over all methods, a fact about
    an estimator or an instance); empty when its declaration names methods (``methods=``)."""
    example: Mapping[str, float] = field(default_factory=dict)
    """A point that satisfies every hypothesis of every form (the inputs of all forms; a form
    takes the ones it needs): ``show`` prints it as a command that runs, and the tests walk
    each hypothesis from it."""
    relation: str = "<="
    """How the quantity relates to the form: ``<=`` (upper bound), ``>=`` (lower bound),
    ``=`` (identity, step-size rule, complexity count)."""
    extra: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        unknown = [f for f in self.forms if f not in FORM_NAMES]
        if unknown:
            raise ValueError(f"{self.id}: form name(s) {', '.join(unknown)} not declared; "
                             f"expected one of {', '.join(FORM_NAMES)}")

    def form(self, name: str | None = None) -> Form:
        name = name or "printed"
        if name not in self.forms:
            raise KeyError(
                f"{self.id} has no form {name!r}; available: {', '.join(self.forms)}"
            )
        return self.forms[name]

    def conditions_for(self, form: str | None = None) -> tuple[Condition, ...]:
        return tuple(self.conditions) + tuple(self.form(form).conditions)

    def inputs(self, form: str | None = None, part: str | None = None) -> list[str]:
        """Names of the scalar inputs the form (or one part of it) needs, conditions
        included, sorted."""
        f = self.form(form)
        syms: set[sp.Symbol] = set()
        for p, e in f.exprs.items():
            if part is None or p == part:
                syms |= e.free_symbols
        for c in self.conditions_for(form):
            syms |= c.relation.free_symbols
        return sorted(s.name for s in syms)

    def dimension_check(self, form: str | None = None) -> dict[str, Unit]:
        """Units of each part of a form; raises ``DimensionError`` on inconsistency or on a
        unit different from the quantity's."""
        from pflbounds.symbolic.units import DimensionError

        f = self.form(form)
        out: dict[str, Unit] = {}
        for part, e in f.exprs.items():
            u = dimension(e, units_of(e.free_symbols, self.paper))
            want = self.part_unit(part)
            if u != want:
                raise DimensionError(
                    f"{self.id} [{f.name}{':' + part if part else ''}] has unit {u}, "
                    f"but the quantity {self.quantity!r} has unit {want}"
                )
            out[part] = u
        for c in self.conditions_for(form):
            dimension(c.relation, units_of(c.relation.free_symbols, self.paper))
        return out

    def part_unit(self, part: str) -> Unit:
        units = self.extra.get("part_units", {})
        return units.get(part, self.quantity_unit)

    def latex(self, form: str | None = None) -> str:
        from pflbounds.symbolic.printing import latex_form

        return latex_form(self, form)

    def typst(self, form: str | None = None) -> str:
        from pflbounds.symbolic.printing import typst_form

        return typst_form(self, form)

    def _repr_latex_(self) -> str:
        return "$" + self.latex() + "$"

    def describe_inputs(self, form: str | None = None) -> list[tuple[str, str, str]]:
        """``(name, meaning, unit)`` for each input of a form."""
        out = []
        for n in self.inputs(form):
            c = get_constant(n, self.paper)
            out.append((n, c.meaning, str(c.unit)))
        return out
