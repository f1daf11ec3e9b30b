"""Fixtures of the audit tests: the test paper ``auditpaper`` loaded next to the real ones."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

PAPERS = str(Path(__file__).parents[1] / "fixtures" / "papers")


@pytest.fixture
def audit_paper() -> Iterator[str]:
    """Load ``auditpaper`` (results, checks and audit module); forget it afterwards."""
    from pflbounds.checking import registry
    from pflbounds.symbolic import catalog, loader

    registry.load_papers()  # the real papers' checks belong to the state restored below
    state = registry.snapshot()
    sys.path.insert(0, PAPERS)
    loader.add_paper_package("auditpaper")
    try:
        registry.load_papers()
        yield "auditpaper"
    finally:
        loader.remove_paper_package("auditpaper")
        catalog.forget_paper("auditpaper")
        for mod in [m for m in sys.modules if m == "auditpaper" or m.startswith("auditpaper.")]:
            del sys.modules[mod]
            loader._LOADED.discard(mod)
        registry.restore(state)
        sys.path.remove(PAPERS)
