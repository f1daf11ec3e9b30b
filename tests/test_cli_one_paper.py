"""complexity is a command about one paper: in a fresh process it loads that paper only (with
the paper's index in a task cache, its calculator only), and prints what it prints after
every paper is loaded."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

CODE = """
import contextlib, io, json, sys
from pflbounds.cli import main
if {full}:
    from pflbounds.symbolic.loader import load_papers
    load_papers()
out, err = io.StringIO(), io.StringIO()
with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
    rc = main({args!r})
papers = sorted({{m.split('.')[2] for m in sys.modules if m.startswith('pflbounds.papers.')
                 and m.count('.') >= 2}})
print(json.dumps([rc, out.getvalue(), err.getvalue(), papers]))
"""


def _run(args: list[str], tmp_path, *, full: bool, cache: bool = False) -> list:
    env = {k: v for k, v in os.environ.items()
           if k not in ("PFLBOUNDS_CACHE_DIR", "PFLBOUNDS_NO_INDEX")}
    if cache:
        env["PFLBOUNDS_CACHE_DIR"] = str(tmp_path / "cache")
    r = subprocess.run([sys.executable, "-c", CODE.format(full=full, args=args)],
                       capture_output=True, text=True, cwd=tmp_path, check=True, timeout=600,
                       env=env)
    return json.loads(r.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("args", [
    ["complexity", "--paper", "hanzely2023", "--objective", "mt2", "--algorithm", "acd-pfl",
     "Lp=10", "lam=0.1", "Lam=20", "M=20", "n=1000", "eps=1e-6"],
    ["complexity", "--paper", "even2022", "mu=1", "L=2", "sigma2=1", "eps=0.01", "N=10",
     "--json"],
    ["complexity", "--paper", "hanzely2023", "--objective", "nosuch", "Lp=10"],
])
def test_complexity_loads_only_its_paper(args, tmp_path):
    alone = _run(args, tmp_path, full=False)
    full = _run(args, tmp_path, full=True)
    assert alone[:3] == full[:3]
    assert alone[3] == [args[2]]
    assert len(full[3]) >= 5
    indexed = [_run(args, tmp_path, full=False, cache=True) for _ in range(2)]  # build, read
    assert indexed[0][:3] == indexed[1][:3] == full[:3]
    assert indexed[1][3] == [args[2]]
    assert (tmp_path / "cache" / "index").is_dir()
