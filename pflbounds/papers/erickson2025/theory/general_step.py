"""Theorem 4.3 of erickson2025 for a general step eta (App. A.3): the proof's own constant
C(eta) = 2/(eta (1 - 2 eta L)) under its sufficient condition, printed and corrected, and the
pieces of the statement the other topics of Theorem 4.3 share (eps, the conditions on s and
the step, the quantity bounded)."""

from __future__ import annotations

import sympy as sp

from pflbounds.papers.erickson2025.assumptions import A4_1, A4_2, H
from pflbounds.papers.erickson2025.errata import ERRATA
from pflbounds.papers.erickson2025.paper import KARULA, cond, form, result
from pflbounds.papers.erickson2025.symbols import Delta0, K, L, delta, eta, n, s, sigma2
from pflbounds.symbolic.result import Kind

ETA38 = sp.Rational(3, 8) / L
"""The theorem's step size eta = 3/(8L)."""
C38 = sp.Rational(64, 3) * L
"""C(eta) at eta = 3/(8L): 64L/3."""

S_PRINTED = (cond(sp.Ge(s, 2), "s >= 2"), cond(sp.Le(s, n - 1), "s <= n - 1"))
S_CORR = (cond(sp.Ge(s, 2), "s >= 2"),)
"""The corrected forms allow s = n; s <= n itself is an instance relation (symbols.py)."""
_ETA_HALF = cond(sp.Lt(eta * L, sp.Rational(1, 2)), "eta < 1/(2L)")


def c_eta(step: sp.Basic) -> sp.Basic:
    """C(eta) = 2/(eta (1 - 2 eta L)), the proof's final prefactor (erickson2025, proof of
    Theorem 4.3, last line); 64L/3 at eta = 3/(8L)."""
    return 2 / (step * (1 - 2 * step * L))


EPS_PRINTED = 4 * sigma2 * (s + 1) / s + 2 * delta
"""epsilon = 4 sigma^2 (s+1)/s + 2 delta as printed in Theorem 4.3 (not unit-consistent)."""
EPS_CORR = 4 * eta * sigma2 * (s + 1) / s + 2 * delta
"""epsilon with the eta of the inner-product step restored (digest §5.5 G1)."""

PAPER_CONDITION = eta * L + 4 * eta**2 * L**2 * n**2 / (s**2 * (n**2 - s**2))
"""2 eta times the proof's sufficient condition, plus 1 (step 7, printed c_0): the proof
needs it <= 1, i.e. L/2 - 1/(2 eta) + 2 eta L^2 n^2/(s^2 (n^2 - s^2)) <= 0."""
CORRECTED_CONDITION = eta * L + 4 * eta**2 * L**2 * n * (n + s) / s**4
"""2 eta times the corrected condition, plus 1 (digest §5.5, G2 and G3 fixed): <= 1, i.e.
L/2 - 1/(2 eta) + 2 eta L^2 n (n + s)/s^4 <= 0."""

Q_G = "min_{k<K} E||G_eta(theta^k)||^2: the squared exact gradient mapping at the iterates"
Q_G_TYPST = "min_(k<K) EE norm(bold(G)_eta (theta^k))^2"

T43_STATEMENT = (
    "Under Assumptions 4.1-4.2, feasible theta^0, eta = 3/(8L) and 2 <= s <= n - 1: "
    "min_{k<K} E||G_eta(theta^k)||^2 <= (8L/3) ((f(theta^0) - f(theta^*))/K + eps), "
    "eps = 4 sigma^2 (s + 1)/s + 2 delta.")

THEOREM4_3 = result(
    "theorem4_3", "Theorem 4.3 (convergence of Karula, general step)", Kind.UPPER_BOUND,
    Q_G, "f^2/x^2", T43_STATEMENT,
    [form("printed", 8 * L / 3 * (Delta0 / K + EPS_PRINTED),
          "As stated (eta = 3/(8L) is built in): the prefactor 8L/3 and eps with sigma^2 not "
          "multiplied by eta.", conditions=S_PRINTED),
     form("explicit", c_eta(eta) * (Delta0 / K + EPS_PRINTED),
          "The proof's last line, 2/(eta (1 - 2 eta L)) (Delta0/K + eps), under its own "
          "(printed) condition; 64L/3 at eta = 3/(8L).",
          conditions=(*S_PRINTED, _ETA_HALF,
                      cond(sp.Le(PAPER_CONDITION, 1),
                           "L/2 - 1/(2 eta) + 2 eta L^2 n^2/(s^2 (n^2 - s^2)) <= 0"))),
     form("corrected", c_eta(eta) * (Delta0 / K + EPS_CORR),
          "G1-G3 fixed: eta on sigma^2, the geometric sum with 1 - r = s^2/n^2 and the "
          "coefficient 1 + n/s; s = n allowed.",
          conditions=(*S_CORR, _ETA_HALF,
                      cond(sp.Le(CORRECTED_CONDITION, 1),
                           "L/2 - 1/(2 eta) + 2 eta L^2 n (n + s)/s^4 <= 0")))],
    source="Theorem 4.3, App. A.3", equations=("8", "9", "10"),
    hypotheses=(A4_1.id, A4_2.id, H.id),
    errata=(ERRATA["erratum1"], ERRATA["erratum2"], ERRATA["erratum3"], ERRATA["erratum4"],
            ERRATA["erratum5"], ERRATA["erratum6"], ERRATA["erratum9"], ERRATA["erratum10"],
            ERRATA["erratum11"]),
    quantity_typst=Q_G_TYPST, methods=KARULA,
)
