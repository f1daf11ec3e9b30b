"""Lemma 2, who collaborates: the quick verdicts of its checks and the figure of the
collaborator sets over time."""

from __future__ import annotations

import pytest

from pflbounds.papers.philippenko2025.checks import effective_cluster
from pflbounds.papers.philippenko2025.checks.effective_cluster import CHECKS
from pflbounds.papers.philippenko2025.theory.effective_cluster import LEMMA2
from pflbounds.symbolic import evaluate, get

FAST = ["P6", "P7", "P7_sets", "P20"]
BY_KEY = {c.id.split(".", 1)[1]: c for c in CHECKS}


def test_lemma2_bounds_the_effective_variance_by_the_sufficient_one():
    for form in ("printed", "corrected"):
        assert evaluate(get(LEMMA2.id), form, sigma_suf2=0.3).value == pytest.approx(0.3)
    assert all(c.result_id == LEMMA2.id for c in CHECKS)


@pytest.mark.parametrize("key", FAST)
def test_quick_verdict_is_the_expected_one(quick_outcomes, key):
    o = quick_outcomes[key]
    assert o.error is None, o.error
    assert o.verdict == BY_KEY[key].expected, o.detail


def test_collaborator_figure(quick_outcomes):
    figs = effective_cluster.plot_p6(quick_outcomes["P6"])
    assert len(figs) == 2 and figs[0]["series"]
    shares = [s["y"] for s in figs[0]["series"]]
    assert all(0 <= min(y) and max(y) <= 1 for y in shares)
    # the far cluster is dropped: some peer's share falls from 1 to 0
    assert any(y[0] == 1.0 and y[-1] == 0.0 for y in shares)
