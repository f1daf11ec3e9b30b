"""Fixtures for the reporting tests."""

from __future__ import annotations

import pytest
from report_sample import SMALL_CHECKS, make_sample_report

from pflbounds.reporting.model import Report


@pytest.fixture
def sample_report() -> Report:
    """A fresh realistic report (two results, three verdicts, one erratum)."""
    return make_sample_report()




@pytest.fixture(scope="session")
def small_results(tmp_path_factory: pytest.TempPathFactory):
    """A results folder written by ``pflbounds validate`` for :data:`SMALL_CHECKS`, and the
    suite file that made it."""
    from pflbounds.cli import main

    root = tmp_path_factory.mktemp("small")
    suite = root / "small.toml"
    suite.write_text('name = "small"\ndescription = "report tests"\nseed = 2022\n'
                     'grid = "quick"\n' + "".join(f'\n[[checks]]\nid = "{c}"\n'
                                                  for c in SMALL_CHECKS), encoding="utf-8")
    results = root / "results"
    code = main(["validate", str(suite), "--out", str(results), "--no-cache", "--json"])
    assert code == 0, code
    return results, suite


@pytest.fixture(scope="session")
def small_report(small_results, tmp_path_factory: pytest.TempPathFactory):
    """The PDF ``pflbounds report --detail full`` writes from :func:`small_results` (do not
    modify it)."""
    from pflbounds.cli import main

    results, _ = small_results
    out = tmp_path_factory.mktemp("small-report") / "small.pdf"
    assert main(["report", str(results), "--out", str(out), "--detail", "full"]) == 0
    return out
