"""The core install, simulated: with the extras' modules made unimportable in a fresh process
(a ``sitecustomize`` sets ``sys.modules[name] = None``, as for a module that is not
installed; worker processes inherit it), every paper loads and lists, even2022's commands
work, a suite skips the checks that need JAX with the pip install to run, ``check`` of a
scott2024 training check names its extra, and no result file needs pyarrow.

The real core-only virtual environment is built by ``tests/test_core_install.py`` (slow)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
EXTRA_MODULES = ("jax", "jaxlib", "pyarrow", "PEPit", "sklearn", "dask", "distributed",
                 "pandas")
JAX_LINE = 'pip install "pflbounds[jax]"'

DRIVER = r'''
import contextlib, io, json, sys
from pflbounds.cli import main

def run(*argv):
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            rc = main(list(argv))
        except SystemExit as e:
            rc = e.code
    return {"argv": list(argv), "rc": rc, "out": out.getvalue(), "err": err.getvalue()}

suite, results = sys.argv[1], sys.argv[2]
EXTRA_MODULES = json.loads(sys.argv[3])
runs = [
    run("list"),
    run("list", "--checks", "--json"),
    run("show", "even2022.theorem2"),
    run("show", "scott2024.theorem3_1"),
    run("eval", "even2022.theorem2", "--form", "explicit", "eta=0.25", "mu=1", "L=2", "K=10",
        "Delta0=1", "sigma2=1", "V=0.5", "B=0.1"),
    run("solve", "even2022.theorem2", "--form", "corrected", "--for", "K", "--target", "0.01",
        "mu=1", "L=4", "Delta0=1", "sigma2=1", "V=0.25", "B=0"),
    run("complexity", "--paper", "even2022", "mu=1", "L=4", "sigma2=1", "eps=0.01",
        "Delta0=1", "b=examples/b.csv"),
    run("check", "scott2024.P1"),
    run("validate", suite, "--out", results, "--no-cache", "--jobs", "2"),
]
loaded = sorted(m for m in EXTRA_MODULES if sys.modules.get(m) is not None)
print(json.dumps({"runs": runs, "loaded": loaded}))
'''


@pytest.fixture(scope="module")
def core_runs(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("core")
    site = tmp / "site"
    site.mkdir()
    (site / "sitecustomize.py").write_text(
        "import sys\n" + "".join(f"sys.modules[{m!r}] = None\n" for m in EXTRA_MODULES))
    suite = tmp / "core.toml"
    suite.write_text('name = "core"\nseed = 2022\ngrid = "quick"\n'
                     '[[checks]]\nid = "even2022.P11"\n[[checks]]\nid = "even2022.P1"\n'
                     '[[checks]]\nid = "scott2024.P1"\n')
    env = {k: v for k, v in os.environ.items() if not k.startswith("PFLBOUNDS_")}
    env["PYTHONPATH"] = os.pathsep.join([str(site), str(ROOT)])
    env["MPLBACKEND"] = "Agg"
    r = subprocess.run([sys.executable, "-c", DRIVER, str(suite), str(tmp / "results"),
                        json.dumps(EXTRA_MODULES)],
                       cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr[-3000:]
    doc = json.loads(r.stdout.strip().splitlines()[-1])
    doc["results"] = tmp / "results"
    return doc


def _run(doc, *argv):
    return next(r for r in doc["runs"] if r["argv"][: len(argv)] == list(argv))


def test_no_extra_was_imported(core_runs):
    assert core_runs["loaded"] == []


def test_every_paper_loads_and_lists(core_runs):
    r = _run(core_runs, "list")
    assert r["rc"] == 0 and r["err"] == ""
    for paper in ("even2022", "hanzely2023", "philippenko2025", "erickson2025", "scott2024"):
        assert f"{paper}." in r["out"]
    checks = json.loads(_run(core_runs, "list", "--checks")["out"])
    p1 = next(c for c in checks if c["id"] == "scott2024.P1")
    assert p1["requires"] == ["jax"] and p1["missing"] == ["jax"]
    assert not any(c["missing"] for c in checks if c["id"].startswith("even2022."))


def test_show_eval_solve_and_complexity_of_even2022(core_runs):
    assert _run(core_runs, "show", "even2022.theorem2")["rc"] == 0
    shown = _run(core_runs, "show", "scott2024.theorem3_1")
    assert shown["rc"] == 0 and "scott2024.theorem3_1" in shown["out"]
    assert "does not exist" not in shown["err"]  # a method behind a missing extra exists
    ev = _run(core_runs, "eval")
    assert ev["rc"] == 0 and ev["out"].startswith("even2022.theorem2 [explicit] = 0.2")
    assert "smallest K with value <= 0.01: 382" in _run(core_runs, "solve")["out"]
    cx = _run(core_runs, "complexity")
    assert cx["rc"] == 0 and "cheapest in gradients" in cx["out"]


def test_a_training_check_names_the_extra_it_needs(core_runs):
    r = _run(core_runs, "check", "scott2024.P1")
    assert r["rc"] == 2 and r["out"] == ""
    assert r["err"].splitlines() == [
        "pflbounds check: error: check scott2024.P1 needs JAX (networks and compiled loops), "
        f"which is not installed: {JAX_LINE}"]


def test_validate_skips_it_and_runs_the_rest(core_runs):
    r = _run(core_runs, "validate")
    assert r["rc"] == 0, r["err"][-2000:]
    lines = r["out"].splitlines()
    assert any(ln.startswith("ok even2022.P11") for ln in lines)
    assert f"-- scott2024.P1  skipped: needs JAX (networks and compiled loops), which is not " \
           f"installed: {JAX_LINE}" in lines
    assert lines[-1] == ("3 checks: 1 claim holds, 1 fail as printed (as expected), "
                         f"0 regressions, 1 skipped for a missing extra ({JAX_LINE})")
    folder = core_runs["results"]
    assert sorted(p.name for p in folder.iterdir()) == ["outcomes.json", "results.csv",
                                                        "results.json"]
    doc = json.loads((folder / "outcomes.json").read_text())
    assert [s["check_id"] for s in doc["skipped"]] == ["scott2024.P1"]
    assert {o["check_id"] for o in doc["outcomes"]} == {"even2022.P1", "even2022.P11"}
