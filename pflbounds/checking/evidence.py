"""Evidence blocks: what ``Check.simulate`` returns, and how blocks are combined.

A block is a dict of arrays for one grid point and one block of replicas.

Measured values
    * exact and symbolic engines: ``mean`` (n,), the exact expectation of the metric;
    * Monte Carlo: ``sum`` (n,), ``sumsq`` (n,) and ``count`` (scalar) over the block's
      replicas, optionally ``sumcross`` (n, n) (sum of outer products, used for the covariance
      of a curve in rate fits). Instead of the sums a block may return ``samples`` of shape
      (R, ...): they are reduced to sums with :func:`mc_block` before leaving the worker.
    * measured arrays may have several axes, e.g. (agents, K) for per-agent bounds; every
      entry is then one comparison and ``ks`` (K,) broadcasts along the last axis.
    * scaling: the measured value is the scalar ``cost`` of the grid point (exact), or
      per-replica costs ``cost`` (R,) or their sums (Monte Carlo).
    * identity: ``residual`` (scalar or array; its largest absolute value counts), or a
      measured value with a ``target`` of the same shape.
    * per-replica bounds (Monte Carlo): ``bound_samples`` of the shape of ``samples``, a bound
      computed in each replica from constants measured in that replica. They are reduced in
      the worker to ``sum_gap``/``sumsq_gap`` (gap = bound - metric, per replica),
      ``sum_bound``/``sumsq_bound``, ``min_bound``/``max_bound`` (the band of the bound),
      ``min_ratio`` (smallest bound/metric over replicas), ``count_violations`` (replicas with
      metric > bound, per entry) and ``count_any_violation`` (replicas with a violation at
      some entry).
    * holds_with_probability: ``samples`` with ``bound_samples`` as above, or ``violations``
      (R,) or (R, ...) booleans (a replica counts once if any entry is violated).
    * comparison: ``draws`` (R, M), the metric of each of M methods in each draw (kept as is:
      every draw enters the evidence).

Curves and bounds
    * ``ks`` (n,): recorded iteration counts or another x-axis (default ``0..n-1``);
    * ``bound`` (n,) or scalar for bound_holds and lower_bound_respected;
      ``bound_printed`` and ``bound_corrected`` for erratum;
    * ``fit_mask`` (n,) bool: the points of a rate fit (default all; non-positive ``ks``
      are always left out of a log-log fit); for scaling a scalar ``fit_mask`` False leaves
      the grid point out of the fit;
    * ``support`` (2,): known range of the metric, e.g. ``[0, 1]`` for probabilities.

Combining blocks
    Keys in :data:`ADDITIVE_KEYS` and keys starting with ``sum_``, ``sumsq_`` or ``count_``
    are summed; keys starting with ``min_`` or ``max_`` take the elementwise minimum or
    maximum; keys in :data:`CONCAT_KEYS` (per-draw values) are concatenated along their first
    axis, in block order. ``residual`` takes the largest absolute value. Keys in
    :data:`STRUCTURAL_KEYS` must agree between blocks. Any other key is extra evidence for
    figures: the first block's value is kept.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

ADDITIVE_KEYS = frozenset({"sum", "sumsq", "count", "sumcross"})
ADDITIVE_PREFIXES = ("sum_", "sumsq_", "count_")
EXTREME_PREFIXES = {"min_": np.minimum, "max_": np.maximum}
STRUCTURAL_KEYS = frozenset(
    {"ks", "bound", "bound_printed", "bound_corrected", "target", "fit_mask", "support"}
)
CONCAT_KEYS = frozenset({"draws"})
MAX_CROSS = 256
"""Curves up to this length get ``sumcross`` from :func:`mc_block` by default."""


class EvidenceError(ValueError):
    """Evidence that does not follow the conventions of its check."""


def mc_block(samples: np.ndarray, *, cross: bool | None = None) -> dict[str, np.ndarray]:
    """Reduce per-replica values ``samples`` of shape (R, ...) to additive sums.

    Returns ``sum``, ``sumsq``, ``count`` and, for curves (input of shape (R, n)) of length up
    to :data:`MAX_CROSS` or when ``cross`` is True, ``sumcross``.
    """
    x = np.asarray(samples, dtype=np.float64)
    if x.ndim < 1:
        raise EvidenceError(f"samples need a leading replica axis, got shape {x.shape}")
    out = {
        "sum": x.sum(axis=0),
        "sumsq": np.einsum("r...,r...->...", x, x),
        "count": np.asarray(float(x.shape[0])),
    }
    if cross is None:
        cross = x.ndim == 2 and x.shape[1] <= MAX_CROSS
    if cross and x.ndim == 2:
        out["sumcross"] = x.T @ x
    return out


def per_replica_block(block: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """Reduce per-replica bounds (``bound_samples``) or ``violations`` to additive and
    extreme-value evidence (see the module docstring). Removes them from ``block``."""
    out: dict[str, np.ndarray] = {}
    if "violations" in block:
        v = np.asarray(block.pop("violations"), dtype=bool)
        if v.ndim < 1:
            raise EvidenceError("violations need a leading replica axis")
        out["count_any_violation"] = np.asarray(float(v.reshape(v.shape[0], -1).any(1).sum()))
        out["count_draws"] = np.asarray(float(v.shape[0]))
        return out
    b = np.asarray(block.pop("bound_samples"), dtype=np.float64)
    if "samples" not in block:
        raise EvidenceError("bound_samples need the per-replica metric in 'samples'")
    x = np.asarray(block["samples"], dtype=np.float64)
    if b.shape != x.shape or b.ndim < 1:
        raise EvidenceError(
            f"bound_samples must have the shape of samples (replicas first): {b.shape} vs "
            f"{x.shape}"
        )
    with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
        gap = b - x
        ratio = np.where(x > 0, b / np.where(x > 0, x, 1.0), np.inf)
    viol = x > b
    out["sum_gap"] = gap.sum(axis=0)
    out["sumsq_gap"] = np.einsum("r...,r...->...", gap, gap)
    out["sum_bound"] = b.sum(axis=0)
    out["sumsq_bound"] = np.einsum("r...,r...->...", b, b)
    out["min_bound"] = b.min(axis=0)
    out["max_bound"] = b.max(axis=0)
    out["min_ratio"] = ratio.min(axis=0)
    out["count_violations"] = viol.sum(axis=0).astype(np.float64)
    out["count_any_violation"] = np.asarray(float(viol.reshape(x.shape[0], -1).any(1).sum()))
    out["count_draws"] = np.asarray(float(x.shape[0]))
    return out


def is_additive(key: str) -> bool:
    """Whether a key is summed across replica blocks."""
    return key in ADDITIVE_KEYS or key.startswith(ADDITIVE_PREFIXES)


def as_array(value: Any) -> np.ndarray:
    """float64 array (bool arrays stay boolean)."""
    arr = np.asarray(value)
    if arr.dtype == np.bool_:
        return arr
    return arr.astype(np.float64)


def normalize_block(block: Any, *, engine: str, kind: str) -> dict[str, np.ndarray]:
    """Check a raw simulate() return value and convert it to float64 arrays.

    ``samples`` (and, for Monte Carlo scaling checks, per-replica ``cost``) are reduced to
    sums so that blocks stay small and additive.
    """
    if not isinstance(block, Mapping):
        raise EvidenceError(f"simulate must return a dict of arrays, got {type(block).__name__}")
    out: dict[str, np.ndarray] = {}
    for key, value in block.items():
        if not isinstance(key, str):
            raise EvidenceError(f"evidence keys must be strings, got {key!r}")
        try:
            out[key] = as_array(value)
        except (TypeError, ValueError) as exc:
            raise EvidenceError(f"evidence {key!r} is not numeric: {exc}") from None
    if engine == "mc":
        if "bound_samples" in out or "violations" in out:
            out.update(per_replica_block(out))
        if "samples" in out:
            out.update(mc_block(out.pop("samples")))
        elif kind == "scaling" and "cost" in out and "sum" not in out:
            out.update(mc_block(out.pop("cost").reshape(-1)))
    return out


def combine_blocks(blocks: Sequence[Mapping[str, np.ndarray]]) -> dict[str, np.ndarray]:
    """Combine the evidence blocks of one grid point (see module docstring)."""
    if not blocks:
        raise EvidenceError("no evidence blocks to combine")
    out: dict[str, np.ndarray] = {k: np.array(v, copy=True) for k, v in blocks[0].items()}
    for b, block in enumerate(blocks[1:], start=1):
        if set(block) != set(out):
            diff = sorted(set(block) ^ set(out))
            raise EvidenceError(f"block {b} has different evidence keys: {diff}")
        for key, value in block.items():
            if is_additive(key):
                if np.shape(value) != np.shape(out[key]):
                    raise EvidenceError(f"evidence {key!r} changes shape in block {b}")
                out[key] = out[key] + value
            elif key.startswith(tuple(EXTREME_PREFIXES)):
                if np.shape(value) != np.shape(out[key]):
                    raise EvidenceError(f"evidence {key!r} changes shape in block {b}")
                out[key] = EXTREME_PREFIXES[key[:4]](out[key], value)
            elif key in CONCAT_KEYS:
                if np.ndim(value) < 1 or np.shape(value)[1:] != np.shape(out[key])[1:]:
                    raise EvidenceError(f"evidence {key!r} changes shape in block {b}")
                out[key] = np.concatenate([out[key], value], axis=0)
            elif key == "residual":
                out[key] = np.maximum(np.max(np.abs(out[key])), np.max(np.abs(value)))
            elif key in STRUCTURAL_KEYS:
                if np.shape(value) != np.shape(out[key]) or not np.array_equal(
                    value, out[key], equal_nan=value.dtype.kind == "f"
                ):
                    raise EvidenceError(f"evidence {key!r} differs between blocks 0 and {b}")
    return out
