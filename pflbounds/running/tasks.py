"""Tasks: the unit of work, one (check, grid point, replica block), and their execution."""

from __future__ import annotations

import hashlib
import time
import traceback
import warnings
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from pflbounds.checking import registry
from pflbounds.checking.check import Check
from pflbounds.checking.evidence import normalize_block
from pflbounds.checking.indexed import is_indexed
from pflbounds.limits import check_replicas
from pflbounds.running.config import config_hash, effective_replicas, point_config
from pflbounds.running.seeds import task_seed

MAX_WARNINGS = 5
"""The most distinct warnings a task records."""


@dataclass(frozen=True)
class Task:
    """One (check, grid point, replica block): picklable and self-describing.

    ``module`` names the module whose import registers the check, so that a fresh worker
    process can find it by id. ``config_hash`` is the hash of the grid point's config
    (:func:`pflbounds.running.config.point_config`).
    """

    check_id: str
    point_index: int
    block_index: int
    n_replicas: int
    params: Mapping[str, Any]
    base_seed: int
    quick: bool = False
    module: str | None = None
    config_hash: str = ""

    @property
    def key(self) -> str:
        """Cache key: the point config hash with this block's index and size."""
        text = f"{self.config_hash}:{self.block_index}:{self.n_replicas}"
        return hashlib.sha256(text.encode("utf-8")).hexdigest()

    def seed_sequence(self) -> np.random.SeedSequence:
        """This task's random stream (see :mod:`pflbounds.running.seeds`)."""
        return task_seed(self.base_seed, self.check_id, self.params, self.block_index)


@dataclass
class TaskResult:
    """Evidence block of a task, or the error that prevented it."""

    task: Task
    evidence: dict[str, np.ndarray] | None
    error: str | None = None
    traceback: str | None = None
    elapsed: float = 0.0
    meta: dict[str, Any] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        """True when the task produced evidence."""
        return self.error is None and self.evidence is not None


def plan(
    check: Check, *, replicas: int | None = None, quick: bool = False, base_seed: int = 0
) -> list[Task]:
    """Tasks of one check: every grid point, replicas split into blocks of ``block_size``.

    Deterministic engines (exact, symbolic) get a single replica per point. Replicas beyond
    what a run can hold raise :class:`pflbounds.limits.LimitError` (a ValueError).
    """
    n = effective_replicas(check, replicas)
    grid = check.grid_for(quick)
    check_replicas(f"{check.id}: replicas", n, len(grid), check.block_size)
    module = registry.module_of(check.id) if registry.find(check.id) is check else \
        getattr(check.simulate, "module", None) if is_indexed(check) else None
    tasks = []
    for p, params in enumerate(grid):
        h = config_hash(point_config(check, params, replicas=n, base_seed=base_seed))
        start, b = 0, 0
        while start < n:
            size = min(check.block_size, n - start)
            tasks.append(Task(check.id, p, b, size, dict(params), int(base_seed), bool(quick),
                              module, h))
            start += size
            b += 1
    return tasks


def execute_task(task: Task, check: Check | None = None) -> TaskResult:
    """Run one task: look the check up by id (unless given), simulate, normalize evidence.

    Never raises for failures of the simulation: they come back as a result with ``error``
    (the last line of the traceback) and ``traceback``. Python warnings raised by the
    simulation (a solver's "inaccurate", a numpy overflow) never reach the terminal: the
    distinct ones (up to :data:`MAX_WARNINGS`) are recorded in ``meta["warnings"]``.
    """
    t0 = time.perf_counter()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            if check is None:
                check = registry.get(task.check_id, module=task.module)
            raw = check.simulate(dict(task.params), task.n_replicas, task.seed_sequence())
            evidence = normalize_block(raw, engine=check.engine, kind=check.kind.value)
        except Exception as exc:  # noqa: BLE001 - failures become ERROR verdicts
            tb = traceback.format_exc()
            last = traceback.format_exception_only(type(exc), exc)[-1].strip()
            result = TaskResult(task, None, last, tb, time.perf_counter() - t0)
        else:
            result = TaskResult(task, evidence, None, None, time.perf_counter() - t0)
    seen = list(dict.fromkeys(f"{w.category.__name__}: {w.message}" for w in caught))
    if seen:
        result.meta["warnings"] = seen[:MAX_WARNINGS]
    return result
