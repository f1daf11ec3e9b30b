"""A test-only paper: minibatch SGD on a quadratic, with names that clash with even2022.

It declares ``B`` (a minibatch size: an integer, where even2022's ``B`` is a bias factor),
``b`` (the number of local steps between two averagings, where even2022's ``b`` is a bias
matrix) and its own ``L`` (the smoothness of the *average* loss). Its bound: for SGD with
minibatches of size B on a mu-strongly convex, L-smooth quadratic with gradient noise of
variance sigma^2 per sample, eta <= 1/L,

    E[f(x^K)] - f^* <= (1 - eta mu)^K Delta0 + eta L sigma^2 / (2 mu B).

It is exact for the contraction and an upper bound for the noise (on a quadratic with
Hessian H, the stationary excess is eta sigma^2 tr-weighted by 1/(2 - eta h) <= the bound).
"""

from __future__ import annotations

import sympy as sp

from pflbounds.symbolic.builder import PaperBuilder
from pflbounds.symbolic.constants import Delta0, K, eta, mu, sigma2
from pflbounds.symbolic.result import Kind

P = PaperBuilder("toypaper")
P.register("A toy paper for the engine tests", "Nobody (test fixture).")

B = P.constant("B", "minibatch size", "1", "positive_integer", latex="B", typst="B")
b = P.constant("b", "local steps between two averagings", "1", "positive_integer",
               latex="b", typst="b")
L = P.constant("L", "smoothness constant of the average loss", "f/x^2",
               latex=r"\bar L", typst="overline(L)")
delta = P.constant("delta", "failure probability", "1", "unit_interval",
                   latex=r"\delta", typst="delta")

P.assumption("A1", "Quadratic", "f is a mu-strongly convex, L-smooth quadratic.", ("mu", "L"))

THEOREM1 = P.result(
    "theorem1", "Theorem 1", Kind.UPPER_BOUND, "E[f(x^K)] - f^*", "f",
    "Minibatch SGD with eta <= 1/L: E[f(x^K)] - f^* <= (1 - eta mu)^K Delta0 + "
    "eta L sigma^2/(2 mu B).",
    [
        P.form("printed", (1 - eta * mu) ** K * Delta0 + eta * L * sigma2 / (2 * mu * B)),
        P.form("explicit", (1 - eta * mu) ** (2 * K) * Delta0 + eta * L * sigma2 / (2 * mu * B),
               "The contraction of a quadratic is squared in function values."),
    ],
    hypotheses=("toypaper.A1",), conditions=(P.cond(sp.Le(eta, 1 / L), "eta <= 1/L"),),
)

ROUNDS = P.result(
    "rounds", "Communication rounds", Kind.COMPLEXITY, "rounds", "1",
    "K iterations with b local steps between averagings take ceil(K/b) rounds.",
    [P.form("printed", sp.ceiling(K / b))], relation="=",
)

P.algorithms({"theorem1": ["toypaper.checks.run_minibatch_sgd"]})
