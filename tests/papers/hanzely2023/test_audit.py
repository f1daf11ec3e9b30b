"""hanzely2023's PEPit case: Theorem 5 in its deterministic one-client special case is
gradient descent; its bound is above PEPit's worst case of the weighted average."""

from __future__ import annotations

import pytest

from pflbounds.audit.declarations import declared
from pflbounds.audit.tightness import Cache, audit_case


@pytest.mark.slow
def test_theorem5_is_above_the_pepit_worst_case(tmp_path):
    cases = declared("hanzely2023", "TIGHTNESS", [])
    assert [f for case in cases for f in case.forms] == ["corrected", "printed"]
    cache = Cache(tmp_path / "c.json")
    rows = [r for case in cases for r in audit_case(case, cache, horizons=(1,))]
    assert {r.verdict for r in rows} == {"HOLDS"}
    # the bound is (1 - eta mu)^K Phi^0: 2/eta (corrected) and 1/eta (printed, all on beta)
    for r in rows:
        scale = 2.0 if r.form == "corrected" else 1.0
        assert r.bound == pytest.approx(scale * (1 - r.eta * r.mu) ** r.K / r.eta, rel=1e-12)
        assert r.ratio > 1 and r.worst <= 0.5 + 1e-6  # f at an average from distance 1
    # the same worst case serves both forms (the cache holds one entry per (mu, eta, K))
    assert len(cache.data) == 4


@pytest.mark.slow
def test_gradient_counts_are_checked_closely_enough_to_catch_a_halved_count():
    """P6_grads (added so that the mutation audit reaches Theorem 9's gradient counts): it
    holds on its quick grid, and its lower confidence limits sit above half of each bound,
    so a count with half the constant would be VIOLATED."""
    from pflbounds.checking import Verdict, registry
    from pflbounds.running.executor import run_check

    registry.load_papers()
    o = run_check(registry.get("hanzely2023.P6_grads"), quick=True, base_seed=2023,
                  progress=False)
    assert o.verdict is Verdict.HOLDS, o.detail
    assert [p["params"]["counter"] for p in o.evidence] == ["grad_w_stochastic",
                                                           "grad_beta_stochastic"]
    for p in o.evidence:
        assert p["mean"][0] < p["bound"][0] < 2 * p["lo"][0]
