"""Checks of Lemmas A.1 and A.2 of erickson2025 (digest §4.2-§4.3, §7 P6-P7): Lemma A.1's exact
variance identity over all subsets (P6), the bias of the literal gradient table, Reading A
(E_reading_A, erratum 5), Lemma A.2 (4) at sampled inexact steps (P7), and the printed
delta-inexact definition that no feasible point meets (E_inexact_definition, erratum 7)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from pflbounds.algorithms.karula import all_subset_masks, karula_estimate
from pflbounds.checking import Check, CheckKind, Verdict, bound
from pflbounds.papers.erickson2025.instances import point_instance
from pflbounds.papers.erickson2025.theory.lemmas import LEMMA_A1, LEMMA_A2_4, LEMMA_A2_5
from pflbounds.problems.inexact_projection import Projector, controlled_delta, inexactness
from pflbounds.reporting.figure_specs import Plot


def simulate_p6_identity(p: Mapping[str, Any], R: int, seed: np.random.SeedSequence) -> dict:
    """P6 (exact part): under Reading B with sigma = 0, E_S ||nu - grad f(theta)||^2 over all
    C(n, s) subsets equals ((n - s)/(n^2 s)) sum_i ||g_i(theta_i) - g_i(phi_i)||^2 (digest
    §4.2) and is below Lemma A.1's 2 L^2/(n s) ||theta - phi||^2. Random quadratic clients
    alpha_i f_i = (1/2) x^T H_i x - b_i^T x, L = max_i lambda_max(H_i). Residual: the identity's
    relative error, plus 1 if the lemma's bound fails."""
    rng = np.random.default_rng(seed)
    n, s, d = int(p["n"]), int(p["s"]), int(p["d"])
    A = rng.standard_normal((n, d, d))
    H = A @ A.transpose(0, 2, 1) / d + 0.1 * np.eye(d)
    b = rng.standard_normal((n, d))
    theta, phi = rng.standard_normal((n, d)), rng.standard_normal((n, d))
    g_th = np.einsum("nij,nj->ni", H, theta) - b
    g_ph = np.einsum("nij,nj->ni", H, phi) - b
    grad_f = g_th / n
    nu = karula_estimate(g_th[None], g_ph[None], all_subset_masks(n, s), s, reading="B")
    mse = float(((nu - grad_f[None]) ** 2).sum(axis=(1, 2)).mean())
    exact = (n - s) / (n * n * s) * float(((g_th - g_ph) ** 2).sum())
    L = float(np.linalg.eigvalsh(H).max())
    lemma = float(bound(LEMMA_A1, "printed", L=L, n=n, s=s,
                        E_th_phi=float(((theta - phi) ** 2).sum()), sigma2=0.0))
    return {"residual": np.asarray(abs(mse - exact) / exact + (0.0 if mse <= lemma else 1.0)),
            "mse": np.asarray(mse), "lemma_bound": np.asarray(lemma)}


def simulate_reading_bias(p: Mapping[str, Any], R: int, seed: np.random.SeedSequence
                          ) -> dict:
    """Erratum 5: at a random state (theta, table y = G(phi)), sigma = 0, the mean over all
    C(n, s) subsets of nu under Readings A and B, against grad f(theta). Measured: the two
    biases ||E_S nu - grad f||. Printed bound 0 for both (the proof's unbiasedness: Reading A,
    the literal recursion, violates it); corrected: Reading A's bias is that of its mean
    (1 - 1/n) y + G(theta)/n (digest §4.2) and Reading B's is 0."""
    rng = np.random.default_rng(seed)
    inst = point_instance(p)
    n, d, s = inst.N, inst.d, int(p["s"])
    theta, phi = rng.standard_normal((n, d)), rng.standard_normal((n, d))
    G, y = inst.client_grads(theta), inst.client_grads(phi)
    mask = all_subset_masks(n, s)
    grad_f = G / n
    nu_a = karula_estimate(G[None], y[None], mask, s, reading="A").mean(axis=0)
    nu_b = karula_estimate(G[None], y[None], mask, s, reading="B").mean(axis=0)
    bias = np.array([np.linalg.norm(nu_a - grad_f), np.linalg.norm(nu_b - grad_f)])
    pred_a = np.linalg.norm((1 - 1 / n) * y + G / n - grad_f)
    return {"mean": bias, "ks": np.array([1.0, 2.0]), "bound_printed": np.zeros(2),
            "bound_corrected": np.array([pred_a, 0.0])}


def simulate_p7(p: Mapping[str, Any], R: int, seed: np.random.SeedSequence) -> dict:
    """P7: Lemma A.2 (4) for random theta, v in K near the constrained optimum (projections of
    perturbed points, where the constraints are active), nu a perturbed gradient and u a
    delta-inexact projection of z = theta - eta nu (controlled delta, towards the consensus
    point; delta drawn over four decades), on a random quadratic f with its L (Assumption
    4.1). Residual: the largest (f(u) - rhs)_+/(1 + |rhs|) over the samples, with rhs the
    lemma's right side evaluated through the encoded result."""
    rng = np.random.default_rng(seed)
    inst = point_instance(p)
    m, n, d = int(p["samples"]), inst.N, inst.d
    eta = float(p["eta_L"]) / inst.beta
    proj = Projector(inst.cset, "dual", 1e-15)
    x_star = inst.constrained_optimum[0]
    spread = float(p["spread"])
    theta = proj(x_star + spread * rng.standard_normal((m, n, d)))
    g = inst.mean_grad(theta)
    nu = g + float(np.abs(g).max()) * rng.standard_normal((m, n, d))
    v = proj(theta + spread * rng.standard_normal((m, n, d)))
    z = theta - eta * nu
    ubar = proj(z)
    delta = 10.0 ** rng.uniform(-6, -2, m)
    centre = np.broadcast_to(z.mean(axis=1, keepdims=True), z.shape)
    u = controlled_delta(z, ubar, centre, eta, delta)
    delta_used = np.maximum(inexactness(u, z, ubar, eta), 0.0)
    ax = (1, 2)
    rhs = bound(
        LEMMA_A2_4, "printed", L=inst.beta, eta=eta, delta=delta_used,
        f_v=inst.mean_objective(v), ip=((u - v) * (inst.mean_grad(theta) - nu)).sum(axis=ax),
        a1=((u - theta) ** 2).sum(axis=ax), a2=((v - theta) ** 2).sum(axis=ax),
        a3=((ubar - v) ** 2).sum(axis=ax))
    lhs = inst.mean_objective(u)
    slack = rhs - lhs
    return {"residual": np.asarray(float(np.max(np.maximum(-slack, 0.0) / (1 + np.abs(rhs))))),
            "min_slack": np.asarray(float(slack.min())),
            "median_slack": np.asarray(float(np.median(slack)))}


def simulate_inexact_definition(p: Mapping[str, Any], R: int, seed: np.random.SeedSequence
                                ) -> dict:
    """Erratum 7: for points z outside K with dist(z, K)^2 > 2 eta delta, the smallest
    (1/(2 eta))||theta - z||^2 over feasible theta (attained at Pi_K(z)) against the printed
    right side delta + (1/(2 eta)) min_v ||v - theta||^2 = delta (theta in K), violated, and
    the corrected delta + (1/(2 eta)) ||Pi_K(z) - z||^2, met."""
    rng = np.random.default_rng(seed)
    inst = point_instance(p)
    eta, delta = float(p["eta"]), float(p["delta"])
    z = 3.0 * rng.standard_normal((int(p["points"]), inst.N, inst.d))
    proj = Projector(inst.cset, "dual", 1e-15)
    dist2 = ((proj(z) - z) ** 2).sum(axis=(1, 2))
    keep = dist2 > 2 * eta * delta
    best = dist2[keep] / (2 * eta)
    return {"mean": best, "ks": np.arange(1.0, best.size + 1),
            "bound_printed": np.full(best.size, delta), "bound_corrected": delta + best}


_INST = {"n": 5, "d": 2, "cond": 5.0, "rho": 0.5, "inst": 4}


CHECKS = [
    Check(
        "erickson2025.P6", "Lemma A.1: exact variance identity over all subsets",
        CheckKind.IDENTITY, Verdict.HOLDS, simulate_p6_identity,
        grid=({"n": 8, "s": 3, "d": 4}, {"n": 6, "s": 2, "d": 3}, {"n": 7, "s": 6, "d": 2}),
        engine="exact", tolerance=1e-12, result_id=LEMMA_A1.id, form="printed",
        description="Reading B, sigma = 0, random quadratic clients: the mean over all C(n, s) "
                    "subsets of ||nu - grad f||^2 equals (n - s)/(n^2 s) sum_i ||g_i(theta_i) - "
                    "g_i(phi_i)||^2 to 1e-12 and is below Lemma A.1's bound."),
    Check(
        "erickson2025.E_reading_A", "Erratum: the literal gradient table (Reading A) is biased",
        CheckKind.ERRATUM, Verdict.CONFIRMED, simulate_reading_bias,
        grid=(dict(_INST, s=2), dict(_INST, s=4)), engine="exact", rel_tol=1e-9,
        abs_tol=1e-12, result_id=LEMMA_A1.id, form="printed",
        xlabel="reading (1 = A, 2 = B)", ylabel="||E_S nu - grad f(theta)||",
        description="Exact mean over all subsets, sigma = 0: Reading A's estimate is biased "
                    "(by exactly ||(1 - 1/n) y + G/n - grad f||), Reading B's is not."),
    Check(
        "erickson2025.P7", "Lemma A.2 (4): one inexact projected step",
        CheckKind.IDENTITY, Verdict.HOLDS, simulate_p7,
        grid=(dict(n=6, d=3, cond=10.0, rho=0.5, inst=0, eta_L=0.375, samples=200, spread=0.3),
              dict(n=5, d=2, cond=50.0, rho=0.3, inst=3, eta_L=0.1, samples=200, spread=0.1)),
        quick_grid=(dict(n=6, d=3, cond=10.0, rho=0.5, inst=0, eta_L=0.375, samples=40,
                         spread=0.3),),
        engine="exact", tolerance=1e-9, result_id=LEMMA_A2_4.id, form="printed",
        description="f(u) <= the lemma's right side for random theta, v in K near the "
                    "solution, nu near grad f(theta) and delta-inexact u (delta from 1e-6 to "
                    "1e-2), up to 1e-9 relative; the evidence keeps the smallest slack."),
    Check(
        "erickson2025.E_inexact_definition",
        "Erratum: no feasible point meets the printed delta-inexact definition",
        CheckKind.ERRATUM, Verdict.CONFIRMED, simulate_inexact_definition,
        grid=(dict(_INST, eta=0.375, delta=1e-3, points=10),), engine="exact", rel_tol=1e-9,
        result_id=LEMMA_A2_5.id, form="printed", plot=Plot("scatter"), xlabel="point",
        ylabel="min over K of ||theta - z||^2/(2 eta)",
        description="For z with dist(z, K)^2 > 2 eta delta even the exact projection misses "
                    "the printed right side (delta), and meets the corrected one."),
]
