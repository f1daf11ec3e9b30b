"""Canonical configuration records and their hashes (provenance and cache keys)."""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from typing import Any

from pflbounds.checking.check import Check
from pflbounds.checking.jsonsafe import canonical_json
from pflbounds.version import __version__


def config_hash(config: Mapping[str, Any]) -> str:
    """SHA-256 (hex) of the canonical JSON of ``config``."""
    return hashlib.sha256(canonical_json(config).encode("utf-8")).hexdigest()


def effective_replicas(check: Check, replicas: int | None = None) -> int:
    """Replicas actually run: 1 for deterministic engines, else the override or the default.
    A comparison's draws are fixed by its declaration: another count is refused
    (``ValueError`` naming the check and its draws)."""
    if check.deterministic:
        return 1
    if check.plan is not None and replicas is not None and int(replicas) != check.plan.draws:
        raise ValueError(f"{check.id}: a comparison runs the {check.plan.draws} draws its "
                         f"declaration fixes before the run, not {replicas}")
    n = check.replicas if replicas is None else int(replicas)
    if n < 1:
        raise ValueError(f"replicas must be >= 1, got {n}")
    return n


def point_config(
    check: Check, params: Mapping[str, Any], *, replicas: int, base_seed: int
) -> dict[str, Any]:
    """What determines the evidence of one grid point: check id, kind, engine, parameters,
    replicas, block size, base seed and package version."""
    return {
        "check_id": check.id,
        "kind": check.kind.value,
        "engine": check.engine,
        "params": dict(params),
        "replicas": int(replicas),
        "block_size": int(check.block_size),
        "base_seed": int(base_seed),
        "version": __version__,
    }


def run_config(
    check: Check,
    *,
    grid: Sequence[Mapping[str, Any]],
    replicas: int,
    base_seed: int,
    quick: bool,
    multiplicity: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """The full configuration of a check run: everything its verdict depends on (with a
    paper's error family, its record: the check's level is its share of the family's)."""
    return {
        "check_id": check.id,
        "kind": check.kind.value,
        "engine": check.engine,
        "result_id": check.result_id,
        "form": check.form,
        "grid": [dict(p) for p in grid],
        "quick": bool(quick),
        "replicas": int(replicas),
        "block_size": int(check.block_size),
        "base_seed": int(base_seed),
        "confidence": check.confidence,
        "rel_tol": check.rel_tol,
        "abs_tol": check.abs_tol,
        "predicted": check.predicted,
        "tolerance": check.tolerance,
        "rate_axis": check.rate_axis,
        "x_param": check.x_param,
        "expected": check.expected.value,
        "version": __version__,
        # newer fields enter only when set, so that older configs keep their hashes
        **({"bound_mode": check.bound_mode} if check.bound_mode != "expectation" else {}),
        **({"delta": check.delta} if check.delta is not None else {}),
        **({"multiplicity": dict(multiplicity)} if multiplicity is not None else {}),
        **(_comparison_config(check, len(grid), multiplicity) if check.methods else {}),
    }


def _comparison_config(check: Check, n_points: int,
                       multiplicity: Mapping[str, Any] | None) -> dict[str, Any]:
    """A comparison's claim and its draw plan, with the power at the level the run applies
    (computed from declared numbers only: the plan, the family's share, the grid's size)."""
    from pflbounds.checking.comparison import comparisons_of

    level = 1.0 - check.confidence
    if multiplicity is not None and float(multiplicity.get("check_level", 0.0)) > 0.0:
        level = float(multiplicity["check_level"])
    out: dict[str, Any] = {"methods": list(check.methods), "order": check.order}
    if check.plan is not None:
        out["plan"] = check.plan.record(level / max(comparisons_of(check, n_points), 1))
    return out
