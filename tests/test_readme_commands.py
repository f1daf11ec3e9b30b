"""The README's commands run when pasted into a fresh clone (and so do the user guide's).

Every fenced ``bash`` block of README.md is run in a fresh copy of the repository (the files
``git ls-files`` lists, copied into ``tmp_path``), with the installed ``pflbounds`` on PATH
and PYTHONPATH set to the copy, so the copy's code runs. The commands of one block run in
order in the same copy (a block may write a file that its next command reads); each block
starts from a fresh copy.

Conventions of the README's blocks:

* a command's exit status must be 0, or the status its trailing comment names
  (``pflbounds eval ... # exits 2``);
* the lines starting with ``# `` right after a command are printed output: each must match a
  line of what the command printed (stdout and stderr), runs of spaces compared as one and
  ``...`` standing for any text;
* a block preceded by the line ``<!-- long -->`` (installs, full suites, the report) is not
  run: its commands are parsed (``shlex``), and every ``pflbounds`` subcommand it uses must
  exist and accept the options given (``pflbounds SUB --help`` lists them).

The ``python`` blocks run as scripts in a fresh copy too, and must exit 0 (those marked long
are compiled, not run: a SLURM script, a fragment, or an example another test runs). The
pages of the
user guide (``docs/``) follow the same conventions; their blocks run as slow tests.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
LONG = "<!-- long -->"
TIMEOUT = 300


@dataclass
class Command:
    line: int
    text: str
    status: int = 0
    output: list[str] = field(default_factory=list)


@dataclass
class Block:
    line: int
    lang: str
    body: str
    long: bool


def fenced_blocks(text: str) -> list[Block]:
    """Every fenced code block with its language, first line number and long marker."""
    blocks: list[Block] = []
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        m = re.match(r"^```(\w*)\s*$", lines[i])
        if not m:
            i += 1
            continue
        start = i
        j = i + 1
        while j < len(lines) and not lines[j].startswith("```"):
            j += 1
        before = [ln.strip() for ln in lines[:start] if ln.strip()]
        blocks.append(Block(start + 1, m.group(1), "\n".join(lines[start + 1:j]),
                            bool(before) and before[-1] == LONG))
        i = j + 1
    return blocks


def commands(block: Block) -> list[Command]:
    """The commands of a bash block, continuation lines joined, with their expected exit
    status and printed output."""
    out: list[Command] = []
    pending = ""
    for k, raw in enumerate(block.body.splitlines()):
        line = raw.rstrip()
        if pending:
            pending += " " + line.strip()
        elif not line.strip():
            continue
        elif line.startswith("#"):
            if out and line.startswith("# "):
                out[-1].output.append(line[2:])
            continue
        else:
            pending = line
        if pending.endswith("\\"):
            pending = pending[:-1].rstrip()
            continue
        m = re.search(r"#\s*exits\s+(\d+)\s*$", pending)
        out.append(Command(block.line + 1 + k, pending, int(m.group(1)) if m else 0))
        pending = ""
    return out


def _blocks(lang: str, long: bool, page: Path = README) -> list[Block]:
    return [b for b in fenced_blocks(page.read_text(encoding="utf-8"))
            if b.lang == lang and b.long == long]


DOCS = sorted((ROOT / "docs").rglob("*.md"))
"""The user guide's pages: their blocks follow the same conventions and run as slow tests
(the README's run by default)."""


def _cases(lang: str, long: bool) -> list:
    cases = [pytest.param(README, b, id=f"README.md:{b.line}") for b in _blocks(lang, long)]
    for page in DOCS:
        name = page.relative_to(ROOT).as_posix()
        cases += [pytest.param(page, b, id=f"{name}:{b.line}", marks=pytest.mark.slow)
                  for b in _blocks(lang, long, page)]
    return cases


def _squeeze(s: str) -> str:
    return " ".join(s.split())


def matches(expected: str, printed: str) -> bool:
    """Whether an output line of the README matches a line that the command printed."""
    pattern = ".*".join(re.escape(part) for part in _squeeze(expected).split("..."))
    return any(re.search(pattern, _squeeze(ln)) for ln in printed.splitlines())


def _fresh_copy(dest: Path) -> Path:
    files = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True,
                           check=True).stdout.decode().split("\0")
    for name in filter(None, files):
        src = ROOT / name
        target = dest / name
        if src.is_symlink():  # validation/ -> pflbounds/suites, as a clone has it
            target.parent.mkdir(parents=True, exist_ok=True)
            target.symlink_to(os.readlink(src))
        elif src.is_file():
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, target)
    return dest


def _env(copy: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if not k.startswith("PFLBOUNDS_") and k != "PYTHONPATH"}
    env["PATH"] = str(Path(sys.executable).parent) + os.pathsep + env.get("PATH", "")
    env["PYTHONPATH"] = str(copy)
    env["MPLBACKEND"] = "Agg"
    return env


def test_the_readme_has_commands_to_run_and_marks_the_long_ones():
    assert _blocks("bash", long=False), "no runnable bash block in the README"
    assert _blocks("bash", long=True), "no block marked long in the README"
    for b in _blocks("bash", long=False) + _blocks("bash", long=True):
        assert commands(b), f"README.md:{b.line}: a bash block without a command"


@pytest.mark.parametrize(("page", "block"), _cases("bash", long=False))
def test_a_block_runs_as_shown(page: Path, block: Block, tmp_path: Path):
    copy = _fresh_copy(tmp_path / "repo")
    env = _env(copy)
    for cmd in commands(block):
        run = subprocess.run(["bash", "-c", cmd.text], cwd=copy, env=env, capture_output=True,
                             text=True, timeout=TIMEOUT)
        printed = run.stdout + run.stderr
        where = f"{page.name}:{cmd.line}: {cmd.text}"
        assert run.returncode == cmd.status, (
            f"{where}\nexit status {run.returncode}, the README says {cmd.status}\n{printed}")
        assert "Traceback" not in printed, f"{where}\n{printed}"
        for expected in cmd.output:
            assert matches(expected, printed), (
                f"{where}\nthe README shows {expected!r}; the command printed:\n{printed}")


NESTED = ("audit",)
"""Commands whose first argument is a command of its own (``pflbounds audit mutants``)."""


def _options(help_text: str) -> set[str]:
    return set(re.findall(r"(?<![\w-])(--?[A-Za-z][\w-]*)", help_text))


def _simple_commands(text: str) -> list[list[str]]:
    """The simple commands of a shell line (split at ``&&``, ``||``, ``;`` and ``|``), as
    argument lists, comments removed."""
    lexer = shlex.shlex(text, posix=True, punctuation_chars=";&|")
    lexer.whitespace_split = True
    lexer.commenters = "#"
    out: list[list[str]] = [[]]
    for tok in lexer:
        if tok in ("&&", "||", ";", "|", "&"):
            out.append([])
        else:
            out[-1].append(tok)
    return [c for c in out if c]


@pytest.mark.parametrize(("page", "block"), _cases("bash", long=True))
def test_a_long_block_uses_commands_and_options_that_exist(page: Path, block: Block):
    env = _env(ROOT)
    helps: dict[str, str] = {}
    for cmd in commands(block):
        for argv in _simple_commands(cmd.text):
            if argv[0] != "pflbounds":
                continue
            sub = " ".join(argv[1:3]) if argv[1] in NESTED else argv[1]
            if sub not in helps:
                run = subprocess.run(["pflbounds", *sub.split(), "--help"], env=env,
                                     capture_output=True, text=True, timeout=TIMEOUT)
                assert run.returncode == 0, f"{page.name}:{cmd.line}: no command {sub!r}"
                helps[sub] = run.stdout
            for opt in argv[1 + len(sub.split()):]:
                if opt.startswith("-"):
                    assert opt.split("=", 1)[0] in _options(helps[sub]), (
                        f"{page.name}:{cmd.line}: pflbounds {sub} has no option {opt}")


@pytest.mark.parametrize(("page", "block"), _cases("python", long=False))
def test_a_python_block_runs(page: Path, block: Block, tmp_path: Path):
    copy = _fresh_copy(tmp_path / "repo")
    script = tmp_path / "example.py"
    script.write_text(block.body + "\n", encoding="utf-8")
    run = subprocess.run([sys.executable, str(script)], cwd=copy, env=_env(copy),
                         capture_output=True, text=True, timeout=TIMEOUT)
    assert run.returncode == 0, f"{page.name}:{block.line}\n{run.stdout}{run.stderr}"


def test_the_conventions_are_read_as_documented():
    block = Block(1, "bash", "a \\\n  b   # exits 2\n# printed x\n#no space: a comment\nc\n", False)
    cmds = commands(block)
    assert [c.text for c in cmds] == ["a b   # exits 2", "c"]
    assert cmds[0].status == 2 and cmds[1].status == 0
    assert cmds[0].output == ["printed x"]
    assert matches("value = 0.23 ...", "head\nvalue  =  0.23 and more\n")
    assert not matches("value = 0.24", "value = 0.23")
    assert _simple_commands("python -m venv .venv && source x  # c") == [
        ["python", "-m", "venv", ".venv"], ["source", "x"]]
    text = "x\n<!-- long -->\n\n```bash\nrun\n```\n```python\npass\n```\n"
    found = fenced_blocks(text)
    assert [(b.lang, b.long, b.line) for b in found] == [("bash", True, 4), ("python", False, 7)]


@pytest.mark.parametrize(("page", "block"), _cases("python", long=True))
def test_a_long_python_block_compiles(page: Path, block: Block):
    compile(block.body, f"{page.name}:{block.line}", "exec")
