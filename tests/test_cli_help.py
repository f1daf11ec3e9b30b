"""Help texts, --version and the one-line usage errors of the command line."""

from __future__ import annotations

import argparse

import pytest

import pflbounds
from pflbounds.cli import build_parser, main

COMMANDS = ("list", "show", "eval", "solve", "complexity", "check")
VALIDATE_OPTIONS = ("suite", "--out", "--json")


def _subparsers() -> dict[str, argparse.ArgumentParser]:
    p = build_parser()
    action = next(a for a in p._actions if isinstance(a, argparse._SubParsersAction))
    return dict(action.choices)


def _name(action: argparse.Action) -> str:
    return action.option_strings[0] if action.option_strings else action.dest


@pytest.mark.parametrize("command", COMMANDS)
def test_every_option_has_a_help_text(command):
    missing = [_name(a) for a in _subparsers()[command]._actions if not a.help]
    assert missing == []


def test_validate_suite_out_and_json_have_help():
    helps = {_name(a): a.help for a in _subparsers()["validate"]._actions}
    for opt in VALIDATE_OPTIONS:
        assert helps[opt], opt


@pytest.mark.parametrize("command", ["show", "eval", "solve"])
def test_form_help_lists_the_forms(command):
    form = next(a for a in _subparsers()[command]._actions if "--form" in a.option_strings)
    for f in ("printed", "explicit", "corrected", "proof"):
        assert f in form.help


def test_version(capsys):
    assert main(["--version"]) == 0
    assert capsys.readouterr().out.strip() == f"pflbounds {pflbounds.__version__}"


def test_help_goes_to_stdout_with_status_0(capsys):
    assert main(["eval", "--help"]) == 0
    out, err = capsys.readouterr()
    assert err == "" and "--form FORM" in out and "b=FILE and Lambda=FILE" in out


def test_usage_error_is_one_line_naming_the_subcommand(capsys):
    assert main(["solve", "even2022.lemma6", "--target", "1"]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.splitlines() == ["pflbounds solve: error: the following arguments are required: "
                                "--for; see pflbounds solve --help"]


def test_every_command_answers_help_before_sympy_loads():
    """--help of every command (new-paper and list --checks included) answers from the parser
    alone: no sympy, numpy or paper is imported."""
    import subprocess
    import sys

    names = sorted(_subparsers())
    assert {"new-paper", "list", "validate", "report"} <= set(names)
    code = ("import contextlib, io, sys\nfrom pflbounds.cli import main\n"
            f"for name in {names!r}:\n"
            "    with contextlib.redirect_stdout(io.StringIO()) as out:\n"
            "        assert main([name, '--help']) == 0 and 'usage:' in out.getvalue(), name\n"
            "print(sorted(m for m in ('sympy', 'numpy', 'pflbounds.papers.even2022') "
            "if m in sys.modules))")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert r.stdout.strip() == "[]"


def test_new_paper_and_list_checks_have_help():
    subs = _subparsers()
    helps = {_name(a): a.help for a in subs["new-paper"]._actions}
    assert helps["name"] and helps["--dir"]
    assert "cost class" in {_name(a): a.help for a in subs["list"]._actions}["--checks"]
