"""From the task results of one check to its ``Outcome``."""

from __future__ import annotations

import time
import traceback
from collections.abc import Mapping, Sequence
from dataclasses import replace
from datetime import UTC, datetime
from typing import Any

from pflbounds.checking.check import Check
from pflbounds.checking.evidence import EvidenceError, combine_blocks
from pflbounds.checking.kinds import Verdict
from pflbounds.checking.outcome import Outcome
from pflbounds.checking.verdicts import evaluate
from pflbounds.checking.vocabulary import claims_of
from pflbounds.running.config import config_hash, effective_replicas, run_config
from pflbounds.running.multiplicity import family_text
from pflbounds.running.tasks import TaskResult
from pflbounds.version import __version__


def build_outcome(
    check: Check,
    results: Sequence[TaskResult],
    *,
    replicas: int | None = None,
    quick: bool = False,
    base_seed: int = 0,
    multiplicity: Mapping[str, Any] | None = None,
) -> Outcome:
    """Combine the blocks of each grid point, evaluate the verdict and record provenance.

    A failed task makes the outcome ERROR, with the failing point, block and the last line of
    the traceback in ``detail`` and the full traceback in ``error``. ``multiplicity``: the
    check's error-family record (:meth:`pflbounds.running.multiplicity.PaperFamily.record`):
    the check's limits are then at its share ``check_level`` of its paper's family-wise level
    (Bonferroni over its own comparisons), the record enters the config and the detail says
    the family; a check declared without comparisons that makes some says ERROR.
    """
    t0 = time.perf_counter()
    n = effective_replicas(check, replicas)
    grid = check.grid_for(quick)
    config = run_config(check, grid=grid, replicas=n, base_seed=base_seed, quick=quick,
                        multiplicity=multiplicity)
    judged, level = check, None
    if multiplicity is not None:
        level = float(multiplicity["check_level"])
        if level > 0.0:
            judged = replace(check, confidence=1.0 - level)
    outcome = Outcome(
        check_id=check.id,
        kind=check.kind,
        verdict=Verdict.ERROR,
        expected=check.expected,
        replicas=n,
        seed=int(base_seed),
        config=config,
        config_hash=config_hash(config),
        version=__version__,
        title=check.title,
    )
    task_time = sum(r.elapsed for r in results)
    failed = [r for r in results if not r.ok]
    if failed:
        r = failed[0]
        outcome.detail = (
            f"simulation failed at point {r.task.point_index} block {r.task.block_index}"
            f" ({len(failed)} of {len(results)} tasks failed): {r.error}"
        )
        outcome.error = r.traceback or r.error
    else:
        try:
            blocks: dict[int, list] = {}
            for r in sorted(results, key=lambda r: (r.task.point_index, r.task.block_index)):
                blocks.setdefault(r.task.point_index, []).append(r.evidence)
            missing = sorted(set(range(len(grid))) - set(blocks))
            if missing:
                raise ValueError(f"no results for grid points {missing}")
            evidence = [combine_blocks(blocks[p]) for p in range(len(grid))]
            ev = evaluate(judged, evidence, grid)
            if level == 0.0 and ev.comparisons:
                raise EvidenceError(
                    f"{check.id} is declared without comparisons in its paper's error family "
                    f"({multiplicity.get('without_comparisons')}) but makes {ev.comparisons}")
            outcome.verdict = ev.verdict
            outcome.margin = ev.margin
            outcome.detail = ev.detail
            if level is not None and ev.comparisons:
                outcome.detail = f"{ev.detail.rstrip('.')}; {family_text(multiplicity)}"
            outcome.evidence = ev.points
            outcome.fits = ev.fits
            outcome.claims = dict(ev.claims)
        except Exception as exc:  # noqa: BLE001 - bad evidence is an ERROR verdict
            last = traceback.format_exception_only(type(exc), exc)[-1].strip()
            outcome.verdict = Verdict.ERROR
            outcome.detail = f"evidence could not be evaluated: {last}"
            outcome.error = traceback.format_exc()
    if not outcome.claims:  # ERROR: every claim the check tests is in error
        outcome.claims = claims_of(check.kind, check.form, outcome.verdict)
    outcome.elapsed = task_time + (time.perf_counter() - t0)
    outcome.timestamp = datetime.now(UTC).isoformat(timespec="seconds")
    return outcome
