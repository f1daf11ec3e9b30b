"""The task cache deletes only what it wrote: a folder that is not a pflbounds cache is refused
by ``cache info|clear`` and by the runs, and within a cache a file dropped there by hand
survives ``cache clear``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pflbounds.cli import main
from pflbounds.running import TaskCache, execute, plan
from pflbounds.running.cache import TAG, CacheError, owned_layout
from pflbounds.running.shared import FOLDER

USER_FILES = {"notes.txt": b"my notes", "tasks/data.csv": b"1,2\n", "shared/plot.png": b"\x89PNG",
              "tasks/ab/results.npz": b"PK\x03\x04 not ours",
              "shared/cd/" + "c" * 64 + ".npz": b"{}\nnot ours either"}


def _snapshot(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*"))
            if p.is_file()}


def _user_folder(root: Path, names: dict[str, bytes] = USER_FILES) -> dict[str, bytes]:
    for name, data in names.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_bytes(data)
    return _snapshot(root)


def _one_line(capsys, argv: list[str]) -> str:
    code = main(argv)
    cap = capsys.readouterr()
    lines = cap.err.splitlines()
    assert code == 2 and cap.out == "" and len(lines) == 1, (code, cap)
    return lines[0]


@pytest.mark.parametrize("action", ["clear", "info"])
def test_a_folder_that_is_not_a_cache_is_refused_and_keeps_every_file(tmp_path, capsys, action):
    before = _user_folder(tmp_path / "mine")
    for extra in ([], ["--stale"], ["--check", "*"]) if action == "clear" else ([],):
        line = _one_line(capsys, ["cache", action, "--cache-dir", str(tmp_path / "mine"),
                                  *extra])
        assert f"cache folder {tmp_path / 'mine'} is not a pflbounds task cache" in line
        assert "notes.txt" in line
    assert _snapshot(tmp_path / "mine") == before


def test_runs_refuse_a_foreign_folder_before_any_work(toys, tmp_path, capsys):
    before = _user_folder(tmp_path / "mine", {"notes.txt": b"x"})
    line = _one_line(capsys, ["check", "toy.mc_true", "--cache-dir", str(tmp_path / "mine")])
    assert "is not a pflbounds task cache" in line and "--no-cache" in line
    assert _snapshot(tmp_path / "mine") == before


def test_a_foreign_cachedir_tag_is_not_ours(tmp_path, capsys):
    before = _user_folder(tmp_path / "target", {
        TAG: b"Signature: 8a477f597d28d172789f06886806bc55\n# created by cargo\n"})
    line = _one_line(capsys, ["cache", "clear", "--cache-dir", str(tmp_path / "target")])
    assert TAG in line
    assert _snapshot(tmp_path / "target") == before


def test_an_empty_untagged_folder_is_not_a_cache_to_inspect_but_may_become_one(tmp_path,
                                                                             capsys):
    (tmp_path / "e").mkdir()
    assert "an empty folder" in _one_line(capsys, ["cache", "info", "--cache-dir",
                                                   str(tmp_path / "e")])
    TaskCache(tmp_path / "e")  # a run may create its cache in an empty folder
    assert (tmp_path / "e" / TAG).is_file()
    assert main(["cache", "info", "--cache-dir", str(tmp_path / "e")]) == 0


def test_clear_keeps_a_users_file_inside_a_cache(toys, tmp_path, capsys):
    cache = TaskCache(tmp_path / "c")
    execute(plan(toys["toy.mc_true"]), cache=cache, progress=False)
    n_tasks = len(list(cache.files()))
    key_dir = next(cache.files()).parent.name
    (tmp_path / "c" / FOLDER / "ab").mkdir(parents=True)
    (tmp_path / "c" / FOLDER / "ab" / ("ab" + "0" * 62 + ".npz")).write_bytes(b"\x00" * 8)
    (tmp_path / "c" / FOLDER / "ab" / ("ab" + "0" * 62 + ".lock")).write_bytes(b"")
    mine = _user_folder(tmp_path / "c", {"README.md": b"mine", "tasks/keep.txt": b"k",
                                         f"tasks/{key_dir}/mine.npz": b"PK\x03\x04",
                                         "shared/keep.bin": b"s"})
    assert main(["cache", "clear", "--cache-dir", str(tmp_path / "c"), "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["removed"] == n_tasks and set(doc["kept"]) >= {"README.md", "tasks/keep.txt"}
    after = _snapshot(tmp_path / "c")
    for name in ("README.md", "tasks/keep.txt", f"tasks/{key_dir}/mine.npz", "shared/keep.bin"):
        assert after[name] == mine[name]
    # the damaged shared entry (no header of the format) stays; the empty lock goes
    assert f"{FOLDER}/ab/{'ab' + '0' * 62}.npz" in after
    assert f"{FOLDER}/ab/{'ab' + '0' * 62}.lock" not in after
    assert TaskCache(tmp_path / "c").info().entries == 0


def test_a_cache_whose_tag_was_lost_is_tagged_and_cleared(toys, tmp_path, capsys):
    cache = TaskCache(tmp_path / "c")
    execute(plan(toys["toy.mc_true"]), cache=cache, progress=False)
    (tmp_path / "c" / TAG).unlink()
    assert main(["cache", "clear", "--cache-dir", str(tmp_path / "c"), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["removed"] == 8
    assert (tmp_path / "c" / TAG).is_file()
    assert not list((tmp_path / "c" / "tasks").iterdir())


def test_layout_names_what_pflbounds_writes():
    key = "ab" + "1" * 62
    owned = [(TAG, False), ("tasks", True), ("shared", True), ("tasks/ab", True),
             (f"tasks/ab/{key}.npz", False), (f"shared/ab/{key}.npz", False),
             (f"shared/ab/{key}.lock", False), (f"tasks/ab/.{key}.npz.tmp-12-0a1b2c3d", False),
             (f".{TAG}.tmp-12-0a1b2c3d", False)]
    foreign = [("tasks/ab/x.npz", False), (f"tasks/cd/{key}.npz", False),
               (f"tasks/ab/{key}.lock", False), ("tasks/zz", True), ("other", True),
               ("tasks/ab/sub", True), (f"tasks/ab/{key}.npz", True), ("notes.txt", False)]
    assert all(owned_layout(Path(p), d) for p, d in owned)
    assert not any(owned_layout(Path(p), d) for p, d in foreign)


def test_cache_error_for_a_foreign_folder_is_raised_by_the_engine(tmp_path):
    (tmp_path / "x.txt").write_text("x")
    with pytest.raises(CacheError, match="is not a pflbounds task cache"):
        TaskCache(tmp_path)
    assert [p.name for p in tmp_path.iterdir()] == ["x.txt"]
