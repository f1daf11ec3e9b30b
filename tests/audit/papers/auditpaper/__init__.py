"""A test-only paper for the audits: gradient descent on f(x) = mu x^2 / 2.

With a constant step eta, f(x_K) - f^* = (1 - eta mu)^(2K) (f(x_0) - f^*) exactly, so

* ``tight`` states exactly that: every mutant that is smaller somewhere is violated there;
* ``loose`` states 2 (1 - eta mu)^K Delta0, a true bound with room (halving it still holds);
* ``wrong`` states (1 - eta mu)^(3K) Delta0, too small: an erratum check refutes it, and
  ``fixed`` is its correction (the exact value again);
* ``shown`` is evaluated by a check for its figures only.
"""

from __future__ import annotations

from pflbounds.symbolic.builder import PaperBuilder
from pflbounds.symbolic.constants import Delta0, K, eta, mu
from pflbounds.symbolic.result import Kind

P = PaperBuilder("auditpaper")
P.register("A paper for the audit tests", "Nobody (test fixture).")


def _result(name: str, forms: list, label: str):
    return P.result(name, label, Kind.UPPER_BOUND, "f(x_K) - f^*", "f",
                    "Gradient descent on mu x^2/2 with a constant step.", forms)


TIGHT = _result("tight", [P.form("printed", (1 - eta * mu) ** (2 * K) * Delta0)], "Lemma 1")
LOOSE = _result("loose", [P.form("printed", 2 * (1 - eta * mu) ** K * Delta0)], "Lemma 2")
WRONG = _result("wrong", [P.form("printed", (1 - eta * mu) ** (3 * K) * Delta0),
                          P.form("corrected", (1 - eta * mu) ** (2 * K) * Delta0)], "Lemma 3")
SHOWN = _result("shown", [P.form("printed", 3 * (1 - eta * mu) ** K * Delta0)], "Lemma 4")
