"""Assemble a :class:`~pflbounds.reporting.model.Report` from the catalog and check outcomes.

The catalog gives each paper's assumptions, results (all forms rendered as Typst math) and
errata; the outcomes give verdicts, margins and figures. Engines only: papers are reached
through the catalog and the check registry, never imported by name.
"""

from __future__ import annotations

import datetime as _dt
import platform
import sys
from collections.abc import Sequence
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
    VerdictRow,
)
from pflbounds.symbolic import catalog
from pflbounds.symbolic.printing import typst_expr

MAX_PLOTS_PER_CHECK = 2
_PLOT_FIELDS = {"kind", "title", "xlabel", "ylabel", "logx", "logy", "annotations", "caption",
                "name", "hlines", "vlines"}


def plot_from_dict(d: dict[str, Any]) -> PlotSpec:
    """A figure spec from an outcome (plain dict) to the report model."""
    series = [Series(label=s.get("label", ""), x=s["x"], y=s["y"], lo=s.get("lo"),
                     hi=s.get("hi"), style=s.get("style", "measured"))
              for s in d.get("series", [])]
    kw = {k: v for k, v in d.items() if k in _PLOT_FIELDS}
    return PlotSpec(series=series, **kw)


def _plots(outcome) -> list[PlotSpec]:
    from pflbounds.checking.registry import find
    from pflbounds.reporting.outcome_figures import figures_for

    try:
        specs = figures_for(outcome, find(outcome.check_id))
        return [plot_from_dict(p) for p in specs if p.get("kind") != "table"][
            :MAX_PLOTS_PER_CHECK]
    except Exception:  # noqa: BLE001 - a report without a figure beats no report
        return []


def _result_block(r) -> ResultBlock:
    forms = []
    for name, f in r.forms.items():
        note = f.note
        if f.normalized:
            note = (note + " " if note else "") + f"(Normalised units: {f.normalized}.)"
        if f.conditions:
            note = (note + " " if note else "") + "Conditions: " + "; ".join(
                str(c) for c in f.conditions) + "."
        forms.append(FormBlock(name=name, typst=r.typst(name), note=note,
                               hidden_constants=f.hidden_constants))
    return ResultBlock(
        id=r.id, label=r.label, kind=str(r.kind), quantity=r.quantity, statement=r.statement,
        hypotheses=list(r.hypotheses),
        conditions=[typst_expr(c.relation, r.paper) for c in r.conditions],
        forms=forms, errata_ids=[e.id for e in r.errata],
    )


def _verdict_row(o, check) -> VerdictRow:
    return VerdictRow(
        check_id=o.check_id, title=getattr(o, "title", "") or (check.title if check else ""),
        kind=str(o.kind.value if hasattr(o.kind, "value") else o.kind),
        result_id=(check.result_id if check else "") or "", form=(check.form if check else "")
        or "", verdict=str(o.verdict.value), expected=str(o.expected.value),
        as_expected=bool(o.as_expected), margin=o.margin,
        replicas=None if (check is None or check.deterministic) else o.replicas,
        detail=(o.detail or "") + (f" {check.description}" if check and check.description else ""),
        config_hash=o.config_hash, seed=o.seed, plots=_plots(o),
    )


def check_order(check_id: str) -> tuple:
    """Natural order: predictions P1, P1_mc, P2, ..., P15, then erratum checks E*."""
    import re

    paper, _, name = check_id.partition(".")
    m = re.match(r"([A-Za-z]+)(\d+)(.*)", name)
    if not m:
        return (paper, 2, 0, name)
    return (paper, 0 if m.group(1) == "P" else 1, int(m.group(2)), m.group(3))


def build_report(outcomes: Sequence[Any], *, suite: str = "", command: str = "",
                 title: str | None = None, audit: Any = None) -> Report:
    """One section per paper that has results or outcomes; errata carry their check's verdict
    and figures when that check was run. ``audit``: an audit chapter
    (:func:`pflbounds.reporting.audit_page.load_audit`); the overview states how the Monte
    Carlo verdicts control false alarms."""
    from pflbounds.checking import registry

    registry.load_papers()
    outcomes = sorted(outcomes, key=lambda o: check_order(o.check_id))
    by_check = {o.check_id: o for o in outcomes}
    papers = catalog.papers()
    paper_ids = sorted({o.check_id.split(".", 1)[0] for o in outcomes} & set(papers)) or \
        sorted(papers)
    sections = []
    for pid in paper_ids:
        info = papers[pid]
        verdicts = []
        for o in outcomes:
            if o.check_id.split(".", 1)[0] == pid:
                verdicts.append(_verdict_row(o, registry.find(o.check_id)))
        results = catalog.results(pid)
        seen: dict[str, ErratumBlock] = {}
        for r in results:
            for e in r.errata:
                if e.id in seen:
                    continue
                o = by_check.get(e.check_id or "")
                seen[e.id] = ErratumBlock(
                    id=e.id, where=e.where, what=e.what, fix=e.fix, check_id=e.check_id or "",
                    verdict=str(o.verdict.value) if o else ("not run" if e.check_id else
                                                           "no check"),
                    evidence=(o.detail if o else ""), plots=_plots(o) if o else [],
                )
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
    )
    from pflbounds.reporting.audit_page import error_control_sentence

    return Report(title=title or f"pflbounds report: {suite or 'results'}", sections=sections,
                  provenance=prov, audit=audit, error_control=error_control_sentence(outcomes))
