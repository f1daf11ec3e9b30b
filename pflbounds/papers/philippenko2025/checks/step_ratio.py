"""Checks of Remark 3's bound on the step ratio: P13, the total weight sum_k alpha_ik stays
below 1/kappa along true-weight runs (binary and continuous criteria)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from pflbounds.algorithms.adaptive_afo import run_afo_adaptive
from pflbounds.algorithms.similarity_weights import Criterion, true_gradient_rule
from pflbounds.checking import Check, CheckKind, Verdict, bound
from pflbounds.papers.philippenko2025.checks.common import instance_rng, rng_of
from pflbounds.papers.philippenko2025.instances import two_clusters
from pflbounds.papers.philippenko2025.theory.step_ratio import REMARK3_BINARY, REMARK3_CONTINUOUS
from pflbounds.reporting.figure_specs import Plot


def simulate_p13(p: Mapping[str, Any], R: int, seed: np.random.SeedSequence) -> dict:
    """P13: along true-weight runs, sum_k alpha_ik <= 1/kappa of Remark 3 (kappa = lambda
    binary, 1/(sigma_i^2 sum_k sigma_k^-2) continuous), at every iteration and client."""
    rng = instance_rng(p)
    s2 = rng.uniform(0.3, 3.0, p["N"])
    fam, _ = two_clusters(p["N"], 3, p["gap"], 1.0, s2)
    crit = Criterion.binary(p["lam"]) if p["criterion"] == "binary" else Criterion.continuous()
    tr = run_afo_adaptive(fam, true_gradient_rule(fam, crit, s2), p["eta"], p["K"],
                          np.full(3, p["x0"]), p["runs"], rng_of(seed), track_sets=False)
    if crit.name == "binary":
        kappa = np.full(fam.N, float(bound(REMARK3_BINARY, lam=p["lam"])))
    else:
        kappa = bound(REMARK3_CONTINUOUS, "corrected", SinvSum=s2 * np.sum(1 / s2))
    ws = tr.weight_sum[:, 1:, :]  # (R, K, N)
    mean = np.moveaxis(ws, 2, 0).reshape(fam.N, -1)
    return {"mean": mean, "bound": np.broadcast_to((1 / kappa)[:, None], mean.shape).copy(),
            "ks": np.arange(mean.shape[1], dtype=float)}


CHECKS = [
    Check(
        "philippenko2025.P13_binary", "Remark 3: total weight <= 1/lambda along runs (binary)",
        CheckKind.BOUND_HOLDS, Verdict.HOLDS, simulate_p13,
        grid=({"instance": 3, "N": 10, "gap": 3.0, "lam": 0.3, "criterion": "binary",
               "eta": 0.1, "K": 200, "x0": 6.0, "runs": 20},),
        quick_grid=({"instance": 3, "N": 10, "gap": 3.0, "lam": 0.3, "criterion": "binary",
                     "eta": 0.1, "K": 60, "x0": 6.0, "runs": 5},),
        engine="exact", result_id=REMARK3_BINARY.id, form="printed",
        plot=Plot("scatter"),
        xlabel="(replica, iteration) entry", ylabel="sum_k alpha_ik^t",
        description="True-gradient weights on two clusters with unequal variances; every "
                    "recorded total weight of every client against 1/kappa (a pathwise "
                    "bound: the comparison is deterministic per draw)."),
    Check(
        "philippenko2025.P13_continuous",
        "Remark 3: total weight <= sigma_i^2 sum_k sigma_k^-2 along runs (continuous)",
        CheckKind.BOUND_HOLDS, Verdict.HOLDS, simulate_p13,
        grid=({"instance": 4, "N": 10, "gap": 3.0, "criterion": "continuous", "eta": 0.02,
               "K": 200, "x0": 6.0, "runs": 20},),
        quick_grid=({"instance": 4, "N": 10, "gap": 3.0, "criterion": "continuous",
                     "eta": 0.02, "K": 60, "x0": 6.0, "runs": 5},),
        engine="exact", result_id=REMARK3_CONTINUOUS.id, form="corrected",
        plot=Plot("scatter"),
        xlabel="(replica, iteration) entry", ylabel="sum_k alpha_ik^t",
        description="As P13_binary with the continuous criterion, against Remark 3's "
                    "corrected bound 1/kappa = sigma_i^2 sum_k sigma_k^-2."),
]
