"""False alarms: how often Monte Carlo checks of true bounds say VIOLATED.

Every Monte Carlo check of a suite runs under many independent seeds. Each run is judged
twice from the same simulations: with each check correcting its own comparisons (Bonferroni
at ``1 - confidence`` per check, ``--per-check``) and with the suite-level Holm correction of
``validate`` over all of them (:mod:`pflbounds.running.multiplicity`). A run is a false alarm
when some check that expects HOLDS (a true bound) says VIOLATED; checks that expect another
verdict stay in the Holm family, as in ``validate``, but are not counted. Per check the
observed rate should stay near or below ``1 - confidence``; per suite, the Holm rate below
the family-wise level, while the per-check rate can reach about m x (1 - confidence) for m
checks. Counts are compared
with the binomial limit of the nominal level: the count a rate equal to the level exceeds
with probability at most :data:`LIMIT_TAIL`.
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
from pflbounds.running.multiplicity import suite_level
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
    """The verdicts of one check over the seeds."""

    check_id: str
    level: float
    runs: int = 0
    violated: int = 0
    violated_holm: int = 0
    inconclusive: int = 0
    inconclusive_holm: int = 0
    errors: int = 0

    def to_dict(self) -> dict[str, Any]:
        lo, hi = clopper_pearson(self.violated, self.runs, 0.025) if self.runs else (0, 1)
        return {"check": self.check_id, "level": self.level, "runs": self.runs,
                "violated": self.violated, "rate": self.violated / max(self.runs, 1),
                "rate_95": [lo, hi], "violated_holm": self.violated_holm,
                "inconclusive": self.inconclusive, "inconclusive_holm": self.inconclusive_holm,
                "errors": self.errors,
                "limit": binomial_limit(self.runs, self.level)}


@dataclass
class FalseAlarms:
    """Suite runs with any false VIOLATED, per check and per suite, both corrections."""

    suite: str
    seeds: list[int]
    level: float
    checks: list[CheckAlarms]
    any_per_check: int = 0
    any_holm: int = 0
    elapsed: float = 0.0
    excluded: list[str] = field(default_factory=list)

    @property
    def runs(self) -> int:
        return len(self.seeds)

    @property
    def limit(self) -> int:
        """The binomial limit of the family-wise level over the runs."""
        return binomial_limit(self.runs, self.level)

    @property
    def within(self) -> bool:
        """Whether the Holm count of runs with a false alarm is within the limit."""
        return self.any_holm <= self.limit

    def to_dict(self) -> dict[str, Any]:
        return {"suite": self.suite, "runs": self.runs,
                "seeds": [self.seeds[0], self.seeds[-1]] if self.seeds else [],
                "family_level": self.level, "limit": self.limit, "limit_tail": LIMIT_TAIL,
                "any_per_check": self.any_per_check, "any_holm": self.any_holm,
                "rate_per_check": self.any_per_check / max(self.runs, 1),
                "rate_holm": self.any_holm / max(self.runs, 1), "within": self.within,
                "elapsed": round(self.elapsed, 1), "excluded": self.excluded,
                "checks": [c.to_dict() for c in self.checks]}


def mc_entries(suite: Suite) -> tuple[list[SuiteEntry], list[str]]:
    """The Monte Carlo checks of ``suite`` (all of them enter the Holm family, as in
    ``validate``), and the ids of those that expect a verdict other than HOLDS (not counted:
    their VIOLATED is no false alarm)."""
    mc = [e for e in suite.entries if not e.check.deterministic]
    return mc, [e.check.id for e in mc if e.check.expected is not Verdict.HOLDS]


def false_alarms(suite: Suite, seeds: Sequence[int], *, jobs: int = 1,
                 progress: bool | str = False) -> FalseAlarms:
    """Run the Monte Carlo checks of ``suite`` under every seed (all tasks in one pool) and
    count the false VIOLATED verdicts of those that expect HOLDS, under both corrections (the
    Holm family holds every Monte Carlo check of the suite, as in ``validate``)."""
    t0 = time.perf_counter()
    entries, excluded = mc_entries(suite)
    if len(entries) == len(excluded):
        raise ValueError(f"suite {suite.name!r} has no Monte Carlo check of a true bound")
    seeds = [int(s) for s in seeds]
    plans = [(s, e, plan(e.check, replicas=e.replicas, quick=e.quick, base_seed=s))
             for s in seeds for e in entries]
    flat = [t for _, _, p in plans for t in p]
    results, _ = execute(flat, jobs=jobs, progress=progress,
                         checks={e.check.id: e.check for e in entries})
    tallies = {e.check.id: CheckAlarms(e.check.id, round(1 - e.check.confidence, 12))
               for e in entries if e.check.id not in excluded}
    level = min(t.level for t in tallies.values())
    out = FalseAlarms(suite.name, seeds, level, list(tallies.values()), excluded=excluded)
    by_seed: dict[int, list] = {}
    start = 0
    for s, e, p in plans:
        by_seed.setdefault(s, []).append((e, results[start: start + len(p)]))
        start += len(p)
    for s in seeds:
        mine = by_seed[s]
        items = [(e.check, r, e.check.grid_for(e.quick)) for e, r in mine]
        holm = suite_level(items)
        any_pc = any_h = False
        for e, r in mine:
            t = tallies.get(e.check.id)
            if t is None:  # in the family, not counted
                continue
            t.runs += 1
            per = build_outcome(e.check, r, replicas=e.replicas, quick=e.quick, base_seed=s)
            rec = holm.record(e.check.id) if holm is not None and e.check.id in holm.alphas \
                else None
            hol = build_outcome(e.check, r, replicas=e.replicas, quick=e.quick, base_seed=s,
                                multiplicity=rec)
            t.errors += per.verdict is Verdict.ERROR
            t.violated += per.verdict is Verdict.VIOLATED
            t.violated_holm += hol.verdict is Verdict.VIOLATED
            t.inconclusive += per.verdict is Verdict.INCONCLUSIVE
            t.inconclusive_holm += hol.verdict is Verdict.INCONCLUSIVE
            any_pc |= per.verdict is Verdict.VIOLATED
            any_h |= hol.verdict is Verdict.VIOLATED
        out.any_per_check += any_pc
        out.any_holm += any_h
    out.elapsed = time.perf_counter() - t0
    return out


def format_table(fa: FalseAlarms) -> str:
    """Observed false-VIOLATED rates per check and per suite."""
    lines = [f"{fa.suite}: {fa.runs} runs (seeds {fa.seeds[0]}..{fa.seeds[-1]}) of its "
             f"{len(fa.checks)} Monte Carlo checks of true bounds ({fa.elapsed:.0f} s)",
             f"  {'check':<26} {'level':>6} {'VIOLATED':>8} {'rate':>7} {'95% interval':>17} "
             f"{'limit':>5} {'Holm':>5} {'INCONCL.':>8} {'Holm':>5}"]
    for c in fa.checks:
        d = c.to_dict()
        lo, hi = d["rate_95"]
        lines.append(f"  {c.check_id:<26} {c.level:>6g} {c.violated:>8} {d['rate']:>7.3f} "
                     f"[{lo:>6.4f}, {hi:>6.4f}] {d['limit']:>5} {c.violated_holm:>5} "
                     f"{c.inconclusive:>8} {c.inconclusive_holm:>5}")
    lines.append(f"  runs with a false VIOLATED: per-check correction {fa.any_per_check} "
                 f"({fa.any_per_check / fa.runs:.3f}), suite-level Holm {fa.any_holm} "
                 f"({fa.any_holm / fa.runs:.3f}); family-wise level {fa.level:g}, binomial "
                 f"limit {fa.limit} of {fa.runs} -> "
                 + ("within" if fa.within else "EXCEEDED"))
    for cid in fa.excluded:
        lines.append(f"  in the Holm family, not counted (expects another verdict than "
                     f"HOLDS): {cid}")
    return "\n".join(lines)
