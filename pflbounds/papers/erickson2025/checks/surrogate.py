"""P9 of erickson2025: the LOT surrogate D_ij against the exact W1 (digest §3.6, §7 P9)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from pflbounds.checking import Check, CheckKind, Verdict
from pflbounds.problems.transport import (
    embedding_distance,
    lot_map,
    lp_plan,
    monotone_plan,
    w1_exact,
)
from pflbounds.reporting.figure_specs import Plot


def simulate_p9(p: Mapping[str, Any], R: int, seed: np.random.SeedSequence) -> dict:
    """P9 (identities): (a) 1-D, N_0 = N_i, monotone plans: D^w1_ij = W1(mu_i, mu_j) exactly
    and D^lit_ij = sqrt(N_0) D^w1_ij; (b) multi-D, N_0 = N_i, permutation plans (assignment,
    LP vertices): W1(i, j) <= D^w1_ij <= W1(0, i) + W1(0, j). Residual: the largest relative
    error of (a) plus the largest relative violation of (b), over random pairs."""
    rng = np.random.default_rng(seed)
    N, d, pairs = int(p["N"]), int(p["d"]), int(p["pairs"])
    res = 0.0
    for _ in range(pairs):
        ref, a, b = rng.standard_normal(N), rng.normal(1, 2, N), rng.normal(-1, 0.5, N)
        Ma, Mb = lot_map(monotone_plan(ref, a), a), lot_map(monotone_plan(ref, b), b)
        w1 = w1_exact(a, b)
        dw1 = embedding_distance(Ma, Mb, "w1")
        res = max(res, abs(dw1 - w1) / w1,
                  abs(embedding_distance(Ma, Mb, "literal") - np.sqrt(N) * dw1) / dw1)
        ref, A, B = (rng.standard_normal((N, d)), rng.normal(0.5, 1, (N, d)),
                     rng.normal(-0.5, 1.5, (N, d)))
        MA, MB = lot_map(lp_plan(ref, A), A), lot_map(lp_plan(ref, B), B)
        D = embedding_distance(MA, MB, "w1")
        lo, hi = w1_exact(A, B), w1_exact(ref, A) + w1_exact(ref, B)
        res = max(res, max(lo - D, 0.0) / lo, max(D - hi, 0.0) / hi)
    return {"residual": np.asarray(res)}


def simulate_p9_lp(p: Mapping[str, Any], R: int, seed: np.random.SeedSequence) -> dict:
    """Erratum 8 (D_ij depends on the plan; a pseudo-metric): in 1-D with a reference sample
    left of two client samples (every coupling is W1-optimal), the HiGHS LP plans give
    D^w1_ij above W1(mu_i, mu_j): measured D^w1 against the 'printed' reading D = W1 (violated)
    and the triangle bound W1(0, i) + W1(0, j) (holds). Evidence also holds two different
    data sets with equal embeddings (N_0 = 1: both maps are the mean), D = 0 < W1."""
    rng = np.random.default_rng(seed)
    N, pairs = int(p["N"]), int(p["pairs"])
    D, w1, tri = [], [], []
    for _ in range(pairs):
        ref, a, b = rng.uniform(0, 1, N), rng.uniform(2, 3, N), rng.uniform(2, 3, N)
        D.append(embedding_distance(lot_map(lp_plan(ref, a), a), lot_map(lp_plan(ref, b), b),
                                    "w1"))
        w1.append(w1_exact(a, b))
        tri.append(w1_exact(ref, a) + w1_exact(ref, b))
    one, x, y = np.zeros(1), np.array([-1.0, 1.0]), np.array([-0.5, 0.5])
    pseudo_D = embedding_distance(lot_map(lp_plan(one, x), x), lot_map(lp_plan(one, y), y), "w1")
    return {"mean": np.asarray(D), "ks": np.arange(1.0, pairs + 1),
            "bound_printed": np.asarray(w1), "bound_corrected": np.asarray(tri),
            "pseudo_D": np.asarray(pseudo_D), "pseudo_W1": np.asarray(w1_exact(x, y))}


CHECKS = [
    Check(
        "erickson2025.P9", "LOT surrogate: D = W1 in 1-D (monotone plans), the sandwich in d > 1",
        CheckKind.IDENTITY, Verdict.HOLDS, simulate_p9,
        grid=(dict(N=30, d=3, pairs=10), dict(N=12, d=5, pairs=10)),
        quick_grid=(dict(N=12, d=3, pairs=3),), engine="exact", tolerance=1e-9,
        result_id="erickson2025.proposition3_4", form="printed",
        description="Equal sizes: monotone 1-D plans give D^w1 = W1 and D^lit = sqrt(N_0) "
                    "D^w1; permutation plans in d > 1 give W1 <= D^w1 <= W1(0,i) + W1(0,j)."),
    Check(
        "erickson2025.P9_lp", "Erratum: D_ij depends on the W1 plan (LP plans exceed W1)",
        CheckKind.ERRATUM, Verdict.CONFIRMED, simulate_p9_lp,
        grid=(dict(N=6, pairs=5),), engine="exact", rel_tol=1e-9,
        result_id="erickson2025.proposition3_4", form="printed", plot=Plot("dots"), xlabel="pair",
        ylabel="D^w1_ij (HiGHS plans)",
        description="1-D, every coupling W1-optimal for the reference: HiGHS's plans give "
                    "D^w1 above W1 (the paper's 'approximates W1'), below the triangle bound; "
                    "and two data sets share an embedding (pseudo-metric)."),
]
