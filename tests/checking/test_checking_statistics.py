"""Moments from sums, one-sided limits (coverage), Wilson limits and slope fits."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

from pflbounds.checking.evidence import combine_blocks, mc_block
from pflbounds.checking.statistics import (
    bonferroni,
    covariance,
    fit_line,
    log_mean_covariance,
    moments,
    one_sided_limits,
    t_quantile,
)


def test_moments_match_numpy():
    rng = np.random.default_rng(0)
    x = rng.normal(3.0, 2.0, size=(57, 4))
    b = mc_block(x)
    m = moments(b["sum"], b["sumsq"], b["count"])
    np.testing.assert_allclose(m.mean, x.mean(axis=0), rtol=1e-13)
    np.testing.assert_allclose(m.sd, x.std(axis=0, ddof=1), rtol=1e-10)
    np.testing.assert_allclose(m.se, x.std(axis=0, ddof=1) / np.sqrt(57), rtol=1e-10)
    np.testing.assert_allclose(covariance(b["sum"], b["sumcross"], b["count"]),
                               np.cov(x, rowvar=False), rtol=1e-10)


def test_blocks_are_additive():
    rng = np.random.default_rng(1)
    x = rng.normal(size=(100, 5))
    whole = mc_block(x)
    parts = combine_blocks([mc_block(x[:30]), mc_block(x[30:70]), mc_block(x[70:])])
    assert set(parts) == set(whole)
    for k in whole:
        np.testing.assert_allclose(parts[k], whole[k], rtol=1e-12, atol=1e-12)
    assert float(parts["count"]) == 100.0


def test_single_replica_has_no_interval():
    b = mc_block(np.array([[1.0, 2.0]]))
    lo, hi = one_sided_limits(moments(b["sum"], b["sumsq"], b["count"]), 0.01)
    assert np.all(lo == -np.inf) and np.all(hi == np.inf)


def test_one_sided_limits_have_their_coverage():
    """Each one-sided Student-t limit misses the true mean with probability alpha."""
    rng = np.random.default_rng(2)
    mu, n, reps, alpha = 1.0, 30, 20000, 0.05
    x = rng.normal(mu, 2.0, size=(reps, n))
    m = moments(x.sum(axis=1), (x * x).sum(axis=1), n)
    lo, hi = one_sided_limits(m, alpha)
    miss_hi = np.mean(hi < mu)
    miss_lo = np.mean(lo > mu)
    sd = np.sqrt(alpha * (1 - alpha) / reps)
    assert abs(miss_hi - alpha) < 4 * sd
    assert abs(miss_lo - alpha) < 4 * sd


def test_t_quantile_is_student_and_tends_to_normal():
    assert t_quantile(0.01, 9) == pytest.approx(stats.t.isf(0.01, 9))
    assert t_quantile(0.01, 1e9) == pytest.approx(stats.norm.isf(0.01))
    assert t_quantile(0.01, 9) > t_quantile(0.01, 1e9)
    assert bonferroni(0.99, 10) == pytest.approx(0.001)


def test_support_widens_a_degenerate_interval():
    """All-zero indicators: Student-t gives [0, 0]; the Wilson limit does not."""
    b = mc_block(np.zeros(100))
    m = moments(b["sum"], b["sumsq"], b["count"])
    lo, hi = one_sided_limits(m, 0.05)
    assert float(hi) == 0.0
    lo, hi = one_sided_limits(m, 0.05, support=(0.0, 1.0))
    z = stats.norm.isf(0.05)
    assert float(hi) == pytest.approx(z * z / (100 + z * z))
    assert float(lo) == 0.0


def test_fit_line_exact_and_errors():
    x = np.log([1.0, 2.0, 4.0, 8.0])
    f = fit_line(x, 3.0 - 1.0 * x)
    assert f.slope == pytest.approx(-1.0, abs=1e-14)
    assert f.intercept == pytest.approx(3.0, abs=1e-14)
    assert f.se == 0.0
    with pytest.raises(ValueError):
        fit_line(np.array([1.0]), np.array([2.0]))
    with pytest.raises(ValueError):
        fit_line(np.array([1.0, 1.0]), np.array([2.0, 3.0]))


def test_slope_standard_error_matches_sampling_spread_under_correlation():
    """The delta-method standard error (with sumcross) predicts the spread of fitted slopes
    of correlated Monte Carlo curves; the uncorrelated approximation does not."""
    rng = np.random.default_rng(3)
    ks = np.array([1.0, 2.0, 4.0, 8.0, 16.0])
    n, reps = 400, 500
    slopes, se_full, se_diag = [], [], []
    for _ in range(reps):
        z = rng.standard_normal((n, 1))
        e = rng.standard_normal((n, ks.size))
        x = (1.0 / ks) * (1.0 + 0.3 * z + 0.1 * e * np.sqrt(ks))
        b = mc_block(x)
        m = moments(b["sum"], b["sumsq"], b["count"])
        cov = covariance(b["sum"], b["sumcross"], b["count"])
        full = fit_line(np.log(ks), np.log(m.mean), log_mean_covariance(m.mean, n, m.sd, cov))
        diag = fit_line(np.log(ks), np.log(m.mean), log_mean_covariance(m.mean, n, m.sd))
        slopes.append(full.slope)
        se_full.append(full.se)
        se_diag.append(diag.se)
    spread = np.std(slopes, ddof=1)
    assert np.mean(se_full) == pytest.approx(spread, rel=0.15)
    assert abs(np.mean(se_diag) - spread) > 0.3 * spread
