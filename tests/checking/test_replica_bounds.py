"""Per-replica (data-dependent) bounds and holds_with_probability, on the test-only paper."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from pflbounds.checking import CheckKind, Verdict, registry
from pflbounds.checking.binomial import clopper_pearson
from pflbounds.checking.check import Check
from pflbounds.checking.evidence import combine_blocks, normalize_block
from pflbounds.running.executor import run_check


@pytest.fixture
def toy(extra_paper):
    extra_paper("toypaper")
    registry.load_papers()
    return lambda cid: registry.get(f"toypaper.{cid}")


def _planted(check: Check, **grid_changes) -> Check:
    grid = tuple({**p, **grid_changes} for p in check.grid)
    return dataclasses.replace(check, id=check.id + "_planted", grid=grid,
                               expected=Verdict.HOLDS)


def test_expectation_bound_of_the_test_paper_holds(toy):
    out = run_check(toy("P1"), progress=False)
    assert out.verdict is Verdict.HOLDS, out.detail
    assert out.margin > 1


def test_per_replica_bound_true_and_planted(toy):
    true = run_check(toy("sure"), progress=False)
    assert true.verdict is Verdict.HOLDS, true.detail
    assert 1.0 <= true.margin < 1.2  # (u+v)^2 <= 2u^2 + 2v^2 is tight when u = v
    ev = true.evidence[0]
    assert np.all(ev["bound_lo"] <= ev["bound"]) and np.all(ev["bound"] <= ev["bound_hi"])
    assert np.all(ev["violations"] == 0)
    planted = run_check(_planted(toy("sure"), c=1.0), progress=False)
    assert planted.verdict is Verdict.VIOLATED
    assert "replica-entries above their bound" in planted.detail
    assert planted.margin < 1


def test_paired_bound_true_and_planted(toy):
    true = run_check(toy("paired"), progress=False)
    assert true.verdict is Verdict.HOLDS, true.detail
    # in expectation, not surely: some replicas are above their own bound
    assert np.sum(true.evidence[0]["violations"]) > 0
    planted = run_check(_planted(toy("paired"), c=0.5), progress=False)
    assert planted.verdict is Verdict.VIOLATED, planted.detail
    # the same evidence under per_replica semantics: violated (the claim is weaker)
    strict = dataclasses.replace(toy("paired"), id="toypaper.paired_strict",
                                 bound_mode="per_replica")
    assert run_check(strict, progress=False).verdict is Verdict.VIOLATED


def test_holds_with_probability_true_and_planted(toy):
    true = run_check(toy("whp"), progress=False)
    assert true.verdict is Verdict.HOLDS, true.detail
    ev = true.evidence[0]
    assert ev["rate_hi"] <= 0.1 and ev["count"] == 1000
    # a Gaussian tail: the true rate is P(|Z| >= sqrt(2 ln 20)) = 0.0143
    assert abs(float(ev["rate"]) - 0.0143) < 0.015
    planted = run_check(_planted(toy("whp"), z=1.0), progress=False)  # one sigma: rate 0.317
    assert planted.verdict is Verdict.VIOLATED, planted.detail
    assert float(planted.evidence[0]["rate_lo"]) > 0.1
    assert "draws violate the bound" in planted.detail


def test_replica_blocks_combine_exactly():
    rng = np.random.default_rng(3)
    x = rng.random((10, 4))
    b = x + rng.normal(0, 0.1, (10, 4))
    whole = normalize_block({"samples": x, "bound_samples": b}, engine="mc", kind="bound_holds")
    parts = [normalize_block({"samples": x[i:i + 5], "bound_samples": b[i:i + 5]},
                             engine="mc", kind="bound_holds") for i in (0, 5)]
    comb = combine_blocks(parts)
    for key in ("min_bound", "max_bound", "min_ratio", "count_violations",
                "count_any_violation", "count_draws"):
        np.testing.assert_array_equal(comb[key], whole[key])
    np.testing.assert_allclose(comb["sum_gap"], whole["sum_gap"], rtol=1e-14)
    assert float(whole["count_any_violation"]) == float(np.any(x > b, axis=1).sum())


def test_clopper_pearson_known_values_and_errors():
    lo, hi = clopper_pearson(0, 10, 0.05)
    assert lo == 0.0 and hi == pytest.approx(1 - 0.05 ** (1 / 10), rel=1e-12)
    lo, hi = clopper_pearson(10, 10, 0.05)
    assert hi == 1.0 and lo == pytest.approx(0.05 ** (1 / 10), rel=1e-12)
    lo, hi = clopper_pearson(5, 20, 0.025)
    assert lo < 0.25 < hi
    with pytest.raises(ValueError, match="0 <= x <= n"):
        clopper_pearson(3, 2, 0.05)


def test_check_fields_are_validated():
    sim = lambda p, n, s: {}  # noqa: E731
    with pytest.raises(ValueError, match=r"needs delta in \(0, 1\)"):
        Check("t.x", "t", CheckKind.HOLDS_WITH_PROBABILITY, Verdict.HOLDS, sim, ({},),
              engine="mc")
    with pytest.raises(ValueError, match="needs a Monte Carlo bound_holds check"):
        Check("t.y", "t", CheckKind.BOUND_HOLDS, Verdict.HOLDS, sim, ({},), engine="exact",
              bound_mode="paired")
    with pytest.raises(ValueError, match="bound_mode must be one of"):
        Check("t.z", "t", CheckKind.BOUND_HOLDS, Verdict.HOLDS, sim, ({},), engine="mc",
              bound_mode="sometimes")
