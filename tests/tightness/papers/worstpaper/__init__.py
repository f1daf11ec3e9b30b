"""A test-only paper for the worst-case search: SGD on quadratics.

``rate`` states the exact worst case of E[f(x_K) - f*] for SGD with eta <= 1/L, no noise,
over quadratics with spectrum in [mu, L] under f(x_0) - f* <= Delta0:
(1 - eta mu)^(2K) Delta0. ``half_rate`` is half of it (false).
"""

from __future__ import annotations

import sympy as sp

from pflbounds.symbolic.builder import PaperBuilder
from pflbounds.symbolic.constants import Delta0, K, L, eta, mu
from pflbounds.symbolic.result import Kind

P = PaperBuilder("worstpaper")
P.register("A paper for the worst-case search tests", "Nobody (test fixture).")
STEP = P.cond(sp.Le(eta, 1 / L), "eta <= 1/L")

RATE = P.result("rate", "Lemma 1", Kind.UPPER_BOUND, "E[f(x_K) - f*]", "f", "SGD, no noise.",
                [P.form("printed", (1 - eta * mu) ** (2 * K) * Delta0)], conditions=(STEP,))
HALF = P.result("half_rate", "Lemma 2", Kind.UPPER_BOUND, "E[f(x_K) - f*]", "f",
                "SGD, no noise, half.",
                [P.form("printed", (1 - eta * mu) ** (2 * K) * Delta0 / 2)], conditions=(STEP,))
