"""Exact (Clopper-Pearson) limits for a binomial proportion.

Used by ``holds_with_probability`` checks: x violations among n independent draws; the claim
"the bound fails with probability at most delta" is judged by the one-sided limits of the
violation rate.
"""

from __future__ import annotations

import numpy as np
from scipy.special import betaincinv


def clopper_pearson(x: float, n: float, alpha: float) -> tuple[float, float]:
    """One-sided Clopper-Pearson limits ``(lower, upper)`` of a proportion, each at level
    ``1 - alpha``, for ``x`` successes in ``n`` trials.

    lower = Beta^{-1}(alpha; x, n - x + 1) (0 when x = 0), upper = Beta^{-1}(1 - alpha;
    x + 1, n - x) (1 when x = n).
    """
    x, n = float(x), float(n)
    if n < 1 or x < 0 or x > n or x != np.round(x) or n != np.round(n):
        raise ValueError(f"need integers 0 <= x <= n, n >= 1; got x={x}, n={n}")
    if not 0.0 < alpha < 1.0:
        raise ValueError(f"alpha must lie in (0, 1), got {alpha}")
    lo = 0.0 if x == 0 else float(betaincinv(x, n - x + 1.0, alpha))
    hi = 1.0 if x == n else float(betaincinv(x + 1.0, n - x, 1.0 - alpha))
    return lo, hi
