"""Fixtures for the reporting tests."""

from __future__ import annotations

import pytest
from report_sample import make_sample_report

from pflbounds.reporting.model import Report


@pytest.fixture
def sample_report() -> Report:
    """A fresh realistic report (two results, three verdicts, one erratum)."""
    return make_sample_report()


#: Real even2022 checks, fast on their quick grids, that cover every kind of figure and table:
#: curves with bounds, a rate, a scaling, a Monte Carlo band, value tables (one x value, an
#: identity), four errata (CONFIRMED erratum checks and identities) and an expected VIOLATED.
SMALL_CHECKS = (
    "even2022.P1", "even2022.P1_mc", "even2022.P3", "even2022.P3n", "even2022.P6_theory",
    "even2022.P9_lemma5", "even2022.P10", "even2022.P11", "even2022.P14",
    "even2022.P15_global", "even2022.E16", "even2022.E17",
)


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
    """The PDF ``pflbounds report`` writes from :func:`small_results` (do not modify it)."""
    from pflbounds.cli import main

    results, _ = small_results
    out = tmp_path_factory.mktemp("small-report") / "small.pdf"
    assert main(["report", str(results), "--out", str(out)]) == 0
    return out
