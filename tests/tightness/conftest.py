"""A throw-away paper, ``tightfix``, whose results are planted bounds for the worst-case search.

* ``sgd_worst``: SGD with a constant step eta <= 1/L on quadratics with spectrum in [mu, L],
  ||x_0 - x*||^2 <= R0 and noise variance <= sigma^2. Its printed form is the exact worst
  case of E[f(x_K) - f*] over that family (d >= 2): the initial error alone on the
  eigenvalue h* = 1/(eta (2K + 1)) (the maximiser of 1/2 h (1 - eta h)^{2K} R0, in [mu, L]
  by the condition mu eta (2K + 1) <= 1), the noise alone on the eigenvalue L (where
  1/2 h eta^2 sigma^2 sum_{t<K} (1 - eta h)^{2t} is largest when eta L <= 1). Its
  ``explicit`` form is half of it: false, but only near that special instance.
* ``gd_rate``: gradient descent on smooth strongly convex functions with eta <= 1/L,
  f(x_K) - f* <= (1 - eta mu)^{2K} Delta0, tight (a quadratic attains it); ``explicit``: 0.9
  times it, false.
* ``step_lower``: a lower bound over constant steps in (0, 1/L] on the one-dimensional
  quadratic h = mu without noise, 1/2 mu (1 - mu/L)^{2K} R0 (attained at eta = 1/L);
  ``explicit``: 1/2 mu (1 - mu/L)^K R0, larger, false.
* ``afo_pair``: All-for-one of two agents, 2 Delta0 (1 - eta mu)^{2K} + 2 lam B/mu +
  eta V sigma^2/(2 (2 - eta L)), a true (loose) bound; ``explicit`` divides the bias term by
  8: false.
* ``sgd_any``: SGD on mu-strongly convex L-smooth functions with noise <= sigma^2,
  E f(x_K) - f* <= (L/2) ((1 - eta mu)^K R0 + eta sigma^2/mu) for eta <= 1/L, true;
  ``explicit``: a thousandth of it, false.
* ``step_rule``: a step-size rule eta = 1/L (an equality: no worst case to search).
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import sympy as sp

PAPER = "tightfix"


@pytest.fixture(scope="session")
def tightfix() -> Iterator[str]:
    from pflbounds.symbolic.builder import PaperBuilder
    from pflbounds.symbolic.catalog import forget_paper
    from pflbounds.symbolic.constants import Delta0, K, L, eta, mu, sigma2
    from pflbounds.symbolic.result import Kind

    P = PaperBuilder(PAPER)
    P.register("Planted bounds", "Nobody (test fixture).")
    R0 = P.constant("R0", "initial squared distance ||x_0 - x*||^2", "x^2", "nonnegative")
    B = P.constant("B", "weighted bias sum_j lambda_ij b_ij^2", "f^2/x^2", "nonnegative")
    V = P.constant("V", "weight norm sum_j lambda_ij^2", "1", "positive")
    lam = P.constant("lam", "weight on the other agent", "1", "unit_interval")
    step = P.cond(sp.Le(eta, 1 / L), "eta <= 1/L")

    bias = R0 / (2 * eta * (2 * K + 1)) * (2 * K / (2 * K + 1)) ** (2 * K)
    noise = eta * sigma2 * (1 - (1 - eta * L) ** (2 * K)) / (2 * (2 - eta * L))
    P.result("sgd_worst", "Planted worst case", Kind.UPPER_BOUND, "E[f(x_K) - f*]", "f",
             "the exact worst case over quadratics", [
                 P.form("printed", bias + noise),
                 P.form("explicit", (bias + noise) / 2, "half: false near the worst case")],
             conditions=(step, P.cond(sp.Le(mu * eta * (2 * K + 1), 1), "h* >= mu")))
    P.result("gd_rate", "Planted GD rate", Kind.UPPER_BOUND, "f(x_K) - f*", "f",
             "gradient descent, function values", [
                 P.form("printed", Delta0 * (1 - eta * mu) ** (2 * K)),
                 P.form("explicit", sp.Rational(9, 10) * Delta0 * (1 - eta * mu) ** (2 * K))],
             conditions=(step,))
    P.result("step_lower", "Planted lower bound", Kind.LOWER_BOUND, "E[f(x_K) - f*]", "f",
             "any constant step in (0, 1/L] on h = mu", [
                 P.form("printed", R0 * mu * (1 - mu / L) ** (2 * K) / 2),
                 P.form("explicit", R0 * mu * (1 - mu / L) ** K / 2)])
    P.result("afo_pair", "Planted AFO bound", Kind.UPPER_BOUND, "E[f_0(x^K) - f_0^*]", "f",
             "two agents", [
                 P.form("printed", 2 * Delta0 * (1 - eta * mu) ** (2 * K) + 2 * lam * B / mu
                        + eta * V * sigma2 / (2 * (2 - eta * L))),
                 P.form("explicit", 2 * Delta0 * (1 - eta * mu) ** (2 * K) + lam * B / (4 * mu)
                        + eta * V * sigma2 / (2 * (2 - eta * L)))],
             conditions=(step,))
    P.result("sgd_any", "Planted SGD bound", Kind.UPPER_BOUND, "E[f(x_K) - f*]", "f",
             "SGD on smooth strongly convex functions", [
                 P.form("printed", L / 2 * ((1 - eta * mu) ** K * R0 + eta * sigma2 / mu)),
                 P.form("explicit", L / 2000 * ((1 - eta * mu) ** K * R0 + eta * sigma2 / mu))],
             conditions=(step,))
    P.result("step_rule", "Planted step", Kind.STEP_SIZE, "eta", "x^2/f", "eta = 1/L",
             [P.form("printed", 1 / L)], relation="=")
    try:
        yield PAPER
    finally:
        forget_paper(PAPER)
