"""Fixtures shared by the whole suite: the test-only papers under ``tests/fixtures/papers``."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

TESTPAPERS = str(Path(__file__).parent / "fixtures" / "papers")


@pytest.fixture
def extra_paper() -> Iterator:
    """Load a test-only paper package by name next to the real ones; forget it afterwards."""
    from pflbounds.checking import registry
    from pflbounds.symbolic import catalog, loader

    added: list[str] = []
    registry.load_papers()  # the real papers' checks belong to the state restored below
    state = registry.snapshot()
    sys.path.insert(0, TESTPAPERS)

    def load(name: str) -> None:
        loader.add_paper_package(name)
        added.append(name)

    try:
        yield load
    finally:
        for name in added:
            loader.remove_paper_package(name)
            catalog.forget_paper(name)
            for mod in [m for m in sys.modules if m == name or m.startswith(name + ".")]:
                del sys.modules[mod]
                loader._LOADED.discard(mod)
        registry.restore(state)
        sys.path.remove(TESTPAPERS)


@pytest.fixture(scope="session", autouse=True)
def _no_audit_records_of_the_clone(tmp_path_factory: pytest.TempPathFactory) -> Iterator:
    """The audits' default folder (``reports/audit``) points to an empty folder of the test
    session: a report built by a test never reads the audit records a user left in the clone
    (their tightness column would change its pages), and an audit run by a test with the
    default ``--out`` never writes there."""
    import pflbounds.audit.files as files
    import pflbounds.cli.audit as cli_audit

    empty = tmp_path_factory.mktemp("audit-default")
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(files, "AUDIT_DIR", empty)
        mp.setattr(cli_audit, "AUDIT_DIR", empty)
        yield empty
