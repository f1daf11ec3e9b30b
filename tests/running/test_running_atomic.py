"""Result folders written as one set: a full disk keeps the old set, refused places, modes."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
import textwrap

import pytest

from pflbounds.running import OutputError, atomic, load_outcomes, run_checks, save_outcomes
from pflbounds.running.results import RESULT_FILES


@pytest.fixture
def outcomes(toys):
    return run_checks([toys["toy.mc_true"], toys["toy.erratum"]], base_seed=1, progress=False)


def _snapshot(folder):
    return {p.name: p.read_bytes() for p in folder.iterdir()}


def test_a_full_disk_keeps_the_previous_set(outcomes, tmp_path):
    """The file-size limit makes the write fail like a full disk, inside the new set: the
    folder keeps the previous four files, and no temporary is left."""
    out = tmp_path / "out"
    save_outcomes(outcomes[:1], out)
    before = _snapshot(out)
    script = textwrap.dedent(f"""
        import resource, signal, sys
        sys.path.insert(0, {str(os.path.dirname(__file__) + '/../checking')!r})
        import toy_checks
        from pflbounds.running import run_checks, save_outcomes
        o = run_checks(toy_checks.CHECKS[:4], base_seed=1, progress=False)
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (20000, 20000))
        try:
            save_outcomes(o, {str(out)!r})
        except OSError as e:
            print("failed", e.errno)
    """)
    r = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                       timeout=120)
    assert r.stdout.strip().startswith("failed"), r.stderr
    assert _snapshot(out) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"]


def test_replacing_a_set_without_the_one_step_swap(outcomes, tmp_path, monkeypatch):
    out = tmp_path / "out"
    save_outcomes(outcomes, out)
    monkeypatch.setattr(atomic, "_exchange", lambda a, b: False)
    save_outcomes(outcomes[1:], out)
    assert [o.check_id for o in load_outcomes(out)] == ["toy.erratum"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"]
    assert sorted(p.name for p in out.iterdir()) == sorted(RESULT_FILES)


def test_an_error_while_writing_leaves_the_old_set(outcomes, tmp_path):
    out = tmp_path / "out"
    save_outcomes(outcomes, out)
    before = _snapshot(out)

    def half(tmp):
        (tmp / "outcomes.json").write_text("{}")
        raise RuntimeError("stopped half way")

    with pytest.raises(RuntimeError):
        atomic.replace_folder(out, half, RESULT_FILES)
    assert _snapshot(out) == before and len(list(tmp_path.iterdir())) == 1


def test_places_that_cannot_hold_results(outcomes, tmp_path):
    f = tmp_path / "file.txt"
    f.write_text("x")
    with pytest.raises(OutputError, match="is an existing file"):
        save_outcomes(outcomes, f)
    with pytest.raises(OutputError, match="is a file, not a folder"):
        save_outcomes(outcomes, f / "out")
    with pytest.raises(OutputError, match="does not exist"):
        save_outcomes(outcomes, tmp_path / "missing" / "out", parents=False)
    mixed = tmp_path / "mixed"
    mixed.mkdir()
    (mixed / "notes.md").write_text("mine")
    with pytest.raises(OutputError, match=r"holds other files \(notes.md\)"):
        save_outcomes(outcomes, mixed)
    assert (mixed / "notes.md").read_text() == "mine" and f.read_text() == "x"
    save_outcomes(outcomes, tmp_path / "new" / "deeper")  # parents made by default
    assert json.loads((tmp_path / "new" / "deeper" / "outcomes.json").read_text())["outcomes"]


def read_only_place(tmp_path):
    """A folder this process cannot create entries in (root ignores modes: /sys)."""
    if os.geteuid() != 0:
        ro = tmp_path / "ro"
        ro.mkdir()
        ro.chmod(0o555)
        return ro
    if os.path.isdir("/sys") and _cannot_mkdir("/sys"):
        return "/sys"
    pytest.skip("no read-only folder available")


def _cannot_mkdir(folder: str) -> bool:
    try:
        os.mkdir(os.path.join(folder, ".pflbounds-probe"))
    except OSError:
        return True
    os.rmdir(os.path.join(folder, ".pflbounds-probe"))
    return False


def test_a_read_only_place_is_refused_before_writing(outcomes, tmp_path):
    ro = read_only_place(tmp_path)
    with pytest.raises(OutputError, match="cannot"):
        save_outcomes(outcomes, os.path.join(ro, "results"))


@pytest.mark.parametrize("mask", [0o022, 0o077])
def test_result_files_follow_the_umask(outcomes, tmp_path, mask):
    old = os.umask(mask)
    try:
        save_outcomes(outcomes, tmp_path / "out")
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "out").stat().st_mode) == 0o777 & ~mask
    for name in RESULT_FILES:
        assert stat.S_IMODE((tmp_path / "out" / name).stat().st_mode) == 0o666 & ~mask


def test_leftovers_of_dead_writers_are_removed(outcomes, tmp_path):
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                          capture_output=True, text=True).stdout.strip()
    stale = tmp_path / f".out.tmp-{dead}-abcd"
    stale.mkdir()
    (stale / "outcomes.json").write_text("{}")
    alive = tmp_path / f".out.tmp-{os.getppid()}-abcd"  # a live writer's folder stays
    alive.mkdir()
    save_outcomes(outcomes, tmp_path / "out")
    assert not stale.exists() and alive.exists()
