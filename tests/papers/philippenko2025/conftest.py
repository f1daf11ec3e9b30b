"""Shared fixture of the philippenko2025 tests: the quick-grid outcomes of a topic's checks."""

from __future__ import annotations

import pytest

from pflbounds.running.executor import run_check


@pytest.fixture(scope="module")
def quick_outcomes(request):
    """The quick-grid outcomes (seed 0) of the checks a test module names in ``FAST`` (keys
    of its ``CHECKS``, the check modules' list), by key."""
    by_key = {c.id.split(".", 1)[1]: c for c in request.module.CHECKS}
    return {k: run_check(by_key[k], quick=True, base_seed=0, progress=False)
            for k in request.module.FAST}
