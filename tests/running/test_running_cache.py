"""The task cache: bitwise round trips, keys that follow the code, failures never stored,
damaged files, write failures, permissions."""

from __future__ import annotations

import dataclasses
import importlib
import os
import shutil
import stat
import sys

import numpy as np
import pytest
import toy_checks
from sweep_helpers import same_outcome

from pflbounds.checking import Verdict
from pflbounds.running import TaskCache, cache_key, check_fingerprint, execute, plan, sweep
from pflbounds.running.executor import RunSpec
from pflbounds.running.fingerprint import installation, paper_hash, tree_hash

CHECK_IDS = ["toy.mc_true", "toy.exact_true", "toy.mc_agents_bad", "toy.mc_scaling",
             "toy.boom"]


def test_second_run_comes_from_the_cache_bitwise_and_failures_are_rerun(toys, tmp_path):
    cache = TaskCache(tmp_path / "cache")
    specs = [RunSpec(toys[i]) for i in CHECK_IDS]
    first = sweep(specs, base_seed=3, cache=cache, progress=False)
    n_tasks = sum(len(plan(s.check, base_seed=3)) for s in specs)
    boom_tasks = len(plan(toys["toy.boom"]))
    assert (first.stats.tasks, first.stats.cached, first.stats.computed) == (n_tasks, 0, n_tasks)
    assert first.stats.failed == boom_tasks
    stored = {e.check_id for e in cache.entries()}
    assert "toy.boom" not in stored and stored == set(CHECK_IDS) - {"toy.boom"}
    assert cache.info().entries == n_tasks - boom_tasks

    second = sweep(specs, base_seed=3, cache=cache, progress=False)
    assert second.stats.cached == n_tasks - boom_tasks
    assert second.stats.computed == boom_tasks  # the failed task is run again
    assert all(same_outcome(a, b) for a, b in zip(first.outcomes, second.outcomes, strict=True))
    assert second.outcomes[-1].verdict is Verdict.ERROR
    hits = {k: v["cache_hit"] for k, v in second.provenance.items()}
    assert hits[("toy.mc_true", 0)] and not hits[("toy.boom", 0)]
    assert not any(v["cache_hit"] for v in first.provenance.values())
    assert second.provenance[("toy.mc_true", 0)]["compute_s"] == \
        pytest.approx(first.provenance[("toy.mc_true", 0)]["compute_s"])

    other_seed = sweep(specs[:1], base_seed=4, cache=cache, progress=False)
    assert other_seed.stats.cached == 0


def test_key_follows_config_seed_and_the_check_version(toys):
    c = toys["toy.mc_true"]
    fp = check_fingerprint(c)
    assert fp is not None and len(fp) == 64
    t0, t1 = plan(c, base_seed=1)[:2]
    assert cache_key(t0.key, fp) != cache_key(t1.key, fp)  # another block
    assert cache_key(t0.key, fp) != cache_key(plan(c, base_seed=2)[0].key, fp)
    assert plan(dataclasses.replace(c, block_size=250), base_seed=1)[0].key != t0.key
    bumped = dataclasses.replace(c)
    object.__setattr__(bumped, "version", "2")  # the hook a check may set
    assert check_fingerprint(bumped) not in (None, fp)
    other_sim = dataclasses.replace(c, simulate=toy_checks.mc_erratum)
    assert check_fingerprint(other_sim) != fp


def _write_module(folder, name: str, factor: float) -> None:
    (folder / f"{name}.py").write_text(
        "import numpy as np\n"
        "def simulate(params, n, ss):\n"
        "    ks = np.array([1.0, 2.0, 4.0])\n"
        f"    return {{'ks': ks, 'mean': {factor} / ks, 'bound': 2.0 / ks}}\n")


def test_editing_the_simulate_module_invalidates_its_tasks(tmp_path, monkeypatch):
    monkeypatch.syspath_prepend(str(tmp_path))
    _write_module(tmp_path, "edited_check", 1.0)
    mod = importlib.import_module("edited_check")
    check = dataclasses.replace(toy_checks.CHECKS[0], id="unit.edited", simulate=mod.simulate)
    cache = TaskCache(tmp_path / "cache")
    a = sweep([RunSpec(check)], cache=cache, progress=False)
    b = sweep([RunSpec(check)], cache=cache, progress=False)
    assert (a.stats.computed, b.stats.cached) == (2, 2)
    before = check_fingerprint(check)
    _write_module(tmp_path, "edited_check", 1.5)  # the numbers change
    os.utime(tmp_path / "edited_check.py", ns=(1, 1))
    importlib.reload(mod)
    check = dataclasses.replace(check, simulate=mod.simulate)
    assert check_fingerprint(check) != before
    c = sweep([RunSpec(check)], cache=cache, progress=False)
    assert c.stats.cached == 0 and c.stats.computed == 2
    assert c.outcomes[0].evidence[0]["mean"][0] == 1.5
    sys.modules.pop("edited_check", None)


def test_paper_and_engine_parts_of_the_fingerprint(tmp_path):
    from pflbounds.checking import registry

    check = registry.get("even2022.P1")
    inst = installation(check)
    assert inst["paper"]["package"] == "pflbounds.papers.even2022"
    assert len(inst["engines"]) == 64 and inst["dependencies"]["numpy"] == np.__version__
    pkg = tmp_path / "somepaper"
    pkg.mkdir()
    (pkg / "theory.py").write_text("A = 1\n")
    h1 = tree_hash(pkg)
    (pkg / "theory.py").write_text("A = 2\n")
    assert tree_hash(pkg) != h1
    assert paper_hash("pflbounds.papers.even2022") == inst["paper"]["hash"]


def test_a_simulate_that_cannot_be_pinned_is_never_cached(toys, tmp_path):
    state = object()

    def sim(params, n, ss):  # closes over an object with no canonical form
        assert state is not None
        return toy_checks.exact_curve(params, n, ss)

    check = dataclasses.replace(toys["toy.exact_true"], id="unit.closure", simulate=sim)
    assert check_fingerprint(check) is None
    cache = TaskCache(tmp_path / "cache")
    run = sweep([RunSpec(check)], cache=cache, progress=False)
    assert run.stats.uncacheable == ["unit.closure"] and run.stats.computed == 2
    assert cache.info().entries == 0


def test_damaged_or_foreign_files_are_misses(toys, tmp_path):
    cache = TaskCache(tmp_path / "cache")
    tasks = plan(toys["toy.exact_true"])
    fp = check_fingerprint(toys["toy.exact_true"])
    results, _ = execute(tasks, cache=cache, progress=False)
    k0, k1 = (cache_key(t.key, fp) for t in tasks)
    assert cache.get(k0, tasks[0]) is not None
    cache.path_of(k0).write_bytes(b"not a zip file")
    assert cache.get(k0, tasks[0]) is None and not cache.path_of(k0).exists()
    shutil.copy(cache.path_of(k1), cache.path_of(k0))  # another task's record under k0
    assert cache.get(k0, tasks[0]) is None
    assert cache.get(k1, tasks[1]).evidence.keys() == results[1].evidence.keys()


def test_a_cache_that_cannot_be_written_warns_once_and_the_run_goes_on(toys, tmp_path, capfd):
    cache = TaskCache(tmp_path / "cache")
    shutil.rmtree(tmp_path / "cache" / "tasks")
    (tmp_path / "cache" / "tasks").write_text("in the way")  # a real OS error on mkdir
    run = sweep([RunSpec(toys["toy.mc_true"])], cache=cache, progress=False)
    assert run.outcomes[0].verdict is Verdict.HOLDS
    assert len(run.stats.cache_errors) == 1
    err = capfd.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "cannot write to the task cache" in err[0]


def test_cache_files_follow_the_umask(toys, tmp_path):
    old = os.umask(0o027)
    try:
        cache = TaskCache(tmp_path / "cache")
        execute(plan(toys["toy.exact_true"]), cache=cache, progress=False)
    finally:
        os.umask(old)
    files = list(cache.files())
    assert files
    for f in files:
        assert stat.S_IMODE(f.stat().st_mode) == 0o640
        assert stat.S_IMODE(f.parent.stat().st_mode) == 0o750
    assert stat.S_IMODE((tmp_path / "cache" / "CACHEDIR.TAG").stat().st_mode) == 0o640
