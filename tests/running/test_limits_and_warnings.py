"""Sizes beyond their limits are refused before any work, and a task's Python warnings are
recorded with its result instead of reaching the terminal."""

from __future__ import annotations

import dataclasses
import warnings

import numpy as np
import pytest

from pflbounds.checking import Check, CheckKind, Verdict, mc_block
from pflbounds.limits import (
    MAX_REPLICAS,
    LimitError,
    check_jobs,
    check_replicas,
    max_jobs,
    max_replicas,
)
from pflbounds.running import TaskCache, execute, plan
from pflbounds.running.suite import SuiteError, check_suite_name, parse_suite


def test_replicas_are_bounded_by_the_cap_and_by_memory():
    assert max_replicas(1, 500, memory=10**15) == MAX_REPLICAS
    # 1 GB, 64 kB per task: 8192 tasks in half of it, over 100 points of blocks of 500
    assert max_replicas(100, 500, memory=10**9) == (10**9 // 2 // (64 * 1024)) // 100 * 500
    assert max_replicas(10**9, 1, memory=10**6) == 1  # never below one
    with pytest.raises(LimitError, match=r"--replicas 100000000000000000000 is too large|"
                                         r"--replicas 1e\+20 is too large"):
        check_replicas("--replicas", 10**20, 3, 500)
    with pytest.raises(LimitError, match="expected an integer >= 1"):
        check_replicas("--replicas", 0, 3, 500)


def test_plan_refuses_replicas_beyond_the_limit_before_making_tasks(toys):
    check = toys["toy.mc_true"]
    with pytest.raises(LimitError, match=r"toy.mc_true: replicas 10000001 is too large"):
        plan(check, replicas=MAX_REPLICAS + 1)
    assert len(plan(check, replicas=1000)) == len(check.grid) * 1000 // check.block_size


def test_jobs_are_bounded_by_the_cores():
    assert check_jobs("--jobs", max_jobs()) == max_jobs()
    with pytest.raises(LimitError, match=r"--jobs \d+ is too large: at most \d+ \(4 per core"):
        check_jobs("--jobs", max_jobs() + 1)


@pytest.mark.parametrize("name", ["quick", "even2022", "my-suite_2.v1", "A" * 100])
def test_suite_names_that_are_names(name):
    assert check_suite_name(name, "s.toml") == name


@pytest.mark.parametrize("name", ["../x", "/abs", "a b", ".", "..", "", "a/b", "a\\b",
                                  "x" * 101, "r\u00e9sum\u00e9", "a\nb", 5, None])
def test_suite_names_that_are_not(name, toys):
    with pytest.raises(SuiteError, match=r"s\.toml: name .* expected letters, digits"):
        parse_suite({"name": name, "checks": [{"id": "toy.mc_true"}]}, source="s.toml")


def _warns(params, n, ss):
    warnings.warn("Solution may be inaccurate. Try another solver", UserWarning, stacklevel=1)
    with np.errstate(over="warn"):
        np.float64(1e300) * np.float64(1e300)
    x = np.random.default_rng(ss).standard_normal((n, 2))
    return {"ks": np.array([1.0, 2.0]), **mc_block(x), "bound": np.array([9.0, 9.0])}


NOISY = Check("unit.warns", "warns", CheckKind.BOUND_HOLDS, Verdict.HOLDS, _warns,
              grid=({"i": 0},), engine="mc", replicas=20, block_size=10)


def test_a_tasks_warnings_are_recorded_not_shown(tmp_path):
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a warning that escaped would fail the task here
        results, stats = execute(plan(NOISY), checks={NOISY.id: NOISY}, progress=False,
                                 cache=TaskCache(tmp_path / "c"))
    assert stats.failed == 0 and stats.warned == 2
    for r in results:
        assert r.ok and r.meta["warnings"] == [
            "UserWarning: Solution may be inaccurate. Try another solver",
            "RuntimeWarning: overflow encountered in scalar multiply"]
    # recorded in the cache with the task, read back with it
    again, stats2 = execute(plan(NOISY), checks={NOISY.id: NOISY}, progress=False,
                            cache=TaskCache(tmp_path / "c"))
    assert stats2.cached == 2


def test_a_quiet_task_records_nothing(toys):
    results, stats = execute(plan(toys["toy.exact_true"]), progress=False)
    assert stats.warned == 0 and all("warnings" not in r.meta for r in results)


def test_a_failing_task_keeps_its_warnings():
    def fail(params, n, ss):
        warnings.warn("about to fail", RuntimeWarning, stacklevel=1)
        raise ValueError("boom")

    check = dataclasses.replace(NOISY, id="unit.fails", simulate=fail)
    (r,), stats = execute(plan(check)[:1], checks={check.id: check}, progress=False)
    assert not r.ok and "boom" in r.error and r.meta["warnings"] == [
        "RuntimeWarning: about to fail"]
