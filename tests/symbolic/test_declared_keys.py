"""The scan for result declarations (pflbounds.symbolic.manifest.declared_keys) finds what
its pattern, tried at every character, finds: in every source file of the clone and in
near misses written for the purpose."""

from __future__ import annotations

from pathlib import Path

import pytest

from pflbounds.symbolic.manifest import _DECLARATION, declared_keys

ROOT = Path(__file__).resolve().parents[2]


def _by_pattern(source: str) -> list[str]:
    return [m.group(2) for m in _DECLARATION.finditer(source)]


def test_every_source_file_gives_the_keys_of_the_pattern():
    files = sorted((ROOT / "pflbounds").rglob("*.py")) + sorted((ROOT / "tests").rglob("*.py"))
    found = 0
    for path in files:
        source = path.read_text(encoding="utf-8")
        keys = declared_keys(source)
        assert keys == _by_pattern(source), path
        found += len(keys)
    assert found > 100  # the papers' theory modules were read


@pytest.mark.parametrize("source", [
    'result("k")', 'P.result(  "k")', "x.result('k', 1)", "_.result(\n  'k')",
    'é.result("k")', 'result(result("k")', 'result("a") + P.result("b")',
    'myresult("k")', 'a.b.result("k")', '.result("k")', '.é.result("k")', 'result("k\')',
    'result("1k")', 'result(k)', 'result (\"k\")', 'x = P.result', 'result(',
])
def test_near_misses_are_read_as_the_pattern_reads_them(source):
    assert declared_keys(source) == _by_pattern(source)
