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
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from pflbounds.reporting.claims import CORRECTED_FORMS, LONG_QUANTITY
from pflbounds.reporting.model import (
    AssumptionRow,
    ClaimVerdict,
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
from pflbounds.reporting.prose import for_reader
from pflbounds.symbolic import catalog
from pflbounds.symbolic.printing import typst_expr
from pflbounds.version import __version__

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


_PART = re.compile(r"\s*\((\d+)/(\d+)\)\s*$")


def _figures(outcome, check, max_plots: int = MAX_PLOTS_PER_CHECK
             ) -> tuple[list[PlotSpec], list[ValueTable]]:
    """The figures and value tables of an outcome; at most ``max_plots`` figures, whose
    titles number their parts among the figures kept (never "(1/4)" of two)."""
    from pflbounds.reporting.outcome_figures import figures_for

    specs = figures_for(outcome, check)
    plots = [plot_from_dict(p) for p in specs if p.get("kind") != "table"][:max_plots]
    tables = [table_from_dict(p) for p in specs if p.get("kind") == "table"]
    for p in plots:
        p.title, p.caption = for_reader(_PART.sub("", p.title)), for_reader(p.caption)
    _numbered(plots)
    for t in tables:
        t.title, t.caption = for_reader(_PART.sub("", t.title)), for_reader(t.caption)
    return plots, tables


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


_UNIT_POWERS = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")


def _unit(text: str) -> str:
    """``[f]^2*[x]^-2`` as ``[f]²·[x]⁻²``."""
    text = re.sub(r"\^(-?\d+)", lambda m: m.group(1).translate(_UNIT_POWERS), text)
    return text.replace("*", "·")


def dimension_problem(result, form: str) -> str:
    """"" when the form is unit-consistent (or stated in normalised units, or its units are
    not declared), else what is wrong, in one short sentence."""
    from pflbounds.symbolic.units import DimensionError

    if result.forms[form].normalized:
        return ""
    try:
        result.dimension_check(form)
    except DimensionError as e:
        msg = str(e)
        m = re.search(r"has unit (\S+), but the quantity .* has unit (\S+)$", msg)
        if m:
            return f"{form}: unit {_unit(m.group(1))} where the quantity has {_unit(m.group(2))}"
        m = re.match(r"a (sum|relation) mixes units (\S+) and (\S+)", msg)
        if m:
            return f"{form}: a {m.group(1)} adds {_unit(m.group(2))} to {_unit(m.group(3))}"
        m = re.match(r"argument of (\w+) has unit (\S+)", msg)
        if m:
            return f"{form}: the argument of {m.group(1)} has unit {_unit(m.group(2))}"
        return f"{form}: not unit-consistent"
    except Exception:  # noqa: BLE001 - a unit pflbounds cannot analyse is not a finding
        return ""
    return ""


def _marks(r) -> dict[str, tuple[str, str, str]]:
    """``{form: (marked math, compared with, the changed parts only)}`` for the corrected
    form and the paper's form closest to it (the last empty unless some parts are equal)."""
    from pflbounds.reporting.changes import closest_form, marked_pair

    if "corrected" not in r.forms:
        return {}
    other = closest_form(r, "corrected", [f for f in r.forms if f not in CORRECTED_FORMS])
    if other is None:
        return {}
    try:
        old, new = marked_pair(r, other, "corrected")
    except Exception:  # noqa: BLE001 - unmarked forms are still shown
        return {}
    if not new:
        return {}
    out = {other: (old, "corrected", ""), "corrected": (new, other, "")}
    if len(r.form("corrected").exprs) > 1:
        o2, n2 = marked_pair(r, other, "corrected", changed_only=True)
        if o2 != old:
            out = {other: (old, "corrected", o2), "corrected": (new, other, n2)}
    return out


def _short_lhs(r, math: str) -> str:
    """``math`` with a long quantity in words, the left-hand side of every part, as Q."""
    if r.extra.get("quantity_typst") or len(r.quantity) <= LONG_QUANTITY:
        return math
    quoted = '"' + r.quantity.replace('"', "'") + '"'
    return math.replace(quoted + " ", "Q ")


def _result_block(r, checks: list[str]) -> ResultBlock:
    marks = {k: tuple(_short_lhs(r, m) for m in v[:1]) + v[1:2] + (_short_lhs(r, v[2]),)
             for k, v in _marks(r).items()}
    forms = []
    for name, f in r.forms.items():
        note = for_reader(f.note)
        if f.normalized:
            note = (note + " " if note else "") + f"(Normalised units: {f.normalized}.)"
        marked, other, changed = marks.get(name, ("", "", ""))
        forms.append(FormBlock(
            name=name, typst=_short_lhs(r, r.typst(name)), note=note, hidden_constants=_hidden(f),
            conditions=[typst_expr(c.relation, r.paper) for c in f.conditions],
            marked=marked, compared_with=other, dimension=dimension_problem(r, name),
            marked_changed=changed,
        ))
    return ResultBlock(
        id=r.id, label=r.label, kind=str(r.kind), quantity=r.quantity,
        statement=for_reader(r.statement), hypotheses=list(r.hypotheses),
        conditions=[typst_expr(c.relation, r.paper) for c in r.conditions],
        forms=forms, errata_ids=[e.id for e in r.errata],
        quantity_typst=r.extra.get("quantity_typst", ""), unchecked=for_reader(r.unchecked),
        checks=checks, notes=for_reader(r.notes),
    )


def _verdict_row(o, check, errata_ids: list[str]) -> VerdictRow:
    from pflbounds.checking.ratio import kind_statistic, outcome_ratios
    from pflbounds.checking.vocabulary import derive_claims, expected_claims

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
    form = (check.form if check else None) or (o.config or {}).get("form") or "printed"
    claims = o.claims or derive_claims(o.kind, form, str(o.verdict.value), o.detail)
    want = expected_claims(o.kind, form, str(o.expected.value))
    try:
        ratios = outcome_ratios(o)
        statistic = kind_statistic(o)
    except Exception:  # noqa: BLE001 - evidence the ratio cannot read: no ratio shown
        ratios, statistic = {}, ""
    cvs = [ClaimVerdict(f, str(v.value if hasattr(v, "value") else v), want.get(f, ""),
                        ratios[f].ratio if f in ratios else None,
                        ratios[f].where if f in ratios else "")
           for f, v in claims.items()]
    return VerdictRow(
        check_id=o.check_id, title=for_reader(getattr(o, "title", "") or
                                              (check.title if check else "")),
        kind=str(o.kind.value if hasattr(o.kind, "value") else o.kind),
        result_id=(check.result_id if check else "") or "", form=form,
        verdict=str(o.verdict.value), expected=str(o.expected.value),
        as_expected=bool(o.as_expected), margin=o.margin,
        replicas=None if (check is None or check.deterministic) else o.replicas,
        detail=for_reader(round_numbers(detail)), config_hash=o.config_hash, seed=o.seed,
        plots=plots, tables=tables, claims=cvs, role=check.role if check else "claim",
        statistic=statistic, errata_ids=errata_ids,
        post_hoc=for_reader(getattr(check, "post_hoc", "") or ""),
    )


def check_order(check_id: str) -> tuple:
    """Natural order: predictions P1, P1_mc, P2, ..., P15, then erratum checks E*."""
    paper, _, name = check_id.partition(".")
    m = re.match(r"([A-Za-z]+)(\d+)(.*)", name)
    if not m:
        return (paper, 2, 0, name)
    return (paper, 0 if m.group(1) == "P" else 1, int(m.group(2)), m.group(3))


def _erratum_block(e, o, row: VerdictRow | None, result_ids: list[str]) -> ErratumBlock:
    common = dict(id=e.id, where=for_reader(e.where), what=for_reader(e.what),
                  fix=for_reader(e.fix), check_id=e.check_id or "", severity=e.severity,
                  known=e.known, result_ids=result_ids)
    if o is None:
        return ErratumBlock(verdict="not run" if e.check_id else "", **common)
    return ErratumBlock(
        verdict=str(o.verdict.value), expected=str(o.expected.value),
        evidence=for_reader(round_numbers(o.detail or "")),
        claims=list(row.claims) if row is not None else [], **common,
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
    # validate judges each Monte Carlo check at its share of its paper's error family unless
    # --per-check; the family is recorded in each Monte Carlo config.
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


PACKAGES = (("numpy", "numpy"), ("SciPy", "scipy"), ("SymPy", "sympy"), ("CVXPY", "cvxpy"),
            ("Clarabel", "clarabel"), ("JAX", "jax"), ("PEPit", "PEPit"), ("Typst", "typst"))
"""The libraries the report's numbers and typesetting depend on: (shown name, distribution)."""


def package_versions() -> list[tuple[str, str]]:
    """``(name, version)`` of each of :data:`PACKAGES`, ``not installed`` for a missing one."""
    import importlib.metadata as md

    out = []
    for shown, dist in PACKAGES:
        try:
            out.append((shown, md.version(dist)))
        except md.PackageNotFoundError:
            out.append((shown, "not installed"))
    return out


def git_commit(where: str | Path | None = None) -> str:
    """The commit of the git checkout holding the pflbounds source (``with uncommitted
    changes`` when its tree differs), or ``not a git checkout``."""
    import subprocess

    folder = Path(where) if where is not None else Path(__file__).resolve().parents[2]

    def git(*args: str) -> str:
        return subprocess.run(["git", "-C", str(folder), *args], capture_output=True,
                              text=True, timeout=10, check=True).stdout.strip()

    try:
        commit = git("rev-parse", "HEAD")
        dirty = git("status", "--porcelain", "--untracked-files=no", "--", "pflbounds")
    except (OSError, subprocess.SubprocessError):
        return "not a git checkout"
    return commit + (" (with uncommitted changes to pflbounds/)" if dirty else "")


def _runtime(outcomes: Sequence[Any]) -> str:
    total = sum(float(getattr(o, "elapsed", 0.0) or 0.0) for o in outcomes)
    if not outcomes:
        return ""
    if total < 0.05:
        return (f"{len(outcomes)} checks, every task read from the task cache (no computation "
                "in this run)")
    return (f"{total:.1f} s of computation for {len(outcomes)} checks (summed over workers; "
            "tasks read from the task cache count nothing)")


def _seeds(outcomes: Sequence[Any]) -> str:
    seeds = sorted({int(o.seed) for o in outcomes if getattr(o, "seed", None) is not None})
    return ", ".join(str(s) for s in seeds)


def _citation(info: dict[str, str]) -> str:
    return info.get("citation", "")


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
                 data_command_line: str = "", detail: str = "quick",
                 skipped: Mapping[str, str] | None = None,
                 tightness: Mapping[str, Sequence[Mapping[str, Any]]] | None = None) -> Report:
    """One section per paper that has results or outcomes: its results (each with its
    registered checks, dimension analysis and marked corrections), verdict rows (claim
    verdicts, ratios, kind statistics, figures) and errata (with how they are known and what
    their checks gave). ``audit``: an audit chapter
    (:func:`pflbounds.reporting.audit_page.load_audit`); ``data_command_line``: the
    ``validate`` command that made the outcomes (see :func:`data_command`); ``detail``:
    ``quick`` or ``full`` (:attr:`Report.detail`); ``skipped``: checks of the run that did
    not run, with why (an extra that is not installed): their claims show as not run, with
    the reason. ``tightness``: the tightness audit's entries by result id
    (:func:`pflbounds.reporting.tightness_text.load_tightness_records`), shown in each
    result's block and in the findings table; the report runs no search."""
    from pflbounds.checking import registry

    if detail not in ("quick", "full"):
        raise ValueError(f"detail must be 'quick' or 'full', got {detail!r}")
    load_outcome_papers([] if audit is not None else outcomes)
    check_outcome_papers(outcomes)
    outcomes = sorted(outcomes, key=lambda o: check_order(o.check_id))
    by_check = {o.check_id: o for o in outcomes}
    papers = catalog.loaded_papers()
    paper_ids = sorted({c.split(".", 1)[0] for c in [*(o.check_id for o in outcomes),
                                                     *(skipped or {})]} & set(papers)) or \
        sorted(papers)
    checks_of: dict[str, list[str]] = {}
    for c in registry.loaded_checks():
        if c.result_id:
            checks_of.setdefault(c.result_id, []).append(c.id)
    sections = []
    for pid in paper_ids:
        info = papers[pid]
        results = catalog.results(pid)
        errata_of_check: dict[str, list[str]] = {}
        result_ids: dict[str, list[str]] = {}
        first: dict[str, Any] = {}
        for r in results:
            for e in r.errata:
                first.setdefault(e.id, e)
                result_ids.setdefault(e.id, []).append(r.id)
                if e.check_id and e.id not in errata_of_check.get(e.check_id, []):
                    errata_of_check.setdefault(e.check_id, []).append(e.id)
        verdicts = [_verdict_row(o, registry.find(o.check_id),
                                 errata_of_check.get(o.check_id, []))
                    for o in outcomes if o.check_id.split(".", 1)[0] == pid]
        rows = {v.check_id: v for v in verdicts}
        blocks = [_result_block(r, sorted(checks_of.get(r.id, []), key=check_order))
                  for r in results]
        for b in blocks:
            b.tightness = [dict(e) for e in (tightness or {}).get(b.id, [])]
        _exercised(blocks, first, checks_of)
        errata = [_erratum_block(e, by_check.get(e.check_id or ""), rows.get(e.check_id or ""),
                                 result_ids[eid]) for eid, e in first.items()]
        sections.append(PaperSection(
            paper_id=pid, title=info["title"], citation=_citation(info),
            assumptions=[AssumptionRow(a.id, a.name, for_reader(a.statement))
                         for a in catalog.assumptions(pid)],
            results=blocks, verdicts=verdicts, errata=errata,
            skipped={k: v for k, v in (skipped or {}).items()
                     if k.split(".", 1)[0] == pid},
        ))
    prov = Provenance(
        version=__version__, command=command or "pflbounds report",
        created=_dt.datetime.now(_dt.UTC).replace(microsecond=0).isoformat(),
        python=sys.version.split()[0], platform=platform.platform(),
        rows=[(o.check_id, o.seed, o.config_hash) for o in outcomes], suite=suite,
        data_command=data_command_line, commit=git_commit(), packages=package_versions(),
        runtime=_runtime(outcomes), seed=_seeds(outcomes),
    )
    from pflbounds.reporting.audit_page import error_control_sentence
    from pflbounds.reporting.document import shown_figures

    report = Report(title=title or f"pflbounds report: {suite or 'results'}",
                    sections=sections, provenance=prov, audit=audit,
                    error_control=error_control_sentence(outcomes), detail=detail)
    # the report's folder holds the figures its PDF shows, and only those
    shown = shown_figures(report)
    for s in sections:
        for v in s.verdicts:
            kept = [p for p in v.plots if id(p) in shown]
            if len(kept) != len(v.plots):
                v.plots = _numbered(kept)
    return report


_PART_OF = re.compile(r"\s*\(part \d+ of \d+\)$")


def _numbered(plots: list[PlotSpec]) -> list[PlotSpec]:
    """``plots`` with "(part k of m)" counting only these."""
    for k, p in enumerate(plots, 1):
        p.title = _PART_OF.sub("", p.title)
        if len(plots) > 1:
            p.title += f" (part {k} of {len(plots)})"
    return plots


def _exercised(blocks: list[ResultBlock], errata: dict[str, Any],
               checks_of: dict[str, list[str]]) -> None:
    """Fill ``exercised_by`` of each result without a check: the checks of its errata that
    test another result, and the checks of the other results of its claim."""
    by_claim: dict[str, list[ResultBlock]] = {}
    for b in blocks:
        by_claim.setdefault(b.claim, []).append(b)
    for b in blocks:
        if b.checks:
            continue
        out: list[tuple[list[str], str]] = []
        seen: set[str] = set()
        for eid in b.errata_ids:
            e = errata.get(eid)
            if e is not None and e.check_id and e.check_id not in seen:
                seen.add(e.check_id)
                out.append(([e.check_id], f"its erratum {eid.split('.', 1)[-1]}"))
        for other in by_claim.get(b.claim, []):
            ids = [c for c in other.checks if c not in seen]
            if other is not b and ids:
                seen.update(ids)
                out.append((ids, f"same claim: {other.label}"))
        b.exercised_by = out
