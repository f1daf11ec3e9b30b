"""Papers from outside the tree: ``pflbounds new-paper`` writes a skeleton that passes
``validate`` and its own test at once, loaded through ``PFLBOUNDS_PAPERS=DIR`` (no
PYTHONPATH); a paper package installed by pip registers itself through the entry-point group
``pflbounds.papers``; ``show`` warns about a method or a digest that does not exist."""

from __future__ import annotations

import base64
import hashlib
import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from pflbounds.cli import main

ROOT = Path(__file__).resolve().parents[1]


def _env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PFLBOUNDS_")
           and k != "PYTHONPATH"}
    env.update({"PYTHONPATH": str(ROOT), "MPLBACKEND": "Agg", **extra})
    return env


def _cli(cwd: Path, *argv: str, **env: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "pflbounds.cli", *argv], cwd=cwd,
                          env=_env(**env), capture_output=True, text=True, timeout=600)


def test_new_paper_refuses_bad_names_and_never_overwrites(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for name, message in (("2x", "not a Python identifier"), ("class", "not a Python"),
                          ("even2022", "'even2022' is already a paper"),
                          ("json", "'json' is already an importable module")):
        assert main(["new-paper", name]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and message in err, err
    assert main(["new-paper", "doe2097", "--dir", "nowhere"]) == 2
    assert "is not an existing folder" in capsys.readouterr().err
    (tmp_path / "doe2097").write_text("mine")
    assert main(["new-paper", "doe2097"]) == 2
    assert "already exists (a file); nothing was written" in capsys.readouterr().err
    assert (tmp_path / "doe2097").read_text() == "mine"
    (tmp_path / "doe2096").mkdir()
    assert main(["new-paper", "doe2096"]) == 2
    assert list((tmp_path / "doe2096").iterdir()) == []
    assert sorted(p.name for p in tmp_path.iterdir()) == ["doe2096", "doe2097"]


DRIVER = r"""
import contextlib, io, json, sys
from pflbounds.cli import main

def run(argv):
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        rc = main(argv)
    return {"rc": rc, "out": out.getvalue(), "err": err.getvalue()}

print(json.dumps([run(argv) for argv in json.loads(sys.argv[1])]))
"""


def _driver(cwd: Path, commands: list[list[str]], **env: str) -> list[dict]:
    """Run several commands in one fresh process (the papers load once)."""
    r = subprocess.run([sys.executable, "-c", DRIVER, json.dumps(commands)], cwd=cwd,
                       env=_env(**env), capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr[-3000:]
    return json.loads(r.stdout.strip().splitlines()[-1])


@pytest.fixture(scope="module")
def skeleton(tmp_path_factory):
    """``pflbounds new-paper doe2099 --dir papers`` in a fresh folder, and a second paper
    whose method and digest do not exist; then, with ``PFLBOUNDS_PAPERS=papers``: list,
    validate and show them in one process."""
    tmp = tmp_path_factory.mktemp("outside")
    (tmp / "papers").mkdir()
    made = _cli(tmp, "new-paper", "doe2099", "--dir", "papers")
    assert made.returncode == 0, made.stderr
    assert main(["new-paper", "doe2098", "--dir", str(tmp / "papers")]) == 0
    paper = tmp / "papers" / "doe2098" / "paper.py"
    paper.write_text(paper.read_text().replace("common.run_sgd", "common.run_sdg"))
    init = tmp / "papers" / "doe2098" / "__init__.py"
    init.write_text(init.read_text().replace(
        '"Authors. Venue, year.")', '"Authors. Venue, year.", digest="doe2098_digest.md")'))
    runs = _driver(tmp, [["list", "--checks", "--paper", "doe2099"],
                         ["validate", "doe2099", "--out", "results", "--no-cache"],
                         ["show", "doe2099.theorem1"], ["show", "doe2098.theorem1"]],
                   PFLBOUNDS_PAPERS="papers")
    return tmp, made.stdout, runs


def test_the_skeleton_lists_its_files_and_how_to_run_them(skeleton):
    tmp, out, _ = skeleton
    pkg = tmp / "papers" / "doe2099"
    assert sorted(str(p.relative_to(pkg)) for p in pkg.rglob("*") if p.is_file()
                  and "__pycache__" not in p.parts) == [
        "__init__.py", "assumptions.py", "checks/__init__.py", "checks/common.py",
        "checks/sgd.py", "complexity.py", "errata.py", "paper.py", "suites/doe2099.toml",
        "symbols.py", "test_doe2099.py", "theory/__init__.py", "theory/sgd.py"]
    assert "PFLBOUNDS_PAPERS=papers pflbounds validate doe2099" in out


def test_the_skeleton_loads_from_a_folder_and_passes_validate(skeleton):
    _, _, (listed, validated, shown, _) = skeleton
    assert listed["rc"] == 0, listed["err"]
    assert "doe2099.P1" in listed["out"] and "doe2099.theorem1" in listed["out"]
    assert validated["rc"] == 0, validated["err"]
    assert validated["out"].splitlines()[-1] == ("1 check: 1 claim holds, 0 fail as printed "
                                                 "(as expected), 0 regressions")
    assert shown["rc"] == 0 and shown["err"] == ""
    assert "method    doe2099.checks.common.run_sgd  (" in shown["out"]


def test_without_the_folder_the_paper_is_unknown(skeleton):
    tmp, _, _ = skeleton
    r = _cli(tmp, "eval", "doe2099.theorem1", "eta=0.1")
    assert r.returncode == 2 and "doe2099" in r.stderr
    r = _cli(tmp, "list", PFLBOUNDS_PAPERS="./no-such-folder")
    assert r.returncode == 2
    assert r.stderr.count("\n") == 1 and "which is not a folder" in r.stderr


def test_the_skeleton_passes_its_own_test(skeleton):
    tmp, _, _ = skeleton
    r = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                        "papers/doe2099"], cwd=tmp, env=_env(), capture_output=True,
                       text=True, timeout=600)
    assert r.returncode == 0, r.stdout[-3000:]
    assert "4 passed" in r.stdout


def test_show_warns_about_a_method_or_digest_that_does_not_exist(skeleton):
    tmp, _, runs = skeleton
    shown = runs[3]
    assert shown["rc"] == 0 and "doe2098.theorem1 — Theorem 1" in shown["out"]
    home = tmp / "papers" / "doe2098"
    # a project's shared/papers folder beside an enclosing folder is looked in too
    beside = [d / "shared" / "papers" for d in home.resolve().parents
              if (d / "shared" / "papers").is_dir()][:1]
    looked = ", ".join(str(f) for f in [home, *beside])
    assert shown["err"].splitlines() == [
        "pflbounds show: warning: method doe2098.checks.common.run_sdg of doe2098.theorem1 does "
        "not exist (module 'doe2098.checks.common' has no 'run_sdg')",
        f"pflbounds show: warning: digest doe2098_digest.md of paper doe2098 does not exist "
        f"(looked in {looked}; PFLBOUNDS_DIGESTS=DIR adds a folder)"]
    (tmp / "digests").mkdir()
    (tmp / "digests" / "doe2098_digest.md").write_text("# digest\n")
    r = _cli(tmp, "show", "doe2098.theorem1", "--json", PFLBOUNDS_PAPERS=str(tmp / "papers"),
             PFLBOUNDS_DIGESTS=str(tmp / "digests"))
    assert r.returncode == 0 and r.stderr.count("warning:") == 1 and "run_sdg" in r.stderr


def _digest(data: bytes) -> str:
    return base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()


def _wheel(src: Path, name: str, out: Path) -> Path:
    """A wheel of the package folder ``src`` whose metadata registers it as a paper in the
    entry-point group ``pflbounds.papers`` (what ``[project.entry-points."pflbounds.papers"]``
    of its pyproject gives), made without a build backend."""
    dist = f"{name}-0.1.dist-info"
    files = {f"{name}/{p.relative_to(src).as_posix()}": p.read_bytes()
             for p in sorted(src.rglob("*")) if p.is_file() and "__pycache__" not in p.parts}
    files[f"{dist}/METADATA"] = f"Metadata-Version: 2.1\nName: {name}\nVersion: 0.1\n".encode()
    files[f"{dist}/WHEEL"] = (b"Wheel-Version: 1.0\nGenerator: tests\nRoot-Is-Purelib: true\n"
                              b"Tag: py3-none-any\n")
    files[f"{dist}/entry_points.txt"] = f"[pflbounds.papers]\n{name} = {name}\n".encode()
    record = [f"{n},sha256={_digest(b)},{len(b)}" for n, b in files.items()]
    files[f"{dist}/RECORD"] = ("\n".join([*record, f"{dist}/RECORD,,"]) + "\n").encode()
    path = out / f"{name}-0.1-py3-none-any.whl"
    with zipfile.ZipFile(path, "w") as z:
        for n, b in files.items():
            z.writestr(n, b)
    return path


def test_a_paper_installed_with_pip_registers_itself(tmp_path):
    r = _cli(tmp_path, "new-paper", "epaper2098", "--dir", str(tmp_path))
    assert r.returncode == 0, r.stderr
    wheel = _wheel(tmp_path / "epaper2098", "epaper2098", tmp_path)
    site = tmp_path / "site"
    pip = subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps",
                          "--no-index", "--target", str(site), str(wheel)],
                         capture_output=True, text=True, timeout=300)
    assert pip.returncode == 0, pip.stderr
    assert (site / "epaper2098-0.1.dist-info" / "entry_points.txt").is_file()
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()  # no copy of the package here: only the installed one
    listed, validated = _driver(
        elsewhere, [["list", "--checks", "--paper", "epaper2098"],
                    ["validate", "epaper2098", "--no-cache"]],
        PYTHONPATH=os.pathsep.join([str(ROOT), str(site)]))
    assert listed["rc"] == 0, listed["err"]
    assert "epaper2098.P1" in listed["out"]
    assert validated["rc"] == 0, validated["err"]
    assert "ok epaper2098.P1" in validated["out"]
    assert validated["out"].rstrip().endswith("0 regressions")
    assert (elsewhere / "reports" / "epaper2098" / "outcomes.json").is_file()
