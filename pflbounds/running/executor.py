"""Run tasks (with the task cache, locally or on Dask), and checks end to end.

A run looks every task up in the cache first (when one is given), runs the rest on a backend
(:mod:`pflbounds.running.backends`), and stores each successful result in the cache as soon as
it comes back, so that a run killed at any moment loses at most the tasks in flight. Failed
tasks are never stored.
"""

from __future__ import annotations

import contextlib
import signal
import sys
import threading
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from pflbounds.checking import registry
from pflbounds.checking.check import Check
from pflbounds.checking.indexed import is_indexed, real_check
from pflbounds.checking.outcome import Outcome
from pflbounds.running import backends
from pflbounds.running.aggregate import build_outcome
from pflbounds.running.cache import TaskCache
from pflbounds.running.fingerprint import (
    cache_key,
    check_fingerprint,
    frozen_trees,
    installation_hash,
)
from pflbounds.running.progress import Progress
from pflbounds.running.shared import sweep_scope
from pflbounds.running.tasks import Task, TaskResult, plan


@dataclass
class RunStats:
    """How a run went: tasks in total, found in the cache, computed, failed, that recorded
    warnings (:func:`pflbounds.running.tasks.execute_task`); wall seconds."""

    tasks: int = 0
    cached: int = 0
    computed: int = 0
    failed: int = 0
    warned: int = 0
    uncacheable: list[str] = field(default_factory=list)
    cache_errors: list[str] = field(default_factory=list)
    seconds: float = 0.0


class Terminated(KeyboardInterrupt):
    """SIGTERM, turned into an exception so that a run cleans up (workers, temporaries)."""


@contextlib.contextmanager
def terminate_on_sigterm() -> Iterator[None]:
    """Within the block, SIGTERM raises :class:`Terminated` (a ``KeyboardInterrupt``) in the
    main thread, so that local workers are stopped and temporary files removed, as with
    Ctrl-C. Outside the main thread, or when a handler is already set, it does nothing."""
    if threading.current_thread() is not threading.main_thread() or \
            signal.getsignal(signal.SIGTERM) is not signal.SIG_DFL:
        yield
        return

    def handler(signum: int, frame: Any) -> None:
        raise Terminated(f"signal {signum}")

    signal.signal(signal.SIGTERM, handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, signal.SIG_DFL)


@contextlib.contextmanager
def single_blas_thread() -> Iterator[None]:
    """One BLAS (and OpenMP) thread in this process for the duration of a run.

    Some reductions give other bits with another number of BLAS threads; workers run with one
    (:mod:`pflbounds.running.workers`), and so does a serial run, so that evidence is bitwise
    the same for every ``--jobs`` and scheduler."""
    from threadpoolctl import threadpool_limits

    with threadpool_limits(limits=1):
        yield


def _lookup(t: Task, checks: Mapping[str, Check] | None) -> Check | None:
    if checks is not None and t.check_id in checks:
        return checks[t.check_id]
    try:
        return registry.get(t.check_id, module=t.module)
    except Exception:  # noqa: BLE001 - the task itself reports the lookup error
        return None


def _in_workers(todo: list[backends.Item], jobs: int, scheduler: Any) -> bool:
    """Whether the tasks run in other processes (Dask, or more than one local worker)."""
    return scheduler is not None or (backends.local_workers(jobs) > 1 and len(todo) > 1)


def _backend(todo: list[backends.Item], jobs: int, scheduler: Any):
    if scheduler is not None:
        return backends.dask(todo, scheduler)
    if not _in_workers(todo, jobs, scheduler):
        return backends.serial(todo)
    return backends.loky(todo, jobs)


def _verified(r: TaskResult, expected: str | None) -> TaskResult:
    """Refuse a worker's result computed by other code than this process's."""
    got = r.meta.get("installation")
    if not r.ok or got is None or expected is None or got == expected:
        return r
    r.error = (f"worker {r.meta.get('worker')} runs other code than this process (code hash "
               f"{str(got)[:12]} vs {expected[:12]}): install the same pflbounds on the "
               "workers; the result was discarded")
    r.evidence = None
    return r


def _store(cache: TaskCache, key: tuple[str, str], r: TaskResult, stats: RunStats) -> None:
    """Put a result in the cache; after a first failure (a full disk), warn once and stop."""
    if stats.cache_errors:
        return
    try:
        cache.put(key[0], r, key[1])
    except OSError as exc:
        stats.cache_errors.append(str(exc))
        print(f"pflbounds: warning: cannot write to the task cache {cache.root} "
              f"({exc.strerror or exc}); the run goes on without storing tasks",
              file=sys.stderr)


def _real_where_computed(
    tasks: Sequence[Task], results: list[TaskResult | None],
    checks: Mapping[str, Check] | None, resolved: dict[str, Check | None],
    prints: dict[str, str | None], keys: dict[int, tuple[str, str]], cache: TaskCache | None,
) -> Mapping[str, Check] | None:
    """The checks to run with, each check read from an index (:mod:`pflbounds.checking.indexed`)
    that has a task left to compute replaced by the registered one (its module imported
    now, and only now). Should the registered check's fingerprint differ from its index's,
    its tasks are looked up again under the right keys."""
    left = {t.check_id for t, r in zip(tasks, results, strict=True) if r is None}
    out = dict(checks) if checks else {}
    for cid in sorted(left):
        c = out.get(cid) or resolved.get(cid)
        if c is None or not is_indexed(c):
            continue
        out[cid] = resolved[cid] = real = real_check(c)
        if cache is None:
            continue
        fp = check_fingerprint(real)
        if fp == prints.get(cid):
            continue
        prints[cid] = fp
        for i, t in enumerate(tasks):
            if t.check_id == cid:
                keys.pop(i, None)
                results[i] = None
                if fp is not None:
                    keys[i] = (cache_key(t.key, fp), fp)
                    results[i] = cache.get(keys[i][0], t)
    return out if out else checks


@frozen_trees()
def execute(
    tasks: Sequence[Task],
    *,
    jobs: int = 1,
    progress: bool | str = True,
    checks: Mapping[str, Check] | None = None,
    scheduler: Any = None,
    cache: TaskCache | None = None,
) -> tuple[list[TaskResult], RunStats]:
    """Run tasks through the cache and a backend; results in the order of ``tasks``.

    ``jobs``: 1 runs in this process, N > 1 in N local worker processes, -1 on every core.
    ``scheduler``: a Dask scheduler address, cluster or ``Client`` (then ``jobs`` is unused).
    ``checks``: id -> Check, sent to the workers; otherwise checks are looked up by id.
    ``cache``: a :class:`TaskCache`, or None to run everything and store nothing.
    ``progress``: a :class:`~pflbounds.running.progress.Progress` mode (True: ``auto``).
    """
    tasks = list(tasks)
    backends.local_workers(jobs)  # refuses jobs == 0
    t0 = time.perf_counter()
    stats = RunStats(tasks=len(tasks))
    results: list[TaskResult | None] = [None] * len(tasks)
    resolved: dict[str, Check | None] = {}
    for t in tasks:
        if t.check_id not in resolved and cache is not None:
            resolved[t.check_id] = _lookup(t, checks)
    keys: dict[int, tuple[str, str]] = {}
    if cache is not None:
        prints = {cid: None if c is None else check_fingerprint(c) for cid, c in resolved.items()}
        for i, t in enumerate(tasks):
            fp = prints[t.check_id]
            if fp is not None:
                keys[i] = (cache_key(t.key, fp), fp)
                results[i] = cache.get(keys[i][0], t)
        checks = _real_where_computed(tasks, results, checks, resolved, prints, keys, cache)
        stats.uncacheable = sorted(cid for cid, fp in prints.items() if fp is None)
    else:
        checks = _real_where_computed(tasks, results, checks, resolved, {}, keys, None)
    cached = [t for t, r in zip(tasks, results, strict=True) if r is not None]
    stats.cached = len(cached)
    todo: list[backends.Item] = [(i, t, checks.get(t.check_id) if checks else None)
                                 for i, t in enumerate(tasks) if results[i] is None]
    expected: dict[str, str | None] = {}
    bar = Progress(progress)
    bar.start(tasks, cached)
    shared_root = None if cache is None else cache.root
    try:
        with single_blas_thread(), \
                sweep_scope(shared_root, parallel=_in_workers(todo, jobs, scheduler)):
            for i, r in _backend(todo, jobs, scheduler):
                if "installation" in r.meta:
                    cid = r.task.check_id
                    if cid not in expected:
                        c = resolved[cid] if cid in resolved else _lookup(r.task, checks)
                        expected[cid] = None if c is None else installation_hash(c)
                    r = _verified(r, expected[cid])
                results[i] = r
                stats.computed += 1
                stats.failed += 0 if r.ok else 1
                stats.warned += 1 if r.meta.get("warnings") else 0
                if r.ok and cache is not None and i in keys:
                    _store(cache, keys[i], r, stats)
                bar.update(r.task, r.ok)
    finally:
        bar.close()
    stats.seconds = time.perf_counter() - t0
    return [r for r in results if r is not None], stats


def run_tasks(
    tasks: Sequence[Task],
    jobs: int = 1,
    progress: bool | str = True,
    checks: Mapping[str, Check] | None = None,
    *,
    scheduler: Any = None,
    cache: TaskCache | None = None,
) -> list[TaskResult]:
    """Execute tasks and return their results in the order of ``tasks`` (see
    :func:`execute`)."""
    return execute(tasks, jobs=jobs, progress=progress, checks=checks, scheduler=scheduler,
                   cache=cache)[0]


@dataclass(frozen=True)
class RunSpec:
    """One check with its run settings (replica override, quick grid)."""

    check: Check
    replicas: int | None = None
    quick: bool = False


@dataclass
class Sweep:
    """The outcomes of a run, with per grid point provenance and the run's statistics.

    ``provenance[(check_id, point)]``: ``cache_hit`` (every task of the point came from the
    cache) and ``compute_s`` (seconds its tasks took when they were computed). ``skipped``:
    check id -> why it did not run (an extra it needs is not installed).
    """

    outcomes: list[Outcome]
    provenance: dict[tuple[str, int], dict[str, Any]]
    stats: RunStats
    skipped: dict[str, str] = field(default_factory=dict)


def missing_extras(check: Check) -> str | None:
    """Why ``check`` cannot run here (the extra it needs and the ``pip install`` to run), or
    None when every extra it requires is installed."""
    from pflbounds.extras import MissingExtra, missing

    gone = missing(check.requires)
    return None if not gone else str(MissingExtra(gone[0], f"check {check.id}"))


def require_extras(check: Check) -> None:
    """:class:`~pflbounds.extras.MissingExtra` when an extra ``check`` needs is missing."""
    from pflbounds.extras import MissingExtra, missing

    gone = missing(check.requires)
    if gone:
        raise MissingExtra(gone[0], f"check {check.id}")


def sweep(
    specs: Sequence[RunSpec], *, base_seed: int = 0, jobs: int = 1,
    progress: bool | str = True, multiplicity: str = "paper", scheduler: Any = None,
    cache: TaskCache | None = None, skip_missing: bool = False,
    families: Mapping[str, Any] | None = None,
) -> Sweep:
    """Plan every task of every spec, run them in one pool (through the cache), aggregate per
    check.

    ``multiplicity``: ``"paper"`` (each Monte Carlo check at its share of its paper's
    family-wise level, the same whatever else runs: :mod:`pflbounds.running.multiplicity`) or
    ``"per-check"`` (each at its own ``1 - confidence``; also how ``"paper"`` judges the checks
    of a paper that declares no family, so that no check's limits depend on the run);
    ``families``: papers' families resolved already (by the papers' indexes,
    :func:`pflbounds.running.multiplicity.family_records`). A check that needs an extra that
    is not installed (``Check.requires``) is skipped with the reason (``skip_missing``: in
    :attr:`Sweep.skipped`, the others run) or refused before any work
    (:class:`~pflbounds.extras.MissingExtra`).
    """
    from pflbounds.running.multiplicity import METHODS, family_records

    if multiplicity not in METHODS:
        raise ValueError(f"multiplicity must be one of {METHODS}, got {multiplicity!r}")
    ids = [s.check.id for s in specs]
    dup = sorted({i for i in ids if ids.count(i) > 1})
    if dup:
        raise ValueError(f"checks listed twice in one run: {dup}")
    skipped: dict[str, str] = {}
    for s in specs:
        if not skip_missing:
            require_extras(s.check)
        elif (why := missing_extras(s.check)) is not None:
            skipped[s.check.id] = why
    specs = [s for s in specs if s.check.id not in skipped]
    plans = [plan(s.check, replicas=s.replicas, quick=s.quick, base_seed=base_seed)
             for s in specs]
    flat = [t for p in plans for t in p]
    results, stats = execute(flat, jobs=jobs, progress=progress, scheduler=scheduler,
                             cache=cache, checks={s.check.id: s.check for s in specs})
    per_spec, start = [], 0
    for p in plans:
        per_spec.append(results[start : start + len(p)])
        start += len(p)
    records = family_records((s.check for s in specs), families) \
        if multiplicity == "paper" else {}
    outcomes = []
    for s, mine in zip(specs, per_spec, strict=True):
        record = records.get(s.check.id)
        outcomes.append(build_outcome(s.check, mine, replicas=s.replicas, quick=s.quick,
                                      base_seed=base_seed, multiplicity=record))
    return Sweep(outcomes, point_provenance(results), stats, skipped)


def point_provenance(results: Sequence[TaskResult]) -> dict[tuple[str, int], dict[str, Any]]:
    """Per (check id, grid point): whether all its tasks came from the cache, and the seconds
    they took when computed."""
    out: dict[tuple[str, int], dict[str, Any]] = {}
    for r in results:
        p = out.setdefault((r.task.check_id, r.task.point_index),
                           {"cache_hit": True, "compute_s": 0.0})
        p["cache_hit"] = p["cache_hit"] and bool(r.meta.get("cached"))
        p["compute_s"] += float(r.meta.get("compute_s", r.elapsed))
    return out


def run_specs(
    specs: Sequence[RunSpec], *, base_seed: int = 0, jobs: int = 1,
    progress: bool | str = True, multiplicity: str = "paper", scheduler: Any = None,
    cache: TaskCache | None = None,
) -> list[Outcome]:
    """The outcomes of :func:`sweep`, one per spec."""
    return sweep(specs, base_seed=base_seed, jobs=jobs, progress=progress,
                 multiplicity=multiplicity, scheduler=scheduler, cache=cache).outcomes


def run_checks(
    checks: Sequence[Check],
    *,
    replicas: int | None = None,
    quick: bool = False,
    base_seed: int = 0,
    jobs: int = 1,
    progress: bool | str = True,
    scheduler: Any = None,
    cache: TaskCache | None = None,
    multiplicity: str = "paper",
) -> list[Outcome]:
    """Run several checks with the same settings in one pool; one Outcome per check
    (``multiplicity`` as for :func:`sweep`)."""
    specs = [RunSpec(c, replicas, quick) for c in checks]
    return run_specs(specs, base_seed=base_seed, jobs=jobs, progress=progress,
                     multiplicity=multiplicity, scheduler=scheduler, cache=cache)


def run_check(
    check: Check,
    *,
    replicas: int | None = None,
    quick: bool = False,
    base_seed: int = 0,
    jobs: int = 1,
    progress: bool | str = True,
    scheduler: Any = None,
    cache: TaskCache | None = None,
    multiplicity: str = "paper",
) -> Outcome:
    """Run one check over its grid (or quick grid) and return its Outcome: a Monte Carlo
    check at its share of its paper's family-wise level, as in any suite
    (``multiplicity="per-check"``: at its own ``1 - confidence``)."""
    return run_checks([check], replicas=replicas, quick=quick, base_seed=base_seed,
                      jobs=jobs, progress=progress, scheduler=scheduler, cache=cache,
                      multiplicity=multiplicity)[0]
