"""Checks of the slow toy paper: each task sleeps ``SLOWTOY_SLEEP`` seconds (default 0.1) and
appends ``start KEY PID`` and ``end KEY PID`` lines to the file ``SLOWTOY_LOG`` (when set),
``KEY`` the task's spawn key (check, grid point, block), so that a test can count the tasks
computed by each run.

``slowtoy.mc``: x_k = 1/k + 0.1 * noise (Monte Carlo, 4 blocks per point), bound 3/k: HOLDS.
``slowtoy.exact``: E[x_k] = 1/k against c/k with c >= 1: HOLDS.
"""

from __future__ import annotations

import os
import time
from collections.abc import Mapping
from typing import Any

import numpy as np

from pflbounds.checking import Check, CheckKind, Verdict, mc_block, register

KS = np.array([1.0, 2.0, 4.0, 8.0, 16.0])


def _log(what: str, ss: np.random.SeedSequence) -> None:
    path = os.environ.get("SLOWTOY_LOG")
    if path:
        key = "-".join(str(k) for k in ss.spawn_key)
        fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        try:
            os.write(fd, f"{what} {key} {os.getpid()}\n".encode())
        finally:
            os.close(fd)


def _slow(ss: np.random.SeedSequence) -> None:
    _log("start", ss)
    time.sleep(float(os.environ.get("SLOWTOY_SLEEP", "0.1")))


def simulate_mc(params: Mapping[str, Any], n: int, ss: np.random.SeedSequence) -> dict:
    """Monte Carlo evidence of x_k = 1/k + 0.1 noise, bound c/k."""
    _slow(ss)
    rng = np.random.default_rng(ss)
    out = {"ks": KS, **mc_block(1.0 / KS + 0.1 * rng.standard_normal((n, KS.size))),
           "bound": params["c"] / KS}
    _log("end", ss)
    return out


def simulate_exact(params: Mapping[str, Any], n: int, ss: np.random.SeedSequence) -> dict:
    """Exact E[x_k] = 1/k, bound c/k."""
    _slow(ss)
    out = {"ks": KS, "mean": 1.0 / KS, "bound": params["c"] / KS}
    _log("end", ss)
    return out


CHECKS = [
    Check("slowtoy.mc", "slow Monte Carlo bound", CheckKind.BOUND_HOLDS, Verdict.HOLDS,
          simulate_mc, grid=tuple({"c": c} for c in (3.0, 4.0, 5.0)), engine="mc",
          replicas=400, block_size=100),
    Check("slowtoy.exact", "slow exact bound", CheckKind.BOUND_HOLDS, Verdict.HOLDS,
          simulate_exact, grid=tuple({"c": c} for c in (1.0, 1.5, 2.0, 2.5)), engine="exact"),
]

for _c in CHECKS:
    register(_c, replace=True)
