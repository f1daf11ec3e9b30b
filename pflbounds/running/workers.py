"""What runs in a worker process: BLAS pinning, parent watch, and the task call.

* **One BLAS thread per worker.** Two workers on two cores, each with a BLAS pool of two
  threads, oversubscribe the machine and run barely faster than one. Workers limit every BLAS
  and OpenMP pool to one thread (threadpoolctl, plus the usual environment variables for
  libraries loaded later). A serial run pins its own process the same way
  (:func:`pflbounds.running.executor.single_blas_thread`): some reductions give other bits
  with another number of BLAS threads, and evidence must not depend on ``--jobs``.
* **No orphans.** A local worker watches the process that started it and exits as soon as
  that process is gone (killed by SIGKILL, say), instead of idling for minutes.
* **Provenance.** A worker returns, with each result, where it ran and the hash of its
  installed code (:func:`pflbounds.running.fingerprint.installation_hash`), which the client
  compares with its own before it accepts (and caches) the result. A worker process hashes
  the source trees once (:func:`pflbounds.running.fingerprint.freeze_trees_for_process`): the
  code it has imported is the code it runs.
"""

from __future__ import annotations

import os
import socket
import threading
import time

from pflbounds.checking import registry
from pflbounds.checking.check import Check
from pflbounds.running.tasks import Task, TaskResult, execute_task
from pflbounds.threads import PIN_ENV

WATCH_INTERVAL = 0.2
"""Seconds between two looks at the parent process."""

_STATE = {"pinned": False, "watching": False}


def pin_blas_threads() -> None:
    """Limit this process's BLAS and OpenMP pools to one thread (once per process)."""
    if _STATE["pinned"]:
        return
    os.environ.update(PIN_ENV)
    from threadpoolctl import threadpool_limits

    threadpool_limits(limits=1)
    _STATE["pinned"] = True


def watch_parent(parent_pid: int, interval: float = WATCH_INTERVAL) -> None:
    """Exit this process as soon as ``parent_pid`` is no longer its parent (once per
    process; a daemon thread polls ``os.getppid``)."""
    if os.getppid() != parent_pid:
        os._exit(3)
    if _STATE["watching"]:
        return

    def loop() -> None:
        while True:
            if os.getppid() != parent_pid:
                os._exit(3)
            time.sleep(interval)

    threading.Thread(target=loop, name="pflbounds-parent-watch", daemon=True).start()
    _STATE["watching"] = True


def init_local_worker(parent_pid: int) -> None:
    """Initializer of a local (loky) worker: pin BLAS, watch the parent."""
    pin_blas_threads()
    watch_parent(parent_pid)


def where() -> str:
    """``host:pid`` of this process."""
    return f"{socket.gethostname()}:{os.getpid()}"


def compute(task: Task, check: Check | None, client_pid: int,
            shared_root: str | None = None) -> TaskResult:
    """Run one task in a worker and attach provenance (see the module docstring).

    In a process other than the client's, BLAS is pinned to one thread first.
    ``shared_root``: the sweep's folder of shared computations
    (:func:`pflbounds.running.shared.sweep_dir`), or None.
    """
    from pflbounds.running.fingerprint import freeze_trees_for_process, installation_hash
    from pflbounds.running.shared import sweep_dir

    if os.getpid() != client_pid:
        pin_blas_threads()
        freeze_trees_for_process()
    with sweep_dir(shared_root):
        result = execute_task(task, check)
    result.meta["worker"] = where()
    if result.ok:
        try:
            c = check if check is not None else registry.get(task.check_id, module=task.module)
            result.meta["installation"] = installation_hash(c)
        except Exception as exc:  # noqa: BLE001 - named in the client's error
            result.meta["installation"] = f"unavailable: {exc}"
    return result
