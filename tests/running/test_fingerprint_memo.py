"""Tree hashes are computed once inside ``frozen_trees`` and on every call outside it."""

from __future__ import annotations

import importlib
import sys

import pytest

from pflbounds.running import fingerprint


@pytest.fixture
def package(tmp_path, monkeypatch):
    root = tmp_path / "memo_pkg"
    root.mkdir()
    (root / "__init__.py").write_text("X = 1\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    importlib.import_module("memo_pkg")
    yield root
    sys.modules.pop("memo_pkg", None)


def test_an_edit_changes_the_hash_outside_a_frozen_block(package):
    before = fingerprint.paper_hash("memo_pkg")
    (package / "extra.py").write_text("Y = 2\n")
    assert fingerprint.paper_hash("memo_pkg") != before


def test_a_frozen_block_hashes_each_tree_once(package, monkeypatch):
    calls = []
    real = fingerprint.tree_hash
    monkeypatch.setattr(fingerprint, "tree_hash", lambda *a, **k: calls.append(a) or real(*a, **k))
    with fingerprint.frozen_trees():
        first = fingerprint.paper_hash("memo_pkg")
        engines = fingerprint.engines_hash()
        (package / "extra.py").write_text("Y = 2\n")
        with fingerprint.frozen_trees():  # nested: the outer memo
            assert fingerprint.paper_hash("memo_pkg") == first
        assert fingerprint.engines_hash() == engines
    assert len(calls) == 2
    assert fingerprint.paper_hash("memo_pkg") != first  # thawed: the edit shows
    assert len(calls) == 3


def test_execute_freezes_the_trees_while_it_runs(monkeypatch):
    from pflbounds.running import executor

    seen = []
    monkeypatch.setattr(executor, "Progress", lambda mode: seen.append(fingerprint._TREES)
                        or pytest.fail("stop"))
    with pytest.raises(pytest.fail.Exception):
        executor.execute([], progress=False)
    assert seen == [{}]
    assert fingerprint._TREES is None
