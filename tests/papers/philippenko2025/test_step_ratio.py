"""Remark 3's bound on the step ratio: its forms, and its checks (P13) hold along runs and
catch a bound that is too small."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from pflbounds.checking import Verdict
from pflbounds.papers.philippenko2025.checks.step_ratio import CHECKS
from pflbounds.papers.philippenko2025.theory.step_ratio import REMARK3_BINARY, REMARK3_CONTINUOUS
from pflbounds.running.executor import run_check
from pflbounds.symbolic import evaluate, get

FAST = ["P13_binary", "P13_continuous"]
BY_KEY = {c.id.split(".", 1)[1]: c for c in CHECKS}


def test_remark3_forms():
    assert evaluate(get(REMARK3_BINARY.id), lam=0.3).value == pytest.approx(0.3)
    assert evaluate(get(REMARK3_CONTINUOUS.id), "corrected", SinvSum=20.0).value == \
        pytest.approx(0.05)


@pytest.mark.parametrize("key", FAST)
def test_quick_verdict_is_the_expected_one(quick_outcomes, key):
    o = quick_outcomes[key]
    assert o.error is None, o.error
    assert o.verdict == BY_KEY[key].expected, o.detail


def test_a_bound_too_small_is_caught():
    check = BY_KEY["P13_binary"]

    def simulate(p, R, seed):
        ev = check.simulate(p, R, seed)
        ev["bound"] = np.asarray(ev["bound"]) * 0.4
        return ev

    planted = dataclasses.replace(check, id=check.id + "_planted", simulate=simulate)
    o = run_check(planted, quick=True, base_seed=0, progress=False)
    assert o.verdict == Verdict.VIOLATED, o.detail
