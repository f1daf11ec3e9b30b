"""Checks of the participation size Theorem 4.3's proof admits, erickson2025 (digest §5.5, §7
P12, errata 3-4): the calculator's smallest admissible s against the proof's Lyapunov
recursion run numerically, and the printed c_0 against the recursion's supremum."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from pflbounds.checking import Check, CheckKind, Verdict
from pflbounds.papers.erickson2025.checks.common import evidence_array, first_evidence_with
from pflbounds.papers.erickson2025.theory.participation import ADMISSIBLE_S
from pflbounds.reporting.figure_specs import figure, series
from pflbounds.symbolic.catalog import get
from pflbounds.symbolic.evaluate import solve


def lyapunov_sup_weight(n: int, s: int, eta: float, L: float, horizon: int = 100000) -> float:
    """sup_k c_k of the proof of Theorem 4.3, by running its recursion c_K = 0,
    c_k = 2 eta L^2/(n s) + c_{k+1} (n^2 - s^2)/n^2 backwards (no closed form used)."""
    c, r = 0.0, (n * n - s * s) / (n * n)
    for _ in range(horizon):
        c = 2 * eta * L**2 / (n * s) + c * r
    return c


def admissible_map() -> dict[str, np.ndarray]:
    """The calculator's smallest admissible s (solve on admissible_s) against n, corrected at
    eta = 3/(8L) and 1/(4L), printed at 3/(8L): extra evidence for P12's figure."""
    ns = np.array([3, 5, 8, 12, 20, 30, 50, 100])

    def smin(form: str, eta: float) -> np.ndarray:
        return np.array([float(solve(get(ADMISSIBLE_S.id), "s", 1.0, form, L=1.0,
                                     eta=eta, n=int(n)).value) for n in ns])

    return {"map_n": ns.astype(float), "map_s_corrected": smin("corrected", 0.375),
            "map_s_corrected_eta14": smin("corrected", 0.25),
            "map_s_printed": smin("printed", 0.375)}


def simulate_p12_admissible(p: Mapping[str, Any], R: int, seed: np.random.SeedSequence) -> dict:
    """P12 (deterministic part), errata 3-4: the smallest s of the calculator (solve on
    admissible_s, corrected) equals the smallest s whose Lyapunov condition L/2 - 1/(2 eta) +
    sup_k c_k (1 + n/s) <= 0 holds with c_k from the recursion; the printed c_0 bound
    2 eta L^2 n/(s (n^2 - s^2)) is below that supremum at s = 2 (the printed sum is wrong).
    Residual: the difference of the two s (0 when they agree), plus 1 if the printed c_0 is
    not below the recursion's supremum."""
    n, L = int(p["n"]), 1.0
    eta = 3 / (8 * L)
    s_calc = solve(get(ADMISSIBLE_S.id), "s", 1.0, "corrected", L=L, eta=eta,
                   n=n).value
    s_rec = next(s for s in range(2, n + 1)
                 if L / 2 - 1 / (2 * eta) + lyapunov_sup_weight(n, s, eta, L) * (1 + n / s)
                 <= 0)
    printed_c0 = 2 * eta * L**2 * n / (2 * (n * n - 4))
    gap = 0.0 if printed_c0 < lyapunov_sup_weight(n, 2, eta, L) else 1.0
    extra = admissible_map() if p.get("map") else {}
    return {**extra, "residual": np.asarray(abs(float(s_calc) - s_rec) + gap),
            "s_min": np.asarray(float(s_rec)),
            "s_printed": np.asarray(float(solve(get(ADMISSIBLE_S.id), "s", 1.0,
                                                "printed", L=L, eta=eta, n=n).value))}


def plot_p12(outcome: Any) -> list[dict]:
    """The smallest admissible s against n: the corrected condition (calculator) at two step
    sizes and the printed one, with s = n."""
    e = first_evidence_with(outcome, "map_n")
    if e is None:
        return []
    n = evidence_array(e, "map_n")
    items = [series(r"corrected, $\eta = 3/(8L)$: $10s^4 \geq 9n^2 + 9ns$", n,
                    evidence_array(e, "map_s_corrected"), "measured", group="c38"),
             series(r"corrected, $\eta = 1/(4L)$", n, evidence_array(e, "map_s_corrected_eta14"),
                    "measured", group="c14"),
             series(r"printed, $\eta = 3/(8L)$ (claims every $s \geq 2$)", n,
                    evidence_array(e, "map_s_printed"), "reference", group="printed"),
             series(r"$s = n$ (full participation)", n, n, "reference", group="full")]
    fig = figure("curves", f"{outcome.check_id}: smallest admissible participation size",
                 r"$n$ (clients)", r"smallest admissible $s$", items, logx=True, logy=True)
    fig["caption"] = (f"The calculator's solve on {ADMISSIBLE_S.id}: the corrected "
                      "condition L/2 - 1/(2 eta) + 2 eta L^2 n (n + s)/s^4 <= 0 needs s of "
                      "order sqrt(n) (6 at n = 30), the printed one admits s = 2 for every n.")
    return [fig]


CHECKS = [
    Check(
        "erickson2025.P12", "Theorem 4.3: smallest admissible participation size",
        CheckKind.IDENTITY, Verdict.HOLDS, simulate_p12_admissible,
        grid=({"n": 30, "map": True}, {"n": 3}, {"n": 100}), engine="symbolic",
        tolerance=0.0, result_id=ADMISSIBLE_S.id, form="corrected", plot=plot_p12,
        description="The calculator's smallest s (corrected condition, eta = 3/(8L)) equals "
                    "the one from the proof's Lyapunov recursion run numerically (n = 30: "
                    "6, not the printed 2), and the printed c_0 underestimates sup_k c_k."),
]
