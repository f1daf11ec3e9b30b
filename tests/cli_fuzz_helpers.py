"""Driving bad inputs through :func:`pflbounds.cli.main`: each must exit 2 with exactly one
line on stderr that starts with the program's name and names what was wrong, with no
traceback, no Python warning and nothing on stdout."""

from __future__ import annotations

import warnings
from collections.abc import Iterable, Sequence

from pflbounds.cli import main


def run_cli(argv: Sequence[str], capsys) -> tuple[int, str, str, list]:
    """Run the command line in this process: exit code, stdout, stderr and the warnings
    raised (every one recorded, none shown)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err, list(caught)


def one_line_problems(code: int, out: str, err: str, caught: list, piece: str) -> list[str]:
    """What is wrong with the answer to a bad input (an empty list: nothing)."""
    lines = err.splitlines()
    problems = []
    if code != 2:
        problems.append(f"exit {code}")
    if len(lines) != 1:
        problems.append(f"{len(lines)} lines on stderr")
    if "Traceback" in err:
        problems.append("traceback")
    if out:
        problems.append(f"stdout {out[:60]!r}")
    if caught:
        problems.append(f"warning {caught[0].message}")
    if lines and not lines[0].startswith("pflbounds"):
        problems.append("line does not start with the program name")
    if piece not in err:
        problems.append(f"{piece!r} not in the message")
    return problems


def assert_one_line_errors(cases: Iterable[tuple[list[str], str]], capsys) -> None:
    """Every (argv, piece) case answers with one line naming ``piece`` (see module)."""
    failures = []
    for argv, piece in cases:
        code, out, err, caught = run_cli(argv, capsys)
        problems = one_line_problems(code, out, err, caught, piece)
        if problems:
            failures.append(f"{argv}: {'; '.join(problems)}: {err.strip()[:300]}")
    assert not failures, "\n".join(failures)
