"""Figure 2's ordering (All-for-one against Local at t = 5): the comparisons' verdicts are the
declared ones at the suite's seed and stable over three other seeds (an INCONCLUSIVE may stay
INCONCLUSIVE, never turn into a VIOLATED)."""

from __future__ import annotations

import pytest

from pflbounds.checking import Verdict
from pflbounds.papers.philippenko2025.experiments.figure2 import CHECKS
from pflbounds.running.executor import run_check

ORDER = [c for c in CHECKS if c.id.startswith("philippenko2025.F2_") and c.methods]


def test_the_comparisons_declare_their_draws_before_the_run():
    assert len(ORDER) == 4
    for c in ORDER:
        assert c.plan is not None and c.replicas == c.plan.draws <= c.plan.budget_draws
        assert c.methods[-1] == "local"
    assert {c.id.rsplit(".", 1)[1]: c.expected for c in ORDER}["F2_binary_d10"] \
        is Verdict.INCONCLUSIVE


@pytest.mark.slow
@pytest.mark.parametrize("check", ORDER, ids=lambda c: c.id)
def test_the_verdicts_are_stable_over_seeds(check):
    for seed in (2025, 7, 11, 13):
        o = run_check(check, base_seed=seed, progress=False)
        assert o.error is None, o.error
        assert o.verdict == check.expected, (seed, o.detail)
