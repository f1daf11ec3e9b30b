"""erickson2025 checks: each ends with its expected verdict, and the counterexample's
numbers are those of digest §5.4."""

from __future__ import annotations

import numpy as np
import pytest

from pflbounds.checking.registry import get, load_papers
from pflbounds.papers.erickson2025.checks.deterministic import counterexample, simulate_p2
from pflbounds.running import run_check


def test_counterexample_numbers():
    c = counterexample({"r12": 1.0})
    assert c["G2"] == pytest.approx(64 / 441, rel=1e-12)
    assert c["Delta0"] == pytest.approx(5 / 98, rel=1e-9)
    ev = simulate_p2({"r12": 1.0}, 1, np.random.SeedSequence(0))
    assert float(ev["ratio_printed"]) == pytest.approx(16 / 15, rel=1e-9)
    assert float(ev["ratio_explicit"]) == pytest.approx(2 / 15, rel=1e-9)


@pytest.mark.parametrize("cid", ["P2", "E_dimension", "P12", "P6", "P7", "P8", "P9",
                                 "P9_lp", "P10", "P11", "P1", "P1_printed",
                                 "E_reading_A", "E_inexact_definition"])
def test_checks_end_with_their_expected_verdicts(cid):
    load_papers()
    chk = get(f"erickson2025.{cid}")
    out = run_check(chk, quick=True, base_seed=0, progress=False)
    assert out.verdict == chk.expected, out.detail
