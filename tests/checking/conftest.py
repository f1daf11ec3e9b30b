"""Fixtures of the checking tests: the toy checks registered for the duration of a test."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

HERE = str(Path(__file__).resolve().parent)
if HERE not in sys.path:
    sys.path.insert(0, HERE)

import toy_checks  # noqa: E402


@pytest.fixture
def toys():
    """Register the toy checks; remove them after the test. Yields id -> Check."""
    toy_checks.register_all()
    yield {c.id: c for c in toy_checks.CHECKS}
    toy_checks.unregister_all()
