"""False alarms: how often Monte Carlo checks of true bounds say VIOLATED.

Every Monte Carlo check of a suite runs under many independent seeds. Each run is judged
twice from the same simulations: with each check at its own ``1 - confidence`` (Bonferroni
over its own comparisons, ``--per-check``) and at its share of its paper's family-wise level,
as ``validate`` judges it (:mod:`pflbounds.running.multiplicity`). A run is a false alarm of a
paper when some check of that paper that expects HOLDS (a true bound) says VIOLATED; checks
that expect another verdict keep their share of the family, as in ``validate``, but are not
counted (a paper that declares no family is judged as ``validate`` judges it: each check at
its own ``1 - confidence``, so only the union bound, the sum of their levels, bounds its
family-wise rate). Per check the observed rate should stay near or below ``1 - confidence``;
per paper,
the rate of runs with a false alarm under the paper's family below its family-wise level,
while with per-check levels it can reach about m x (1 - confidence) for m checks. Counts are
compared with the binomial limit of the nominal level: the count a rate equal to the level
exceeds with probability at most :data:`LIMIT_TAIL`.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from scipy.special import bdtr

from pflbounds.checking.binomial import clopper_pearson
from pflbounds.checking.kinds import Verdict
from pflbounds.running.aggregate import build_outcome
from pflbounds.running.executor import execute
from pflbounds.running.multiplicity import family_records
from pflbounds.running.suite import Suite, SuiteEntry
from pflbounds.running.tasks import plan

LIMIT_TAIL = 1e-3


def binomial_limit(n: int, p: float, tail: float = LIMIT_TAIL) -> int:
    """Smallest c with P(X > c) <= ``tail`` for X ~ Binomial(n, p): more than c events in n
    runs is evidence (at level ``tail``) of a rate above p."""
    for c in range(n + 1):
        if 1.0 - bdtr(c, n, p) <= tail:
            return c
    return n


@dataclass
class CheckAlarms:
    """The verdicts of one check over the seeds (``*_family``: at its share of its paper's
    family-wise level; the others at its own ``1 - confidence``)."""

    check_id: str
    level: float
    runs: int = 0
    violated: int = 0
    violated_family: int = 0
    inconclusive: int = 0
    inconclusive_family: int = 0
    errors: int = 0

    @property
    def paper(self) -> str:
        return self.check_id.split(".", 1)[0]

    def to_dict(self) -> dict[str, Any]:
        lo, hi = clopper_pearson(self.violated, self.runs, 0.025) if self.runs else (0, 1)
        return {"check": self.check_id, "level": self.level, "runs": self.runs,
                "violated": self.violated, "rate": self.violated / max(self.runs, 1),
                "rate_95": [lo, hi], "violated_family": self.violated_family,
                "inconclusive": self.inconclusive,
                "inconclusive_family": self.inconclusive_family, "errors": self.errors,
                "limit": binomial_limit(self.runs, self.level)}


@dataclass
class PaperAlarms:
    """The runs with a false VIOLATED among one paper's checks, at both levels, against the
    paper's family-wise level."""

    paper: str
    level: float
    declared: bool = True
    """False: the paper declares no family; each check is judged at its own level, and
    :attr:`level` is their sum (the union bound)."""
    checks: int = 0
    any_per_check: int = 0
    any_family: int = 0

    def limit(self, runs: int) -> int:
        """The binomial limit of the family-wise level over ``runs`` runs."""
        return binomial_limit(runs, self.level)

    def to_dict(self, runs: int) -> dict[str, Any]:
        return {"paper": self.paper, "family_level": self.level, "declared": self.declared,
                "checks": self.checks,
                "any_per_check": self.any_per_check, "any_family": self.any_family,
                "rate_per_check": self.any_per_check / max(runs, 1),
                "rate_family": self.any_family / max(runs, 1), "limit": self.limit(runs),
                "within": self.any_family <= self.limit(runs)}


@dataclass
class FalseAlarms:
    """Runs with any false VIOLATED, per check and per paper, at both levels."""

    suite: str
    seeds: list[int]
    checks: list[CheckAlarms]
    papers: dict[str, PaperAlarms]
    elapsed: float = 0.0
    excluded: list[str] = field(default_factory=list)

    @property
    def runs(self) -> int:
        return len(self.seeds)

    @property
    def within(self) -> bool:
        """Whether every paper's count of runs with a false alarm (at its family's levels) is
        within the binomial limit of its family-wise level."""
        return all(p.any_family <= p.limit(self.runs) for p in self.papers.values())

    def to_dict(self) -> dict[str, Any]:
        return {"suite": self.suite, "runs": self.runs,
                "seeds": [self.seeds[0], self.seeds[-1]] if self.seeds else [],
                "limit_tail": LIMIT_TAIL, "within": self.within,
                "papers": [p.to_dict(self.runs) for p in self.papers.values()],
                "elapsed": round(self.elapsed, 1), "excluded": self.excluded,
                "checks": [c.to_dict() for c in self.checks]}


def mc_entries(suite: Suite) -> tuple[list[SuiteEntry], list[str]]:
    """The Monte Carlo checks of ``suite``, and the ids of those that expect a verdict other
    than HOLDS (not counted: their VIOLATED is no false alarm)."""
    mc = [e for e in suite.entries if not e.check.deterministic]
    return mc, [e.check.id for e in mc if e.check.expected is not Verdict.HOLDS]


def false_alarms(suite: Suite, seeds: Sequence[int], *, jobs: int = 1,
                 progress: bool | str = False) -> FalseAlarms:
    """Run the Monte Carlo checks of ``suite`` under every seed (all tasks in one pool) and
    count the false VIOLATED verdicts of those that expect HOLDS, at both levels, per check
    and per paper (each check at its share of its paper's family, as in ``validate``)."""
    t0 = time.perf_counter()
    entries, excluded = mc_entries(suite)
    if len(entries) == len(excluded):
        raise ValueError(f"suite {suite.name!r} has no Monte Carlo check of a true bound")
    seeds = [int(s) for s in seeds]
    records = family_records(e.check for e in entries)
    plans = [(s, e, plan(e.check, replicas=e.replicas, quick=e.quick, base_seed=s))
             for s in seeds for e in entries]
    flat = [t for _, _, p in plans for t in p]
    results, _ = execute(flat, jobs=jobs, progress=progress,
                         checks={e.check.id: e.check for e in entries})
    tallies = {e.check.id: CheckAlarms(e.check.id, round(1 - e.check.confidence, 12))
               for e in entries if e.check.id not in excluded}
    papers: dict[str, PaperAlarms] = {}
    for cid, t in tallies.items():  # a paper without a family: the sum of its checks' levels
        level = float(records[cid]["family_level"]) if cid in records else \
            min(1.0, sum(round(1 - e.check.confidence, 12) for e in entries
                         if e.check.paper == t.paper and e.check.id not in records))
        pa = papers.setdefault(t.paper, PaperAlarms(t.paper, level, cid in records))
        pa.checks += 1
    out = FalseAlarms(suite.name, seeds, list(tallies.values()), papers, excluded=excluded)
    by_seed: dict[int, list] = {}
    start = 0
    for s, e, p in plans:
        by_seed.setdefault(s, []).append((e, results[start: start + len(p)]))
        start += len(p)
    for s in seeds:
        any_pc: set[str] = set()
        any_f: set[str] = set()
        for e, r in by_seed[s]:
            t = tallies.get(e.check.id)
            if t is None:  # in its paper's family, not counted
                continue
            t.runs += 1
            per = build_outcome(e.check, r, replicas=e.replicas, quick=e.quick, base_seed=s)
            fam = build_outcome(e.check, r, replicas=e.replicas, quick=e.quick, base_seed=s,
                                multiplicity=records.get(e.check.id))
            t.errors += per.verdict is Verdict.ERROR
            t.violated += per.verdict is Verdict.VIOLATED
            t.violated_family += fam.verdict is Verdict.VIOLATED
            t.inconclusive += per.verdict is Verdict.INCONCLUSIVE
            t.inconclusive_family += fam.verdict is Verdict.INCONCLUSIVE
            if per.verdict is Verdict.VIOLATED:
                any_pc.add(t.paper)
            if fam.verdict is Verdict.VIOLATED:
                any_f.add(t.paper)
        for paper in any_pc:
            papers[paper].any_per_check += 1
        for paper in any_f:
            papers[paper].any_family += 1
    out.elapsed = time.perf_counter() - t0
    return out


def format_table(fa: FalseAlarms) -> str:
    """Observed false-VIOLATED rates per check and per paper."""
    lines = [f"{fa.suite}: {fa.runs} runs (seeds {fa.seeds[0]}..{fa.seeds[-1]}) of its "
             f"{len(fa.checks)} Monte Carlo checks of true bounds ({fa.elapsed:.0f} s)",
             f"  {'check':<26} {'level':>6} {'VIOLATED':>8} {'rate':>7} {'95% interval':>17} "
             f"{'limit':>5} {'family':>6} {'INCONCL.':>8} {'family':>6}"]
    for c in fa.checks:
        d = c.to_dict()
        lo, hi = d["rate_95"]
        lines.append(f"  {c.check_id:<26} {c.level:>6g} {c.violated:>8} {d['rate']:>7.3f} "
                     f"[{lo:>6.4f}, {hi:>6.4f}] {d['limit']:>5} {c.violated_family:>6} "
                     f"{c.inconclusive:>8} {c.inconclusive_family:>6}")
    for p in fa.papers.values():
        lim = p.limit(fa.runs)
        fam = "the paper's error family" if p.declared else \
            "no family declared (per-check levels; the level shown is their sum)"
        lines.append(f"  {p.paper} ({p.checks} checks counted): runs with a false VIOLATED: "
                     f"per-check levels {p.any_per_check} ({p.any_per_check / fa.runs:.3f}), "
                     f"{fam} {p.any_family} ({p.any_family / fa.runs:.3f}); "
                     f"family-wise level {p.level:g}, binomial limit {lim} of {fa.runs} -> "
                     + ("within" if p.any_family <= lim else "EXCEEDED"))
    for cid in fa.excluded:
        lines.append(f"  in its paper's family, not counted (expects another verdict than "
                     f"HOLDS): {cid}")
    return "\n".join(lines)
