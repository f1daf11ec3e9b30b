"""Upper limits of the sizes a user may ask for: replicas, worker processes, seeds, runs.

A size beyond its limit is refused before any work, with one line naming the option, the
value and the limit (:class:`LimitError`), instead of exhausting the memory or running for
ever. The limits:

* **replicas** of a Monte Carlo check: at most :data:`MAX_REPLICAS` (10^7; the checks use
  10^2 to 10^4), and at most what the run's memory holds. A run keeps one record per task (a
  block of ``check.block_size`` replicas at one grid point) until its check is aggregated,
  taken as :data:`TASK_BYTES` (64 kB: an evidence block holding a curve of up to 256 points
  with its covariance sums, and the task's record). The tasks of one check may take half of
  the available memory (:func:`available_memory`).
* **worker processes** (``--jobs``): at most :data:`JOBS_PER_CORE` times the cores this
  process may use (more only multiplies memory and switching, never speed).
* **seeds** (``--seed``, ``--first-seed``): integers in [0, 2^63 - 1], stored in results and
  cache records as JSON numbers.
* **runs** of the false-alarm audit (``--seeds``): at most :data:`MAX_RUNS`.
* **iteration counts** of the tightness audit (``--horizons``): each at most
  :data:`MAX_HORIZON` (a PEPit problem grows as K^2), at most :data:`MAX_HORIZONS` of them.
* **per-client inputs** (matrix and vector files of ``eval``, ``solve``, ``complexity``): at
  most :data:`MAX_CLIENTS` clients, and a ``.csv`` of at most :data:`MAX_CSV_BYTES`.
"""

from __future__ import annotations

import math
import os

MAX_REPLICAS = 10**7
TASK_BYTES = 64 * 1024
JOBS_PER_CORE = 4
MAX_SEED = 2**63 - 1
MAX_RUNS = 100_000
MAX_HORIZON = 200
MAX_HORIZONS = 50
MAX_CLIENTS = 4000
MAX_CSV_BYTES = 50_000_000
FALLBACK_MEMORY = 8 * 10**9
"""Assumed available memory where the platform does not tell (bytes)."""


class LimitError(ValueError):
    """A size beyond its limit; the message names the option, the value and the limit."""


def available_memory() -> int:
    """Bytes of memory available to new allocations: ``MemAvailable`` of /proc/meminfo,
    else the free physical pages, else :data:`FALLBACK_MEMORY`."""
    try:
        with open("/proc/meminfo", encoding="ascii") as fh:
            for line in fh:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    try:
        return int(os.sysconf("SC_AVPHYS_PAGES")) * int(os.sysconf("SC_PAGE_SIZE"))
    except (ValueError, OSError, AttributeError):
        return FALLBACK_MEMORY


def cores() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0)) or 1
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def max_jobs() -> int:
    """The most worker processes ``--jobs`` may ask for."""
    return JOBS_PER_CORE * cores()


def fmt_int(n: int) -> str:
    """An integer as typed (``10000000``), or in powers of ten when it is long."""
    return str(n) if abs(n) < 10**12 else f"{n:.3g}"


def check_range(option: str, value: int, low: int, high: int, why: str = "") -> int:
    """``value`` when ``low <= value <= high``; else :class:`LimitError` naming ``option``."""
    if value < low:
        raise LimitError(f"{option} {fmt_int(value)}: expected an integer >= {low}")
    if value > high:
        raise LimitError(f"{option} {fmt_int(value)} is too large: at most {fmt_int(high)}"
                         + (f" ({why})" if why else ""))
    return value


def check_jobs(option: str, jobs: int) -> int:
    """``jobs`` when it is at most :func:`max_jobs`."""
    return check_range(option, jobs, 1, max_jobs(),
                       f"{JOBS_PER_CORE} per core on the {cores()} cores available")


def max_replicas(points: int, block_size: int, per_task: int = TASK_BYTES,
                 memory: int | None = None) -> int:
    """The most replicas a check of ``points`` grid points and blocks of ``block_size``
    replicas may run in half of the available memory, and at most :data:`MAX_REPLICAS`."""
    memory = available_memory() if memory is None else memory
    tasks = max(1, memory // 2 // max(1, per_task))
    by_memory = tasks // max(1, points) * max(1, block_size)
    return max(1, min(MAX_REPLICAS, by_memory))


def check_replicas(option: str, replicas: int, points: int, block_size: int,
                   per_task: int = TASK_BYTES) -> int:
    """``replicas`` when a check of ``points`` points and blocks of ``block_size`` can run
    them (:func:`max_replicas`); else :class:`LimitError` naming ``option``."""
    if replicas < 1:
        raise LimitError(f"{option} {fmt_int(replicas)}: expected an integer >= 1")
    high = max_replicas(points, block_size, per_task)
    if replicas <= high:
        return replicas
    if high == MAX_REPLICAS and replicas > MAX_REPLICAS:
        why = "the checks use 10^2 to 10^4"
    else:
        tasks = points * math.ceil(replicas / max(1, block_size))
        why = (f"{fmt_int(tasks)} tasks of {block_size} replicas over {points} grid points, "
               f"{per_task // 1024} kB each, would not fit in half of the "
               f"{available_memory() / 1e9:.1f} GB of available memory")
    raise LimitError(f"{option} {fmt_int(replicas)} is too large: at most {fmt_int(high)} "
                     f"({why})")
