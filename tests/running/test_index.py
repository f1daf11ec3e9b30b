"""The papers' indexes (pflbounds.running.index): exact records of every check, a part
rebuilt when a source file of its paper changes, a damaged file ignored and written again,
files written atomically by concurrent writers, the cache's ownership of them, and no folder
created that the user did not ask for.

The paper edited is a copy of the fixture paper ``toypaper``; each step runs in a fresh
process, as a command would.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from pflbounds.checking.check import Check
from pflbounds.checking.indexed import FIELDS, IndexedSimulate, check_of, record_of
from pflbounds.running.cache import TaskCache
from pflbounds.running.index import keys, names, store

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "papers"

READ = """
import json, sys
from pathlib import Path
from pflbounds.running.index.view import PaperIndex
idx = PaperIndex(Path(sys.argv[1]))
checks = idx.checks("toypaper")
rows = idx.part("toypaper", "results")["results"]
print(json.dumps({"checks": [[c.id, c.title, c.replicas] for c in checks],
                  "results": [[r["id"], r["label"]] for r in rows],
                  "imported": sorted(m for m in sys.modules if m.startswith("toypaper"))}))
"""


@pytest.fixture
def toy(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    """A copy of the fixture paper toypaper, named by PFLBOUNDS_PAPERS, and a task cache."""
    paper = tmp_path / "papers" / "toypaper"
    shutil.copytree(FIXTURES / "toypaper", paper,
                    ignore=shutil.ignore_patterns("__pycache__"))
    env = {**os.environ, "PFLBOUNDS_PAPERS": str(paper), "PYTHONDONTWRITEBYTECODE": "1"}
    env.pop("PFLBOUNDS_NO_INDEX", None)
    TaskCache(tmp_path / "cache")
    return paper, env


def _read(tmp_path: Path, env: dict[str, str]) -> dict:
    r = subprocess.run([sys.executable, "-c", READ, str(tmp_path / "cache")],
                       capture_output=True, text=True, env=env, cwd=tmp_path, timeout=600)
    assert r.returncode == 0, r.stderr[-2000:]
    return json.loads(r.stdout)


def _files(tmp_path: Path, part: str) -> list[Path]:
    folder = tmp_path / "cache" / names.FOLDER
    return sorted(p for p in folder.iterdir() if p.name.startswith(f"toypaper.{part}."))


def test_every_check_has_an_exact_record_with_the_same_fingerprint():
    """Every registered check comes back from its JSON record with every field equal (same
    types) and the fingerprint of the registered check: a run keys its cached tasks alike."""
    from pflbounds.checking import registry
    from pflbounds.running.fingerprint import check_fingerprint, code_record
    from pflbounds.symbolic.location import object_location, object_source

    checks = registry.all_checks()
    assert len(checks) > 150
    for c in checks:
        rec = record_of(c, module=registry.module_of(c.id), source=object_source(c.simulate),
                        **code_record(c))
        assert rec is not None, c.id
        back = check_of(json.loads(json.dumps(rec)))
        assert [f for f in FIELDS if getattr(back, f) != getattr(c, f)
                or type(getattr(back, f)) is not type(getattr(c, f))] == [], c.id
        assert isinstance(back.simulate, IndexedSimulate)
        assert check_fingerprint(back) == check_fingerprint(c), c.id
        from pflbounds.locate import simulate_location

        assert simulate_location(back) == object_location(c.simulate)


def test_a_check_without_an_exact_record_is_not_indexed():
    """A grid holding a tuple would come back as a list: no record, so its paper is read
    from its modules."""
    def sim(p, n, seed):
        return {}

    c = Check("toy.tuple", "a grid with a tuple", "identity", "HOLDS", sim,
              grid=({"shape": (2, 3)},), tolerance=0.0)
    assert record_of(c, module=None, sim_module=__name__, origin=None, origin_file=None,
                     source=None) is None
    plain = Check("toy.plain", "a plain grid", "identity", "HOLDS", sim,
                  grid=({"shape": [2, 3]},), tolerance=0.0)
    rec = record_of(plain, module=None, sim_module=__name__, origin=None, origin_file=None,
                    source=None)
    assert rec is not None and check_of(rec).grid == plain.grid


def test_a_stale_index_is_rebuilt_when_a_source_file_changes(tmp_path, toy):
    paper, env = toy
    first = _read(tmp_path, env)
    assert "toypaper.checks.sgd" in first["imported"]  # built from the modules
    assert len(_files(tmp_path, "checks")) == 1 == len(_files(tmp_path, "results"))
    again = _read(tmp_path, env)
    assert again["checks"] == first["checks"] and again["results"] == first["results"]
    assert [m for m in again["imported"] if ".checks" in m or ".theory" in m] == []

    # a check's title and replicas, and a result's label, edited
    f = paper / "checks" / "sgd.py"
    f.write_text(f.read_text().replace('"Theorem 1 (printed) on minibatch SGD"',
                                       '"Theorem 1 as printed, minibatch SGD"')
                 .replace("replicas=400,", "replicas=401,"))
    t = paper / "theory" / "sgd.py"
    t.write_text(t.read_text().replace('"Remark 1 (communication rounds)"', '"Remark 1"'))
    edited = _read(tmp_path, env)
    assert "toypaper.checks.sgd" in edited["imported"]
    p1 = next(c for c in edited["checks"] if c[0] == "toypaper.P1")
    assert p1[1:] == ["Theorem 1 as printed, minibatch SGD", 401]
    assert ["toypaper.remark1", "Remark 1"] in edited["results"]
    assert len(_files(tmp_path, "checks")) == 2  # the new key beside the old one
    assert _read(tmp_path, env)["checks"] == edited["checks"]

    # a file added to the paper (data, not code) changes the key too
    (paper / "notes.txt").write_text("a note\n")
    assert "toypaper.checks.sgd" in _read(tmp_path, env)["imported"]
    assert len(_files(tmp_path, "checks")) == 3


def test_a_damaged_index_file_is_ignored_and_written_again(tmp_path, toy):
    _, env = toy
    first = _read(tmp_path, env)
    [f] = _files(tmp_path, "checks")
    for damage in (b"", b"\x00\xff not json", b'{"format": "pflbounds.index/1"',
                   json.dumps({"format": "pflbounds.index/1", "package": "other",
                               "part": "checks", "key": f.name.split(".")[2],
                               "data": {}}).encode()):
        f.write_bytes(damage)
        got = _read(tmp_path, env)
        assert "toypaper.checks.sgd" in got["imported"]  # rebuilt, not read
        assert got["checks"] == first["checks"] and got["results"] == first["results"]
        assert _files(tmp_path, "checks") == [f]
        doc = json.loads(f.read_bytes())
        assert doc["package"] == "toypaper" and doc["key"] == f.name.split(".")[2]
        assert {r["id"] for r in doc["data"]["checks"]} == {c[0] for c in first["checks"]}


def test_concurrent_writers_leave_one_whole_file(tmp_path):
    root = tmp_path / "cache"
    key = "0" * 64
    docs = [{"checks": [{"id": f"w{i}", "pad": "x" * 200_000}]} for i in range(8)]
    threads = [threading.Thread(target=lambda d=d: [store.write(root, "toy", "checks", key, d)
                                                    for _ in range(5)]) for d in docs]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert store.read(root, "toy", "checks", key) in docs
    assert [p.name for p in (root / names.FOLDER).iterdir()] == [f"toy.checks.{key}.json"]


def test_older_keys_beyond_the_last_four_are_removed(tmp_path):
    root = tmp_path / "cache"
    for i in range(6):
        store.write(root, "toy", "checks", f"{i:064x}", {"checks": []})
        store.write(root, "toy", "results", f"{i:064x}", {"results": []})
    left = sorted(p.name.split(".")[1:3] for p in (root / names.FOLDER).iterdir())
    assert len(left) == 8
    assert {k[-1] for part, k in left} == {"2", "3", "4", "5"}


def test_the_cache_owns_its_indexes_and_clear_removes_them(tmp_path):
    from pflbounds.cli import main

    root = tmp_path / "cache"
    TaskCache(root)
    store.write(root, "toy", "checks", "a" * 64, {"checks": []})
    (root / names.FOLDER / "mine.txt").write_text("a file of the user's\n")
    assert TaskCache(root).foreign() == ["index/mine.txt"]
    (root / names.FOLDER / "mine.txt").unlink()
    assert TaskCache(root).foreign() == []
    shutil.rmtree(root / "tasks")
    (root / "CACHEDIR.TAG").unlink()  # a cache whose tag was lost, holding only indexes
    TaskCache(root)  # claimed, not refused
    (root / names.FOLDER / "mine.txt").write_text("a file of the user's\n")
    assert main(["cache", "clear", "--cache-dir", str(root)]) == 0
    assert sorted(p.name for p in (root / names.FOLDER).iterdir()) == ["mine.txt"]


def test_reading_commands_create_no_cache_folder(tmp_path, toy, monkeypatch):
    """Without PFLBOUNDS_CACHE_DIR and without a cache made by a run in the current folder,
    show and list write nothing (they build what they need in memory)."""
    _, env = toy
    env = {k: v for k, v in env.items() if k != "PFLBOUNDS_CACHE_DIR"}
    work = tmp_path / "work"
    work.mkdir()
    r = subprocess.run([sys.executable, "-m", "pflbounds.cli", "show", "toypaper.theorem1"],
                       capture_output=True, text=True, env=env, cwd=work, timeout=600)
    assert r.returncode == 0, r.stderr
    assert "toypaper.P1" in r.stdout
    assert list(work.iterdir()) == []
    monkeypatch.chdir(work)
    monkeypatch.delenv("PFLBOUNDS_CACHE_DIR", raising=False)
    assert store.index_root() is None and store.existing_root() is None
    assert list(work.iterdir()) == []


def test_the_key_follows_the_paper_files_and_the_environment(tmp_path):
    paper = tmp_path / "p"
    shutil.copytree(FIXTURES / "toypaper", paper, ignore=shutil.ignore_patterns("__pycache__"))
    env, core = keys.environment(), "c" * 64
    k0 = keys.index_key("toypaper", paper, env, core)
    assert keys.index_key("toypaper", paper, env, core) == k0
    (paper / "__pycache__").mkdir()
    (paper / "__pycache__" / "x.cpython-311.pyc").write_bytes(b"compiled")
    assert keys.index_key("toypaper", paper, env, core) == k0  # compiled files do not count
    assert keys.index_key("toypaper", paper, env, "d" * 64) != k0
    assert keys.index_key("toypaper", paper, {**env, "pflbounds": "9.9"}, core) != k0
    f = paper / "errata.py"
    f.write_text(f.read_text() + "\n")
    assert keys.index_key("toypaper", paper, env, core) != k0


def test_the_core_digest_covers_pflbounds_but_not_its_papers(tmp_path):
    import pflbounds

    assert keys.ROOT == Path(pflbounds.__file__).resolve().parent
    assert keys.PAPERS == keys.ROOT / "papers" and keys.PAPERS.is_dir()
    root = tmp_path / "pkg"
    (root / "papers" / "p").mkdir(parents=True)
    (root / "engine.py").write_text("x = 1\n")
    (root / "papers" / "p" / "theory.py").write_text("y = 1\n")
    d0 = keys.tree_digest(root, skip=root / "papers")
    (root / "papers" / "p" / "theory.py").write_text("y = 2\n")
    assert keys.tree_digest(root, skip=root / "papers") == d0  # a paper has its own digest
    (root / "engine.py").write_text("x = 2\n")
    assert keys.tree_digest(root, skip=root / "papers") != d0
