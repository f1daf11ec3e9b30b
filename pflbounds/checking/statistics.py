"""Statistics for Monte Carlo evidence: moments from sums, confidence limits, slope fits.

Conventions
-----------
* Sample moments come from additive sums over replicas: ``sum``, ``sumsq``, ``count`` (and
  optionally ``sumcross``, the matrix of cross products, for curve covariances). The sample
  standard deviation uses the ``n - 1`` denominator.
* Confidence limits are **one-sided Student-t limits** with ``n - 1`` degrees of freedom:
  ``mean +/- t_{1-a}(n-1) * sd / sqrt(n)``. Student-t is slightly wider than the normal
  quantile for small ``n`` and equal to it for large ``n``. The per-comparison level ``a`` is
  ``(1 - confidence) / m`` (Bonferroni) with ``m`` the number of comparisons of the check.
* For metrics known to lie in an interval ``[a, b]`` (probabilities, indicators) the limits
  are widened to cover the Wilson score limits computed with the largest variance a variable
  in ``[a, b]`` with that mean can have. This keeps a sample of all zeros from producing a
  zero-width interval.
* An infinite sample mean (some replica diverged to +-inf) gives the limits ``lo = hi =
  mean``: a diverging run violates every finite upper bound.
* Slopes are ordinary least-squares fits. Their standard error propagates the Monte Carlo
  covariance of the fitted values (delta method for ``log mean``); it measures sampling noise
  only. The estimand is thus the slope the exact engine would report, and misfit of the
  power law is the business of the check's tolerance.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy.special import ndtri, stdtrit  # scipy.stats would cost ~1 s to import


@dataclass(frozen=True)
class Moments:
    """Sample mean, standard deviation and standard error from additive sums."""

    mean: np.ndarray
    sd: np.ndarray
    se: np.ndarray
    count: float


def moments(total: np.ndarray, total_sq: np.ndarray, count: float) -> Moments:
    """Moments of ``count`` replicas from the sums ``total`` and ``total_sq``.

    With fewer than two replicas the standard deviation is unknown (``inf``).
    """
    total = np.asarray(total, dtype=np.float64)
    total_sq = np.asarray(total_sq, dtype=np.float64)
    n = float(np.asarray(count).reshape(-1)[0]) if np.ndim(count) else float(count)
    if n <= 0:
        raise ValueError("Monte Carlo evidence has count 0")
    mean = total / n
    if n < 2:
        sd = np.full_like(mean, np.inf)
    else:
        with np.errstate(invalid="ignore"):
            var = (total_sq - total * mean) / (n - 1.0)
        sd = np.sqrt(np.clip(var, 0.0, None))
        sd = np.where(np.isfinite(mean), sd, np.nan)
    return Moments(mean=mean, sd=sd, se=sd / math.sqrt(n), count=n)


def covariance(total: np.ndarray, total_cross: np.ndarray, count: float) -> np.ndarray:
    """Sample covariance matrix across recorded points from ``sum`` and ``sumcross``."""
    n = float(count)
    mean = np.asarray(total, dtype=np.float64) / n
    with np.errstate(invalid="ignore", over="ignore"):
        cov = (np.asarray(total_cross, dtype=np.float64) - n * np.outer(mean, mean)) / (n - 1.0)
    return cov


def bonferroni(confidence: float, m: int) -> float:
    """Per-comparison one-sided error level ``(1 - confidence) / m``."""
    return (1.0 - confidence) / max(int(m), 1)


def t_quantile(alpha: float, df: float) -> float:
    """Upper ``1 - alpha`` quantile of Student-t with ``df`` degrees of freedom."""
    if not np.isfinite(df) or df > 1e7:
        return float(-ndtri(alpha))
    if df < 1:
        return math.inf
    return float(-stdtrit(df, alpha))


def one_sided_limits(
    m: Moments, alpha: float, support: tuple[float, float] | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """Lower and upper one-sided limits, each at level ``1 - alpha``.

    ``support``: known range ``(a, b)`` of the metric; widens the limits to the Wilson score
    limits with the maximal variance ``(p - a)(b - p)``, and clips them to the range.
    """
    q = t_quantile(alpha, m.count - 1.0)
    with np.errstate(invalid="ignore"):
        half = q * m.se
        lo = np.where(np.isfinite(half), m.mean - half, -np.inf)
        hi = np.where(np.isfinite(half), m.mean + half, np.inf)
    # An infinite sample mean (a replica diverged) is taken at face value.
    inf = np.isinf(m.mean)
    lo = np.where(inf, m.mean, lo)
    hi = np.where(inf, m.mean, hi)
    if support is not None:
        wlo, whi = wilson_limits(m.mean, m.count, alpha, support)
        lo = np.minimum(lo, wlo)
        hi = np.maximum(hi, whi)
        lo = np.clip(lo, support[0], support[1])
        hi = np.clip(hi, support[0], support[1])
    return lo, hi


def wilson_limits(
    mean: np.ndarray, count: float, alpha: float, support: tuple[float, float]
) -> tuple[np.ndarray, np.ndarray]:
    """One-sided Wilson score limits for a mean of variables in ``support``."""
    a, b = float(support[0]), float(support[1])
    if not b > a:
        raise ValueError(f"support must satisfy a < b, got {support}")
    p = np.clip((np.asarray(mean, dtype=np.float64) - a) / (b - a), 0.0, 1.0)
    n = float(count)
    z = float(-ndtri(alpha))
    denom = 1.0 + z * z / n
    centre = (p + z * z / (2.0 * n)) / denom
    half = z / denom * np.sqrt(p * (1.0 - p) / n + z * z / (4.0 * n * n))
    return a + (b - a) * (centre - half), a + (b - a) * (centre + half)


@dataclass(frozen=True)
class LineFit:
    """A least-squares line ``y = intercept + slope * x`` with the slope's standard error."""

    slope: float
    intercept: float
    se: float
    n: int


def fit_line(x: np.ndarray, y: np.ndarray, cov: np.ndarray | None = None) -> LineFit:
    """Ordinary least squares of ``y`` on ``x``.

    ``cov``: covariance of ``y`` (a vector of variances or a full matrix). The slope's
    standard error is ``sqrt(c^T cov c)`` with ``c = (x - mean x) / S_xx``; zero when ``cov``
    is None (deterministic data).
    """
    x = np.asarray(x, dtype=np.float64)
    y = np.asarray(y, dtype=np.float64)
    if x.shape != y.shape or x.ndim != 1:
        raise ValueError("fit_line needs two 1-d arrays of equal length")
    if x.size < 2:
        raise ValueError(f"a slope needs at least 2 points, got {x.size}")
    xc = x - x.mean()
    sxx = float(xc @ xc)
    if sxx <= 0:
        raise ValueError("a slope needs at least two distinct x values")
    c = xc / sxx
    slope = float(c @ y)
    intercept = float(y.mean() - slope * x.mean())
    if cov is None:
        se = 0.0
    else:
        cov = np.asarray(cov, dtype=np.float64)
        var = float(c @ cov @ c) if cov.ndim == 2 else float(np.sum(c * c * cov))
        se = math.sqrt(max(var, 0.0)) if np.isfinite(var) else math.inf
    return LineFit(slope=slope, intercept=intercept, se=se, n=int(x.size))


def log_mean_covariance(
    mean: np.ndarray, count: float, sd: np.ndarray, cov: np.ndarray | None = None
) -> np.ndarray:
    """Delta-method covariance of ``log(mean)``: ``Sigma_ij / (n * mean_i * mean_j)``.

    Without the full covariance ``cov`` the points are taken as uncorrelated (variances only).
    """
    mean = np.asarray(mean, dtype=np.float64)
    if cov is None:
        return (np.asarray(sd, dtype=np.float64) / mean) ** 2 / count
    return cov / np.outer(mean, mean) / count
