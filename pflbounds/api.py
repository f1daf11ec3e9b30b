"""The Python interface: the command line's three jobs (compute, check, report) for scripts
and notebooks.

::

    import pflbounds
    r = pflbounds.result("even2022.theorem2")
    r.eval(form="explicit", eta=0.25, mu=1, L=2, K=[10, 100], Delta0=1, sigma2=1, V=0.5, B=0.1)
    r.solve("K", target=0.01, form="corrected", mu=1, L=4, Delta0=1, sigma2=1, V=0.25, B=0)
    pflbounds.complexity("even2022", mu=1, L=4, sigma2=1, eps=0.01, Delta0=1, b="examples/b.csv")
    pflbounds.check("even2022.P11")
    pflbounds.validate("quick", jobs=2)

Inputs are checked exactly as on the command line: a value outside a hypothesis raises
:class:`~pflbounds.symbolic.evaluate.InputError` or
:class:`~pflbounds.symbolic.evaluate.HypothesisError` (both ``ValueError``) naming the input,
its value and what was expected. Sequences and arrays broadcast (a sweep); a matrix input
(``b``, ``Lambda``) is a 2-D array or the path of a ``.csv``/``.npy`` file. In Jupyter,
results render as typeset math and outcomes and tables as HTML.
"""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

__all__ = [
    "ResultView",
    "Table",
    "check",
    "complexity",
    "papers",
    "result",
    "results",
    "validate",
]


@dataclass(frozen=True)
class InputInfo:
    """One input of a result: its meaning, unit and domain."""

    name: str
    meaning: str
    unit: str
    domain: str


def _split(result: Any, values: Mapping[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """Scalar or array values, and matrices (2-D arrays or files) of the names that a
    derivation of ``result`` reads."""
    import numpy as np

    from pflbounds.cli.errors import CliError
    from pflbounds.cli.inputs import load_matrix

    matrix_names = {n for dv in result.derivations for n in dv.needs}
    scalars: dict[str, Any] = {}
    matrices: dict[str, Any] = {}
    for n, v in values.items():
        if n in matrix_names and isinstance(v, (str, Path)):
            try:
                matrices[n] = load_matrix(str(v), n)
            except CliError as e:
                from pflbounds.symbolic.evaluate import InputError

                raise InputError(str(e)) from None
        elif n in matrix_names and np.ndim(v) == 2:
            matrices[n] = np.asarray(v, dtype=float)
        else:
            scalars[n] = v if np.ndim(v) == 0 else np.asarray(v, dtype=float)
    return scalars, matrices


class ResultView:
    """A result of the catalog, with its operations (see :func:`result`)."""

    def __init__(self, r: Any) -> None:
        self._r = r

    # --- what it is
    @property
    def id(self) -> str:
        return self._r.id

    @property
    def label(self) -> str:
        return self._r.label

    @property
    def kind(self) -> str:
        return str(self._r.kind)

    @property
    def statement(self) -> str:
        return self._r.statement

    @property
    def forms(self) -> dict[str, Any]:
        """The forms by name (``printed``, ``explicit``, ``corrected``, ...): each has
        ``expr`` (or ``parts``), ``note`` and ``conditions``."""
        return dict(self._r.forms)

    @property
    def inputs(self) -> dict[str, InputInfo]:
        """Every input of every form, by name, with its meaning, unit and domain."""
        from pflbounds.symbolic.constants import DOMAINS, get_constant

        names = sorted({n for f in self._r.forms for n in self._r.inputs(f)})
        out = {}
        for n in names:
            c = get_constant(n, self._r.paper)
            out[n] = InputInfo(n, c.meaning, str(c.unit), DOMAINS[c.domain])
        return out

    def inputs_of(self, form: str | None = None) -> list[str]:
        """The inputs one form needs."""
        return self._r.inputs(form)

    @property
    def errata(self) -> tuple[Any, ...]:
        return tuple(self._r.errata)

    @property
    def example(self) -> dict[str, float]:
        """A point that satisfies every hypothesis (may be empty)."""
        return dict(self._r.example)

    def hypotheses(self, form: str | None = None) -> list[Any]:
        """What an input point of one form must satisfy: domains, instance relations (such
        as mu <= L) and side conditions."""
        from pflbounds.symbolic.evaluate import hypotheses

        return hypotheses(self._r, form)

    @property
    def result(self) -> Any:
        """The underlying :class:`~pflbounds.symbolic.result.Result`."""
        return self._r

    # --- what it computes
    def evaluate(self, form: str | None = None, **values: Any) -> Any:
        """The full :class:`~pflbounds.symbolic.evaluate.Evaluation` (value, hidden
        constants, inputs used, derived inputs)."""
        from pflbounds.symbolic.evaluate import evaluate

        scalars, matrices = _split(self._r, values)
        return evaluate(self._r, form, matrices=matrices, **scalars)

    def eval(self, form: str | None = None, part: str | None = None, **values: Any) -> Any:
        """The value of a form (a float, an array when inputs are arrays or per agent, or a
        dict of parts); ``part`` picks one part of a multi-part form."""
        value = self.evaluate(form, **values).value
        if part is not None:
            if not isinstance(value, dict) or part not in value:
                from pflbounds.symbolic.evaluate import InputError

                parts = list(value) if isinstance(value, dict) else []
                raise InputError(f"part {part!r}: {self.id} [{form or 'printed'}] has parts "
                                 f"{', '.join(parts) or '(none: omit part)'}")
            return value[part]
        return value

    def solve(self, var: str, target: float, form: str | None = None, part: str = "",
              **values: Any) -> Any:
        """The smallest value of ``var`` for which the form is at most ``target`` (exact for
        integers, even where the form is not monotone); raises
        :class:`~pflbounds.symbolic.evaluate.TargetUnreachable` with the floor when no value
        reaches the target."""
        from pflbounds.symbolic.evaluate import solve

        scalars, matrices = _split(self._r, values)
        return solve(self._r, var, target, form, matrices=matrices, part=part,
                     **scalars).value

    def elasticities(self, form: str | None = None, part: str = "",
                     **values: Any) -> dict[str, Any]:
        """d log(value) / d log(input) for every input."""
        from pflbounds.symbolic.evaluate import elasticities

        scalars, matrices = _split(self._r, values)
        return elasticities(self._r, form, matrices=matrices, part=part, **scalars)

    # --- how it shows
    def latex(self, form: str | None = None) -> str:
        return self._r.latex(form)

    def _repr_latex_(self) -> str:
        lines = [rf"\text{{{_tex_text(self.id)} — {_tex_text(self.label)}}}"]
        for name in self._r.forms:
            lines.append(rf"\text{{[{name}]}}\quad {self._r.latex(name)}")
        return "$$\\begin{array}{l}" + r" \\ ".join(lines) + r"\end{array}$$"

    def __repr__(self) -> str:
        return f"<result {self.id}: {self.label} ({self.kind}); forms {', '.join(self._r.forms)}>"


def _tex_text(s: str) -> str:
    out = s
    for a, b in (("\\", r"\backslash "), ("_", r"\_"), ("^", r"\^{}"), ("{", r"\{"),
                 ("}", r"\}"), ("#", r"\#"), ("%", r"\%"), ("&", r"\&"), ("$", r"\$")):
        out = out.replace(a, b)
    return out


def result(result_id: str) -> ResultView:
    """The result ``result_id`` (``"even2022.theorem2"``); ``KeyError`` with suggestions for
    an unknown id."""
    from pflbounds.symbolic import catalog

    return ResultView(catalog.get(result_id))


def results(paper: str | None = None) -> list[ResultView]:
    """Every result (of one paper), in the papers' order."""
    from pflbounds.symbolic import catalog

    return [ResultView(r) for r in catalog.results(paper)]


def papers() -> dict[str, dict[str, str]]:
    """The encoded papers: id -> title and citation."""
    from pflbounds.symbolic import catalog

    return catalog.papers()


class Table(list):
    """Rows (dicts) of a table, with the question it answers and its notes; renders as HTML
    in Jupyter. :func:`complexity` returns a pandas DataFrame instead when pandas is
    installed (the same rows; ``attrs`` holds the question and notes)."""

    def __init__(self, rows: Sequence[Mapping[str, Any]], **meta: Any) -> None:
        super().__init__(dict(r) for r in rows)
        self.meta = meta

    def _repr_html_(self) -> str:
        return html_table(self, caption=str(self.meta.get("question", "")))


def html_table(rows: Sequence[Mapping[str, Any]], caption: str = "") -> str:
    cols: list[str] = []
    for r in rows:
        cols += [c for c in r if c not in cols]
    head = "".join(f"<th>{html.escape(str(c))}</th>" for c in cols)
    body = "".join(
        "<tr>" + "".join(f"<td>{html.escape(_cell(r.get(c)))}</td>" for c in cols) + "</tr>"
        for r in rows)
    cap = f"<caption>{html.escape(caption)}</caption>" if caption else ""
    return f"<table>{cap}<thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def _cell(v: Any) -> str:
    import numpy as np

    if v is None:
        return ""
    if isinstance(v, float):
        return f"{v:.6g}"
    if isinstance(v, np.ndarray):
        return "[" + ", ".join(f"{x:.4g}" for x in v.ravel()[:8]) + \
            (", ...]" if v.size > 8 else "]")
    return str(v)


def complexity(paper: str, *, objective: str | None = None, algorithm: str | None = None,
               **values: Any) -> Any:
    """The paper's comparison of its methods for these constants: one row per method with
    its counts (oracle calls, gradients, rounds, ... as the paper counts them). A pandas
    DataFrame when pandas is installed, else a :class:`Table` of dicts."""
    import numpy as np

    from pflbounds.symbolic.complexity import complexity_table

    scalars: dict[str, Any] = {}
    matrices: dict[str, Any] = {}
    for n, v in values.items():
        if isinstance(v, (str, Path)):
            from pflbounds.cli.errors import CliError
            from pflbounds.cli.inputs import load_matrix

            try:
                matrices[n] = load_matrix(str(v), n)
            except CliError as e:
                from pflbounds.symbolic.evaluate import InputError

                raise InputError(str(e)) from None
        elif np.ndim(v) == 2:
            matrices[n] = np.asarray(v, dtype=float)
        else:
            scalars[n] = v
    doc = complexity_table(paper, scalars, matrices, objective=objective,
                           algorithm=algorithm).to_dict()
    meta = {k: v for k, v in doc.items() if k != "rows"}
    try:
        import pandas as pd
    except ImportError:
        return Table(doc["rows"], **meta)
    df = pd.DataFrame(doc["rows"])
    df.attrs.update(meta)
    return df


def check(check_id: str, *, replicas: int | None = None, quick: bool = False, seed: int = 0,
          jobs: int = 1, progress: bool | str = False, cache: bool = True) -> Any:
    """Run one check (as ``pflbounds check``) and return its
    :class:`~pflbounds.checking.outcome.Outcome` (verdict, margin, evidence)."""
    from pflbounds.checking import registry
    from pflbounds.running.cache import TaskCache
    from pflbounds.running.executor import run_check

    c = registry.get(check_id)
    return run_check(c, replicas=replicas, quick=quick, base_seed=seed, jobs=jobs,
                     progress=progress, cache=TaskCache() if cache else None)


class Outcomes(list):
    """The outcomes of a suite, in order; ``skipped``: the checks that did not run, with why
    (an extra that is not installed). Renders as a verdict table in Jupyter."""

    def __init__(self, outcomes: Sequence[Any] = (),
                 skipped: Mapping[str, str] | None = None) -> None:
        super().__init__(outcomes)
        self.skipped = dict(skipped or {})

    @property
    def summary(self) -> str:
        """The one-line verdict summary that ends ``pflbounds validate``."""
        from pflbounds.checking.vocabulary import summary_line

        return summary_line(self, self.skipped)

    def _repr_html_(self) -> str:
        rows = [{"check": o.check_id, "verdict": o.verdict.value,
                 "as expected": "yes" if o.as_expected else f"no (expected {o.expected.value})",
                 "detail": o.detail} for o in self]
        rows += [{"check": cid, "verdict": "not run", "as expected": "",
                  "detail": f"skipped: {why}"} for cid, why in self.skipped.items()]
        return html_table(rows, caption=self.summary)


def validate(suite: str = "quick", *, jobs: int = 1, progress: bool | str = False,
             per_check: bool = False, cache: bool = True) -> Outcomes:
    """Run a suite (a name such as ``"quick"`` or ``"even2022"``, resolved as by
    :func:`suite_file`, or a ``.toml`` file) and return its outcomes (a check that needs a
    missing extra is skipped: :attr:`Outcomes.skipped`); nothing is written but the task
    cache."""
    from pflbounds.running.cache import TaskCache
    from pflbounds.running.suite import load_suite, sweep_suite

    path = Path(suite)
    if not path.exists():
        path = suite_file(suite)
    s = load_suite(path)
    run = sweep_suite(s, jobs=jobs, progress=progress,
                      multiplicity="per-check" if per_check else "paper",
                      cache=TaskCache() if cache else None)
    return Outcomes(run.outcomes, run.skipped)


def suite_file(name: str) -> Path:
    """The suite file of a suite name: ``validation/NAME.toml`` here, else the one shipped
    with pflbounds, else one of a paper package
    (:func:`pflbounds.running.suite.find_suite`); ``FileNotFoundError`` naming the suites
    there are otherwise."""
    from pflbounds.running.suite import SuiteNotFound, find_suite

    try:
        return find_suite(name)
    except SuiteNotFound as e:
        raise FileNotFoundError(str(e)) from None
