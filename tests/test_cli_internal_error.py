"""A defect of pflbounds (an exception no input should cause) reaches the user as one line
with exit status 3, never a traceback; PFLBOUNDS_DEBUG=1 shows the traceback."""

from __future__ import annotations

import pytest

import pflbounds.cli as cli


def _broken(args):
    raise RuntimeError("the report's source did not compile\nline two of the diagnostic")


def test_internal_error_is_one_line(monkeypatch, capsys):
    monkeypatch.setattr(cli, "cmd_list", _broken)
    monkeypatch.delenv("PFLBOUNDS_DEBUG", raising=False)
    assert cli.main(["list"]) == cli.EXIT_INTERNAL == 3
    out, err = capsys.readouterr()
    assert out == ""
    assert err.count("\n") == 1 and "Traceback" not in err
    assert "internal error: RuntimeError: the report's source did not compile" in err
    assert "PFLBOUNDS_DEBUG=1" in err


def test_debug_shows_the_traceback(monkeypatch):
    monkeypatch.setattr(cli, "cmd_list", _broken)
    monkeypatch.setenv("PFLBOUNDS_DEBUG", "1")
    with pytest.raises(RuntimeError, match="did not compile"):
        cli.main(["list"])
