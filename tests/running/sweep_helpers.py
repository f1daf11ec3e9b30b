"""Helpers of the sweep tests: the slow toy paper in child processes, its task log, the cache
and result folders compared with timestamps aside."""

from __future__ import annotations

import csv
import io
import json
import os
import re
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

from pflbounds.running.cache import TaskCache
from pflbounds.running.seeds import spawn_key

PAPER_DIR = Path(__file__).resolve().parents[1] / "fixtures" / "papers"
SLOW_TASKS = 16  # slowtoy.mc: 3 points x 4 blocks; slowtoy.exact: 4 points
SUITE = 'name = "slow"\nseed = 5\n[[checks]]\nid = "slowtoy.*"\n'
TIMING_COLUMNS = ("time", "cache_hit", "compute_s")


def slow_env(cache: Path, log: Path, sleep: float = 0.1) -> dict[str, str]:
    """Environment of a child ``pflbounds`` that loads the slow toy paper."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(PAPER_DIR), env.get("PYTHONPATH"))
                                        if p)
    env["PFLBOUNDS_PAPERS"] = "slowtoy"
    env["PFLBOUNDS_CACHE_DIR"] = str(cache)
    env["SLOWTOY_LOG"] = str(log)
    env["SLOWTOY_SLEEP"] = str(sleep)
    env["OPENBLAS_NUM_THREADS"] = "1"
    return env


def write_suite(folder: Path) -> Path:
    p = folder / "slow.toml"
    p.write_text(SUITE)
    return p


def validate_cmd(suite: Path, out: Path, *extra: str) -> list[str]:
    return [sys.executable, "-m", "pflbounds.cli", "validate", str(suite), "--out", str(out),
            *extra]


def launch(cmd: list[str], env: dict[str, str], stderr: Path) -> subprocess.Popen:
    with stderr.open("ab") as err:
        return subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=err)


def log_lines(log: Path) -> list[tuple[str, str, int]]:
    """(``start`` or ``end``, task key, pid) per line of the slow toy log."""
    if not log.exists():
        return []
    out = []
    for line in log.read_text().splitlines():
        parts = line.split()
        if len(parts) == 3:
            out.append((parts[0], parts[1], int(parts[2])))
    return out


def wait_for(pred: Callable[[], bool], timeout: float, what: str) -> None:
    t0 = time.monotonic()
    while not pred():
        if time.monotonic() - t0 > timeout:
            raise AssertionError(f"timed out after {timeout} s waiting for {what}")
        time.sleep(0.02)


def cached_keys(cache: Path) -> set[str]:
    """Task keys (as the slow toy logs them) of every task stored in a cache."""
    out = set()
    for e in TaskCache(cache, create=False).entries():
        assert not isinstance(e, Path), f"unreadable cache file {e}"
        m = e.meta
        out.add("-".join(str(k) for k in spawn_key(m["check_id"], m["params"],
                                                   m["block_index"])))
    return out


def _strip_times(text: str) -> str:
    text = re.sub(r'"timestamp": "[^"]*"', '"timestamp": ""', text)
    return re.sub(r'"elapsed": [-+0-9.eE]+', '"elapsed": 0', text)


def _csv_without_times(text: str) -> list[list[str]]:
    rows = list(csv.reader(io.StringIO(text)))
    keep = [i for i, c in enumerate(rows[0]) if c not in TIMING_COLUMNS]
    return [[r[i] for i in keep] for r in rows]


def assert_same_results(a: Path, b: Path) -> None:
    """The result folders ``a`` and ``b`` hold the same bytes, timestamps, elapsed times and
    cache provenance aside."""
    import pyarrow.parquet as pq

    assert _strip_times((a / "outcomes.json").read_text()) == \
        _strip_times((b / "outcomes.json").read_text())
    assert _csv_without_times((a / "results.csv").read_text()) == \
        _csv_without_times((b / "results.csv").read_text())
    ta = json.loads((a / "results.json").read_text())
    tb = json.loads((b / "results.json").read_text())
    assert [{k: v for k, v in r.items() if k not in TIMING_COLUMNS} for r in ta] == \
        [{k: v for k, v in r.items() if k not in TIMING_COLUMNS} for r in tb]
    pa = pq.read_table(a / "results.parquet").drop_columns(list(TIMING_COLUMNS))
    pb = pq.read_table(b / "results.parquet").drop_columns(list(TIMING_COLUMNS))
    assert pa.equals(pb)


def same_outcome(a, b) -> bool:
    """Bitwise equality of two outcomes' verdicts, margins and evidence arrays (values and
    dtypes)."""
    if (a.verdict, a.margin, a.detail, a.config_hash) != (b.verdict, b.margin, b.detail,
                                                         b.config_hash):
        return False
    for pa, pb in zip(a.evidence, b.evidence, strict=True):
        if set(pa) != set(pb):
            return False
        for k in pa:
            if k == "params":
                if pa[k] != pb[k]:
                    return False
            elif not (np.array_equal(pa[k], pb[k], equal_nan=True)
                      and np.asarray(pa[k]).dtype == np.asarray(pb[k]).dtype):
                return False
    return True


def process_alive(pid: int) -> bool:
    """True while ``pid`` runs (a zombie counts as gone)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state not in ("Z", "X")


def descendants(pid: int) -> set[int]:
    """Every process below ``pid`` (Linux ``/proc``)."""
    parent: dict[int, int] = {}
    for d in Path("/proc").iterdir():
        if d.name.isdigit():
            try:
                parent[int(d.name)] = int((d / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
    out, frontier = set(), {pid}
    while frontier:
        kids = {c for c, p in parent.items() if p in frontier} - out
        out |= kids
        frontier = kids
    return out
