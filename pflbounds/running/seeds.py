"""Deterministic random streams per task.

Every task draws from ``SeedSequence(base_seed, spawn_key=(h0, h1, h2, h3, block_index))``
where ``h0..h3`` are 32-bit words of the SHA-256 of the canonical JSON of the check id and the
grid point's parameters. The stream of a task therefore depends only on (base seed, check id,
grid point parameters, block index): not on the execution order, the number of jobs, the
other checks of a run, or the position of the point in its grid. Keying on the parameters
rather than the point's index keeps the stream of a point the same in the quick and full
grids, so a result cached from one is bitwise the result a fresh run of the other would give.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from typing import Any

import numpy as np

from pflbounds.checking.jsonsafe import canonical_json


def stable_words(text: str, n: int = 4) -> tuple[int, ...]:
    """``n`` 32-bit unsigned integers from the SHA-256 of ``text`` (stable across runs)."""
    digest = hashlib.sha256(text.encode("utf-8")).digest()
    return tuple(int.from_bytes(digest[4 * i : 4 * i + 4], "little") for i in range(n))


def spawn_key(check_id: str, params: Mapping[str, Any], block_index: int) -> tuple[int, ...]:
    """The spawn key of one (check, grid point, replica block) task."""
    words = stable_words(canonical_json({"check": check_id, "params": params}))
    return (*words, int(block_index))


def task_seed(
    base_seed: int, check_id: str, params: Mapping[str, Any], block_index: int
) -> np.random.SeedSequence:
    """The SeedSequence of one task (see module docstring)."""
    if int(base_seed) < 0:
        raise ValueError(f"the base seed must be >= 0, got {base_seed}")
    return np.random.SeedSequence(
        entropy=int(base_seed), spawn_key=spawn_key(check_id, params, block_index)
    )
