"""Lemma 6 (App. F): SGD on one mu-strongly convex, L-smooth function, used by Theorem 3's
proof and by the no-collaboration baseline."""

from __future__ import annotations

from pflbounds.papers.even2022.errata import ERRATA
from pflbounds.papers.even2022.paper import SGD, cond, form, result
from pflbounds.papers.even2022.symbols import (
    Delta0,
    L,
    T,
    eps,
    eta,
    kappa,
    mu,
    sigma2,
)
from pflbounds.symbolic.result import Kind
from pflbounds.symbolic.unevaluated import Gt, Le, Max, ceiling, exp, log

_L6_QTY = "E[f(x^T) - f(x^*)]"

LEMMA6 = result(
    "lemma6", "Lemma 6", Kind.UPPER_BOUND, _L6_QTY, "f",
    "SGD with a fixed step 0 < eta <= 1/(2L) on a mu-strongly convex, L-smooth f (relative to "
    "1/2 ||x||_A^2, L_A <= 1) with noise variance sigma^2: E[f(x^T) - f^*] <= "
    "e^{-eta mu T} (f(x^0) - f^*) + eta L sigma^2/mu.",
    [form("printed", exp(-eta * mu * T) * Delta0 + eta * L * sigma2 / mu,
          "Last iterate. The proof is invalid for singular A (erratum); the statement holds for "
          "A = I.")],
    conditions=(cond(Le(eta, 1 / (2 * L)), "eta <= 1/(2L)"),),
    source="App. F", errata=(ERRATA["erratum14"],), quantity_typst="EE[f(x^T) - f(x^*)]",
    unchecked=("no check yet. Theorem 3's corrected form carries it to AFA (checks P7, P8); the "
               "exact SGD moments of check E15 could test it."),
    methods=SGD,
)

_ARG = Delta0 * mu**2 * T / (L * sigma2)

LEMMA6_TUNED = result(
    "lemma6_tuned", "Lemma 6 (tuned step)", Kind.UPPER_BOUND, _L6_QTY, "f",
    "With eta = min(1/(2L), ln(f_0 mu^2 T/(L sigma^2))/(mu T)): E[f(x^T) - f^*] <= "
    "e^{-mu T/(2L)} f_0 + L sigma^2/(mu^2 T) ln(f_0 mu^2 T/(L sigma^2)).",
    [
        form("printed", exp(-T / (2 * kappa)) * Delta0
             + L * sigma2 / (mu**2 * T) * log(_ARG)),
        form("corrected", exp(-T / (2 * kappa)) * Delta0
             + L * sigma2 / (mu**2 * T) * (1 + log(_ARG)),
             "Adds the L sigma^2/(mu^2 T) term that the exponential contributes in the "
             "logarithmic branch (digest §4.14)."),
    ],
    conditions=(cond(Gt(_ARG, 1), "f_0 mu^2 T/(L sigma^2) > 1"),), source="App. F",
    errata=(ERRATA["erratum15"],), quantity_typst="EE[f(x^T) - f(x^*)]",
    unchecked=("no check yet. The exact SGD moments of check E15, which tests the same lemma's "
               "count, could test it."),
    methods=SGD,
)

LEMMA6_EPS = result(
    "lemma6_eps", "Lemma 6 (precision eps)", Kind.COMPLEXITY,
    "T_eps: SGD steps to reach precision eps", "1",
    "With eta_eps = min(mu eps/(2 L sigma^2), 1/(2L)) and T_eps = ceil(ln(f_0/eps)/(eta_eps "
    "mu)), f((1/T_eps) sum_{t<T_eps} x^t) - f^* <= eps, with T_eps <= max(2 L sigma^2/(eps "
    "mu^2), 2L/mu) ln(f_0/eps).",
    [
        form("printed", Max(2 * L * sigma2 / (eps * mu**2), 2 * L / mu) * log(Delta0 / eps),
             "Claimed for the averaged iterate, without expectation."),
        form("corrected", ceiling(Max(3 * L * sigma2 / (eps * mu**2), 2 * L / mu)
                                     * log(3 * Delta0 / (2 * eps))),
             "For E of the last iterate with eta = min(mu eps/(3 L sigma^2), 1/(2L)): the "
             "exponential term gives 2 eps/3 and the variance eps/3."),
    ],
    conditions=(cond(Gt(Delta0, eps), "f_0 > eps"),), relation="=", source="App. F",
    errata=(ERRATA["erratum15"],), quantity_typst="T_epsilon",
    methods=SGD,
)
