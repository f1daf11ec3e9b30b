"""Assemble a :class:`~pflbounds.reporting.model.Report` from the catalog and check outcomes.

The catalog gives each paper's assumptions, results (all forms rendered as Typst math) and
errata; the outcomes give verdicts, margins, figures and tables
(:func:`pflbounds.reporting.outcome_figures.figures_for`). Engines only: papers are reached
through the catalog and the check registry, never imported by name.
"""

from __future__ import annotations

import datetime as _dt
import platform
import re
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from pflbounds import __version__
from pflbounds.reporting.model import (
    AssumptionRow,
    ErratumBlock,
    FormBlock,
    PaperSection,
    PlotSpec,
    Provenance,
    Report,
    ResultBlock,
    Series,
    ValueTable,
    VerdictRow,
)
from pflbounds.reporting.numbers import round_numbers
from pflbounds.symbolic import catalog
from pflbounds.symbolic.printing import typst_expr

MAX_PLOTS_PER_CHECK = 2
_PLOT_FIELDS = {"kind", "title", "xlabel", "ylabel", "logx", "logy", "annotations", "caption",
                "name", "hlines", "vlines"}

#: How the report writes each hidden-constant marker of :mod:`pflbounds.symbolic.hidden`.
HIDDEN_MARKERS = {"BigO": "O", "Otilde": "Õ", "Omega": "Ω", "Omegatilde": "Ω̃"}


def plot_from_dict(d: dict[str, Any]) -> PlotSpec:
    """A figure spec from an outcome (plain dict) to the report model."""
    series = [Series(label=s.get("label", ""), x=s["x"], y=s["y"], lo=s.get("lo"),
                     hi=s.get("hi"), style=s.get("style", "measured"), group=s.get("group", ""))
              for s in d.get("series", [])]
    kw = {k: v for k, v in d.items() if k in _PLOT_FIELDS}
    return PlotSpec(series=series, **kw)


def table_from_dict(d: dict[str, Any]) -> ValueTable:
    """A table spec from an outcome (plain dict) to the report model."""
    return ValueTable(title=d.get("title", ""), columns=list(d["columns"]),
                      rows=[list(r) for r in d.get("rows", [])], caption=d.get("caption", ""))


def _figures(outcome, check) -> tuple[list[PlotSpec], list[ValueTable]]:
    from pflbounds.reporting.outcome_figures import figures_for

    specs = figures_for(outcome, check)
    plots = [plot_from_dict(p) for p in specs if p.get("kind") != "table"]
    tables = [table_from_dict(p) for p in specs if p.get("kind") == "table"]
    return plots[:MAX_PLOTS_PER_CHECK], tables


def _hidden(form) -> list[str]:
    """One line per hidden-constant marker of a form: ``"Õ(·): up to ..."``."""
    from pflbounds.symbolic.hidden import hidden_terms

    out = []
    for e in form.exprs.values():
        for term in hidden_terms(e):
            name = type(term).__name__
            line = f"{HIDDEN_MARKERS.get(name, name)}(·): {type(term).meaning}"
            if line not in out:
                out.append(line)
    return out


def _result_block(r) -> ResultBlock:
    forms = []
    for name, f in r.forms.items():
        note = f.note
        if f.normalized:
            note = (note + " " if note else "") + f"(Normalised units: {f.normalized}.)"
        forms.append(FormBlock(
            name=name, typst=r.typst(name), note=note, hidden_constants=_hidden(f),
            conditions=[typst_expr(c.relation, r.paper) for c in f.conditions],
        ))
    return ResultBlock(
        id=r.id, label=r.label, kind=str(r.kind), quantity=r.quantity, statement=r.statement,
        hypotheses=list(r.hypotheses),
        conditions=[typst_expr(c.relation, r.paper) for c in r.conditions],
        forms=forms, errata_ids=[e.id for e in r.errata],
        quantity_typst=r.extra.get("quantity_typst", ""),
    )


def _verdict_row(o, check) -> VerdictRow:
    try:
        plots, tables = _figures(o, check)
    except Exception:  # noqa: BLE001 - a report without a figure beats no report
        plots, tables = [], []
    detail = (o.detail or "").rstrip()
    if check and check.description:
        # a full stop between the measured detail and the description, or the two run into
        # one formula ("at point 0" + "n = 3" typesets as 0n = 3)
        end = "" if not detail or detail[-1] in ".;:!?" else "."
        detail = f"{detail}{end} {check.description}".lstrip()
    return VerdictRow(
        check_id=o.check_id, title=getattr(o, "title", "") or (check.title if check else ""),
        kind=str(o.kind.value if hasattr(o.kind, "value") else o.kind),
        result_id=(check.result_id if check else "") or "", form=(check.form if check else "")
        or "", verdict=str(o.verdict.value), expected=str(o.expected.value),
        as_expected=bool(o.as_expected), margin=o.margin,
        replicas=None if (check is None or check.deterministic) else o.replicas,
        detail=round_numbers(detail), config_hash=o.config_hash, seed=o.seed, plots=plots,
        tables=tables,
    )


def check_order(check_id: str) -> tuple:
    """Natural order: predictions P1, P1_mc, P2, ..., P15, then erratum checks E*."""
    paper, _, name = check_id.partition(".")
    m = re.match(r"([A-Za-z]+)(\d+)(.*)", name)
    if not m:
        return (paper, 2, 0, name)
    return (paper, 0 if m.group(1) == "P" else 1, int(m.group(2)), m.group(3))


def _erratum_block(e, o) -> ErratumBlock:
    if o is None:
        verdict = "not run" if e.check_id else ""
        return ErratumBlock(id=e.id, where=e.where, what=e.what, fix=e.fix,
                            check_id=e.check_id or "", verdict=verdict)
    return ErratumBlock(
        id=e.id, where=e.where, what=e.what, fix=e.fix, check_id=e.check_id or "",
        verdict=str(o.verdict.value), expected=str(o.expected.value),
        evidence=round_numbers(o.detail or ""),
    )


def data_command(outcomes: Sequence[Any], results_dir: str | Path | None = None,
                 suites_dir: str | Path = "validation") -> str:
    """The ``pflbounds validate`` command that produces ``outcomes`` (bitwise: same checks,
    seed, grids and multiplicity correction).

    The suite is the file in ``suites_dir`` whose checks, seed and grid match the outcomes;
    without one, the command names the checks' seed and grid for a suite to be written.
    """
    if not outcomes:
        return ""
    configs = [o.config or {} for o in outcomes]
    seeds = {c.get("base_seed", o.seed) for c, o in zip(configs, outcomes, strict=True)}
    quick = {bool(c.get("quick", False)) for c in configs}
    # validate corrects Monte Carlo checks over the whole suite (Holm) unless --per-check;
    # the suite-level correction is recorded in each Monte Carlo config.
    mc = [c for c in configs if c.get("engine") == "mc"]
    per_check = bool(mc) and not any("multiplicity" in c for c in mc)
    ids = sorted(o.check_id for o in outcomes)
    out = f" --out {results_dir}" if results_dir else ""
    extra = " --per-check" if per_check else ""
    suite = _matching_suite(ids, seeds, quick, suites_dir)
    if suite is not None:
        return f"pflbounds validate {suite}{out}{extra}"
    seed = ", ".join(str(s) for s in sorted(seeds))
    grid = "quick" if quick == {True} else "full" if quick == {False} else "mixed"
    return (f"pflbounds validate SUITE{out}{extra}, with a suite of these {len(ids)} checks, "
            f"seed = {seed} and grid = \"{grid}\"")


def _may_name_only(path: Path, papers: set[str]) -> bool:
    """False when the suite file surely names a check of a paper outside ``papers`` (so it
    cannot match, and loading it, which imports its papers, can be skipped)."""
    import tomllib

    try:
        items = tomllib.loads(path.read_text(encoding="utf-8")).get("checks", [])
        prefixes = {str(item["id"]).split(".", 1)[0] for item in items}
    except Exception:  # noqa: BLE001 - let load_suite decide
        return True
    return any(ch in p for p in prefixes for ch in "*?[") or prefixes <= papers


def _matching_suite(ids: list[str], seeds: set, quick: set, suites_dir) -> str | None:
    from pflbounds.running.suite import load_suite

    if len(seeds) != 1 or len(quick) != 1:
        return None
    papers = {i.split(".", 1)[0] for i in ids}
    for path in sorted(Path(suites_dir).glob("*.toml")):
        if not _may_name_only(path, papers):
            continue
        try:
            suite = load_suite(path)
        except Exception:  # noqa: BLE001 - a broken suite file just does not match
            continue
        entries = sorted(e.check.id for e in suite.entries)
        if entries == ids and suite.seed in seeds and all(
                e.quick == next(iter(quick)) for e in suite.entries):
            return str(path)
    return None


def load_outcome_papers(outcomes: Sequence[Any]) -> None:
    """Import the paper packages (and their checks) that ``outcomes`` come from, or every
    paper when there are none or one of them names no paper package: a report of one paper's
    results does not pay for building the others."""
    from pflbounds.checking import registry
    from pflbounds.symbolic import loader

    ids = {o.check_id.split(".", 1)[0] for o in outcomes}
    known = {n.rsplit(".", 1)[-1] for n in loader.paper_packages()}
    if not ids or not ids <= known:
        registry.load_papers()
        return
    for pid in sorted(ids):
        loader.load_paper(pid, checks=True)


class UnknownPaperError(ValueError):
    """An outcome of a paper that is not in the catalog: its report would have no paper
    section to put it in (the message names the paper and the outcome's check id)."""


def check_outcome_papers(outcomes: Sequence[Any]) -> None:
    """Raise :class:`UnknownPaperError` for the first outcome whose paper (the prefix of its
    check id) is not a loaded paper of the catalog (load them first,
    :func:`load_outcome_papers`)."""
    papers = catalog.loaded_papers()
    for o in outcomes:
        paper = o.check_id.split(".", 1)[0]
        if paper not in papers:
            raise UnknownPaperError(
                f"outcome {o.check_id!r} is of paper {paper!r}, which is not in the catalog "
                f"(papers: {', '.join(papers)}); a report covers the catalog's papers only")


def build_report(outcomes: Sequence[Any], *, suite: str = "", command: str = "",
                 title: str | None = None, audit: Any = None,
                 data_command_line: str = "") -> Report:
    """One section per paper that has results or outcomes; errata carry their check's verdict
    (and refer to its figures) when that check was run. ``audit``: an audit chapter
    (:func:`pflbounds.reporting.audit_page.load_audit`); the overview states how the Monte
    Carlo verdicts control false alarms. ``data_command_line``: the ``validate`` command
    that made the outcomes (see :func:`data_command`)."""
    from pflbounds.checking import registry

    load_outcome_papers([] if audit is not None else outcomes)
    check_outcome_papers(outcomes)
    outcomes = sorted(outcomes, key=lambda o: check_order(o.check_id))
    by_check = {o.check_id: o for o in outcomes}
    papers = catalog.loaded_papers()
    paper_ids = sorted({o.check_id.split(".", 1)[0] for o in outcomes} & set(papers)) or \
        sorted(papers)
    sections = []
    for pid in paper_ids:
        info = papers[pid]
        verdicts = [_verdict_row(o, registry.find(o.check_id)) for o in outcomes
                    if o.check_id.split(".", 1)[0] == pid]
        results = catalog.results(pid)
        seen: dict[str, ErratumBlock] = {}
        for r in results:
            for e in r.errata:
                if e.id not in seen:
                    seen[e.id] = _erratum_block(e, by_check.get(e.check_id or ""))
        sections.append(PaperSection(
            paper_id=pid, title=info["title"], citation=info["citation"],
            assumptions=[AssumptionRow(a.id, a.name, a.statement)
                         for a in catalog.assumptions(pid)],
            results=[_result_block(r) for r in results], verdicts=verdicts,
            errata=list(seen.values()),
        ))
    prov = Provenance(
        version=__version__, command=command or "pflbounds report",
        created=_dt.datetime.now(_dt.UTC).replace(microsecond=0).isoformat(),
        python=sys.version.split()[0], platform=platform.platform(),
        rows=[(o.check_id, o.seed, o.config_hash) for o in outcomes], suite=suite,
        data_command=data_command_line,
    )
    from pflbounds.reporting.audit_page import error_control_sentence

    return Report(title=title or f"pflbounds report: {suite or 'results'}", sections=sections,
                  provenance=prov, audit=audit, error_control=error_control_sentence(outcomes))
