"""Checks of the shared toy paper: every task reads :func:`table` (a shared computation that
sleeps ``SHAREDTOY_SLEEP`` seconds, default 1, and appends ``compute PID`` to the file
``SHAREDTOY_LOG`` when set); each task appends ``read PID``.

``sharedtoy.exact``: E[x_k] = table's 1/k against c/k, c >= 1: HOLDS (3 grid points).
``sharedtoy.mc``: x_k = table's 1/k + 0.1 * noise (4 blocks), bound 3/k: HOLDS.
"""

from __future__ import annotations

import os
import time
from collections.abc import Mapping
from typing import Any

import numpy as np

from pflbounds.checking import Check, CheckKind, Verdict, mc_block, register
from pflbounds.running.shared import shared_computation


def _log(line: str) -> None:
    path = os.environ.get("SHAREDTOY_LOG")
    if path:
        fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        try:
            os.write(fd, f"{line} {os.getpid()}\n".encode())
        finally:
            os.close(fd)


@shared_computation("sharedtoy.table")
def table(n: int) -> dict[str, np.ndarray]:
    """k = 1, 2, 4, ... (n values), 1/k, and a fixed draw w (seeded by n)."""
    _log("compute")
    time.sleep(float(os.environ.get("SHAREDTOY_SLEEP", "1")))
    ks = 2.0 ** np.arange(n)
    return {"ks": ks, "inv": 1.0 / ks, "w": np.random.default_rng(n).standard_normal(n)}


def _read() -> dict[str, np.ndarray]:
    t = table(5)
    _log("read")
    return t


def simulate_exact(params: Mapping[str, Any], n: int, ss: np.random.SeedSequence) -> dict:
    """Exact E[x_k] = 1/k from the table, bound c/k."""
    t = _read()
    return {"ks": t["ks"], "mean": t["inv"] + 0.0 * t["w"], "bound": params["c"] * t["inv"]}


def simulate_mc(params: Mapping[str, Any], n: int, ss: np.random.SeedSequence) -> dict:
    """Monte Carlo x_k = 1/k + 0.1 noise (the table's 1/k), bound c/k."""
    t = _read()
    rng = np.random.default_rng(ss)
    x = t["inv"] + 0.1 * rng.standard_normal((n, t["ks"].size))
    return {"ks": t["ks"], **mc_block(x), "bound": params["c"] * t["inv"]}


CHECKS = [
    Check("sharedtoy.exact", "exact bound over a shared table", CheckKind.BOUND_HOLDS,
          Verdict.HOLDS, simulate_exact, grid=tuple({"c": c} for c in (1.0, 1.5, 2.0)),
          engine="exact"),
    Check("sharedtoy.mc", "Monte Carlo bound over a shared table", CheckKind.BOUND_HOLDS,
          Verdict.HOLDS, simulate_mc, grid=({"c": 3.0},), engine="mc", replicas=400,
          block_size=100),
]

for _c in CHECKS:
    register(_c, replace=True)
