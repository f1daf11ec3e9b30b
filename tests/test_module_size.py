"""Small modules: no module of pflbounds is over MAX_LINES lines (a module holds one thing;
a larger one is split by what it holds)."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1] / "pflbounds"
MAX_LINES = 600


def _lines(path: Path) -> int:
    return len(path.read_text(encoding="utf-8").splitlines())


def test_every_module_is_small():
    large = {p.relative_to(ROOT).as_posix(): n for p in sorted(ROOT.rglob("*.py"))
             if (n := _lines(p)) > MAX_LINES}
    assert large == {}, f"modules over {MAX_LINES} lines (split each by what it holds): {large}"


def test_the_walk_sees_the_modules():
    """The walk reads the package (a wrong root would pass the test above on nothing)."""
    assert (ROOT / "cli" / "__init__.py").is_file()
    assert len(list(ROOT.rglob("*.py"))) > 100
