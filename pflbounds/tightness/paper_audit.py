"""The tightness audit of a paper: every worst-case search it declares, in one table.

``pflbounds audit tightness --paper P`` runs the paper's ``WORST_CASES``
(:mod:`pflbounds.tightness.declared`, cached as :class:`~pflbounds.tightness.record.RecordCache`
records) and its older PEPit ``TIGHTNESS`` cases (:mod:`pflbounds.audit.tightness`, cached in
``pepit-cache.json``), and lists one :class:`Entry` per bound form: the worst ratio found
(measured / bound; for a lower bound the smallest), the instance where it was found in words,
how it was found (exact, SDP, or searched with its budget), and the time it took. A ratio
above 1 (below 1 for a lower bound) is a counterexample: an admissible instance beats the
bound. A paper lists the counterexamples it expects (a printed form an erratum corrects) in
``WORST_EXPECTED`` (``"result:form"`` -> why); any other is a finding.

Coverage: the bound forms that the paper's checks evaluate (recorded by the mutation audit
in ``mutants-PAPER.json`` when that file is in the audit folder, else those the checks
name), each with its entries or, when no case covers it, listed as *uncovered* with the
paper's reason (``UNSEARCHED`` in its ``audit.py``) when it gives one.

The document written (``tightness-PAPER.json``) is what the mutation audit re-runs its
survivors on and what the report reads; the report never runs a search.
"""

from __future__ import annotations

import json
import math
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, TextIO

from pflbounds.checking.jsonsafe import to_jsonable
from pflbounds.symbolic import catalog
from pflbounds.tightness.case import SearchCase
from pflbounds.tightness.record import PointRecord, RecordCache, SearchRecord

__all__ = ["FORMAT", "Entry", "PaperTightness", "evaluated_forms", "format_table",
           "run_tightness"]

FORMAT = "pflbounds.tightness-audit/1"
CACHE_FOLDER = "tightness-cache"
"""The folder of cached search records inside the audit folder."""


@dataclass
class Entry:
    """One bound form under one declared case: its worst ratio and where it was found."""

    result: str
    form: str
    part: str
    title: str
    source: str
    """Which declaration: ``WORST_CASES[i]`` or ``TIGHTNESS[i]``."""
    model: str
    how: str
    """``exact``, ``sdp`` or ``searched``."""
    search: str
    """How it was searched, in words (the budget of a search)."""
    worst_is: str
    sense: str
    ratio: float
    verdict: str
    instance: str
    """The worst instance in words."""
    constants: dict[str, float]
    default_ratio: float | None
    seconds: float
    evaluations: int
    cached: bool
    points: list[dict[str, Any]] = field(default_factory=list)
    """Every point searched: constants, bound, measured (stderr, confidence), ratio, verdict,
    the instance in words, and ``eval`` (how the bound is evaluated again: the mutation
    audit's re-run)."""
    expected: str = ""
    """Why a counterexample is expected here (``WORST_EXPECTED``), else empty."""

    @property
    def counterexample(self) -> bool:
        return self.verdict == "VIOLATED"

    @property
    def label(self) -> str:
        return f"{self.result} [{self.form}{':' + self.part if self.part else ''}]"

    def to_json(self) -> dict[str, Any]:
        d = to_jsonable(asdict(self))
        d["counterexample"] = self.counterexample
        return d

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Entry:
        names = set(cls.__dataclass_fields__)
        return cls(**{k: v for k, v in data.items() if k in names})


@dataclass
class PaperTightness:
    """The tightness audit of one paper."""

    paper: str
    entries: list[Entry]
    covered: list[dict[str, Any]]
    uncovered: list[dict[str, Any]]
    forms_from: str
    elapsed: float
    pepit: dict[str, Any] | None = None
    """The PEPit audit's own document (its rows by K, for the report's figure)."""
    missing_expected: list[str] = field(default_factory=list)
    """Expected counterexamples (``WORST_EXPECTED``) that no entry shows."""

    @property
    def counterexamples(self) -> list[Entry]:
        return [e for e in self.entries if e.counterexample]

    @property
    def unexpected(self) -> list[Entry]:
        return [e for e in self.counterexamples if not e.expected]

    @property
    def finding(self) -> bool:
        """An unexpected counterexample, or an expected one not shown."""
        return bool(self.unexpected or self.missing_expected)

    def to_dict(self) -> dict[str, Any]:
        return to_jsonable({
            "format": FORMAT, "paper": self.paper, "elapsed": round(self.elapsed, 1),
            "entries": [e.to_json() for e in self.entries],
            "counterexamples": [{"result": e.result, "form": e.form, "part": e.part,
                                 "ratio": e.ratio, "instance": e.instance,
                                 "expected": e.expected} for e in self.counterexamples],
            "missing_expected": self.missing_expected,
            "forms_from": self.forms_from, "covered": self.covered,
            "uncovered": self.uncovered, "pepit": self.pepit,
        })


# ---------------------------------------------------------------------------------------
# Which forms the checks evaluate


def evaluated_forms(paper: str, folder: Path | None) -> tuple[list[dict[str, Any]], str]:
    """The bound forms of ``paper`` that its checks evaluate, each with the checks: from the
    mutation audit's record (``mutants-PAPER.json`` in ``folder``) when it is there, else
    from the checks' declarations (every form of the named result when a check names none).
    Returns the forms and where they come from."""
    from pflbounds.audit.mutate import direction

    path = folder / f"mutants-{paper}.json" if folder is not None else None
    if path is not None and path.is_file():
        try:
            doc = json.loads(path.read_text(encoding="utf-8"))
            rows = [r for r in doc["rows"] if r.get("bound")]
            return ([{"result": r["result"], "form": r["form"], "part": r.get("part", ""),
                      "checks": list(r.get("checks", []))} for r in rows],
                    f"recorded by the mutation audit ({path.name})")
        except (OSError, ValueError, KeyError, TypeError):
            pass  # unreadable: fall back to the declarations
    from pflbounds.checking import registry

    registry.load_papers()
    out: dict[tuple[str, str, str], list[str]] = {}
    for c in registry.all_checks():
        if c.paper != paper or not c.result_id:
            continue
        r = catalog.get(c.result_id)
        if direction(r) == 0:
            continue
        names = [c.form] if c.form in r.forms else list(r.forms)
        for name in names:
            for part in r.forms[name].exprs:
                out.setdefault((r.id, name, part), []).append(c.id)
    return ([{"result": k[0], "form": k[1], "part": k[2], "checks": sorted(v)}
             for k, v in sorted(out.items())], "named by the checks (run `pflbounds audit "
            "mutants` first for the forms they evaluate)")


# ---------------------------------------------------------------------------------------
# Entries


def _search_words(case: Mapping[str, Any], p: PointRecord) -> str:
    s = case.get("search", {})
    if p.how == "exact":
        return "exact (decoupled worst case)"
    if p.how == "sdp":
        return "SDP (PEPit)"
    if p.mode == "optimize":
        return (f"searched: L-BFGS-B, {s.get('starts')} starts, budget {s.get('budget')} "
                "evaluations")
    draws = f"searched: {s.get('budget')} seeded draws"
    if p.stderr > 0:
        draws += f", {s.get('replicas')} runs each, best confirmed on {s.get('confirm')}"
    return draws


HORIZONS = ("K", "T")
"""Iteration counts: named in every instance's words (a case may fix one per case)."""


def _swept(case: Mapping[str, Any], p: PointRecord, measure: str) -> str:
    names = list(case.get("sweep", {}))
    if measure != "steps":  # there K is only how far the search looks
        names += [k for k in HORIZONS if k in case.get("fixed", {}) and k not in names]
    return ", ".join(f"{k}={p.constants[k]:g}" for k in names if k in p.constants)


def _words(model: Any, case: Mapping[str, Any], p: PointRecord) -> str:
    try:
        words = model.describe(p.constants, p.instance)
    except (KeyError, ValueError, TypeError, IndexError):
        words = ""
    if p.detail.get("found_by"):
        words = "the default instance" + (f" ({words})" if words else "")
    swept = _swept(case, p, case.get("measure") or model.measures[0])
    return f"{swept}: {words}" if swept and words else (swept or words)


def _point_json(model: Any, case: Mapping[str, Any], p: PointRecord,
                inputs: Sequence[str]) -> dict[str, Any]:
    out = {"constants": p.constants, "bound": p.bound, "measured": p.measured,
           "stderr": p.stderr, "ratio": p.ratio, "verdict": p.verdict, "how": p.how,
           "worst_is": p.worst_is, "instance": _words(model, case, p),
           "seconds": p.seconds, "evaluations": p.evaluations,
           "eval": {"kind": "search", "values": {k: p.constants[k] for k in inputs
                                                  if k in p.constants}}}
    if p.how == "sdp":
        out["measured_dual"] = p.detail.get("dual")
    if p.stderr > 0:
        out["confidence"] = case.get("search", {}).get("confidence", 0.99)
    return out


def _better(sense: str, a: float, b: float) -> bool:
    if math.isnan(a):
        return False
    if math.isnan(b):
        return True
    return a > b if sense == "max" else a < b


def search_entry(index: int, case: SearchCase, rec: SearchRecord) -> Entry:
    """The entry of a declared search's record."""
    from pflbounds.tightness.registry import get_model

    model = get_model(case.model)
    r = catalog.get(case.result)
    inputs = r.inputs(case.form)
    w = rec.worst
    points = [_point_json(model, rec.case, p, inputs) for p in rec.points]
    return Entry(
        result=case.result, form=case.form, part=case.part, title=case.title,
        source=f"WORST_CASES[{index}]", model=case.model, how=w.how,
        search=_search_words(rec.case, w), worst_is=w.worst_is, sense=rec.sense,
        ratio=w.ratio, verdict=rec.verdict, instance=_words(model, rec.case, w),
        constants=w.constants,
        default_ratio=None if not w.default or "ratio" not in w.default
        else float(w.default["ratio"]),
        seconds=rec.seconds, evaluations=rec.evaluations, cached=rec.cached, points=points)


def pepit_entries(index: int, case: Any, rows: Sequence[Any], seconds: float) -> list[Entry]:
    """One entry per form of an older PEPit case (:class:`pflbounds.audit.tightness.
    TightnessCase`): its rows are the points; the measured value is PEPit's primal (attained)
    worst case, the dual (proved) one kept beside it."""
    out = []
    forms = list(dict.fromkeys(r.form for r in rows))
    for form in forms:
        mine = [r for r in rows if r.form == form]
        points = []
        for r in mine:
            consts = {"mu": r.mu, "L": r.L, "eta": r.eta, case.horizon: float(r.K),
                      case.initial: 1.0, **{k: float(v) for k, v in case.fixed.items()}}
            primal = r.primal if r.primal is not None else float("nan")
            ratio = primal / r.bound if r.bound > 0 else float("nan")
            start = ("||x0 - x*||^2" if case.initial_condition == "distance"
                     else "f(x0) - f*")
            words = (f"K={r.K}, mu={r.mu:g}, L={r.L:g}, eta={r.eta:.3g}: PEPit's worst "
                     f"L-smooth mu-strongly convex function, {start} = 1")
            points.append({
                "constants": consts, "bound": r.bound, "measured": primal,
                "measured_dual": r.worst, "stderr": 0.0, "ratio": ratio,
                "verdict": r.verdict, "how": "sdp", "worst_is": "sdp", "instance": words,
                "seconds": 0.0, "evaluations": 1,
                "eval": {"kind": "pepit", "values": {k: v for k, v in consts.items()
                                                      if k not in case.fixed},
                         "fixed": {k: float(v) for k, v in case.fixed.items()}}})
        best = points[0]
        for p in points[1:]:
            if _better("max", p["ratio"], best["ratio"]):
                best = p
        verdicts = [p["verdict"] for p in points]
        from pflbounds.tightness.record import aggregate

        out.append(Entry(
            result=case.result_id, form=form, part="", title=case.title,
            source=f"TIGHTNESS[{index}]", model=f"PEPit {case.method}", how="sdp",
            search="SDP (PEPit)", worst_is="sdp", sense="max", ratio=best["ratio"],
            verdict=aggregate(verdicts), instance=best["instance"],
            constants=best["constants"], default_ratio=None,
            seconds=round(seconds / max(len(forms), 1), 3), evaluations=len(points),
            cached=all(r.cached for r in mine), points=points))
    return out


# ---------------------------------------------------------------------------------------
# The run


Progress = Callable[[str], None]


def stderr_progress(stream: TextIO | None = None) -> Progress:
    """Progress lines on stderr (flushed at once)."""
    def say(line: str) -> None:
        out = stream or sys.stderr
        print(line, file=out, flush=True)
    return say


def previous_entries(path: Path, only: Sequence[str]) -> list[Entry]:
    """The entries of an earlier audit document at ``path`` about results other than
    ``only`` (kept when a run is restricted to ``only``), or none."""
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
        if doc.get("format") != FORMAT:
            return []
        return [Entry.from_json(e) for e in doc["entries"] if e["result"] not in only]
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return []


def run_tightness(paper: str, folder: Path, *, horizons: Sequence[int] | None = None,
                  only: Sequence[str] | None = None, progress: Progress | None = None,
                  pepit_solve: Callable[..., Any] | None = None) -> PaperTightness:
    """Run every case ``paper`` declares (cached records reused) and gather the entries and
    the coverage. ``only``: these result ids; the entries of the others are kept from the
    folder's earlier document, so that the document stays whole. ``horizons``: the iteration
    counts of the PEPit cases (their own by default). ``progress``: called with one line per
    case."""
    from pflbounds.audit.declarations import declared
    from pflbounds.tightness.declared import paper_cases
    from pflbounds.tightness.engine import run_case

    t0 = time.perf_counter()
    say = progress or (lambda line: None)
    cases = [(i, c) for i, c in enumerate(paper_cases(paper))
             if not only or c.result in only]
    pepit_cases = [(i, c) for i, c in enumerate(declared(paper, "TIGHTNESS", []))
                   if not only or c.result_id in only]
    total = len(cases) + len(pepit_cases)
    entries: list[Entry] = []
    cache = RecordCache(folder / CACHE_FOLDER)
    n = 0
    for i, case in cases:
        n += 1
        t = time.perf_counter()
        rec = run_case(case, cache=cache)
        e = search_entry(i, case, rec)
        entries.append(e)
        say(f"tightness {paper} [{n}/{total}] {e.label} on {case.model}: worst ratio "
            f"{e.ratio:.4g} ({e.how}{', cached' if rec.cached else ''}) "
            f"{time.perf_counter() - t:.1f} s")
    pepit_doc = None
    if pepit_cases:
        from pflbounds.audit.tightness import audit_tightness, gd_worst_case

        docs = []
        for i, case in pepit_cases:
            n += 1
            t = time.perf_counter()
            a = audit_tightness(paper, [case], cache_path=folder / "pepit-cache.json",
                                horizons=horizons, solve=pepit_solve or gd_worst_case)
            rows = a.cases[0][1]
            new = pepit_entries(i, case, rows, time.perf_counter() - t)
            entries += new
            docs.append(a.to_dict())
            say(f"tightness {paper} [{n}/{total}] {case.result_id} against PEPit "
                f"({len(rows)} solves, {sum(not r.cached for r in rows)} new): "
                f"{time.perf_counter() - t:.1f} s")
        pepit_doc = dict(docs[0])
        pepit_doc["cases"] = [c for d in docs for c in d["cases"]]
        from pflbounds.tightness.record import aggregate

        pepit_doc["verdict"] = aggregate([d["verdict"] for d in docs])
        pepit_doc["evidence"] = {k: v for d in docs for k, v in d["evidence"].items()}
    if only:
        entries = previous_entries(folder / f"tightness-{paper}.json", only) + entries
        if pepit_doc is None:  # no PEPit case ran: keep the earlier comparisons by K
            try:
                old = json.loads((folder / f"tightness-{paper}.json").read_text("utf-8"))
                pepit_doc = old.get("pepit") if old.get("format") == FORMAT else None
            except (OSError, ValueError, AttributeError):
                pepit_doc = None
    expected = dict(declared(paper, "WORST_EXPECTED", {}))
    for e in entries:
        why = expected.get(f"{e.result}:{e.form}") or expected.get(e.result, "")
        if e.counterexample and why:
            e.expected = why
    shown = {(e.result, e.form) for e in entries if e.counterexample}
    missing = sorted(k for k in expected
                     if tuple(k.split(":", 1)) not in shown
                     and not any(e.result == k and e.counterexample for e in entries))
    forms, source = evaluated_forms(paper, folder)
    reasons = dict(declared(paper, "UNSEARCHED", {}))
    have = {(e.result, e.form, e.part) for e in entries}
    covered, uncovered = [], []
    for f in forms:
        key = (f["result"], f["form"], f["part"])
        if key in have:
            covered.append(f)
        else:
            why = reasons.get(f"{f['result']}:{f['form']}") or reasons.get(f["result"], "")
            uncovered.append({**f, "why": why})
    return PaperTightness(paper, entries, covered, uncovered, source,
                          time.perf_counter() - t0, pepit_doc, missing)


# ---------------------------------------------------------------------------------------
# Text


def _ratio(e: Entry) -> str:
    if math.isnan(e.ratio):
        return "-"
    return f"{e.ratio:.4g}"


def format_table(audit: PaperTightness) -> str:
    """The entries, the counterexamples and the uncovered forms as plain text."""
    lines = [f"{audit.paper}: tightness of its bounds (worst ratio = measured / bound over "
             "the admissible instances searched; above 1 a counterexample; "
             f"{audit.elapsed:.0f} s)"]
    hdr = (f"  {'bound [form]':<36} {'worst ratio':>11} {'worst is':<9} {'search':<44} "
           f"{'s':>7}  at")
    lines.append(hdr)
    if not audit.entries:
        lines.append(f"  {audit.paper} declares no worst-case search (WORST_CASES or TIGHTNESS "
                     "in its audit.py)")
    for e in audit.entries:
        flag = ""
        if e.counterexample:
            flag = "  COUNTEREXAMPLE" + (" (expected)" if e.expected else "")
        secs = f"{e.seconds:.1f}" + ("c" if e.cached else "")
        lines.append(f"  {e.label:<36} {_ratio(e):>11} {e.worst_is:<9} {e.search[:44]:<44} "
                     f"{secs:>7}  {e.instance}{flag}")
    if audit.counterexamples:
        lines.append("  counterexamples (an admissible instance beats the bound):")
        for e in audit.counterexamples:
            why = f" -- expected: {e.expected}" if e.expected else " -- NOT EXPECTED"
            lines.append(f"    {e.label}: ratio {_ratio(e)} at {e.instance}{why}")
    for k in audit.missing_expected:
        lines.append(f"  expected counterexample not shown: {k}")
    n = len(audit.covered) + len(audit.uncovered)
    lines.append(f"  coverage: {len(audit.covered)} of {n} bound forms evaluated by checks "
                 f"have a case ({audit.forms_from}); 'c' after the seconds: cached")
    if audit.uncovered:
        lines.append("  uncovered (no case):")
        for f in audit.uncovered:
            part = f":{f['part']}" if f["part"] else ""
            why = f" -- {f['why']}" if f["why"] else ""
            checks = ", ".join(c.split(".", 1)[-1] for c in f["checks"])
            lines.append(f"    {f['result']} [{f['form']}{part}] ({checks}){why}")
    return "\n".join(lines)

