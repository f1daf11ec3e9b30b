"""validate, check and cache through the command line: the task cache, resume after an
interruption, --out and --scheduler errors, progress lines."""

from __future__ import annotations

import dataclasses
import json
import os

import pytest
import toy_checks
from sweep_helpers import assert_same_results
from test_running_atomic import read_only_place

from pflbounds.checking import registry
from pflbounds.cli import main
from pflbounds.running import TaskCache

SUITE = """
name = "toys"
seed = 7
[[checks]]
id = "toy.exact_true"
[[checks]]
id = "toy.mc_true"
[[checks]]
id = "toy.mc_scaling"
"""
TASKS = 2 + 2 * 4 + 6 * 4  # points x blocks


@pytest.fixture
def suite(toys, tmp_path):
    p = tmp_path / "toys.toml"
    p.write_text(SUITE)
    return p


def _validate(capsys, *args: str) -> tuple[int, dict, list[str]]:
    code = main(["validate", *args, "--json"])
    cap = capsys.readouterr()
    return code, json.loads(cap.out) if cap.out.strip() else {}, cap.err.strip().splitlines()


def test_second_validate_comes_from_the_cache_with_the_same_results(suite, tmp_path, capsys):
    cache = str(tmp_path / "cache")
    code, doc, err = _validate(capsys, str(suite), "--out", str(tmp_path / "a"),
                               "--cache-dir", cache)
    assert code == 0 and doc["tasks"] == {**doc["tasks"], "total": TASKS, "cached": 0,
                                          "computed": TASKS, "failed": 0}
    assert doc["cache"] == cache
    assert err == [line for line in err if line.startswith("pflbounds: ")] and len(err) == 3
    assert err[0].startswith("pflbounds: toy.exact_true done (2 tasks, 0 cached); 2/34 tasks")
    code, doc, err = _validate(capsys, str(suite), "--out", str(tmp_path / "b"),
                               "--cache-dir", cache)
    assert code == 0 and (doc["tasks"]["cached"], doc["tasks"]["computed"]) == (TASKS, 0)
    assert "(24 tasks, 24 cached); 34/34 tasks, 34 cached" in err[-1]
    assert_same_results(tmp_path / "a", tmp_path / "b")

    code, doc, _ = _validate(capsys, str(suite), "--out", str(tmp_path / "c"), "--no-cache",
                             "--cache-dir", str(tmp_path / "unused"))
    assert code == 0 and doc["tasks"]["cached"] == 0 and doc["cache"] is None
    assert not (tmp_path / "unused").exists()
    assert_same_results(tmp_path / "a", tmp_path / "c")


def test_two_jobs_give_the_bits_of_one(suite, tmp_path, capsys):
    for jobs in ("1", "2"):
        code, doc, _ = _validate(capsys, str(suite), "--out", str(tmp_path / f"j{jobs}"),
                                 "--no-cache", "--jobs", jobs)
        assert code == 0 and doc["tasks"]["computed"] == TASKS
    assert_same_results(tmp_path / "j1", tmp_path / "j2")


def _one_error(capsys, argv: list[str]) -> str:
    assert main(argv) == 2
    cap = capsys.readouterr()
    err = cap.err.strip().splitlines()
    assert len(err) == 1 and cap.out == "", cap.err
    assert "Traceback" not in cap.err
    return err[0]


def test_out_places_that_cannot_hold_results(suite, tmp_path, capsys):
    cache = tmp_path / "cache"
    run = ["validate", str(suite), "--cache-dir", str(cache), "--out"]
    f = tmp_path / "file.txt"
    f.write_text("x")
    msg = _one_error(capsys, [*run, str(f)])
    assert msg.startswith("pflbounds validate: error: --out ") and "is an existing file" in msg
    msg = _one_error(capsys, [*run, str(tmp_path / "nowhere" / "out")])
    assert "folder " + str(tmp_path / "nowhere") + " does not exist" in msg
    msg = _one_error(capsys, [*run, os.path.join(read_only_place(tmp_path), "out")])
    assert "cannot" in msg
    (tmp_path / "mine").mkdir()
    (tmp_path / "mine" / "thesis.tex").write_text("keep me")
    msg = _one_error(capsys, [*run, str(tmp_path / "mine")])
    assert "holds other files (thesis.tex)" in msg
    assert not cache.exists()  # refused before any task ran
    assert f.read_text() == "x" and (tmp_path / "mine" / "thesis.tex").read_text() == "keep me"


def test_scheduler_errors_are_one_line(suite, tmp_path, capsys):
    run = ["validate", str(suite), "--out", str(tmp_path / "o"), "--scheduler"]
    msg = _one_error(capsys, [*run, "tcp://127.0.0.1:1"])
    assert "--scheduler tcp://127.0.0.1:1: no Dask scheduler answers" in msg and "--jobs" in msg
    msg = _one_error(capsys, [*run, "smtp://host:25"])
    assert "unknown protocol 'smtp'" in msg


_CALLS = {"n": 0, "stop_at": 3}


def _interrupting(params, n, ss):
    """Ctrl-C at the ``stop_at``-th call."""
    _CALLS["n"] += 1
    if _CALLS["n"] == _CALLS["stop_at"]:
        raise KeyboardInterrupt
    return toy_checks.mc_curve(params, n, ss)


def test_interrupted_run_resumes_from_its_finished_tasks(toys, tmp_path, capsys):
    calls = _CALLS
    check = dataclasses.replace(toys["toy.mc_true"], id="unit.interrupted",
                                simulate=_interrupting)
    registry.register(check, replace=True)
    try:
        p = tmp_path / "s.toml"
        p.write_text('name = "s"\n[[checks]]\nid = "unit.interrupted"\n')
        cache = tmp_path / "cache"
        argv = ["validate", str(p), "--out", str(tmp_path / "o"), "--cache-dir", str(cache)]
        with pytest.raises(SystemExit) as info:
            main(argv)
        assert info.value.code == 130
        err = capsys.readouterr().err.strip().splitlines()
        assert err == [f"pflbounds validate: interrupted; finished tasks are in the task cache "
                       f"{cache}; the same command resumes the run"]
        assert TaskCache(cache).info().entries == 2 and not (tmp_path / "o").exists()
        calls["stop_at"] = 0
        code, doc, _ = _validate(capsys, *argv[1:])
        assert code == 0 and (doc["tasks"]["cached"], doc["tasks"]["computed"]) == (2, 6)
        assert calls["n"] == 3 + 6
    finally:
        registry.unregister("unit.interrupted")


def test_check_uses_the_cache(toys, tmp_path, capsys):
    argv = ["check", "toy.mc_true", "--cache-dir", str(tmp_path / "c"), "--json"]
    assert main(argv) == 0
    first = capsys.readouterr()
    assert main(argv) == 0
    second = capsys.readouterr()
    assert "(8 tasks, 0 cached)" in first.err and "(8 tasks, 8 cached)" in second.err
    a, b = json.loads(first.out), json.loads(second.out)
    assert a["evidence"] == b["evidence"] and a["verdict"] == b["verdict"] == "HOLDS"


def test_cache_info_and_clear(suite, tmp_path, capsys):
    cache = str(tmp_path / "cache")
    assert _validate(capsys, str(suite), "--out", str(tmp_path / "a"),
                     "--cache-dir", cache)[0] == 0
    assert main(["cache", "info", "--cache-dir", cache, "--json"]) == 0
    info = json.loads(capsys.readouterr().out)
    assert (info["entries"], info["stale"]) == (TASKS, 0)
    assert {k: v["entries"] for k, v in info["checks"].items()} == {
        "toy.exact_true": 2, "toy.mc_true": 8, "toy.mc_scaling": 24}
    assert main(["cache", "info", "--cache-dir", cache]) == 0
    text = capsys.readouterr().out
    assert f"task cache {cache}" in text and "34 tasks of 3 checks" in text
    assert "toy.mc_scaling" in text and "0 stale" in text

    assert main(["cache", "clear", "--cache-dir", cache, "--check", "toy.mc_s*", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["removed"] == 24
    registry.unregister("toy.exact_true")  # a check that is gone: its tasks are stale
    assert main(["cache", "info", "--cache-dir", cache, "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["stale"] == 2
    assert main(["cache", "clear", "--cache-dir", cache, "--stale"]) == 0
    assert "removed 2 tasks" in capsys.readouterr().out
    assert {e.check_id for e in TaskCache(cache).entries()} == {"toy.mc_true"}
    assert main(["cache", "clear", "--cache-dir", cache]) == 0
    assert "removed 8 tasks" in capsys.readouterr().out
    assert TaskCache(cache).info().entries == 0


def test_a_cache_dir_that_is_a_file_is_one_line(suite, tmp_path, capsys):
    f = tmp_path / "c.txt"
    f.write_text("x")
    msg = _one_error(capsys, ["validate", str(suite), "--out", str(tmp_path / "o"),
                              "--cache-dir", str(f)])
    assert f"cache folder {f} is a file" in msg and "--no-cache" in msg
