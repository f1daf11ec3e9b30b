"""The core install for real (slow): a fresh virtual environment with ``pip install .`` and
no extra stays under 800 MB, holds none of the extras' packages, and runs even2022's
commands from a folder outside the clone (the suites ship with the package).

Needs the package index (``pip install`` downloads numpy, scipy, sympy, cvxpy, ...)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
LIMIT_MB = 800
EXTRAS = ("jax", "pyarrow", "pepit", "dask", "distributed", "scikit-learn", "pandas")


def _size_mb(folder: Path) -> float:
    """Bytes on disk of every file below ``folder`` (as ``du``: allocated blocks, links not
    followed), in MB."""
    total = 0
    for base, _, files in os.walk(folder):
        for f in files:
            st = os.lstat(os.path.join(base, f))
            total += getattr(st, "st_blocks", 0) * 512 or st.st_size
    return total / 1e6


@pytest.mark.slow
def test_a_core_install_is_light_and_runs_even2022(tmp_path):
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=300)
    py = venv / "bin" / "python"
    pip = subprocess.run([str(py), "-m", "pip", "install", "--quiet", str(ROOT)],
                         capture_output=True, text=True, timeout=3000)
    assert pip.returncode == 0, pip.stderr[-3000:]
    size = _size_mb(venv)
    assert size <= LIMIT_MB, f"the core install takes {size:.0f} MB"
    listed = subprocess.run([str(py), "-m", "pip", "list", "--format=freeze"],
                            capture_output=True, text=True, check=True).stdout.lower()
    names = {line.split("==")[0] for line in listed.splitlines()}
    assert not names & set(EXTRAS), names & set(EXTRAS)

    work = tmp_path / "elsewhere"
    work.mkdir()
    shutil.copy(ROOT / "examples" / "b.csv", work / "b.csv")
    env = {k: v for k, v in os.environ.items()
           if k != "PYTHONPATH" and not k.startswith("PFLBOUNDS_")}
    env["MPLBACKEND"] = "Agg"
    exe = str(venv / "bin" / "pflbounds")

    def run(*argv: str) -> subprocess.CompletedProcess:
        return subprocess.run([exe, *argv], cwd=work, env=env, capture_output=True, text=True,
                              timeout=1200)

    assert run("list", "--paper", "even2022").returncode == 0
    assert run("show", "even2022.theorem2").returncode == 0
    ev = run("eval", "even2022.theorem2", "--form", "explicit", "eta=1/(2*L)", "mu=1", "L=2",
             "K=10", "Delta0=1", "sigma2=1", "V=0.5", "B=0.1")
    assert ev.stdout.strip() == "even2022.theorem2 [explicit] = 0.231314", ev.stderr
    sv = run("solve", "even2022.theorem2", "--form", "corrected", "--for", "K", "--target",
             "0.01", "mu=1", "L=4", "Delta0=1", "sigma2=1", "V=0.25", "B=0")
    assert "smallest K with value <= 0.01: 382" in sv.stdout, sv.stderr
    cx = run("complexity", "--paper", "even2022", "mu=1", "L=4", "sigma2=1", "eps=0.01",
             "Delta0=1", "b=b.csv")
    assert "cheapest in gradients" in cx.stdout, cx.stderr
    ck = run("check", "even2022.P11")
    assert ck.returncode == 0 and ck.stdout.startswith("ok even2022.P11"), ck.stderr
    jx = run("check", "scott2024.P1")
    assert jx.returncode == 2 and 'pip install "pflbounds[jax]"' in jx.stderr
    va = run("validate", "even2022", "--jobs", "2")  # the shipped suite, from elsewhere
    assert va.returncode == 0, va.stdout[-2000:] + va.stderr[-2000:]
    assert va.stdout.rstrip().endswith("0 regressions")
    assert sorted(p.name for p in (work / "reports" / "even2022").iterdir()) == [
        "outcomes.json", "results.csv", "results.json"]
