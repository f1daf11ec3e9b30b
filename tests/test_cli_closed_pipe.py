"""A command whose reader stops early (``pflbounds list --checks | head -1``) ends quietly:
no "internal error" line, no traceback, the shell's status for a stopped pipe or 0."""

from __future__ import annotations

import subprocess
import sys

import pytest


@pytest.mark.parametrize("argv", [
    ["list", "--checks"],
    ["eval", "even2022.theorem2", "--json", "mu=0.1", "L=1", "B=0", "Delta0=1", "K=100",
     "V=1", "sigma2=0.1"],
])
def test_a_closed_pipe_ends_the_command_quietly(argv):
    proc = subprocess.Popen([sys.executable, "-c", "from pflbounds.cli import main; "
                             "raise SystemExit(main())", *argv],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    proc.stdout.close()  # the reader is gone before the first line
    err = proc.stderr.read().decode()
    proc.stderr.close()
    assert proc.wait(timeout=120) in (0, 141)
    assert "internal error" not in err and "Traceback" not in err, err
    assert "BrokenPipe" not in err, err
