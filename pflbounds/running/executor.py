"""Run tasks serially or with joblib (loky), and checks end to end."""

from __future__ import annotations

import sys
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from tqdm import tqdm

from pflbounds.checking.check import Check
from pflbounds.checking.outcome import Outcome
from pflbounds.running.aggregate import build_outcome
from pflbounds.running.tasks import Task, TaskResult, execute_task, plan

PROGRESS_DELAY = 2.0
"""Seconds before a progress bar appears: short runs stay quiet."""


def run_tasks(
    tasks: Sequence[Task],
    jobs: int = 1,
    progress: bool = True,
    checks: Mapping[str, Check] | None = None,
) -> list[TaskResult]:
    """Execute tasks and return their results in the order of ``tasks``.

    ``jobs``: 1 runs in this process; any other value is joblib's ``n_jobs`` for the loky
    backend (-1: all cores). ``checks``: optional id -> Check map; when given, each task is
    run with that check object (pickled to the workers), otherwise workers look checks up by
    id (importing ``task.module`` or the paper packages). A progress bar goes to stderr for
    runs longer than a couple of seconds.
    """
    tasks = list(tasks)
    if jobs == 0:
        raise ValueError("jobs must be non-zero (1: serial, -1: all cores)")
    bar = tqdm(total=len(tasks), desc="pflbounds", unit="task", file=sys.stderr,
               disable=(True if not progress or not tasks else None),  # None: off without a TTY
               delay=PROGRESS_DELAY, leave=False)

    def chk(t: Task) -> Check | None:
        return checks.get(t.check_id) if checks is not None else None

    results: list[TaskResult] = []
    try:
        if jobs == 1 or len(tasks) <= 1:
            for t in tasks:
                results.append(execute_task(t, chk(t)))
                bar.update()
        else:
            from joblib import Parallel, delayed

            par = Parallel(n_jobs=jobs, backend="loky", return_as="generator")
            gen: Iterable[TaskResult] = par(delayed(execute_task)(t, chk(t)) for t in tasks)
            for r in gen:
                results.append(r)
                bar.update()
    finally:
        bar.close()
    return results


@dataclass(frozen=True)
class RunSpec:
    """One check with its run settings (replica override, quick grid)."""

    check: Check
    replicas: int | None = None
    quick: bool = False


def run_specs(
    specs: Sequence[RunSpec], *, base_seed: int = 0, jobs: int = 1, progress: bool = True,
    multiplicity: str = "per-check",
) -> list[Outcome]:
    """Plan every task of every spec, run them in one pool, aggregate per check.

    ``multiplicity``: ``"per-check"`` (each Monte Carlo check corrects its own comparisons)
    or ``"holm"`` (one correction over every Monte Carlo comparison of the run, see
    :mod:`pflbounds.running.multiplicity`).
    """
    from pflbounds.running.multiplicity import METHODS, suite_level

    if multiplicity not in METHODS:
        raise ValueError(f"multiplicity must be one of {METHODS}, got {multiplicity!r}")
    ids = [s.check.id for s in specs]
    dup = sorted({i for i in ids if ids.count(i) > 1})
    if dup:
        raise ValueError(f"checks listed twice in one run: {dup}")
    plans = [plan(s.check, replicas=s.replicas, quick=s.quick, base_seed=base_seed)
             for s in specs]
    flat = [t for p in plans for t in p]
    results = run_tasks(flat, jobs=jobs, progress=progress,
                        checks={s.check.id: s.check for s in specs})
    per_spec, start = [], 0
    for p in plans:
        per_spec.append(results[start : start + len(p)])
        start += len(p)
    level = None
    if multiplicity == "holm":
        level = suite_level([(s.check, mine, s.check.grid_for(s.quick))
                             for s, mine in zip(specs, per_spec, strict=True)])
    outcomes = []
    for s, mine in zip(specs, per_spec, strict=True):
        record = None if level is None or s.check.id not in level.alphas else \
            level.record(s.check.id)
        outcomes.append(build_outcome(s.check, mine, replicas=s.replicas, quick=s.quick,
                                      base_seed=base_seed, multiplicity=record))
    return outcomes


def run_checks(
    checks: Sequence[Check],
    *,
    replicas: int | None = None,
    quick: bool = False,
    base_seed: int = 0,
    jobs: int = 1,
    progress: bool = True,
) -> list[Outcome]:
    """Run several checks with the same settings in one pool; one Outcome per check."""
    specs = [RunSpec(c, replicas, quick) for c in checks]
    return run_specs(specs, base_seed=base_seed, jobs=jobs, progress=progress)


def run_check(
    check: Check,
    *,
    replicas: int | None = None,
    quick: bool = False,
    base_seed: int = 0,
    jobs: int = 1,
    progress: bool = True,
) -> Outcome:
    """Run one check over its grid (or quick grid) and return its Outcome."""
    return run_checks([check], replicas=replicas, quick=quick, base_seed=base_seed,
                      jobs=jobs, progress=progress)[0]
