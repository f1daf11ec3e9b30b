"""One BLAS thread by default: the command line sets it before numpy loads, a user's value
wins, and the command-line module itself does not load numpy."""

from __future__ import annotations

import os
import subprocess
import sys

from pflbounds.threads import PIN_ENV, prefer_one_thread


def test_defaults_fill_only_the_missing_variables():
    env = {"OPENBLAS_NUM_THREADS": "4", "PATH": "/bin"}
    prefer_one_thread(env)
    assert env["OPENBLAS_NUM_THREADS"] == "4"
    assert env["PATH"] == "/bin"
    assert {k: env[k] for k in PIN_ENV if k != "OPENBLAS_NUM_THREADS"} == {
        k: "1" for k in PIN_ENV if k != "OPENBLAS_NUM_THREADS"}


def _run(code: str, **env: str) -> str:
    clean = {k: v for k, v in os.environ.items() if k not in PIN_ENV}
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                       env={**clean, **env}, check=True, timeout=300)
    return r.stdout.strip()


def test_the_cli_module_does_not_load_numpy():
    assert _run("import sys, pflbounds.cli\nprint('numpy' in sys.modules)") == "False"


ONE_EVAL = ("import io, contextlib, os\nfrom pflbounds.cli import main\n"
            "with contextlib.redirect_stdout(io.StringIO()):\n"
            "    rc = main(['eval', 'even2022.theorem2', '--form', 'explicit', 'K=20', 'eta=0.1',"
            " 'mu=1', 'L=2', 'sigma2=0.5', 'Delta0=1', 'V=0.4', 'B=0.05'])\n"
            "from threadpoolctl import threadpool_info\n"
            "print(rc, os.environ['OPENBLAS_NUM_THREADS'],"
            " sorted({p['num_threads'] for p in threadpool_info()}))")


def test_a_command_runs_numpy_with_one_blas_thread():
    assert _run(ONE_EVAL) == "0 1 [1]"


def test_a_thread_count_set_by_the_user_is_kept():
    assert _run(ONE_EVAL, OPENBLAS_NUM_THREADS="2").startswith("0 2")
