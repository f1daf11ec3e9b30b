"""Checker power by mutation: would the checks have caught a wrong bound?

For every form of every result that some check of a paper evaluates, mutants are generated
from the formula's tree (:mod:`pflbounds.audit.mutate`) and classified against the original
on the inputs the checks evaluated it with. A weaker mutant cannot be caught by a run (the
measured values satisfy the original, hence the weaker form too), so only the stronger ones
are run: the checks that evaluate the form run again with the mutant served by the catalog in
place of the form, and the mutant is

* ``caught``: some check's verdict differs from the one it expects;
* ``refuted``: no verdict changed, but a check that expects this form to fail (an erratum's
  printed side, a claim expected VIOLATED) still refutes it, with evidence that moved with
  the mutant: the suite reports the mutant wrong, as it reports the original;
* ``survived``: otherwise; the record says what each run showed (the verdict unchanged with
  its new margin, or evidence the mutant does not touch).

Each (check, grid) pair that evaluates the form, on the grids asked for (the quick grids by
default; a check without a quick grid runs its grid), runs in order of its baseline cost,
cheapest first, until one catches or refutes the mutant: deterministic engines (exact,
symbolic) usually decide before any Monte Carlo check runs. The seed is the baseline's, so a
Monte Carlo check sees the same samples and only its bound moves. Mutants run in this process
(``jobs=1``) or in worker processes that each receive the substitution. Runs bypass the task
cache: its keys do not include the catalog's formulas, so a cached task would hide the
mutant. ``caught_by`` names the first pair that decided, in cost order (which depends on the
baseline's timings); the statuses do not.
"""

from __future__ import annotations

import fnmatch
import hashlib
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np
import sympy as sp

from pflbounds.audit.mutate import CLASSES, Mutant, classify, compare, direction, mutants
from pflbounds.audit.record import FormKey, distinct_forms, recording, substituted
from pflbounds.checking import registry
from pflbounds.checking.check import Check
from pflbounds.checking.kinds import CheckKind, Verdict
from pflbounds.checking.outcome import Outcome
from pflbounds.running.executor import run_check
from pflbounds.symbolic import catalog

GRIDS = ("quick", "full")
STATUSES = ("caught", "refuted", "survived")
VERDICT_KEYS = {
    CheckKind.BOUND_HOLDS: ("mean", "bound", "gap_mean", "violations"),
    CheckKind.LOWER_BOUND: ("mean", "bound"),
    CheckKind.ERRATUM: ("mean", "bound_printed", "bound_corrected"),
    CheckKind.RATE: ("ks", "mean"),
    CheckKind.SCALING: ("mean", "x"),
    CheckKind.IDENTITY: ("residual", "mean", "target"),
    CheckKind.HOLDS_WITH_PROBABILITY: ("violations", "count"),
    CheckKind.COMPARISON: ("draws",),
}
"""The evidence each kind's verdict reads: a mutant that leaves it unchanged cannot move the
verdict (other evidence, e.g. a bound drawn beside a fitted rate, is for figures)."""


@dataclass
class Run:
    """One run of a check: grid, verdict, margin, detail, seconds, and a fingerprint of the
    evidence its verdict reads."""

    check_id: str
    grid: str
    verdict: str
    expected: str
    margin: float | None
    detail: str
    elapsed: float
    evidence: dict[str, str] = field(default_factory=dict)
    """A fingerprint of each piece of evidence the verdict reads."""
    evaluated: bool = True
    """False when a substituted form was never evaluated by the run (a check that bypasses
    the catalog): the run says nothing about the mutant."""

    @property
    def as_expected(self) -> bool:
        return self.verdict == self.expected

    @classmethod
    def of(cls, o: Outcome, grid: str, elapsed: float) -> Run:
        margin = None if o.margin is None or not np.isfinite(o.margin) else float(o.margin)
        return cls(o.check_id, grid, o.verdict.value, o.expected.value, margin, o.detail,
                   round(elapsed, 3), _fingerprint(o))

    def moved(self, base: Run, key: str | None = None) -> bool:
        """Whether the evidence the verdict reads (or its piece ``key``) differs from the
        baseline run's."""
        if key is not None:
            return self.evidence.get(key) != base.evidence.get(key)
        return (self.verdict, self.evidence) != (base.verdict, base.evidence)


def _fingerprint(o: Outcome) -> dict[str, str]:
    """A short hash of each piece of evidence the kind's verdict reads, over all points."""
    out = {}
    for k in VERDICT_KEYS.get(o.kind, ()):
        h = hashlib.sha256()
        for p in o.evidence:
            if k in p:
                h.update(np.ascontiguousarray(np.asarray(p[k], dtype=float)).tobytes())
        out[k] = h.hexdigest()[:16]
    if o.fits:
        out["fits"] = hashlib.sha256(repr([f.get("estimate") for f in o.fits]).encode()
                                     ).hexdigest()[:16]
    return out


@dataclass
class MutantRecord:
    """A mutant, its class, and for a stronger one the runs and the status."""

    key: FormKey
    operator: str
    change: str
    formula: str
    cls: str
    status: str | None = None
    caught_by: str | None = None
    runs: list[Run] = field(default_factory=list)
    explanation: str = ""
    """For a survivor: what each run showed."""
    note: str = ""
    """For a survivor: the paper's explanation of its form (``MUTANT_NOTES``)."""
    worst: dict[str, Any] | None = None
    """For a survivor: its re-run on the worst instances of the tightness audit
    (:mod:`pflbounds.audit.worst_rerun`), or None when not re-run."""


@dataclass
class FormAudit:
    """The mutants of one form, with the checks that evaluate it."""

    key: FormKey
    formula: str
    direction: int
    checks: list[str]
    mutants: list[MutantRecord] = field(default_factory=list)

    def count(self, what: str) -> int:
        return sum(m.cls == what or m.status == what for m in self.mutants)


@dataclass
class MutantAudit:
    """The mutation audit of one paper."""

    paper: str
    seed: int
    grids: str
    forms: list[FormAudit]
    baseline: dict[str, dict[str, Run]]
    not_evaluated: list[dict[str, Any]]
    excluded: list[Run]
    elapsed: float = 0.0
    jobs: int = 1
    left_out: list[str] = field(default_factory=list)
    """Checks of the paper the audit did not run (outside the paper's ``AUDIT_CHECKS``)."""
    worst_source: str = ""
    """The tightness document the survivors were re-run on (empty: not re-run)."""

    @property
    def stronger(self) -> list[MutantRecord]:
        return [m for f in self.forms for m in f.mutants if m.cls == "stronger"]

    @property
    def survivors(self) -> list[MutantRecord]:
        return [m for m in self.stronger if m.status == "survived"]

    @property
    def detected_fraction(self) -> float | None:
        """Caught or refuted, over the stronger mutants."""
        s = self.stronger
        return None if not s else sum(m.status in ("caught", "refuted") for m in s) / len(s)

    def worst_totals(self) -> dict[str, Any] | None:
        """The stronger mutants by final status, the survivors re-run on the worst
        instances (:func:`pflbounds.audit.worst_rerun.worst_summary`); None when not
        re-run."""
        if not self.worst_source:
            return None
        from pflbounds.audit.worst_rerun import worst_summary

        out = worst_summary([_mutant_dict(m) for m in self.stronger])
        out["source"] = self.worst_source
        return out

    def rows(self) -> list[dict[str, Any]]:
        """One row per form: counts of each class and status, and its checks."""
        out = []
        for f in self.forms:
            row = {"result": f.key.result_id, "form": f.key.form, "part": f.key.part,
                   "formula": f.formula, "bound": f.direction != 0, "mutants": len(f.mutants),
                   "checks": f.checks}
            row.update({c: f.count(c) for c in CLASSES})
            row.update({s: f.count(s) for s in STATUSES})
            out.append(row)
        return out

    def to_dict(self) -> dict[str, Any]:
        s = self.stronger
        return {
            "paper": self.paper, "seed": self.seed, "grids": self.grids,
            "elapsed": round(self.elapsed, 1), "jobs": self.jobs,
            "totals": {"mutants": sum(len(f.mutants) for f in self.forms),
                       "stronger": len(s),
                       **{st: sum(m.status == st for m in s) for st in STATUSES},
                       "detected_fraction": self.detected_fraction},
            "worst_instances": self.worst_totals(),
            "rows": self.rows(),
            "survivors": [_mutant_dict(m) for m in self.survivors],
            "mutants": [_mutant_dict(m) for f in self.forms for m in f.mutants],
            "not_evaluated": self.not_evaluated,
            "checks_left_out": self.left_out,
            "excluded_checks": [asdict(r) for r in self.excluded],
            "baseline": {c: {g: asdict(r) for g, r in runs.items()}
                         for c, runs in self.baseline.items()},
        }


def _mutant_dict(m: MutantRecord) -> dict[str, Any]:
    d = {"result": m.key.result_id, "form": m.key.form, "part": m.key.part,
         "operator": m.operator, "change": m.change, "formula": m.formula, "class": m.cls}
    if m.status is not None:
        d.update(status=m.status, caught_by=m.caught_by, explanation=m.explanation,
                 note=m.note, worst=m.worst,
                 runs=[asdict(r) for r in m.runs])
    return d


# ---------------------------------------------------------------------------------------
# Running checks


Records = dict[FormKey, list[dict[str, np.ndarray]]]


def _pairs(check: Check, grids: Sequence[str]) -> list[str]:
    """The grids a check runs on: a check without a quick grid has a single grid, named
    ``full``."""
    if check.quick_grid is None:
        return ["full"]
    return list(grids)


def _timed_run(check: Check, grid: str, seed: int) -> tuple[Outcome, float]:
    t0 = time.perf_counter()
    o = run_check(check, quick=grid == "quick", base_seed=seed, jobs=1, progress=False)
    return o, time.perf_counter() - t0


def baseline_task(check_id: str, grid: str, seed: int, paper: str) -> tuple[Run, Records]:
    """Run one check on one grid, recording which forms of ``paper`` it evaluates and with
    which inputs (a worker-process task)."""
    check = registry.get(check_id)
    with distinct_forms(paper) as tracked, recording(tracked) as calls:
        o, el = _timed_run(check, grid, seed)
    rec: Records = {}
    for key, vals in calls:
        rec.setdefault(key, []).append(vals)
    return Run.of(o, grid, el), rec


def _refuted_side(check: Check) -> str | None:
    """The evidence a check expects to fail: an erratum's printed bound, the bound (or the
    violation counts of a high-probability claim) of a claim expected VIOLATED; None for
    checks that expect their bounds to hold."""
    if check.kind is CheckKind.ERRATUM:
        return "bound_printed"
    if check.expected is not Verdict.VIOLATED:
        return None
    if check.kind in (CheckKind.BOUND_HOLDS, CheckKind.LOWER_BOUND):
        return "bound"
    if check.kind is CheckKind.HOLDS_WITH_PROBABILITY:
        return "violations"
    return None


def mutant_task(key: FormKey, mutant: Mutant, pairs: Sequence[tuple[str, str]],
                records: Mapping[tuple[str, str], Sequence[Mapping[str, np.ndarray]]],
                base: Mapping[tuple[str, str], Run], seed: int) -> tuple[str, str | None,
                                                                      list[Run]]:
    """Run the (check, grid) ``pairs`` in order with ``mutant`` in place of the form ``key``
    until one catches or refutes it (a worker-process task). Returns the status, the pair
    that decided, and the runs."""
    original = key.expr()
    runs: list[Run] = []
    for check_id, grid in pairs:
        recs = records.get((check_id, grid), [])
        if not recs or not any(compare(original, mutant.expr, recs)):
            continue
        check = registry.get(check_id)
        # a mutant may drive a bound to 0 or to overflow: the verdict says so, numpy's
        # floating-point warnings would only repeat it on stderr
        with substituted(key, mutant.expr) as calls, np.errstate(all="ignore"):
            o, el = _timed_run(check, grid, seed)
        run = Run.of(o, grid, el)
        run.evaluated = bool(calls)
        runs.append(run)
        if not run.evaluated:
            continue
        where = f"{check_id} ({grid} grid)"
        if not run.as_expected:
            return "caught", where, runs
        side = _refuted_side(check)
        if side is not None and run.moved(base[(check_id, grid)], side):
            return "refuted", where, runs  # the mutant sits on the refuted side, still refuted
    return "survived", None, runs


def _note(m: MutantRecord, notes: Mapping[str, str]) -> str:
    """The paper's note for a mutant: by change, by form, or by result."""
    for k in (f"{m.key.result_id}:{m.key.form}:{m.change}", f"{m.key.result_id}:{m.key.form}",
              m.key.result_id):
        if k in notes:
            return notes[k]
    return ""


def _explain(m: MutantRecord, base: Mapping[tuple[str, str], Run]) -> str:
    """What each run of a surviving mutant showed."""
    parts = []
    for r in m.runs:
        b = base[(r.check_id, r.grid)]
        where = f"{r.check_id} ({r.grid})"
        if not r.evaluated:
            parts.append(f"{where}: did not evaluate the substituted form")
        elif not r.moved(b):
            parts.append(f"{where}: the evidence its verdict reads is unchanged")
        else:
            mm = "-" if r.margin is None else f"{r.margin:.3g}"
            mb = "-" if b.margin is None else f"{b.margin:.3g}"
            parts.append(f"{where}: still {r.verdict}, margin {mm} (original {mb})")
    return "; ".join(parts)


def _map(fn: Callable[..., Any], calls: Sequence[tuple], jobs: int) -> list[Any]:
    """``fn(*args)`` for each call, in this process or in ``jobs`` worker processes."""
    if jobs == 1 or len(calls) <= 1:
        return [fn(*args) for args in calls]
    from joblib import Parallel, delayed

    return list(Parallel(n_jobs=jobs, backend="loky")(delayed(fn)(*args) for args in calls))


# ---------------------------------------------------------------------------------------
# The audit


def paper_checks(paper: str) -> list[Check]:
    """The registered checks of ``paper``."""
    registry.load_papers()
    return [c for c in registry.all_checks() if c.paper == paper]


def selected_checks(checks: Sequence[Check], patterns: Sequence[str] | None
                    ) -> tuple[list[Check], list[str]]:
    """The checks whose ids match one of ``patterns`` (fnmatch, e.g. ``paper.E_*``), and the
    ids of the others; every check when ``patterns`` is None. ``ValueError`` names a pattern
    that matches no check."""
    if patterns is None:
        return list(checks), []
    ids = [c.id for c in checks]
    unmatched = [p for p in patterns if not fnmatch.filter(ids, p)]
    if unmatched:
        raise ValueError(f"audited checks {', '.join(unmatched)}: no check of the paper "
                         "matches")
    keep = [c for c in checks if any(fnmatch.fnmatchcase(c.id, p) for p in patterns)]
    return keep, [c.id for c in checks if c not in keep]


def audit_mutants(
    paper: str,
    *,
    seed: int = 0,
    grids: Sequence[str] = ("quick",),
    notes: Mapping[str, str] | None = None,
    only: Sequence[str] | None = None,
    jobs: int = 1,
    audited: Sequence[str] | None = None,
) -> MutantAudit:
    """Run the mutation audit of ``paper`` (see the module docstring).

    ``grids``: the grids checks run on, ``("quick", "full")``, ``("quick",)`` or
    ``("full",)``. ``notes``: explanations of survivors, keyed by ``"result:form:change"``,
    ``"result:form"`` or ``"result"`` (a paper's ``audit.MUTANT_NOTES``). ``only``: restrict
    to these result ids. ``jobs``: worker processes (1: this process). ``audited``: run only
    the checks whose ids match these patterns (a paper's ``audit.AUDIT_CHECKS``, e.g. its
    checks without network training); the others are listed as left out.
    """
    t0 = time.perf_counter()
    grids = tuple(dict.fromkeys(grids))
    if not grids or any(g not in GRIDS for g in grids):
        raise ValueError(f"grids must be some of {GRIDS}, got {grids}")
    if jobs < 1:
        raise ValueError(f"jobs must be >= 1, got {jobs}")
    checks = paper_checks(paper)
    if not checks:
        raise KeyError(f"paper {paper!r} has no registered checks")
    checks, left_out = selected_checks(checks, audited)
    plan = [(c.id, g) for c in checks for g in _pairs(c, grids)]
    done = _map(baseline_task, [(cid, g, seed, paper) for cid, g in plan], jobs)
    base = {pair: run for pair, (run, _) in zip(plan, done, strict=True)}
    records = {pair: rec for pair, (_, rec) in zip(plan, done, strict=True)}
    bad = {cid for (cid, _), r in base.items() if not r.as_expected}
    users: dict[FormKey, list[tuple[str, str]]] = {}
    for pair, rec in records.items():
        if pair[0] not in bad:
            for key in rec:
                users.setdefault(key, []).append(pair)
    forms: list[FormAudit] = []
    calls: list[tuple] = []
    owners: list[MutantRecord] = []
    for key in sorted(users):
        if only and key.result_id not in only:
            continue
        expr = key.expr()
        sign = direction(catalog.get(key.result_id))
        pairs = sorted(users[key], key=lambda pr: (base[pr].elapsed, pr))
        inputs = [v for pr in pairs for v in records[pr][key]]
        fa = FormAudit(key, sp.sstr(expr), sign, sorted({cid for cid, _ in pairs}))
        for mutant in mutants(expr):
            m = MutantRecord(key, mutant.operator, mutant.change, mutant.formula,
                             classify(expr, mutant.expr, inputs, sign))
            fa.mutants.append(m)
            if m.cls == "stronger":
                recs = {pr: records[pr][key] for pr in pairs}
                calls.append((key, mutant, pairs, recs, {pr: base[pr] for pr in pairs}, seed))
                owners.append(m)
        forms.append(fa)
    for m, (status, by, runs) in zip(owners, _map(mutant_task, calls, jobs), strict=True):
        m.status, m.caught_by, m.runs = status, by, runs
        if status == "survived":
            m.explanation = _explain(m, base)
            m.note = _note(m, notes or {})
    ok = [c for c in checks if c.id not in bad]
    evaluated = {(k.result_id, k.form) for k in users}
    by_check: dict[str, dict[str, Run]] = {}
    for (cid, g), r in base.items():
        by_check.setdefault(cid, {})[g] = r
    return MutantAudit(paper, seed, "+".join(grids), forms, by_check,
                       _not_evaluated(ok, evaluated), [r for r in base.values()
                                                        if not r.as_expected],
                       time.perf_counter() - t0, jobs, left_out)


def _not_evaluated(checks: Sequence[Check], evaluated: set[tuple[str, str]]
                   ) -> list[dict[str, Any]]:
    """Forms that checks name (``result_id``, ``form``) but never evaluate: rate, scaling
    and identity checks compare exponents or identities fixed in the check, not the form's
    value, so mutating the form cannot change them."""
    out: dict[tuple[str, str], list[str]] = {}
    for c in checks:
        if c.result_id and c.form and (c.result_id, c.form) not in evaluated:
            out.setdefault((c.result_id, c.form), []).append(f"{c.id} ({c.kind.value})")
    return [{"result": r, "form": f, "checks": cs} for (r, f), cs in sorted(out.items())]


# ---------------------------------------------------------------------------------------
# Text


def format_table(audit: MutantAudit) -> str:
    """The audit as a plain-text table, the survivors and the forms no check evaluates."""
    lines = [f"{audit.paper}: mutation audit (grids: {audit.grids}; seed {audit.seed}; "
             f"{audit.elapsed:.0f} s)"]
    hdr = (f"  {'result [form]':<38} {'mutants':>7} {'stronger':>8} {'caught':>6} "
           f"{'refuted':>7} {'survived':>8} {'weaker':>6} {'mixed':>5} {'equal':>5} "
           f"{'undef':>5}  checks")
    lines.append(hdr)
    for f in audit.forms:
        if f.direction == 0:
            lines.append(f"  {str(f.key):<38} {len(f.mutants):>7}  step-size rule or identity: "
                         f"not a bound, mutants not run  ({', '.join(f.checks)})")
            continue
        lines.append(
            f"  {str(f.key):<38} {len(f.mutants):>7} {f.count('stronger'):>8} "
            f"{f.count('caught'):>6} {f.count('refuted'):>7} {f.count('survived'):>8} "
            f"{f.count('weaker'):>6} {f.count('mixed'):>5} {f.count('equivalent'):>5} "
            f"{f.count('undefined'):>5}  {', '.join(c.split('.', 1)[1] for c in f.checks)}")
    s = audit.stronger
    frac = audit.detected_fraction
    lines.append(
        f"  stronger mutants caught or refuted: {sum(m.status != 'survived' for m in s)} of "
        f"{len(s)}" + ("" if frac is None else f" ({100 * frac:.1f}%)"))
    w = audit.worst_totals()
    if w is not None:
        frac = w["accounted_fraction"]
        lines.append(
            f"  survivors re-run on the worst instances ({w['source']}): "
            f"{w['caught at the worst instance']} caught there, "
            f"{w['true at the worst instance']} true there (the bound is loose at least as "
            f"much), {w['unreached']} unreached")
        lines.append(
            f"  stronger mutants caught, refuted, or caught or true at the worst instance: "
            f"{w['accounted']} of {w['stronger']}"
            + ("" if frac is None else f" ({100 * frac:.1f}%)"))
    if audit.survivors:
        lines.append("  survivors:")
        for m in audit.survivors:
            lines.append(f"    {m.key}: {m.change}")
            lines.append(f"      {m.formula}")
            lines.append(f"      {m.explanation}")
            if m.worst is not None:
                lines.append(f"      worst instance: {worst_text(m.worst)}")
            if m.note:
                lines.append(f"      why: {m.note}")
    if audit.not_evaluated:
        lines.append("  named by checks but never evaluated (no mutant can change them):")
        for d in audit.not_evaluated:
            lines.append(f"    {d['result']} [{d['form']}]: {', '.join(d['checks'])}")
    for r in audit.excluded:
        lines.append(f"  excluded: {r.check_id} ({r.grid} grid) gave {r.verdict}, expected "
                     f"{r.expected}")
    if audit.left_out:
        lines.append(f"  not audited (outside the paper's AUDIT_CHECKS): "
                     f"{', '.join(audit.left_out)}")
    return "\n".join(lines)


def worst_text(w: dict[str, Any]) -> str:
    """A survivor's worst-instance status in one line."""
    if w["status"] == "unreached":
        return f"unreached: {w.get('why', '')}".strip()
    factor = w.get("factor")
    loose = (f"; the bound is loose there by at least x{factor:.3g}"
             if factor is not None and w["status"].startswith("true") else "")
    return (f"{w['status']} ({w.get('source', '')}: measured/mutant "
            f"{w['ratio_to_mutant']:.3g} at {w.get('instance', '')}, found "
            f"{w.get('how', '')}){loose}")
