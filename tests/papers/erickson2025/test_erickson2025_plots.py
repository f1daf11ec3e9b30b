"""The erickson2025 figures: what they draw comes from the checks' evidence and says what the
report claims (the K = 1 window, the admissible-s map, the envelopes)."""

from __future__ import annotations

import numpy as np
import pytest

from pflbounds.checking.registry import get, load_papers
from pflbounds.papers.erickson2025.checks.deterministic import simulate_p2
from pflbounds.reporting.outcome_figures import figures_for, informative
from pflbounds.running import run_check


def _series(fig: dict, start: str) -> dict:
    return next(s for s in fig["series"] if s["label"].startswith(start))


def test_counterexample_family_violates_the_printed_envelope_only_near_one_seventh():
    ev = simulate_p2({"r12": 1.0}, 1, np.random.SeedSequence(0))
    t, rp = ev["sweep_t"], ev["sweep_ratio_printed"]
    assert rp[np.argmin(np.abs(t - 1 / 7))] == pytest.approx(16 / 15, rel=1e-6)
    bad = t[rp > 1]
    assert 0.13 < bad.min() and bad.max() < 0.16
    assert np.all(ev["sweep_ratio_explicit"] <= 2 / 15 + 1e-9)


@pytest.mark.parametrize("cid", ["P1", "P2", "P12"])
def test_custom_figures_are_drawn(cid):
    load_papers()
    chk = get(f"erickson2025.{cid}")
    out = run_check(chk, quick=True, base_seed=0, progress=False)
    figs = chk.plot(out)
    assert figs and all(informative(f) for f in figs)
    assert figures_for(out, chk)[0]["kind"] == "curves"
    fig = figs[0]
    if cid == "P12":
        n = np.asarray(_series(fig, "corrected, $\\eta = 3/(8L)$")["x"])
        s = np.asarray(_series(fig, "corrected, $\\eta = 3/(8L)$")["y"])
        assert s[n == 30][0] == 6 and s[n == 100][0] == 10
        assert set(_series(fig, "printed")["y"]) == {2.0}
    if cid == "P1":
        avg = np.asarray(_series(fig, "average")["y"])
        corr = np.asarray(_series(fig, "explicit = corrected")["y"])
        printed = np.asarray(_series(fig, "printed")["y"])
        np.testing.assert_allclose(corr, 8 * printed, rtol=1e-12)
        assert np.all(avg < corr)
