"""Check of Property 1's constants of Assumption 3 for quadratic clients (erratum 18)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from pflbounds.checking import Check, CheckKind, Verdict, bound
from pflbounds.papers.philippenko2025.checks.common import instance_rng
from pflbounds.papers.philippenko2025.theory.heterogeneity import PROPERTY1
from pflbounds.problems.client_quadratics import ClientQuadratics, random_spd
from pflbounds.reporting.figure_specs import Plot


def simulate_e18(p: Mapping[str, Any], R: int, seed: np.random.SeedSequence) -> dict:
    """Erratum 18: R_i = (theta + xi_i)^T A_i (theta + xi_i) (the printed normalisation); at
    theta = theta_i^* and at random points, ||grad R_i - grad R_k||^2 against b_ik^2 + c_ik
    ||grad R_i||^2 with Property 1's printed and corrected constants (from the catalog)."""
    rng = instance_rng(p)
    N, d = p["N"], p["d"]
    prob = ClientQuadratics(random_spd(N, d, p["lo"], p["hi"], rng), rng.standard_normal((N, d)),
                            0.0, scale=1.0)
    A, m = prob.A, prob.m
    diff = m[:, None, :] - m[None, :, :]  # xi_k - xi_i = m_i - m_k
    Axi = np.linalg.norm(np.einsum("kab,ikb->ika", A, diff), axis=-1)
    IAA = np.linalg.norm(np.eye(d) - np.einsum("kab,ibc->ikac", A, np.linalg.inv(A)), ord=2,
                         axis=(2, 3))
    consts = {f: bound(PROPERTY1, f, Axi=Axi, IAA=IAA) for f in ("printed", "corrected")}
    pts = np.concatenate([np.broadcast_to(m, (1, N, d)),
                          m + 3 * rng.standard_normal((p["points"], N, d))])
    CG = prob.exact_grad(np.broadcast_to(pts[:, :, None, :], (pts.shape[0], N, N, d)))
    own = CG[:, np.arange(N), np.arange(N)]
    gap = ((own[:, :, None] - CG) ** 2).sum(-1)
    G = (own**2).sum(-1)[:, :, None]
    off = ~np.eye(N, dtype=bool)
    out = {"mean": gap[:, off].ravel()}
    for f, c in consts.items():
        out[f"bound_{f}"] = (c["b"] ** 2 + c["c"] * G)[:, off].ravel()
    out["ks"] = np.arange(out["mean"].size, dtype=float)
    return out


CHECKS = [
    Check(
        "philippenko2025.E18", "Erratum: Property 1's sqrt(2) with the printed normalisation",
        CheckKind.ERRATUM, Verdict.CONFIRMED, simulate_e18,
        grid=({"instance": 80, "N": 5, "d": 3, "lo": 0.5, "hi": 2.0, "points": 200},),
        engine="symbolic", result_id=PROPERTY1.id, form="printed",
        plot=Plot("scatter"),
        xlabel="(point, pair) entry", ylabel="||grad R_i - grad R_k||^2",
        description="At theta = theta_i^* (grad R_i = 0) the gap is 4 ||A_k(xi_i - xi_k)||^2, "
                    "above the printed b_ik^2 = 2 ||.||^2; the corrected 8 ||.||^2 + 2 "
                    "||I - A_k A_i^-1||^2 ||grad R_i||^2 holds at every point."),
]
