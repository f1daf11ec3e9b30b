"""Deterministic checks of erickson2025 on sampled inputs: Lemma A.2 (4) (P7), Proposition
3.4 and its intermediate bound (3) on the translation family (P8), the limits in t of
Problem (1) (P10) and one step of the corrected Lyapunov argument of Theorem 4.3 (P11)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from pflbounds.algorithms.karula import all_subset_masks, karula_estimate
from pflbounds.checking import Check, CheckKind, Verdict
from pflbounds.papers.erickson2025.checks.karula_runs import point_instance
from pflbounds.papers.erickson2025.instances import QuadraticClients
from pflbounds.problems.inexact_projection import (
    Projector,
    controlled_delta,
    gradient_mapping,
    inexactness,
)
from pflbounds.problems.pairwise_constraints import pair_index
from pflbounds.symbolic.catalog import get
from pflbounds.symbolic.evaluate import evaluate


def simulate_p7(p: Mapping[str, Any], R: int, seed: np.random.SeedSequence) -> dict:
    """P7: Lemma A.2 (4) for random theta, v in K near the constrained optimum (projections of
    perturbed points, where the constraints are active), nu a perturbed gradient and u a
    delta-inexact projection of z = theta - eta nu (controlled delta, towards the consensus
    point; delta drawn over four decades), on a random quadratic f with its L (Assumption
    4.1). Residual: the largest (f(u) - rhs)_+/(1 + |rhs|) over the samples, with rhs the
    lemma's right side evaluated through the encoded result."""
    rng = np.random.default_rng(seed)
    inst = point_instance(p)
    m, n, d = int(p["samples"]), inst.n, inst.d
    eta = float(p["eta_L"]) / inst.L
    proj = Projector(inst.cset, "dual", 1e-15)
    x_star = inst.optimum[0]
    spread = float(p["spread"])
    theta = proj(x_star + spread * rng.standard_normal((m, n, d)))
    g = inst.grad_f(theta)
    nu = g + float(np.abs(g).max()) * rng.standard_normal((m, n, d))
    v = proj(theta + spread * rng.standard_normal((m, n, d)))
    z = theta - eta * nu
    ubar = proj(z)
    delta = 10.0 ** rng.uniform(-6, -2, m)
    centre = np.broadcast_to(z.mean(axis=1, keepdims=True), z.shape)
    u = controlled_delta(z, ubar, centre, eta, delta)
    delta_used = np.maximum(inexactness(u, z, ubar, eta), 0.0)
    ax = (1, 2)
    rhs = np.asarray(evaluate(
        get("erickson2025.lemmaA2_4"), "printed", L=inst.L, eta=eta, delta=delta_used,
        f_v=inst.f(v), ip=((u - v) * (inst.grad_f(theta) - nu)).sum(axis=ax),
        a1=((u - theta) ** 2).sum(axis=ax), a2=((v - theta) ** 2).sum(axis=ax),
        a3=((ubar - v) ** 2).sum(axis=ax)).value, dtype=float)
    lhs = inst.f(u)
    slack = rhs - lhs
    return {"residual": np.asarray(float(np.max(np.maximum(-slack, 0.0) / (1 + np.abs(rhs))))),
            "min_slack": np.asarray(float(slack.min())),
            "median_slack": np.asarray(float(np.median(slack)))}


def simulate_p8(p: Mapping[str, Any], R: int, seed: np.random.SeedSequence) -> dict:
    """P8 (a): the translation family l(theta, xi) = (gamma/2)||theta - xi||^2 on Theta =
    {||theta|| <= R}, mu_i uniform on m_i + [-a, a]^d with ||m_i|| + a sqrt(d) <= rho and
    ||m_i|| <= R: theta_i* = m_i, growth gamma, L_X = gamma (R + rho) and W_1(mu_i, mu_j) =
    ||m_i - m_j|| (translates). f_i(theta) = (gamma/2)(||theta - m_i||^2 + d a^2/3) exactly.
    Residual: the relative gap between ||m_i - m_j||^2 and (3)'s right side (an equality
    here), plus 1 if (2) fails at some pair."""
    rng = np.random.default_rng(seed)
    n, d, gamma, Rb, a = int(p["n"]), int(p["d"]), float(p["gamma"]), float(p["R"]), \
        float(p["a"])
    m = rng.standard_normal((n, d))
    m *= (0.9 * Rb * rng.uniform(0.1, 1.0, n) / np.linalg.norm(m, axis=1))[:, None]
    rho = float(np.linalg.norm(m, axis=1).max()) + a * np.sqrt(d)

    def f(i: np.ndarray, th: np.ndarray) -> np.ndarray:
        return 0.5 * gamma * (((th - m[i]) ** 2).sum(axis=-1) + d * a * a / 3.0)

    i, j = pair_index(n)
    lhs = ((m[i] - m[j]) ** 2).sum(axis=1)
    gap = f(i, m[j]) - f(j, m[j]) + f(j, m[i]) - f(i, m[i])
    eq3 = np.asarray(evaluate(get("erickson2025.proposition3_4_eq3"), "printed", gap=gap,
                              gamma=gamma).value, dtype=float)
    W1 = np.linalg.norm(m[i] - m[j], axis=1)
    eq2 = np.asarray(evaluate(get("erickson2025.proposition3_4"), "printed",
                              L_X=gamma * (Rb + rho), gamma=gamma, W1=W1).value, dtype=float)
    res = float(np.max(np.abs(lhs - eq3) / lhs)) + (0.0 if np.all(lhs <= eq2) else 1.0)
    return {"residual": np.asarray(res), "tightness_2": np.asarray(float(np.max(lhs / eq2))),
            "tightness_3": np.asarray(float(np.max(lhs / eq3)))}


def simulate_p10(p: Mapping[str, Any], R: int, seed: np.random.SeedSequence) -> dict:
    """P10: with D_ij = ||m_i - m_j||^2 (so t_max = 1), the exact optimum of Problem (1)
    (cvxpy) at t = 0 is the consensus (sum_i H_i)^{-1} sum_i b_i, at t >= t_max it is the
    local optima m_i, and f*(t) is non-increasing along a grid of t. Residual: the two
    relative distances plus the largest relative increase of f*."""
    base = point_instance(p)
    i, j = pair_index(base.n)
    D = ((base.m[i] - base.m[j]) ** 2).sum(axis=1)
    ts = np.asarray(p["ts"], dtype=float)
    fs, opt = [], {}
    for t in ts:
        inst = QuadraticClients(base.H, base.m, np.sqrt(t * D))
        x, fstar, _ = inst.optimum
        fs.append(fstar)
        opt[float(t)] = x
    scale = 1.0 + float(np.linalg.norm(base.m))
    cons = np.linalg.solve(base.H.sum(axis=0), base.b.sum(axis=0))
    r0 = float(np.linalg.norm(opt[0.0] - cons[None])) / scale
    r1 = max(float(np.linalg.norm(opt[float(t)] - base.m)) for t in ts if t >= 1.0) / scale
    fs_arr = np.asarray(fs)
    incr = float(np.max(np.maximum(np.diff(fs_arr), 0.0))) / (1.0 + float(np.abs(fs_arr).max()))
    return {"residual": np.asarray(r0 + r1 + incr), "ks": ts, "f_star": fs_arr,
            "consensus_error": np.asarray(r0), "local_error": np.asarray(r1)}


def lyapunov_weights(n: int, s: int, eta: float, L: float, K: int) -> np.ndarray:
    """Corrected Lyapunov weights c_k = (2 eta L^2/(n s)) (1 - r^{K-k})/(1 - r), r = (n^2 -
    s^2)/n^2, k = 0..K (digest §5.5 G2; c_K = 0)."""
    r = (n * n - s * s) / (n * n)
    k = np.arange(K + 1)
    return 2 * eta * L**2 / (n * s) * (1 - r ** (K - k)) / (1 - r)


def simulate_p11(p: Mapping[str, Any], R: int, seed: np.random.SeedSequence) -> dict:
    """P11: one step of the corrected Lyapunov argument, exact over all C(n, s) subsets
    (Reading B, sigma = 0, certified exact projections): for sampled states (theta^k in K
    near theta*, phi^k arbitrary, the table y = G(phi^k)) and steps k of a horizon K,
    E_S[f(theta^{k+1}) + c_{k+1}||theta^{k+1} - phi^{k+1}||^2] - f(theta^k) - c_k||theta^k -
    phi^k||^2 <= -eta^2 (1/(2 eta) - L)||G_eta(theta^k)||^2 + 2 delta, delta the largest
    certified inexactness of the projections. Residual: the largest excess over the bound,
    relative to 1 + |V^k|."""
    rng = np.random.default_rng(seed)
    inst = point_instance(p)
    n, d, s, L = inst.n, inst.d, int(p["s"]), inst.L
    eta = 3.0 / (8.0 * L)
    m, K, spread = int(p["states"]), int(p["K"]), float(p["spread"])
    c = lyapunov_weights(n, s, eta, L, K)
    proj = Projector(inst.cset, "dual", 1e-15)
    theta = proj(inst.optimum[0] + spread * rng.standard_normal((m, n, d)))
    phi = theta + spread * rng.standard_normal((m, n, d))
    y = inst.weighted_grad(phi)
    mk = all_subset_masks(n, s)[None]
    n_sub = mk.shape[1]
    G_th = inst.weighted_grad(theta)
    nu = karula_estimate(G_th[:, None], y[:, None], mk, s, reading="B")
    z = (theta[:, None] - eta * nu).reshape(-1, n, d)
    th1 = proj(z).reshape(m, n_sub, n, d)
    worst = float(np.max(proj.gap)) / eta
    phi1 = np.where(mk, theta[:, None], phi[:, None])
    gm = gradient_mapping(theta, inst.grad_f(theta), eta, proj)
    worst = max(worst, float(np.max(proj.gap)) / eta)
    g2 = (gm**2).sum(axis=(1, 2))
    f1 = inst.f(th1).mean(axis=1)
    d1 = ((th1 - phi1) ** 2).sum(axis=(2, 3)).mean(axis=1)
    d0 = ((theta - phi) ** 2).sum(axis=(1, 2))
    f0 = inst.f(theta)
    res = 0.0
    for k in np.asarray(p["ks"], dtype=int):
        lhs = f1 + c[k + 1] * d1 - (f0 + c[k] * d0)
        rhs = -eta**2 * (1 / (2 * eta) - L) * g2 + 2 * worst
        res = max(res, float(np.max(np.maximum(lhs - rhs, 0.0) / (1 + np.abs(f0 + c[k] * d0)))))
    return {"residual": np.asarray(res), "delta": np.asarray(worst),
            "min_slack": np.asarray(float(np.min(rhs - lhs)))}


CHECKS = [
    Check(
        "erickson2025.P7", "Lemma A.2 (4): one inexact projected step",
        CheckKind.IDENTITY, Verdict.HOLDS, simulate_p7,
        grid=(dict(n=6, d=3, cond=10.0, rho=0.5, inst=0, eta_L=0.375, samples=200, spread=0.3),
              dict(n=5, d=2, cond=50.0, rho=0.3, inst=3, eta_L=0.1, samples=200, spread=0.1)),
        quick_grid=(dict(n=6, d=3, cond=10.0, rho=0.5, inst=0, eta_L=0.375, samples=40,
                         spread=0.3),),
        engine="exact", tolerance=1e-9, result_id="erickson2025.lemmaA2_4", form="printed",
        description="f(u) <= the lemma's right side for random theta, v in K near the "
                    "solution, nu near grad f(theta) and delta-inexact u (delta from 1e-6 to "
                    "1e-2), up to 1e-9 relative; the evidence keeps the smallest slack."),
    Check(
        "erickson2025.P8", "Proposition 3.4 on the translation family; (3) is an equality",
        CheckKind.IDENTITY, Verdict.HOLDS, simulate_p8,
        grid=(dict(n=8, d=3, gamma=2.0, R=5.0, a=0.5), dict(n=5, d=10, gamma=0.3, R=1.0,
                                                             a=0.05)),
        engine="exact", tolerance=1e-12, result_id="erickson2025.proposition3_4",
        form="printed",
        description="theta_i* = m_i, W_1 = ||m_i - m_j||, L_X = gamma (R + rho): (2) holds at "
                    "every pair (loose: L_X is worst-case) and (3) holds with equality."),
    Check(
        "erickson2025.P11", "Theorem 4.3 proof: one corrected Lyapunov step over all subsets",
        CheckKind.IDENTITY, Verdict.HOLDS, simulate_p11,
        grid=(dict(n=6, d=3, s=3, cond=10.0, rho=0.5, inst=0, states=20, K=50,
                   ks=[0, 25, 49], spread=0.3),
              dict(n=5, d=2, s=4, cond=50.0, rho=0.3, inst=3, states=20, K=50,
                   ks=[0, 25, 49], spread=0.3)),
        quick_grid=(dict(n=6, d=3, s=3, cond=10.0, rho=0.5, inst=0, states=4, K=50,
                         ks=[0, 49], spread=0.3),),
        engine="exact", tolerance=1e-9, result_id="erickson2025.theorem4_3", form="corrected",
        description="V^{k+1} - V^k <= -eta^2 (1/(2 eta) - L) ||G_eta||^2 + 2 delta with the "
                    "corrected weights c_k, exactly over all C(n, s) subsets (sigma = 0), at "
                    "sampled states (10 s^4 >= 9 n^2 + 9 n s holds on both grid points)."),
    Check(
        "erickson2025.P10", "Problem (1): t = 0 gives consensus, t >= t_max the local optima",
        CheckKind.IDENTITY, Verdict.HOLDS, simulate_p10,
        grid=(dict(n=6, d=3, cond=10.0, rho=0.5, inst=0,
                   ts=[0.0, 0.05, 0.1, 0.25, 0.5, 0.75, 1.0, 1.5]),),
        quick_grid=(dict(n=6, d=3, cond=10.0, rho=0.5, inst=0, ts=[0.0, 0.25, 1.0]),),
        engine="exact", tolerance=1e-4, result_id="erickson2025.proposition3_4_t",
        form="printed",
        description="Exact optima (Clarabel): at t = 0 the closed-form consensus, at t >= "
                    "t_max = 1 the local optima m_i, and f*(t) non-increasing, to 1e-4 (the "
                    "conic solver's accuracy at these points is about 5e-6)."),
]
