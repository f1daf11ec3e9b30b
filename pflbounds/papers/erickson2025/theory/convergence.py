"""Theorem 4.3 of erickson2025 at its step eta = 3/(8L) (App. A.3): the printed constant 8L/3,
the proof's 64L/3 (explicit) and the corrected bound with the eta on sigma^2 restored."""

from __future__ import annotations

import sympy as sp

from pflbounds.papers.erickson2025.assumptions import A4_1, A4_2, H
from pflbounds.papers.erickson2025.errata import ERRATA
from pflbounds.papers.erickson2025.paper import KARULA, cond, form, result
from pflbounds.papers.erickson2025.symbols import Delta0, K, L, delta, n, s, sigma2
from pflbounds.papers.erickson2025.theory.general_step import (
    C38,
    EPS_PRINTED,
    Q_G,
    Q_G_TYPST,
    S_CORR,
    S_PRINTED,
    T43_STATEMENT,
)
from pflbounds.symbolic.result import Kind

THEOREM4_3_ETA38 = result(
    "theorem4_3_eta38", "Theorem 4.3 at eta = 3/(8L)", Kind.UPPER_BOUND,
    Q_G, "f^2/x^2", T43_STATEMENT,
    [form("printed", 8 * L / 3 * (Delta0 / K + EPS_PRINTED), conditions=S_PRINTED),
     form("explicit", C38 * (Delta0 / K + EPS_PRINTED),
          "2/(eta (1 - 2 eta L)) at eta = 3/(8L) is 64L/3; the paper's own condition holds "
          "there for every 2 <= s <= n - 1.", conditions=S_PRINTED),
     form("corrected", C38 * Delta0 / K + 32 * (s + 1) / s * sigma2
          + sp.Rational(128, 3) * L * delta,
          "(64L/3)(Delta0/K + 4 eta sigma^2 (s+1)/s + 2 delta) at eta = 3/(8L), valid when "
          "10 s^4 >= 9 n^2 + 9 n s (n = 30: s >= 6).",
          conditions=(*S_CORR, cond(sp.Ge(10 * s**4, 9 * n**2 + 9 * n * s),
                                    "10 s^4 >= 9 n^2 + 9 n s")))],
    source="Theorem 4.3, App. A.3", hypotheses=(A4_1.id, A4_2.id, H.id),
    errata=(ERRATA["erratum1"], ERRATA["erratum2"], ERRATA["erratum3"], ERRATA["erratum4"]),
    quantity_typst=Q_G_TYPST, methods=KARULA,
)
