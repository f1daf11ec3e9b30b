"""Kill a running ``pflbounds validate`` with SIGKILL, then resume it; and kill one with local
workers, which must not outlive it."""

from __future__ import annotations

import random
import signal
import subprocess
import sys
import time
from collections import Counter

import pytest
from sweep_helpers import (
    PAPER_DIR,
    SLOW_TASKS,
    assert_same_results,
    cached_keys,
    descendants,
    launch,
    log_lines,
    process_alive,
    slow_env,
    validate_cmd,
    wait_for,
    write_suite,
)

from pflbounds.cli import main

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"),
                                reason="SIGKILL and /proc")


def test_sigkill_three_times_then_resume_gives_the_uninterrupted_results(tmp_path, monkeypatch,
                                                                        extra_paper):
    """Three SIGKILLs at random moments of a run, then a run to the end: every task is
    computed once, except the one in flight at each kill, and the results are byte for byte
    those of an uninterrupted run (timestamps and cache provenance aside)."""
    rng = random.Random()
    suite = write_suite(tmp_path)
    cache, log, out = tmp_path / "cache", tmp_path / "runs.log", tmp_path / "out"
    env = slow_env(cache, log)
    cmd = validate_cmd(suite, out, "--json")
    started: list[list[str]] = []
    cached_after: list[set[str]] = []
    for _ in range(3):
        seen = len(log_lines(log))
        p = launch(cmd, env, tmp_path / "stderr.txt")

        def this_run_started(p=p, seen=seen) -> bool:
            return any(w == "start" and pid == p.pid for w, _, pid in log_lines(log)[seen:])

        wait_for(this_run_started, 120, "a task of the run to start")
        time.sleep(rng.uniform(0.0, 0.35))
        p.kill()
        assert p.wait() == -signal.SIGKILL
        started.append([k for w, k, _ in log_lines(log)[seen:] if w == "start"])
        cached_after.append(cached_keys(cache))
        assert not out.exists()  # no partial result set
    seen = len(log_lines(log))
    done = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    started.append([k for w, k, _ in log_lines(log)[seen:] if w == "start"])

    # the uninterrupted run, in this process (no start-up), with a cache of its own
    ref_log = tmp_path / "ref.log"
    monkeypatch.syspath_prepend(str(PAPER_DIR))
    monkeypatch.setenv("SLOWTOY_LOG", str(ref_log))
    monkeypatch.setenv("SLOWTOY_SLEEP", "0")
    extra_paper("slowtoy")
    assert main(validate_cmd(suite, tmp_path / "ref", "--cache-dir",
                             str(tmp_path / "ref_cache"))[3:]) == 0
    every = {k for w, k, _ in log_lines(ref_log) if w == "start"}
    assert len(every) == SLOW_TASKS

    lost: list[set[str]] = []
    before: set[str] = set()
    for run, keys in enumerate(started):
        assert len(keys) == len(set(keys)), f"run {run} computed a task twice"
        assert not set(keys) & before, f"run {run} recomputed a cached task"
        if run < 3:
            lost.append(set(keys) - cached_after[run])
            assert len(lost[-1]) <= 1, f"kill {run} lost {sorted(lost[-1])}"
            before = cached_after[run]
    counts = Counter(k for keys in started for k in keys)
    assert set(counts) == every
    assert all(counts[k] == 1 + sum(k in s for s in lost) for k in every)
    assert sum(counts.values()) == SLOW_TASKS + sum(len(s) for s in lost)
    assert len(started[3]) >= 1 and cached_keys(cache) == every
    assert_same_results(out, tmp_path / "ref")


def test_killed_parallel_validate_leaves_no_workers(tmp_path):
    """SIGKILL a ``validate --jobs 2`` while both workers compute: the workers (and anything
    else it started) are gone within seconds, and the tasks they finished are in the cache."""
    suite = write_suite(tmp_path)
    cache, log = tmp_path / "cache", tmp_path / "runs.log"
    p = launch(validate_cmd(suite, tmp_path / "out", "--jobs", "2"),
               slow_env(cache, log, sleep=0.3), tmp_path / "stderr.txt")
    try:
        def workers() -> set[int]:
            return {pid for w, _, pid in log_lines(log) if w == "start" and pid != p.pid}

        wait_for(lambda: len(workers()) >= 2, 120, "two workers to compute")
        children = descendants(p.pid)
        assert workers() <= children
    finally:
        p.kill()
        p.wait()
    t0 = time.monotonic()
    wait_for(lambda: not any(process_alive(c) for c in children), 10,
             f"the children {sorted(children)} of the killed run to exit")
    assert time.monotonic() - t0 < 10
    ended = {k for w, k, _ in log_lines(log) if w == "end"}
    assert cached_keys(cache) <= ended  # only finished tasks were stored
