"""Runs on a real Dask ``LocalCluster`` started by the test: the same bits as a local run."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from sweep_helpers import assert_same_results

from pflbounds.cli import main
from pflbounds.running import TaskCache, plan
from pflbounds.running.executor import _verified
from pflbounds.running.tasks import TaskResult

distributed = pytest.importorskip("distributed")

SUITE = """
name = "toys"
seed = 7
[[checks]]
id = "toy.exact_true"
[[checks]]
id = "toy.mc_true"
[[checks]]
id = "toy.mc_agents_bad"
[[checks]]
id = "toy.boom"
"""
QUICK = Path(__file__).resolve().parents[2] / "validation" / "quick.toml"


def _run(capsys, argv: list[str]) -> dict:
    code = main([*argv, "--json"])
    doc = json.loads(capsys.readouterr().out)
    assert code == 0, doc.get("unexpected")
    return doc


def test_local_cluster_gives_the_local_numbers_and_fills_the_cache(toys, tmp_path, capsys):
    suite = tmp_path / "toys.toml"
    suite.write_text(SUITE)
    cache = tmp_path / "cache"
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False,
                                  dashboard_address=None) as cluster:
        dask = _run(capsys, ["validate", str(suite), "--out", str(tmp_path / "dask"),
                             "--scheduler", cluster.scheduler_address,
                             "--cache-dir", str(cache)])
    local = _run(capsys, ["validate", str(suite), "--out", str(tmp_path / "local"),
                          "--no-cache"])
    assert dask["tasks"]["computed"] == local["tasks"]["computed"] == 2 + 8 + 4 + 1
    assert dask["tasks"]["failed"] == 1  # toy.boom, an ERROR as it expects
    assert_same_results(tmp_path / "dask", tmp_path / "local")
    workers = {e.meta["worker"] for e in TaskCache(cache).entries()}
    assert workers and all(":" in w for w in workers)
    again = _run(capsys, ["validate", str(suite), "--out", str(tmp_path / "again"),
                          "--cache-dir", str(cache)])
    assert (again["tasks"]["cached"], again["tasks"]["computed"]) == (14, 1)


def test_a_result_from_other_code_is_refused(toys):
    task = plan(toys["toy.exact_true"])[0]
    r = TaskResult(task, {"mean": 1.0}, meta={"installation": "a" * 64, "worker": "w:1"})
    r = _verified(r, "b" * 64)
    assert not r.ok and "worker w:1 runs other code" in r.error
    same = TaskResult(task, {"mean": 1.0}, meta={"installation": "b" * 64})
    assert _verified(same, "b" * 64).ok


@pytest.mark.slow
def test_quick_suite_on_a_two_worker_cluster_matches_a_local_run(tmp_path, capsys):
    """The quick suite on a LocalCluster of two worker processes (BLAS pinned to one thread
    in each) against a local serial run: every result file equal, timestamps aside."""
    from pflbounds.running.backends import local_cluster

    with local_cluster(2) as cluster:
        dask = _run(capsys, ["validate", str(QUICK), "--out", str(tmp_path / "dask"),
                             "--scheduler", cluster.scheduler_address, "--no-cache"])
    local = _run(capsys, ["validate", str(QUICK), "--out", str(tmp_path / "local"),
                          "--no-cache"])
    assert dask["unexpected"] == local["unexpected"] == []
    assert dask["tasks"]["computed"] == local["tasks"]["computed"] > 0
    assert_same_results(tmp_path / "dask", tmp_path / "local")


def test_local_cluster_workers_run_with_the_worker_config():
    """The settings reach the worker processes, and the shipped YAML says the same."""
    import dask
    import yaml

    from pflbounds.running.backends import DASK_WORKER_CONFIG, local_cluster

    with local_cluster(1) as cluster, distributed.Client(cluster) as client:
        got = client.run(lambda: {k: dask.config.get(k) for k in DASK_WORKER_CONFIG})
        env = client.run(lambda: {k: os.environ.get(k) for k in
                                  ("MALLOC_TRIM_THRESHOLD_", "OPENBLAS_NUM_THREADS")})
    assert list(got.values()) == [DASK_WORKER_CONFIG]
    if "MALLOC_TRIM_THRESHOLD_" not in os.environ:  # glibc's own malloc tuning in workers
        assert list(env.values()) == [{"MALLOC_TRIM_THRESHOLD_": None,
                                       "OPENBLAS_NUM_THREADS": "1"}]
    shipped = yaml.safe_load((Path(__file__).resolve().parents[2] / "examples" / "dask"
                              / "pflbounds.yaml").read_text())
    flat = {k: dask.config.get(k, config=shipped) for k in DASK_WORKER_CONFIG}
    assert flat == DASK_WORKER_CONFIG


def test_a_registered_check_is_not_pickled_per_task(toys):
    """Workers find a registered check by id; an unregistered one travels with its task."""
    import dataclasses

    from pflbounds.running.backends import _shipped

    check = toys["toy.exact_true"]
    task = plan(check)[0]
    assert task.module and _shipped(task, check) is None
    other = dataclasses.replace(check)  # same id, not the registered object
    assert _shipped(task, other) is other
    assert _shipped(dataclasses.replace(task, module=None), check) is check


def test_the_shipped_yaml_unsets_the_malloc_variable_over_dask_defaults():
    """With DASK_CONFIG pointing at examples/dask, Dask's defaults are merged with the file:
    the nannies' malloc variable is unset, their thread variables stay."""
    import subprocess
    import sys

    folder = Path(__file__).resolve().parents[2] / "examples" / "dask"
    code = ("import dask, distributed, json; "
            "print(json.dumps(dask.config.get('distributed.nanny.pre-spawn-environ')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, env={**os.environ, "DASK_CONFIG": str(folder)}).stdout
    env = json.loads(out)
    assert env["MALLOC_TRIM_THRESHOLD_"] is None
    assert env["OPENBLAS_NUM_THREADS"] == 1
