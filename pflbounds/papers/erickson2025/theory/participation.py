"""The participation size Theorem 4.3's proof admits, for erickson2025 (step 7 of the proof,
digest §5.5): its condition times 2 eta, printed and corrected, at most 1; solved for s it
gives the smallest admissible s."""

from __future__ import annotations

from pflbounds.papers.erickson2025.assumptions import A4_1
from pflbounds.papers.erickson2025.errata import ERRATA
from pflbounds.papers.erickson2025.paper import KARULA, form, result
from pflbounds.papers.erickson2025.theory.general_step import (
    CORRECTED_CONDITION,
    PAPER_CONDITION,
    S_CORR,
    S_PRINTED,
)
from pflbounds.symbolic.result import Kind

ADMISSIBLE_S = result(
    "admissible_s", "Theorem 4.3: admissible participation size", Kind.STEP_SIZE,
    "eta L + 2 eta c_bar, c_bar the bound on the Lyapunov weights: the proof needs it <= 1; "
    "solve for s at target 1 gives the smallest admissible s", "1",
    "The proof's condition L/2 - 1/(2 eta) + (sup_k c_k) n/s <= 0, times 2 eta: printed "
    "eta L + 4 eta^2 L^2 n^2/(s^2 (n^2 - s^2)) <= 1; corrected eta L + 4 eta^2 L^2 n (n + s)/"
    "s^4 <= 1 (10 s^4 >= 9 n^2 + 9 n s at eta = 3/(8L)).",
    [form("printed", PAPER_CONDITION, conditions=S_PRINTED),
     form("corrected", CORRECTED_CONDITION, conditions=S_CORR)],
    relation="<=", source="Theorem 4.3 proof, step 7 (digest §5.5)", hypotheses=(A4_1.id,),
    errata=(ERRATA["erratum3"], ERRATA["erratum4"]),
    quantity_typst="eta L + 2 eta overline(c)", methods=KARULA,
)
