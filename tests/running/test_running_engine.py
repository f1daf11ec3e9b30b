"""Running checks end to end: verdicts of the toy checks, seeds, blocks and joblib."""

from __future__ import annotations

import dataclasses
import time

import numpy as np
import pytest
import toy_checks
from sweep_helpers import same_outcome

from pflbounds.checking import Verdict
from pflbounds.running import (
    config_hash,
    execute_task,
    plan,
    point_config,
    run_check,
    run_checks,
    run_tasks,
    task_seed,
)

TOY_IDS = [c.id for c in toy_checks.CHECKS]


@pytest.mark.parametrize("check_id", TOY_IDS)
def test_toy_checks_reach_their_expected_verdict(toys, check_id):
    """True bounds hold, planted false bounds (divided by 10, wrong exponent) are violated,
    a bound equal to the mean under noise is inconclusive, rates, scaling, identities and
    errata come out as designed, for both engines; each check at its own 99% (the toy checks
    are designed one by one, not as a family)."""
    o = run_check(toys[check_id], base_seed=2022, progress=False, multiplicity="per-check")
    assert o.verdict is toys[check_id].expected, o.detail
    assert o.as_expected


def test_simulation_exception_is_an_error_verdict(toys):
    o = run_check(toys["toy.boom"], progress=False)
    assert o.verdict is Verdict.ERROR
    assert "ValueError: boom at the toy simulation" in o.detail
    assert "point 0 block 0" in o.detail
    assert "Traceback" in o.error


def test_bad_evidence_is_an_error_verdict():
    def sim(params, n, ss):
        return {"mean": np.ones(3)}  # no bound

    c = dataclasses.replace(toy_checks.CHECKS[0], id="unit.nobound", simulate=sim)
    o = run_check(c, progress=False)
    assert o.verdict is Verdict.ERROR and "lacks 'bound'" in o.detail


def test_same_seed_is_bitwise_identical_and_another_seed_differs(toys):
    checks = [toys["toy.mc_true"], toys["toy.mc_rate"], toys["toy.mc_scaling"]]
    a = run_checks(checks, base_seed=7, progress=False)
    b = run_checks(checks, base_seed=7, progress=False)
    c = run_checks(checks, base_seed=8, progress=False)
    assert all(same_outcome(x, y) for x, y in zip(a, b, strict=True))
    assert not np.array_equal(a[0].evidence[0]["sum"], c[0].evidence[0]["sum"])
    assert a[0].config_hash != c[0].config_hash


def test_task_streams_do_not_depend_on_order_or_other_checks(toys):
    tasks = plan(toys["toy.mc_true"], base_seed=5)
    forward = [execute_task(t).evidence for t in tasks]
    backward = [execute_task(t).evidence for t in reversed(tasks)][::-1]
    for f, b in zip(forward, backward, strict=True):
        assert np.array_equal(f["sum"], b["sum"])
    # the same check alone or among others gives the same outcome
    alone = run_check(toys["toy.mc_true"], base_seed=5, progress=False)
    among = run_checks([toys["toy.mc_rate"], toys["toy.mc_true"]], base_seed=5,
                       progress=False)[1]
    assert same_outcome(alone, among)


def test_seed_depends_on_params_not_on_grid_position():
    s1 = task_seed(1, "a.b", {"x": 1, "y": 2}, 0)
    s2 = task_seed(1, "a.b", {"y": 2, "x": 1}, 0)
    assert s1.generate_state(4).tolist() == s2.generate_state(4).tolist()
    for other in (task_seed(1, "a.b", {"x": 1, "y": 3}, 0), task_seed(1, "a.c", {"x": 1,
                  "y": 2}, 0), task_seed(1, "a.b", {"x": 1, "y": 2}, 1),
                  task_seed(2, "a.b", {"x": 1, "y": 2}, 0)):
        assert other.generate_state(4).tolist() != s1.generate_state(4).tolist()
    with pytest.raises(ValueError):
        task_seed(-1, "a.b", {}, 0)


def test_plan_splits_replicas_into_blocks(toys):
    c = dataclasses.replace(toys["toy.mc_true"], block_size=300)
    tasks = plan(c, replicas=2000, base_seed=1)
    per_point = [t for t in tasks if t.point_index == 0]
    assert [t.n_replicas for t in per_point] == [300] * 6 + [200]
    assert [t.block_index for t in per_point] == list(range(7))
    assert len(tasks) == 14
    assert all(t.module is None for t in tasks)  # a variant is not the registered check
    assert all(t.module == "toy_checks" for t in plan(toys["toy.mc_true"]))
    # deterministic engines run once per point whatever the override
    assert [t.n_replicas for t in plan(toys["toy.exact_true"], replicas=5000)] == [1, 1]


def test_quick_grid_and_config_hash(toys):
    c = dataclasses.replace(toys["toy.exact_true"], quick_grid=({"c": 5.0},))
    assert len(plan(c, quick=True)) == 1
    o = run_check(c, quick=True, progress=False)
    assert [p["params"] for p in o.evidence] == [{"c": 5.0}]
    assert o.config["quick"] is True
    h = config_hash(point_config(c, {"c": 5.0}, replicas=1, base_seed=0))
    assert h == config_hash(point_config(c, {"c": 5.0}, replicas=1, base_seed=0))
    assert h != config_hash(point_config(c, {"c": 5.0}, replicas=1, base_seed=1))
    assert h != config_hash(point_config(c, {"c": 5.0}, replicas=2, base_seed=0))
    assert len(h) == 64


@pytest.mark.parametrize("check_id", ["toy.mc_true", "toy.mc_div10", "toy.mc_equal",
                                      "toy.mc_rate_wrong", "toy.mc_scaling"])
def test_block_size_does_not_change_validity(toys, check_id):
    base = toys[check_id]
    for block_size in (100, 700, 2000):
        c = dataclasses.replace(base, block_size=block_size)
        o = run_check(c, base_seed=11, progress=False)
        assert o.verdict is base.expected, (block_size, o.detail)
        counts = [float(p["count"]) for p in o.evidence]
        assert counts == [2000.0] * len(counts)


def test_joblib_matches_serial(toys):
    """jobs=2 with check objects sent to loky workers, and with workers that find checks by
    id through the registering module: both bitwise equal to the serial run."""
    checks = [toys["toy.mc_true"], toys["toy.mc_rate"], toys["toy.exact_scaling"],
              toys["toy.boom"]]
    t0 = time.perf_counter()
    serial = run_checks(checks, base_seed=3, jobs=1, progress=False)
    parallel = run_checks(checks, base_seed=3, jobs=2, progress=False)
    assert all(same_outcome(a, b) for a, b in zip(serial, parallel, strict=True))
    assert parallel[-1].verdict is Verdict.ERROR

    tasks = [t for c in checks[:3] for t in plan(c, base_seed=3)]
    by_id = run_tasks(tasks, jobs=2, progress=False)  # workers look checks up by id
    direct = run_tasks(tasks, jobs=1, progress=False)
    assert all(r.ok for r in by_id), [r.error for r in by_id if not r.ok]
    for a, b in zip(by_id, direct, strict=True):
        assert a.task == b.task
        assert all(np.array_equal(a.evidence[k], b.evidence[k]) for k in a.evidence)
    assert time.perf_counter() - t0 < 60


def test_worker_reports_an_unknown_check():
    t = plan(toy_checks.CHECKS[0])[0]
    bad = dataclasses.replace(t, check_id="toy.no_such_check", module=None)
    r = run_tasks([bad, bad], jobs=2, progress=False)[0]
    assert not r.ok and "unknown check id 'toy.no_such_check'" in r.error


def test_progress_bar_goes_to_a_terminal_stderr_only(toys, capsys, monkeypatch):
    import io

    from pflbounds.running import progress

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    monkeypatch.setattr(progress, "DELAY", 0.0)
    run_check(toys["toy.mc_true"], progress=True)  # captured stderr is not a terminal
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err == ""
    term = Terminal()
    monkeypatch.setattr(progress.sys, "stderr", term)
    run_check(toys["toy.mc_true"], progress=True)
    assert "pflbounds" in term.getvalue() and "/8 " in term.getvalue()  # 2 points x 4 blocks
    assert capsys.readouterr().out == ""


def test_per_agent_evidence_names_the_violating_entry(toys):
    o = run_check(toys["toy.agents_bad"], progress=False)
    assert o.verdict is Verdict.VIOLATED
    assert "point 1, entry 2" in o.detail and "= 5 at K=1" in o.detail
    assert o.evidence[1]["mean"].shape == (4, 7) and o.evidence[1]["bound"].shape == (4, 7)
    o = run_check(toys["toy.mc_agents_bad"], base_seed=1, progress=False)
    assert o.verdict is Verdict.VIOLATED and "entry 2" in o.detail
    assert "Bonferroni over 28" in o.detail
    assert o.evidence[0]["lo"].shape == (4, 7)


def _blas_threads(params, n, ss):
    """Exact toy evidence, with the BLAS pool size seen by the task as extra evidence."""
    from threadpoolctl import threadpool_info

    pools = [p["num_threads"] for p in threadpool_info() if p["user_api"] == "blas"]
    return {**toy_checks.exact_curve(params, n, ss), "blas_threads": np.array(max(pools))}


@pytest.mark.parametrize("jobs", [1, 2])
def test_tasks_run_with_one_blas_thread(toys, jobs):
    """Serial runs and local workers alike: one BLAS thread, whatever the machine's default,
    so that evidence does not depend on --jobs; the parent gets its pool back afterwards."""
    from threadpoolctl import threadpool_info

    before = [p["num_threads"] for p in threadpool_info() if p["user_api"] == "blas"]
    c = dataclasses.replace(toys["toy.exact_true"], id="unit.blas", simulate=_blas_threads)
    o = run_check(c, jobs=jobs, progress=False)
    assert [int(p["blas_threads"]) for p in o.evidence] == [1, 1]
    assert [p["num_threads"] for p in threadpool_info() if p["user_api"] == "blas"] == before
