"""Checks skipped for a missing extra: the report lists them as not run, with the reason."""

from __future__ import annotations

import numpy as np
from test_findings import KS, synthetic

from pflbounds.extras import MissingExtra
from pflbounds.reporting.assemble import build_report
from pflbounds.reporting.claims import paper_findings
from pflbounds.reporting.document import build_document
from pflbounds.reporting.figures import plan_figures

WHY = str(MissingExtra("jax", "check even2022.P11"))


def test_skipped_checks_are_not_run_with_the_reason():
    outcomes = [synthetic("even2022.P1", [{"ks": KS, "mean": np.array([0.5, 0.4, 0.3]),
                                           "bound": np.ones(3)}])]
    report = build_report(outcomes, suite="s", skipped={"even2022.P11": WHY})
    section = next(s for s in report.sections if s.paper_id == "even2022")
    assert section.skipped == {"even2022.P11": WHY}
    skipped = [f for f in paper_findings(section)
               if any("even2022.P11" in r.checks for r in f.results)]
    assert skipped, "P11 tests a claim"
    assert [f.printed.text for f in skipped if f.printed.word == "not run"] == [
        'not run: needs JAX (networks and compiled loops): pip install "pflbounds[jax]"']
    src = build_document(report, plan_figures(report))
    line = next(ln for ln in src.splitlines() if "Skipped, not run" in ln)
    assert "*Skipped, not run*: P11 #muted[(needs JAX (networks and compiled loops)" in line
    assert "pip install" in line and "jax" in line.rsplit("pip install", 1)[1]
