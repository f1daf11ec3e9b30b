"""Progress of a sweep on stderr.

* ``bar`` (an interactive terminal): one tqdm bar, tasks done of total with the cached ones
  counted in from the start and named apart, and the time left estimated from the tasks
  computed so far (cached tasks take no time and do not skew it). It appears after
  :data:`DELAY` seconds, so short runs stay quiet.
* ``lines`` (a log, a pipe, or ``--json``): one line per check when its last task ends, with
  the run's totals and the time left; in a long check, a line when a task ends at least
  :data:`LINE_EVERY` seconds after the last line (so that ``check`` of one long check shows
  progress too).
* ``auto``: ``bar`` when stderr is a terminal, else nothing (the library default).
"""

from __future__ import annotations

import sys
import time
from collections import Counter
from collections.abc import Sequence
from typing import TextIO

from pflbounds.running.tasks import Task

MODES = ("auto", "bar", "lines", "none")
DELAY = 2.0
"""Seconds before a progress bar appears."""
LINE_EVERY = 10.0
"""Seconds between two progress lines within a check (``lines`` mode)."""


def _clock(seconds: float) -> str:
    s = int(round(seconds))
    return f"{s // 3600}:{s // 60 % 60:02d}:{s % 60:02d}" if s >= 3600 else \
        f"{s // 60}:{s % 60:02d}"


class Progress:
    """Counts tasks as they end and reports them (see the module docstring)."""

    def __init__(self, mode: str | bool = "auto", stream: TextIO | None = None) -> None:
        if mode is True:
            mode = "auto"
        elif mode is False or mode is None:
            mode = "none"
        if mode not in MODES:
            raise ValueError(f"progress mode must be one of {MODES}, got {mode!r}")
        self.stream = stream
        self.mode = mode
        self.bar = None
        self.total = self.cached = self.computed = self.failed = 0
        self.left: Counter[str] = Counter()
        self.per_check: dict[str, list[int]] = {}
        self.t0 = time.perf_counter()
        self.last_line = self.t0

    def _out(self) -> TextIO:
        return self.stream if self.stream is not None else sys.stderr

    def start(self, tasks: Sequence[Task], cached: Sequence[Task]) -> None:
        """A run of ``tasks`` begins, ``cached`` of them found in the cache."""
        self.total, self.cached = len(tasks), len(cached)
        self.left = Counter(t.check_id for t in tasks)
        self.per_check = {c: [0, 0] for c in self.left}  # [tasks, cached]
        for t in tasks:
            self.per_check[t.check_id][0] += 1
        for t in cached:
            self.per_check[t.check_id][1] += 1
        self.t0 = self.last_line = time.perf_counter()
        mode = self.mode
        if mode == "auto":
            isatty = getattr(self._out(), "isatty", None)
            mode = "bar" if isatty is not None and isatty() else "none"
        self.mode = mode
        if mode == "bar" and self.total:
            from tqdm import tqdm

            self.bar = tqdm(total=self.total, initial=self.cached, desc="pflbounds",
                            unit="task", file=self._out(), delay=DELAY, leave=False,
                            dynamic_ncols=True)
            self.bar.set_postfix_str(f"{self.cached} cached", refresh=False)
        for t in cached:
            self._task_ended(t.check_id)

    def eta(self) -> float | None:
        """Seconds left, from the mean time of the tasks computed so far."""
        if not self.computed:
            return None
        todo = self.total - self.cached - self.computed
        return todo * (time.perf_counter() - self.t0) / self.computed

    def update(self, task: Task, ok: bool = True) -> None:
        """A computed task ended."""
        self.computed += 1
        self.failed += 0 if ok else 1
        if self.bar is not None:
            self.bar.update()
        self._task_ended(task.check_id)

    def _task_ended(self, check_id: str) -> None:
        self.left[check_id] -= 1
        if self.mode != "lines":
            return
        done = self.cached + self.computed
        eta = self.eta()
        left = "" if eta is None or done == self.total else f", about {_clock(eta)} left"
        failed = f", {self.failed} failed" if self.failed else ""
        now = time.perf_counter()
        if self.left[check_id]:
            if now - self.last_line >= LINE_EVERY:
                n = self.per_check[check_id][0]
                print(f"pflbounds: {check_id} {n - self.left[check_id]}/{n} tasks; "
                      f"{done}/{self.total} tasks, {self.cached} cached{failed}{left}",
                      file=self._out(), flush=True)
                self.last_line = now
            return
        n, cached = self.per_check[check_id]
        print(f"pflbounds: {check_id} done ({n} tasks, {cached} cached); "
              f"{done}/{self.total} tasks, {self.cached} cached{failed}{left}",
              file=self._out(), flush=True)
        self.last_line = now

    def close(self) -> None:
        """Remove the bar."""
        if self.bar is not None:
            self.bar.close()
            self.bar = None
