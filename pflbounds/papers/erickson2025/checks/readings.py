"""Erratum checks of erickson2025 on Algorithm 1's estimator and the delta-inexact
definition: Reading A's bias (erratum 5) and the printed definition that no feasible point
meets (erratum 7)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from pflbounds.algorithms.karula import all_subset_masks, karula_estimate
from pflbounds.checking import Check, CheckKind, Verdict
from pflbounds.papers.erickson2025.checks.karula_runs import point_instance
from pflbounds.problems.inexact_projection import Projector


def simulate_reading_bias(p: Mapping[str, Any], R: int, seed: np.random.SeedSequence
                          ) -> dict:
    """Erratum 5: at a random state (theta, table y = G(phi)), sigma = 0, the mean over all
    C(n, s) subsets of nu under Readings A and B, against grad f(theta). Measured: the two
    biases ||E_S nu - grad f||. Printed bound 0 for both (the proof's unbiasedness: Reading A,
    the literal recursion, violates it); corrected: Reading A's bias is that of its mean
    (1 - 1/n) y + G(theta)/n (digest §4.2) and Reading B's is 0."""
    rng = np.random.default_rng(seed)
    inst = point_instance(p)
    n, d, s = inst.n, inst.d, int(p["s"])
    theta, phi = rng.standard_normal((n, d)), rng.standard_normal((n, d))
    G, y = inst.weighted_grad(theta), inst.weighted_grad(phi)
    mask = all_subset_masks(n, s)
    grad_f = G / n
    nu_a = karula_estimate(G[None], y[None], mask, s, reading="A").mean(axis=0)
    nu_b = karula_estimate(G[None], y[None], mask, s, reading="B").mean(axis=0)
    bias = np.array([np.linalg.norm(nu_a - grad_f), np.linalg.norm(nu_b - grad_f)])
    pred_a = np.linalg.norm((1 - 1 / n) * y + G / n - grad_f)
    return {"mean": bias, "ks": np.array([1.0, 2.0]), "bound_printed": np.zeros(2),
            "bound_corrected": np.array([pred_a, 0.0])}


def simulate_inexact_definition(p: Mapping[str, Any], R: int, seed: np.random.SeedSequence
                                ) -> dict:
    """Erratum 7: for points z outside K with dist(z, K)^2 > 2 eta delta, the smallest
    (1/(2 eta))||theta - z||^2 over feasible theta (attained at Pi_K(z)) against the printed
    right side delta + (1/(2 eta)) min_v ||v - theta||^2 = delta (theta in K), violated, and
    the corrected delta + (1/(2 eta)) ||Pi_K(z) - z||^2, met."""
    rng = np.random.default_rng(seed)
    inst = point_instance(p)
    eta, delta = float(p["eta"]), float(p["delta"])
    z = 3.0 * rng.standard_normal((int(p["points"]), inst.n, inst.d))
    proj = Projector(inst.cset, "dual", 1e-15)
    dist2 = ((proj(z) - z) ** 2).sum(axis=(1, 2))
    keep = dist2 > 2 * eta * delta
    best = dist2[keep] / (2 * eta)
    return {"mean": best, "ks": np.arange(1.0, best.size + 1),
            "bound_printed": np.full(best.size, delta), "bound_corrected": delta + best}


_INST = {"n": 5, "d": 2, "cond": 5.0, "rho": 0.5, "inst": 4}

CHECKS = [
    Check(
        "erickson2025.E_reading_A", "Erratum: the literal gradient table (Reading A) is biased",
        CheckKind.ERRATUM, Verdict.CONFIRMED, simulate_reading_bias,
        grid=(dict(_INST, s=2), dict(_INST, s=4)), engine="exact", rel_tol=1e-9,
        abs_tol=1e-12, result_id="erickson2025.lemmaA1", form="printed",
        xlabel="reading (1 = A, 2 = B)", ylabel="||E_S nu - grad f(theta)||",
        description="Exact mean over all subsets, sigma = 0: Reading A's estimate is biased "
                    "(by exactly ||(1 - 1/n) y + G/n - grad f||), Reading B's is not."),
    Check(
        "erickson2025.E_inexact_definition",
        "Erratum: no feasible point meets the printed delta-inexact definition",
        CheckKind.ERRATUM, Verdict.CONFIRMED, simulate_inexact_definition,
        grid=(dict(_INST, eta=0.375, delta=1e-3, points=10),), engine="exact", rel_tol=1e-9,
        result_id="erickson2025.lemmaA2_5", form="printed", xlabel="point",
        ylabel="min over K of ||theta - z||^2/(2 eta)",
        description="For z with dist(z, K)^2 > 2 eta delta even the exact projection misses "
                    "the printed right side (delta), and meets the corrected one."),
]
