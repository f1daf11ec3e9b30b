"""Check of Corollary 2's discussion, N = Omega~(M/eps): C2.

Clustered Gaussian means (the setting of Theorem 4), S estimation samples per agent with
u = Delta^2/4 and a bounded number K of AFA oracle calls. When the estimated weights recover
the clusters (the good event of Theorem 4's proof) AFA runs with W = Lambda Lambda^T, Lambda
the cluster weights, and its exact E[F^K] follows from the exact engine (AFA with a
projection W = Lambda is mini-batch SGD per cluster). N_eps = M C_eps, with C_eps the
smallest cluster size whose E[F^K] <= eps, is measured across eps; the claim is the slope
-1 of log N_eps against log eps at fixed M, S and K (and N_eps proportional to M). The good
event's frequency at N_eps is measured by drawing the estimates (``recovered``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from pflbounds.checking import Check, CheckKind, Verdict
from pflbounds.exact.linear_gaussian import afo_expected_excess
from pflbounds.papers.even2022.checks.common import instance_rng, rng_of
from pflbounds.problems.gaussian_means import GaussianMeans

C_MAX = 4096
RECOVERY_DRAWS = 4


def _population(p: Mapping[str, Any], C: int) -> GaussianMeans:
    return GaussianMeans.random(int(p["M"]), C, int(p["d"]), float(p["Delta2"]), p["Sigma"],
                                instance_rng(p))


def cluster_error(g: GaussianMeans, K: int, eta: float) -> float:
    """Exact E[F^K] of AFA with the cluster weights from x^0 = 0. W = Lambda is then a
    projection that keeps the agents of a cluster on one iterate, moved by the mean of their
    C gradients (mini-batch SGD per cluster, identity P7_identity): the same recursion as AFO
    with Lambda, whose exact expectation is closed form (no eigendecomposition)."""
    return float(afo_expected_excess(g, g.true_weights(sparse=True), eta, np.zeros(g.d),
                                     [K]).mean())


def smallest_cluster(p: Mapping[str, Any], eps: float) -> int:
    """min{C : E[F^K] <= eps}: doubling, then bisection (E[F^K] decreases in C on the good
    event)."""
    K, eta = int(p["K"]), float(p["eta_L"])  # L = 1 for Gaussian means

    def ok(C: int) -> bool:
        return cluster_error(_population(p, C), K, eta) <= eps

    lo, hi = 0, 1  # C = 0 never reaches eps
    while not ok(hi):
        lo, hi = hi, 2 * hi
        if hi > C_MAX:
            raise ValueError(f"eps = {eps} is not reached with C <= {C_MAX} at K = {K}")
    while hi - lo > 1:
        mid = (lo + hi) // 2
        lo, hi = (lo, mid) if ok(mid) else (mid, hi)
    return hi


def simulate_c2(p: Mapping[str, Any], R: int, seed: np.random.SeedSequence) -> dict:
    """N_eps = M C_eps at the grid point's eps, and how often the estimated weights equal the
    cluster weights at that N (S samples, u = Delta^2/4)."""
    C_eps = smallest_cluster(p, float(p["eps"]))
    g = _population(p, C_eps)
    u = g.Delta2 / 4
    if u < 4 * g.nu2 * g.d_eff / int(p["S"]):
        raise ValueError("S is below Theorem 4's condition u >= 4 nu^2 d_eff/S")
    lam = g.estimated_weights(g.estimate_biases(int(p["S"]), RECOVERY_DRAWS, rng_of(seed)), u)
    recovered = np.all(lam == g.true_weights()[None], axis=(1, 2))
    return {"cost": np.asarray(float(g.N)), "C_eps": np.asarray(float(C_eps)),
            "recovered": np.asarray(float(recovered.mean()))}


_C2 = {"d": 2, "Delta2": 4.0, "Sigma": 1.0, "S": 64, "K": 20, "eta_L": 0.5}
C2_GRID = tuple(dict(_C2, instance=640 + m, M=m, eps=float(e))
                for m in (2, 5) for e in np.geomspace(2e-3, 2e-2, 4))
C2_QUICK = tuple(dict(_C2, instance=640 + m, M=m, eps=float(e))
                 for m in (2,) for e in (3e-3, 1e-2, 3e-2))

CHECKS = [
    Check(
        "even2022.C2", "Corollary 2: the agents needed grow like M/eps (S, K bounded)",
        CheckKind.SCALING, Verdict.HOLDS, simulate_c2, grid=C2_GRID, quick_grid=C2_QUICK,
        engine="exact", predicted=-1.0, tolerance=0.1, x_param="eps",
        result_id="even2022.corollary2_agents", form="corrected",
        xlabel="eps", ylabel="N_eps = M C_eps",
        description="Clustered Gaussian means, d = 2, Sigma = I, Delta^2 = 4, M = 2 or 5 "
                    "clusters; S = 64 samples per agent and u = Delta^2/4 (S >= 16 nu^2 d_eff/"
                    "Delta^2 = 8); K = 20 AFA oracle calls with eta = 1/(2L). N_eps = M "
                    "C_eps, C_eps the smallest cluster size with exact E[F^K] <= eps on the "
                    "good event (estimated weights = cluster weights; its frequency at N_eps "
                    "is recorded). Fitted slope of log N_eps on log eps per M: predicted -1."),
]
