"""Shared computations (pflbounds.running.shared): computed once by whichever process asks
first, the others wait and read; keys follow the arguments and the source; damaged entries
and killed holders are recovered; without a sweep folder, an in-process memo. Real processes
(fork), real files and locks; one sweep through the executor with two local workers, and one
``pflbounds validate --jobs 2`` of a test paper (slow)."""

from __future__ import annotations

import fcntl
import importlib
import json
import multiprocessing as mp
import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import numpy as np
import pytest
from sweep_helpers import PAPER_DIR, assert_same_results, same_outcome, wait_for

from pflbounds.checking import registry
from pflbounds.running.cache import TaskCache
from pflbounds.running.executor import RunSpec, sweep
from pflbounds.running.shared import (
    FOLDER,
    SharedValueError,
    clear,
    decode,
    info,
    shared_computation,
    source_fingerprint,
    sweep_dir,
    sweep_scope,
)

pytestmark = [
    pytest.mark.skipif(not sys.platform.startswith("linux"), reason="fork, flock and SIGKILL"),
    # another test of the session may have imported JAX (multithreaded); these children only
    # run numpy and file locks, never JAX, so the fork cannot deadlock on its threads
    pytest.mark.filterwarnings("ignore:os.fork\\(\\) was called:RuntimeWarning"),
]

MODULE = '''
import os
import time

import numpy as np

from pflbounds.running.shared import shared_computation


@shared_computation("test.table", maxsize=4)
def table(n: int, scale: float = 1.0) -> dict:
    fd = os.open(os.environ["SHARED_TEST_LOG"], os.O_WRONLY | os.O_APPEND | os.O_CREAT)
    os.write(fd, f"{os.getpid()}\\n".encode())
    os.close(fd)
    time.sleep(float(os.environ.get("SHARED_TEST_SLEEP", "0")))
    rng = np.random.default_rng(n)
    return {"x": scale * rng.standard_normal((n, 3)), "k": np.arange(n), "s": 1.5}
'''


@pytest.fixture
def mod(tmp_path, monkeypatch):
    """A fresh module with one shared computation (its own file, so that its source can be
    edited); the log of its computations is ``mod.LOG``."""
    name = f"sharedmod_{os.getpid()}_{abs(hash(str(tmp_path))) % 10**8}"
    (tmp_path / f"{name}.py").write_text(MODULE)
    monkeypatch.syspath_prepend(str(tmp_path))
    log = tmp_path / "computed.log"
    monkeypatch.setenv("SHARED_TEST_LOG", str(log))
    m = importlib.import_module(name)
    m.LOG = log
    m.FILE = tmp_path / f"{name}.py"
    yield m
    sys.modules.pop(name, None)


@pytest.fixture
def root(tmp_path) -> Path:
    """A cache folder with its folder of shared computations."""
    (tmp_path / "cache" / FOLDER).mkdir(parents=True)
    return tmp_path / "cache"


def computed(m) -> list[int]:
    """The pids that computed the table, in order."""
    return [int(x) for x in m.LOG.read_text().split()] if m.LOG.exists() else []


def entries(root: Path) -> list[Path]:
    return sorted((root / FOLDER).glob("*/*.npz"))


def _ask(m, root: str, n: int, out: str, go=None, sleep: str = "0") -> None:
    """Child process: ask for table(n) within the sweep folder ``root``; save it to ``out``."""
    os.environ["SHARED_TEST_SLEEP"] = sleep
    if go is not None:
        go.wait(10)
    with sweep_dir(root):
        v = m.table(n)
    np.savez(out, **v)


def _fork(target, *args) -> mp.Process:
    p = mp.get_context("fork").Process(target=target, args=args)
    p.start()
    return p


def _same(a: dict, b) -> bool:
    return set(a) == set(b.files if hasattr(b, "files") else b) and all(
        np.array_equal(a[k], b[k]) and np.asarray(a[k]).dtype == b[k].dtype for k in a)


def _direct(m, n: int, scale: float = 1.0) -> dict:
    """The table computed by the plain function, as stored (scalars as 0-d arrays)."""
    return {k: np.asarray(v) for k, v in m.table.fn(n, scale).items()}


def test_two_processes_asking_at_once_compute_once(mod, root, tmp_path):
    go = mp.get_context("fork").Event()
    outs = [str(tmp_path / f"out{i}.npz") for i in range(2)]
    procs = [_fork(_ask, mod, str(root), 7, out, go, "1.0") for out in outs]
    time.sleep(0.2)
    go.set()
    for p in procs:
        p.join(30)
        assert p.exitcode == 0
    assert len(computed(mod)) == 1
    assert computed(mod)[0] in {p.pid for p in procs}
    ref = _direct(mod, 7)
    for out in outs:
        with np.load(out) as z:
            assert _same(ref, z)
    assert len(entries(root)) == 1


def _ask_each(m, root: str, ns: list[int], out: str, go, sleep: str) -> None:
    """Child process: ask for table(n) of every n in ``ns`` at once (``each``); save them in
    order to ``out``."""
    os.environ["SHARED_TEST_SLEEP"] = sleep
    go.wait(10)
    with sweep_dir(root):
        vs = m.table.each([((n,), {}) for n in ns])
    np.savez(out, **{f"{i}_{k}": v for i, d in enumerate(vs) for k, v in d.items()})


def test_workers_asking_for_the_same_calls_compute_them_side_by_side(mod, root, tmp_path):
    """Two processes ask for the same six tables in the same order: each table is computed
    once, both processes compute some (neither waits for the other's whole list), and each
    gets every table, in order, as the plain function gives it."""
    ns = [3, 4, 5, 6, 7, 8]
    go = mp.get_context("fork").Event()
    outs = [str(tmp_path / f"each{i}.npz") for i in range(2)]
    procs = [_fork(_ask_each, mod, str(root), ns, out, go, "0.4") for out in outs]
    time.sleep(0.2)
    go.set()
    for p in procs:
        p.join(60)
        assert p.exitcode == 0
    who = computed(mod)
    assert len(who) == len(ns) and len(entries(root)) == len(ns)
    assert set(who) == {p.pid for p in procs}, f"one process computed all: {who}"
    for out in outs:
        with np.load(out) as z:
            for i, n in enumerate(ns):
                assert _same(_direct(mod, n), {k.split("_", 1)[1]: z[k] for k in z.files
                                               if k.startswith(f"{i}_")})
    # without a sweep folder: the memo, each call computed in this process, in order
    again = mod.table.each([((n,), {}) for n in ns[:2]])
    assert all(_same(_direct(mod, n), v) for n, v in zip(ns[:2], again, strict=True))


def test_a_call_another_worker_computes_is_passed_over_and_read_last(mod, root, tmp_path,
                                                                    monkeypatch):
    """While another process computes table(3), ``each([3, 4, 5])`` computes 4 and 5 first
    (their entries are written before 3's) and then reads 3: it computes nothing twice."""
    holder = _fork(_ask, mod, str(root), 3, str(tmp_path / "held.npz"), None, "2.0")
    wait_for(lambda: len(computed(mod)) == 1, 20, "the holder to start computing")
    monkeypatch.setenv("SHARED_TEST_SLEEP", "0")
    with sweep_dir(root):
        vs = mod.table.each([((n,), {}) for n in (3, 4, 5)])
    holder.join(30)
    assert holder.exitcode == 0
    assert computed(mod) == [holder.pid, os.getpid(), os.getpid()]
    assert all(_same(_direct(mod, n), v) for n, v in zip((3, 4, 5), vs, strict=True))
    mtime = {n: _entry_of(mod, root, n).stat().st_mtime_ns for n in (3, 4, 5)}
    assert mtime[4] < mtime[3] and mtime[5] < mtime[3], mtime


def _entry_of(m, root: Path, n: int) -> Path:
    """The entry file of table(n) under ``root``."""
    from pflbounds.running.shared import entry_key

    key = entry_key("test.table", m.table.function, m.table.arguments_json(n),
                    source_fingerprint(m.__name__))
    return root / FOLDER / key[:2] / f"{key}.npz"


def test_a_rerun_reads_the_entry_and_a_changed_argument_or_source_recomputes(mod, root):
    with sweep_dir(root):
        a = mod.table(5)
        assert mod.table(5) is a  # the memo: no second read
        assert len(computed(mod)) == 1 and mod.table.stats["memo"] == 1
        mod.table.cache_clear()
        b = mod.table(5)  # another process would see the same: read from disk
        assert len(computed(mod)) == 1 and mod.table.stats["read"] == 1
        assert _same(a, b) and b is not a
        mod.table(5, 2.0)
        mod.table(scale=1.0, n=6)
        assert len(computed(mod)) == 3
        mod.table(6, 1.0)  # the same bound arguments as table(scale=1.0, n=6)
        assert len(computed(mod)) == 3
        before = source_fingerprint(mod.__name__)
        mod.FILE.write_text(mod.FILE.read_text() + "\n# an edit\n")
        assert source_fingerprint(mod.__name__) != before
        c = mod.table(5)
        assert len(computed(mod)) == 4 and _same(a, c)
    assert len(entries(root)) == 4


def test_a_truncated_or_altered_entry_is_recomputed_never_returned(mod, root):
    with sweep_dir(root):
        good = mod.table(4)
        [path] = entries(root)
        whole = path.read_bytes()
        for damaged in (whole[: len(whole) // 2], whole[:-1],
                        whole[:-40] + bytes([whole[-40] ^ 1]) + whole[-39:], b""):
            path.write_bytes(damaged)
            mod.table.cache_clear()
            again = mod.table(4)
            assert _same(good, again)
            assert _same(good, decode(path.read_bytes(), path.stem))  # rewritten whole
        assert len(computed(mod)) == 5


def test_a_killed_holder_leaves_no_stale_lock(mod, root, tmp_path):
    holder = _fork(_ask, mod, str(root), 3, str(tmp_path / "never.npz"), None, "60")
    wait_for(lambda: len(computed(mod)) == 1, 30, "the holder to start computing")
    [lock] = sorted((root / FOLDER).glob("*/*.lock"))
    fd = os.open(lock, os.O_RDWR)
    try:
        with pytest.raises(BlockingIOError):  # the holder has it
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        holder.kill()
        holder.join(10)
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)  # released by the kernel
        fcntl.flock(fd, fcntl.LOCK_UN)
    finally:
        os.close(fd)
    assert entries(root) == []
    nxt = _fork(_ask, mod, str(root), 3, str(tmp_path / "next.npz"))
    nxt.join(30)
    assert nxt.exitcode == 0
    assert computed(mod) == [holder.pid, nxt.pid]
    with np.load(tmp_path / "next.npz") as z:
        assert _same(_direct(mod, 3), z)
    assert len(entries(root)) == 1


def test_without_a_sweep_folder_the_memo_computes_once_per_process(mod, tmp_path):
    a = mod.table(4)
    assert mod.table(4) is a and len(computed(mod)) == 1
    assert _same(_direct(mod, 4), a)  # the plain function (logged too)
    assert a["s"].shape == () and a["s"] == 1.5  # a scalar comes back as a 0-d array
    with pytest.raises(ValueError, match="read-only"):
        a["x"][0, 0] = 1.0
    mod.table(5), mod.table(6), mod.table(7), mod.table(8)  # maxsize 4: table(4) leaves
    mod.table(4)
    assert len(computed(mod)) == 7
    with sweep_dir(tmp_path / "absent"):  # a worker that does not see the folder
        mod.table(9)
    assert not (tmp_path / "absent").exists() and len(computed(mod)) == 8


def test_bad_values_and_arguments_are_refused_with_their_name():
    @shared_computation("test.bad")
    def bad(kind: str) -> object:
        return {"list": [1, 2], "text": "a", "obj": np.array([None])[0:1]}[kind] \
            if kind != "dict" else {"a": np.array(["x"])}

    with pytest.raises(SharedValueError, match=r"'test.bad' returned list; expected a numpy"):
        bad("list")
    with pytest.raises(SharedValueError, match=r"'test.bad' returned 'a' of dtype <U1"):
        bad("dict")
    with pytest.raises(SharedValueError, match=r"'test.bad': the arguments must be JSON-able"):
        bad(object())
    with pytest.raises(TypeError, match="missing a required argument"):
        bad()


def test_sweep_scope_keeps_entries_under_the_cache_and_removes_a_temporary_folder(
        mod, tmp_path):
    cache = tmp_path / "cache"
    with sweep_scope(cache, parallel=True) as folder:
        assert folder == cache.absolute() / FOLDER
        mod.table(3)
    assert len(entries(cache)) == 1
    with sweep_scope(None, parallel=True) as folder:
        tmp = folder
        mod.table(4)
        assert len(list(tmp.glob("*/*.npz"))) == 1
    assert not tmp.parent.exists()
    with sweep_scope(None, parallel=False) as folder:
        assert folder is None
    assert clear(cache)[0] == 1 and entries(cache) == []


def test_info_counts_entries_and_clear_removes_the_stale_ones(mod, root):
    with sweep_dir(root):
        mod.table(3), mod.table(4)
    got = info(root)
    assert (got["entries"], got["stale"]) == (2, 0) and got["bytes"] > 0
    assert clear(root, stale_only=True) == (0, 0)
    mod.FILE.write_text(mod.FILE.read_text() + "\n# an edit\n")
    with sweep_dir(root):
        mod.table(3)  # the new code's entry
    assert (info(root)["entries"], info(root)["stale"]) == (3, 2)
    assert clear(root, stale_only=True)[0] == 2
    assert (info(root)["entries"], info(root)["stale"]) == (1, 0)
    mod.table.cache_clear()
    with sweep_dir(root):
        mod.table(3)
    assert len(computed(mod)) == 3  # read, not computed again


@pytest.fixture
def sharedtoy(monkeypatch, tmp_path):
    """The shared toy paper's checks, registered for the test; its log in ``tmp_path``.
    Local workers left by an earlier test are stopped first: new ones start with the toy
    paper on their path."""
    from joblib.externals.loky import get_reusable_executor

    get_reusable_executor().shutdown(wait=True)
    monkeypatch.syspath_prepend(str(PAPER_DIR))
    log = tmp_path / "toy.log"
    monkeypatch.setenv("SHAREDTOY_LOG", str(log))
    monkeypatch.setenv("SHAREDTOY_SLEEP", "0.5")
    import sharedtoy.checks as toy

    for c in toy.CHECKS:
        registry.register(c, replace=True, module="sharedtoy.checks")
    yield toy, log
    for c in toy.CHECKS:
        registry.unregister(c.id)
    for name in [m for m in sys.modules if m.startswith("sharedtoy")]:
        del sys.modules[name]


def _log(log: Path, what: str) -> list[int]:
    return [int(p) for w, p in (ln.split() for ln in log.read_text().splitlines()) if w == what]


def test_a_sweep_on_two_workers_computes_the_shared_table_once(sharedtoy, tmp_path):
    toy, log = sharedtoy
    specs = [RunSpec(c) for c in toy.CHECKS]
    cache = TaskCache(tmp_path / "cache")
    par = sweep(specs, jobs=2, base_seed=3, progress=False, cache=cache)
    assert [o.verdict.value for o in par.outcomes] == ["HOLDS", "HOLDS"]
    assert par.stats.computed == 7 and par.stats.failed == 0
    assert len(_log(log, "compute")) == 1
    readers = set(_log(log, "read"))
    assert len(_log(log, "read")) == 7 and os.getpid() not in readers
    assert len(entries(tmp_path / "cache")) == 1
    # the same sweep in this process, with no cache and nothing shared: the same bits
    toy.table.cache_clear()
    ser = sweep(specs, jobs=1, base_seed=3, progress=False)
    assert all(same_outcome(a, b) for a, b in zip(par.outcomes, ser.outcomes, strict=True))
    assert len(_log(log, "compute")) == 2


def test_a_sweep_on_dask_computes_the_shared_table_once(sharedtoy, tmp_path):
    distributed = pytest.importorskip("distributed")
    toy, log = sharedtoy
    specs = [RunSpec(c) for c in toy.CHECKS]
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False,
                                  dashboard_address=None) as cluster:
        got = sweep(specs, base_seed=3, progress=False, scheduler=cluster.scheduler_address,
                    cache=TaskCache(tmp_path / "cache"))
    assert got.stats.computed == 7 and got.stats.failed == 0
    assert len(_log(log, "compute")) == 1 and len(_log(log, "read")) == 7
    assert len(entries(tmp_path / "cache")) == 1
    toy.table.cache_clear()
    ser = sweep(specs, jobs=1, base_seed=3, progress=False)
    assert all(same_outcome(a, b) for a, b in zip(got.outcomes, ser.outcomes, strict=True))


@pytest.mark.slow
def test_validate_jobs_2_computes_once_and_a_rerun_reads_the_entry(tmp_path):
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        p for p in (str(PAPER_DIR), os.environ.get("PYTHONPATH")) if p),
        PFLBOUNDS_PAPERS="sharedtoy", SHAREDTOY_LOG=str(tmp_path / "toy.log"),
        SHAREDTOY_SLEEP="1", OPENBLAS_NUM_THREADS="1")
    suite = tmp_path / "s.toml"
    suite.write_text(textwrap.dedent("""\
        name = "shared"
        seed = 5
        [[checks]]
        id = "sharedtoy.*"
        """))

    def validate(out: str, *extra: str) -> None:
        cmd = [sys.executable, "-m", "pflbounds.cli", "validate", str(suite), "--out",
               str(tmp_path / out), "--jobs", "2", *extra]
        done = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, done.stderr

    def cache(*args: str) -> dict:
        cmd = [sys.executable, "-m", "pflbounds.cli", "cache", *args, "--json", "--cache-dir",
               str(tmp_path / "cache")]
        done = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stderr
        return json.loads(done.stdout)

    log = tmp_path / "toy.log"
    validate("a", "--cache-dir", str(tmp_path / "cache"))
    assert len(_log(log, "compute")) == 1 and len(_log(log, "read")) == 7
    assert len(set(_log(log, "read"))) == 2  # both workers read it
    shared_info = cache("info")["shared"]
    assert shared_info["entries"] == 1 and shared_info["stale"] == 0
    assert shared_info["compute_s"] >= 1.0
    assert cache("clear", "--check", "sharedtoy.*")["removed"] == 7
    validate("b", "--cache-dir", str(tmp_path / "cache"))  # the table from the cache folder
    assert len(_log(log, "compute")) == 1 and len(_log(log, "read")) == 14
    validate("c", "--no-cache")  # a temporary folder: once more, once only
    assert len(_log(log, "compute")) == 2 and len(_log(log, "read")) == 21
    assert_same_results(tmp_path / "a", tmp_path / "b")
    assert_same_results(tmp_path / "a", tmp_path / "c")
    cleared = cache("clear")
    assert (cleared["removed"], cleared["shared_removed"]) == (7, 1)
    assert not (tmp_path / "cache" / FOLDER).exists()
