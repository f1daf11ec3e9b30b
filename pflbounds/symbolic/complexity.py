"""The complexity table a paper's calculator returns (``pflbounds complexity``), and the input
checking every calculator shares.

A paper's ``complexity.py`` defines ``table(values, matrices, *, objective=None,
algorithm=None) -> ComplexityTable``: for the constants the user gives, one
:class:`ComplexityRow` per method (the catalog result and form it evaluates, its counts in the
table's columns, its hidden constants, or why it has no number), and what is cheapest. It
checks the inputs with :func:`check_inputs` (every input a constant of the paper the table
takes, in its domain, the paper's instance relations between them), evaluates each row with
:func:`evaluate_row` (a row that lacks inputs names them; a point outside a form's hypotheses
is that row's error), and the command line and :func:`pflbounds.api.complexity` call
:meth:`ComplexityTable.require_inputs`, which names every missing input at once.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

DEFAULT_COLUMNS: tuple[tuple[str, str], ...] = (("oracle_calls", "oracle calls"),
                                                ("gradients", "gradients"))
"""(key, header) of the count columns of a table that names none."""

_ROW_FIELDS = ("method", "algorithm", "result", "form", "relation", "hidden_constants", "note",
               "error", "missing", "guaranteed")


@dataclass
class ComplexityRow:
    """One method of a complexity table.

    ``algorithm``: the short name ``--algorithm`` selects (None: the paper names none);
    ``counts``: the row's numbers by column key (a number, an array for a per-agent count, or
    None when not computed); ``error``: why the row has no number; ``missing``: the inputs it
    lacks; ``guaranteed``: False for a form not to be relied on (a printed form with a known
    erratum, a lower bound); ``extra``: anything else the paper reports (parameters, ratios).
    A field left None is absent from :meth:`to_dict`.
    """

    method: str
    algorithm: str | None
    result: str
    form: str
    relation: str | None = None
    counts: dict[str, Any] = field(default_factory=dict)
    hidden_constants: list[str] | None = None
    note: str | None = None
    error: str | None = None
    missing: tuple[str, ...] | None = None
    guaranteed: bool | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """The row as the JSON output gives it (see the class docstring)."""
        out: dict[str, Any] = {"method": self.method}
        if self.algorithm is not None:
            out["algorithm"] = self.algorithm
        out.update(result=self.result, form=self.form)
        if self.relation is not None:
            out["relation"] = self.relation
        out.update(self.counts)
        if self.hidden_constants is not None:
            out["hidden_constants"] = list(self.hidden_constants)
        out.update(self.extra)
        for k in ("note", "error"):
            if getattr(self, k) is not None:
                out[k] = getattr(self, k)
        if self.missing is not None:
            out["missing"] = list(self.missing)
        if self.guaranteed is not None:
            out["guaranteed"] = self.guaranteed
        return out

    @classmethod
    def from_dict(cls, row: Mapping[str, Any], columns: Iterable[str]) -> ComplexityRow:
        """A row from a calculator that still returns plain dicts (its keys in ``columns``
        are counts; keys that are not row fields go to ``extra``)."""
        cols = set(columns)
        kw: dict[str, Any] = {k: row[k] for k in _ROW_FIELDS if k in row}
        kw.setdefault("algorithm", None)
        if "missing" in kw:
            kw["missing"] = tuple(kw["missing"])
        return cls(**kw, counts={k: v for k, v in row.items() if k in cols},
                   extra={k: v for k, v in row.items() if k not in cols and k not in _ROW_FIELDS})

    @property
    def lower_bound(self) -> bool:
        """A lower bound over all methods (relation ``>=``), not a method's cost."""
        return self.relation == ">="


@dataclass
class ComplexityTable:
    """A paper's comparison of its methods for one set of constants.

    ``question``: what the counts answer; ``columns``: (key, header) of the count columns
    (None: :data:`DEFAULT_COLUMNS`, not repeated in the JSON); ``cheapest``: the method with
    the fewest ``cheapest_by`` (a column key; None when the table names no cheapest);
    ``best``: the fewest per column, when the table gives them; ``lines``: a summary printed
    above the table; ``extra``: the paper's own top-level entries (objective, constants).
    """

    paper: str
    question: str
    rows: list[ComplexityRow]
    columns: tuple[tuple[str, str], ...] | None = None
    cheapest: str | None = None
    cheapest_by: str | None = None
    best: dict[str, str | None] | None = None
    notes: list[str] = field(default_factory=list)
    lines: list[str] = field(default_factory=list)
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def count_columns(self) -> tuple[tuple[str, str], ...]:
        return tuple(self.columns) if self.columns else DEFAULT_COLUMNS

    def fewest(self, column: str) -> str | None:
        """The method with the smallest ``column`` among the guaranteed rows that are not
        lower bounds (the first on a tie), or None."""
        ok = [r for r in self.rows if r.counts.get(column) is not None and r.guaranteed
              is not False and not r.lower_bound]
        return min(ok, key=lambda r: r.counts[column]).method if ok else None

    def to_dict(self) -> dict[str, Any]:
        """The JSON document of ``pflbounds complexity --json``."""
        out: dict[str, Any] = {"question": self.question}
        if self.lines:
            out["lines"] = list(self.lines)
        out.update(self.extra)
        if self.columns is not None:
            out["columns"] = [list(c) for c in self.columns]
        out["rows"] = [r.to_dict() for r in self.rows]
        if self.cheapest_by is not None:
            out["cheapest"] = self.cheapest
        if self.best is not None:
            out["best"] = dict(self.best)
        out["notes"] = list(self.notes)
        out["paper"] = self.paper
        return out

    @classmethod
    def from_dict(cls, paper: str, doc: Mapping[str, Any]) -> ComplexityTable:
        """A table from a calculator that still returns a plain dict (the keys ``question``,
        ``rows``, and optionally ``columns``, ``cheapest``, ``best``, ``notes``, ``lines``)."""
        cols = tuple(tuple(c) for c in doc["columns"]) if doc.get("columns") else None
        keys = [k for k, _ in (cols or DEFAULT_COLUMNS)]
        known = {"question", "rows", "columns", "cheapest", "best", "notes", "lines", "paper"}
        return cls(paper=paper, question=doc["question"],
                   rows=[ComplexityRow.from_dict(r, keys) for r in doc["rows"]],
                   columns=cols, cheapest=doc.get("cheapest"),
                   cheapest_by="gradients" if "cheapest" in doc else None,
                   best=doc.get("best"), notes=list(doc.get("notes", [])),
                   lines=list(doc.get("lines", [])),
                   extra={k: v for k, v in doc.items() if k not in known})

    def require_inputs(self) -> None:
        """Raise :class:`~pflbounds.symbolic.evaluate.InputError` naming every input some
        row lacks (with the rows that need it), or, when every row failed, the first row's
        error: a table without a single number is an error, never an empty answer."""
        from pflbounds.symbolic.constants import get_constant
        from pflbounds.symbolic.evaluate import InputError

        missing: dict[str, list[str]] = {}
        for row in self.rows:
            for n in row.missing or ():
                missing.setdefault(n, []).append(row.method)
        if missing:
            raise InputError(f"complexity for {self.paper} needs more inputs: " + "; ".join(
                f"{n} ({get_constant(n, self.paper).meaning})"
                + ("" if len(m) == len(self.rows) else f" for {', '.join(m)}")
                for n, m in sorted(missing.items())), tuple(sorted(missing)))
        if self.rows and all(row.error for row in self.rows):
            first = self.rows[0]
            raise InputError(f"no method of {self.paper} applies to these inputs: "
                             f"{first.method}: {first.error}")

    def text(self) -> list[str]:
        """The lines of ``pflbounds complexity`` without ``--json``."""
        rows = self.rows
        cols = self.count_columns
        out = [f"{self.paper}: {self.question}"]
        out += [f"  {line}" for line in self.lines]
        w = max([26, *(len(row.method) for row in rows)])
        cw = [max(14, len(h)) for _, h in cols]
        out.append(f"  {'method':<{w}} " + " ".join(f"{h:>{c}}" for (_, h), c in
                                                     zip(cols, cw, strict=True))
                   + "  result [form]")
        for row in rows:
            counts = " ".join(f"{'-' if row.error else format_count(row.counts.get(k)):>{c}}"
                              for (k, _), c in zip(cols, cw, strict=True))
            if row.error:
                out.append(f"  {row.method:<{w}} {counts}  {row.result} [{row.form}]: "
                           f"{row.error}")
                continue
            out.append(f"  {row.method:<{w}} {counts}  {row.result} [{row.form}]"
                       + ("  (hidden constants)" if row.hidden_constants else ""))
        if self.cheapest:
            out.append(f"  cheapest in {self.cheapest_by}: {self.cheapest}")
        headers = dict(cols)
        for key, method in (self.best or {}).items():
            if method:
                out.append(f"  fewest {headers.get(key, key)}: {method}")
        out += [f"  note: {n}" for n in self.notes]
        return out


def format_count(v: Any) -> str:
    """A count as the text table shows it: 4 significant digits, ``lo..hi`` for a per-agent
    count that varies, ``-`` for none."""
    if v is None:
        return "-"
    a = np.asarray(v, dtype=float)
    if a.ndim:
        return f"{a.min():.4g}..{a.max():.4g}" if a.min() != a.max() else f"{a.min():.4g}"
    return f"{float(a):.4g}"


def check_inputs(paper: str, values: Mapping[str, Any], accepted: Iterable[str]) -> None:
    """The input checks every calculator shares, before any row is computed: each name is one
    the table takes (``accepted``; every unexpected name is listed at once), each value is in
    its constant's domain, and the values satisfy the paper's instance relations (``mu <=
    L``, ...). Raises :class:`~pflbounds.symbolic.evaluate.InputError` with one line naming
    the input, its value and what was expected."""
    from pflbounds.symbolic.catalog import instance_relations
    from pflbounds.symbolic.constants import get_constant
    from pflbounds.symbolic.evaluate import InputError, check_relations

    takes = sorted(set(accepted))
    unknown = sorted(set(values) - set(takes))
    if unknown:
        raise InputError(f"unexpected input(s) {', '.join(unknown)} for complexity --paper "
                         f"{paper}; it takes: {', '.join(takes)}")
    for n, v in values.items():
        try:
            get_constant(n, paper).check_value(v)
        except ValueError as e:
            raise InputError(str(e)) from None
    check_relations(instance_relations(paper), values)


def evaluate_row(row: ComplexityRow, values: Mapping[str, Any],
                 matrices: Mapping[str, Any] | None = None) -> Any:
    """Evaluate ``row.result`` [``row.form``] with the given values it needs (and the
    matrices its derivations read); return the value, or None after recording on the row why
    there is none: ``missing`` (the inputs it lacks, the message as ``error``) or ``error`` (a
    point outside the form's hypotheses). Sets ``relation`` and ``hidden_constants``. An
    input out of its domain or inconsistent with the others is no row's error: it raises."""
    from pflbounds.symbolic.catalog import get
    from pflbounds.symbolic.evaluate import HypothesisError, InputError, evaluate

    r = get(row.result)
    row.relation = r.relation
    need = set(r.inputs(row.form)) | {u for dv in r.derivations for u in dv.uses}
    try:
        ev = evaluate(r, row.form, matrices=matrices, strict=False,
                      **{k: v for k, v in values.items() if k in need})
    except InputError as e:
        if not e.missing:
            raise
        row.error, row.missing, row.hidden_constants = str(e), tuple(e.missing), []
        return None
    except (HypothesisError, ValueError) as e:
        row.error, row.hidden_constants = str(e), []
        return None
    row.hidden_constants = list(ev.hidden_constants)
    return ev.value


def accepted_inputs(results: Iterable[tuple[str, str]]) -> set[str]:
    """Every input the forms ``(result id, form)`` take, with the inputs their derivations
    use: what :func:`check_inputs` accepts besides a table's own."""
    from pflbounds.symbolic.catalog import get

    out: set[str] = set()
    for rid, form in results:
        r = get(rid)
        out |= set(r.inputs(form))
        out |= {u for dv in r.derivations for u in dv.uses}
    return out


def complexity_table(paper_id: str, values: Mapping[str, Any], matrices: Mapping[str, Any], *,
                     objective: str | None = None,
                     algorithm: str | None = None) -> ComplexityTable:
    """The paper's :class:`ComplexityTable` for these inputs. ``KeyError`` for a paper
    without a calculator (naming those with one), and for an objective or algorithm the
    calculator does not know."""
    from pflbounds.symbolic.catalog import complexity_function

    func = complexity_function(paper_id)
    table = func(values, matrices, objective=objective, algorithm=algorithm)
    if not isinstance(table, ComplexityTable):
        table = ComplexityTable.from_dict(paper_id, table)
    table.paper = paper_id
    return table
