"""Where tasks run: in this process, in local worker processes (loky), or on a Dask cluster.

Each backend takes ``(index, task, check)`` items and yields ``(index, TaskResult)`` as tasks
finish, in any order; the caller stores each result at once (the cache) and restores the
order. A task's random stream depends only on the task, so results do not depend on the
backend, the number of workers or the order of completion.

When the consumer stops early (an exception, Ctrl-C, SIGTERM), local workers are killed and
Dask tasks cancelled before the exception goes on.
"""

from __future__ import annotations

import concurrent.futures as cf
import contextlib
import os
import socket
import traceback
from collections.abc import Iterator, Sequence
from typing import Any
from urllib.parse import urlparse

from pflbounds.checking.check import Check
from pflbounds.running.shared import current_root
from pflbounds.running.tasks import Task, TaskResult, execute_task
from pflbounds.running.workers import compute, init_local_worker
from pflbounds.threads import PIN_ENV

Item = tuple[int, Task, Check | None]


DASK_WORKER_CONFIG: dict[str, Any] = {
    "distributed.worker.profile.enabled": False,
    "distributed.admin.tick.interval": "200ms",
    "distributed.admin.system-monitor.interval": "2s",
    "distributed.worker.memory.monitor-interval": "1s",
    "distributed.nanny.pre-spawn-environ.MALLOC_TRIM_THRESHOLD_": None,
}
"""Dask settings for workers that run long, CPU-bound, numpy-heavy tasks:

* glibc's default malloc: Dask's nannies start workers with ``MALLOC_TRIM_THRESHOLD_=65536``
  (to give memory back to the system sooner), which also fixes glibc's mmap threshold at
  128 KiB, so every array above it is a fresh mmap whose pages fault in again at each use.
  On the full even2022 suite the tasks took 20-25% more CPU in such workers than in local
  workers; without the variable (None unsets it) they take the same.
* no statistical profiler (a thread sampling the task's stack every 10 ms) and slower
  event-loop, system and memory monitors, whose threads take the GIL from the task.

Shipped as ``examples/dask/pflbounds.yaml`` for clusters started by hand."""


def local_cluster(n_workers: int = 2, **kwargs: Any) -> Any:
    """A ``distributed.LocalCluster`` of ``n_workers`` single-threaded worker processes with
    :data:`DASK_WORKER_CONFIG` (the nannies hand the settings to their workers)."""
    from pflbounds.extras import load

    dask = load("dask", "a local Dask cluster")
    LocalCluster = load("distributed", "a local Dask cluster").LocalCluster  # noqa: N806

    kwargs = {"threads_per_worker": 1, "processes": True, "dashboard_address": None, **kwargs}
    with dask.config.set(DASK_WORKER_CONFIG):
        return LocalCluster(n_workers=n_workers, **kwargs)


class SchedulerError(ValueError):
    """A Dask scheduler that cannot be used (the message names the address and the cause)."""


def failed(task: Task, exc: BaseException, where: str) -> TaskResult:
    """A task that could not be run by its backend (a worker died, a future was lost)."""
    last = traceback.format_exception_only(type(exc), exc)[-1].strip()
    return TaskResult(task, None, f"{where}: {last}", "".join(
        traceback.format_exception(type(exc), exc, exc.__traceback__)))


def serial(items: Sequence[Item]) -> Iterator[tuple[int, TaskResult]]:
    """Run the tasks one after another in this process."""
    for i, t, c in items:
        yield i, execute_task(t, c)


def local_workers(jobs: int) -> int:
    """Worker count for ``jobs`` (negative: all cores but ``-jobs - 1``, joblib's rule)."""
    if jobs == 0:
        raise ValueError("jobs must be non-zero (1: serial, -1: all cores)")
    n = jobs if jobs > 0 else (os.cpu_count() or 1) + 1 + jobs
    return max(1, n)


def loky(items: Sequence[Item], jobs: int) -> Iterator[tuple[int, TaskResult]]:
    """Run the tasks in ``jobs`` local worker processes (loky), at most two per worker
    queued at a time. Workers pin BLAS to one thread and exit with their parent."""
    from joblib.externals.loky import get_reusable_executor

    n = local_workers(jobs)
    pid, shared_root = os.getpid(), current_root()
    ex = get_reusable_executor(max_workers=n, timeout=60, initializer=init_local_worker,
                               initargs=(pid,), env=dict(PIN_ENV))
    pending: dict[cf.Future, tuple[int, Task]] = {}
    queue = iter(items)
    done_all = False

    def submit_next() -> bool:
        try:
            i, t, c = next(queue)
        except StopIteration:
            return False
        pending[ex.submit(compute, t, c, pid, shared_root)] = (i, t)
        return True

    try:
        for _ in range(2 * n):
            if not submit_next():
                break
        while pending:
            finished, _ = cf.wait(list(pending), return_when=cf.FIRST_COMPLETED)
            for f in finished:
                i, t = pending.pop(f)
                try:
                    r = f.result()
                except Exception as exc:  # noqa: BLE001 - a worker died: the task failed
                    r = failed(t, exc, "local worker")
                submit_next()
                yield i, r
        done_all = True
    finally:
        if not done_all:
            for f in pending:
                f.cancel()
            ex.shutdown(wait=False, kill_workers=True)


def check_address(address: str, timeout: float = 3.0) -> None:
    """Fail fast, naming the address, when nothing listens at a ``tcp://`` scheduler."""
    u = urlparse(address if "://" in address else f"tcp://{address}")
    if u.scheme not in ("tcp", "tls", "ws", "wss", "inproc", "ucx"):
        raise SchedulerError(f"--scheduler {address}: unknown protocol {u.scheme!r}; expected "
                             "an address such as tcp://HOST:8786")
    if u.scheme != "tcp":
        return
    try:
        port = u.port
    except ValueError:
        port = None
    if not u.hostname or port is None:
        raise SchedulerError(f"--scheduler {address}: expected an address such as "
                             "tcp://HOST:8786")
    try:
        with socket.create_connection((u.hostname, port), timeout=timeout):
            pass
    except OSError as exc:
        raise SchedulerError(
            f"--scheduler {address}: no Dask scheduler answers ({exc.strerror or exc}); start "
            "one with `dask scheduler` and workers with `dask worker ADDRESS`, or run locally "
            "with --jobs N") from None


def connect(scheduler: Any, timeout: float = 10.0) -> tuple[Any, bool]:
    """A ``distributed.Client`` for an address, a cluster object or a client; and whether
    it was made here (then the caller closes it)."""
    try:
        from distributed import Client
    except ImportError:
        from pflbounds.extras import install_command

        raise SchedulerError(
            f"--scheduler needs Dask, which is not installed: {install_command('dask')}; or "
            "run locally with --jobs N") from None
    if isinstance(scheduler, Client):
        return scheduler, False
    if isinstance(scheduler, str):
        check_address(scheduler)
        try:
            return Client(scheduler, timeout=timeout, set_as_default=False), True
        except (OSError, TimeoutError) as exc:
            raise SchedulerError(f"--scheduler {scheduler}: cannot connect ({exc}); run "
                                 "locally with --jobs N") from None
    return Client(scheduler, set_as_default=False), True  # a cluster object


def _shipped(task: Task, check: Check | None) -> Check | None:
    """The check to send with a task: None when the worker finds the same check by id (a
    registered check whose module the task names), so that it is not pickled per task."""
    from pflbounds.checking import registry

    if check is not None and task.module and registry.find(task.check_id) is check:
        return None
    return check


def dask(items: Sequence[Item], scheduler: Any) -> Iterator[tuple[int, TaskResult]]:
    """Run the tasks on a Dask cluster (an address, a cluster or a ``Client``); results come
    back to this process."""
    import uuid

    from distributed import as_completed

    client, own = connect(scheduler)
    run = uuid.uuid4().hex[:8]
    futures: dict[Any, tuple[int, Task]] = {}
    done_all = False
    try:
        pid, shared_root = os.getpid(), current_root()
        for i, t, c in items:
            key = f"pflbounds-{t.check_id}-p{t.point_index}-b{t.block_index}-{run}"
            futures[client.submit(compute, t, _shipped(t, c), pid, shared_root, key=key,
                                  retries=0)] = (i, t)
        for f in as_completed(list(futures), loop=client.loop):
            i, t = futures.pop(f)
            try:
                r = f.result()
            except Exception as exc:  # noqa: BLE001 - a lost worker: the task failed
                r = failed(t, exc, "Dask worker")
            f.release()
            yield i, r
        done_all = True
    finally:
        if not done_all and futures:
            with contextlib.suppress(Exception):  # the client may already be gone
                client.cancel(list(futures))
        if own:
            client.close()
