"""Fixtures for the reporting tests."""

from __future__ import annotations

import pytest
from report_sample import make_sample_report

from pflbounds.reporting.model import Report


@pytest.fixture
def sample_report() -> Report:
    """A fresh realistic report (two results, three verdicts, one erratum)."""
    return make_sample_report()
