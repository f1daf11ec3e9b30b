"""``eval`` and ``solve`` run from the shell start and end as :mod:`pflbounds.cli.startup`
says (no cyclic garbage collection, sympy's tensor module deferred, no object-by-object
shutdown): their outputs are those of the same commands called from Python, which take the
usual path, byte for byte, and they load nothing they do not use."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"

COMMANDS = {
    "even2022": ["eval", "even2022.theorem2", "--form", "explicit", "K=20", "eta=0.1", "mu=1",
                 "L=2", "sigma2=0.5", "Delta0=1", "V=0.4", "B=0.05"],
    "hanzely2023": ["eval", "hanzely2023.theorem7", "--form", "printed", "Lw=4", "Lb=1",
                    "mu=0.1", "eps=1e-6", "Delta0=1"],
    "philippenko2025": ["eval", "philippenko2025.theorem3", "--form", "explicit", "T=100",
                        "beta=0.5", "eps0=1", "kappa_w=0.5", "sigma_suf2=0.5"],
    "erickson2025": ["eval", "erickson2025.proposition3_4_t", "L_X=2", "gamma=0.5"],
    "scott2024": ["eval", "scott2024.theorem3_1_T_min", "--form", "corrected", "c=1", "k=1",
                  "L=2", "L1=1"],
}
"""One result of each paper, at a point that meets its hypotheses."""
MORE = [
    [*COMMANDS["even2022"], "--json"],
    ["solve", "even2022.theorem2", "--form", "explicit", "--for", "K", "--target", "0.2",
     "eta=0.1", "mu=1", "L=2", "sigma2=0.5", "Delta0=1", "V=0.4", "B=0.05"],
    ["eval", "even2022.theorem2", "--form", "corrected", "mu=1", "L=4", "K=500", "Delta0=1",
     "sigma2=1", f"b={EXAMPLES / 'b.csv'}", f"Lambda={EXAMPLES / 'Lambda.csv'}"],
    ["eval", "even2022.theorem2", "--form", "explicit", "eta=0.25", "mu=3", "L=2", "K=10",
     "Delta0=1", "sigma2=1", "V=0.5", "B=0.1"],  # mu > L: exit status 2
]
"""Other outputs: JSON, solve, matrix inputs and a bad input."""
SLOW_MORE = [
    [*COMMANDS["hanzely2023"], "--json"],
    [*COMMANDS["philippenko2025"], "--json"],
    [*COMMANDS["erickson2025"], "--elasticities"],
    [*COMMANDS["scott2024"], "--json"],
    ["solve", "philippenko2025.theorem3", "--form", "explicit", "--for", "T", "--target", "0.5",
     "beta=0.5", "eps0=1", "kappa_w=0.5", "sigma_suf2=0.5", "--json"],
    ["eval", "nosuchpaper.theorem1", "x=1"],  # an unknown id, answered after a full load
]

IN_PYTHON = """
import contextlib, io, json, sys
from pflbounds.cli import main
out = []
for argv in json.loads(sys.argv[1]):
    o, e = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(o), contextlib.redirect_stderr(e):
        rc = main(argv)
    out.append([rc, o.getvalue(), e.getvalue()])
print(json.dumps(out))
"""
"""The commands called from Python (``main(argv)``: the usual start and end), in one
process."""

MODULES_AT_EXIT = """
import atexit, json, sys
atexit.register(lambda: print(json.dumps({
    "modules": sorted(sys.modules),
    "tensor": type(sys.modules.get("sympy.tensor.tensor")).__name__}), file=sys.stderr))
from pflbounds.cli import main
sys.exit(main())
"""
"""A command run as the ``pflbounds`` program (``main()`` reads ``sys.argv``), printing on
stderr the modules loaded when its exit handlers run."""


def _env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "PFLBOUNDS_DEBUG"}
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), *filter(None, [env.get("PYTHONPATH")])])
    return env


def _from_shell(argv: list[str], cwd: Path) -> list:
    r = subprocess.run([sys.executable, "-m", "pflbounds.cli", *argv], capture_output=True,
                       text=True, cwd=cwd, env=_env(), timeout=600, check=False)
    return [r.returncode, r.stdout, r.stderr]


def _from_python(argvs: list[list[str]], cwd: Path) -> list[list]:
    r = subprocess.run([sys.executable, "-c", IN_PYTHON, json.dumps(argvs)],
                       capture_output=True, text=True, cwd=cwd, env=_env(), timeout=600,
                       check=True)
    return json.loads(r.stdout)


def _compare(argvs: list[list[str]], cwd: Path) -> list[list]:
    expected = _from_python(argvs, cwd)
    for argv, want in zip(argvs, expected, strict=True):
        assert _from_shell(argv, cwd) == want, argv
    return expected


def test_eval_outputs_of_every_paper_are_those_of_the_usual_path(tmp_path):
    argvs = list(COMMANDS.values())
    got = _compare(argvs, tmp_path)
    for (rc, out, err), argv in zip(got, argvs, strict=True):
        assert rc == 0 and err == "", (argv, err)
        assert out.startswith(argv[1] + " ["), out


def test_json_solve_matrix_and_error_outputs_are_those_of_the_usual_path(tmp_path):
    got = _compare(MORE, tmp_path)
    assert json.loads(got[0][1])["id"] == "even2022.theorem2"
    assert "smallest K with value <=" in got[1][1]
    assert "V_i = sum_j lambda_ij^2" in got[2][1]
    assert got[3][0] == 2 and got[3][1] == "" and len(got[3][2].splitlines()) == 1
    assert "mu=3 > L=2" in got[3][2]


@pytest.mark.slow
def test_more_outputs_of_every_paper_are_those_of_the_usual_path(tmp_path):
    got = _compare(SLOW_MORE, tmp_path)
    assert all(rc == 0 for rc, _, _ in got[:-1])
    assert got[-1][0] == 2 and "nosuchpaper.theorem1" in got[-1][2]


@pytest.mark.parametrize("paper", list(COMMANDS))
def test_eval_from_the_shell_loads_one_module_and_no_tensor(paper, tmp_path):
    """eval imports its result's theory module alone: no check, instance, experiment or
    other theory module of the paper, no other paper, neither scipy nor the engines of
    checks and runs; sympy's tensor module stays deferred (no sympy.combinatorics)."""
    argv = COMMANDS[paper]
    r = subprocess.run([sys.executable, "-c", MODULES_AT_EXIT, *argv], capture_output=True,
                       text=True, cwd=tmp_path, env=_env(), timeout=600, check=False)
    assert r.returncode == 0, r.stderr
    found = json.loads(r.stderr.splitlines()[-1])  # the exit handler ran, as it must
    mods = found["modules"]
    assert found["tensor"] == "_Deferred"
    assert not [m for m in mods if m.split(".")[0] in ("scipy", "cvxpy", "jax", "pandas")]
    assert not [m for m in mods if m.startswith(("sympy.combinatorics", "sympy.physics",
                                                 "pflbounds.checking", "pflbounds.running",
                                                 "pflbounds.problems", "pflbounds.algorithms"))]
    ours = [m for m in mods if m.startswith("pflbounds.papers.")]
    assert {m.split(".")[2] for m in ours} == {paper}
    prefix = f"pflbounds.papers.{paper}."
    assert not [m for m in ours if m.startswith(tuple(
        prefix + s for s in ("checks", "instances", "experiments", "complexity", "audit")))]
    theory = [m for m in ours if m.startswith(prefix + "theory.")]
    assert len(theory) == 1, theory
