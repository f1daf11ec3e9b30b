"""Checks of the collaboration weights: P1 (identities), P13 (step admissibility), P16 (Local
as a special case), P17 (Remark 1), P18 (binary vs continuous ordering) and erratum 20."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from pflbounds.algorithms.adaptive_afo import run_afo_adaptive
from pflbounds.algorithms.collaborative import run_local_sgd
from pflbounds.algorithms.similarity_weights import (
    Criterion,
    aggregated_variance,
    collaboration_weights,
    remark1_weights,
    true_gradient_rule,
    true_ratios,
)
from pflbounds.checking import Check, CheckKind, Verdict
from pflbounds.papers.philippenko2025 import inputs
from pflbounds.papers.philippenko2025.checks.common import (
    bound,
    instance_rng,
    rng_of,
    two_clusters,
)
from pflbounds.problems.client_quadratics import ClientQuadratics, random_spd
from pflbounds.problems.quadratic import QuadraticFamily
from pflbounds.reporting.figure_specs import Plot


def _client_quadratics(p: Mapping[str, Any]) -> ClientQuadratics:
    rng = instance_rng(p)
    N, d = p["N"], p["d"]
    A = random_spd(N, d, 0.5, 2.0, rng)
    m = p["spread"] * rng.standard_normal((N, d))
    return ClientQuadratics(A, m, rng.uniform(0.2, 2.0, N), scale=0.5)


def simulate_p1(p: Mapping[str, Any], R: int, seed: np.random.SeedSequence) -> dict:
    """P1: (I1)-(I5) at random points of per-client quadratics with unequal variances."""
    prob = _client_quadratics(p)
    X = 3 * rng_of(seed).standard_normal((p["points"], prob.N, prob.d))
    r, D, G = true_ratios(prob, X)
    s2 = prob.sigma2_agents
    res = {}
    for crit in (Criterion.binary(p["lam"]), Criterion.continuous()):
        w = collaboration_weights(r, s2, crit)
        i1 = np.abs(np.einsum("rik,rik->ri", w.alpha, D - G[..., None]) + G) / G
        var = aggregated_variance(w.alpha, s2)
        s_phi2 = 1.0 / np.sum(crit.phi(r) ** 2 / s2, axis=-1)
        i2 = np.abs(var - w.sigma_eff2**2 / s_phi2) / w.sigma_eff2
        i2_le = np.maximum(var - w.sigma_eff2 * (1 + 1e-13), 0) / w.sigma_eff2
        tot = w.alpha.sum(-1)
        i3 = np.abs(tot - w.sigma_eff2 / w.sigma_phi2) + np.maximum(1 - tot - 1e-13, 0)
        top = 1 / crit.lam if crit.name == "binary" else s2 * np.sum(1 / s2)
        i45 = np.maximum(tot - top * (1 + 1e-13), 0)
        res[crit.name] = np.array([i1.max(), i2.max(), i2_le.max(), i3.max(), i45.max()])
    cont_eq = np.abs(aggregated_variance(collaboration_weights(r, s2, Criterion.continuous())
                                         .alpha, s2) - collaboration_weights(
        r, s2, Criterion.continuous()).sigma_eff2).max()
    allres = np.concatenate([res["binary"], res["continuous"], [cont_eq]])
    return {"residual": np.asarray(allres.max()), "residuals": allres}


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
        kappa = np.full(fam.N, float(bound("remark3_binary", lam=p["lam"])))
    else:
        kappa = bound("remark3_continuous", "corrected", SinvSum=s2 * np.sum(1 / s2))
    ws = tr.weight_sum[:, 1:, :]  # (R, K, N)
    mean = np.moveaxis(ws, 2, 0).reshape(fam.N, -1)
    return {"mean": mean, "bound": np.broadcast_to((1 / kappa)[:, None], mean.shape).copy(),
            "ks": np.arange(mean.shape[1], dtype=float)}


def simulate_p16(p: Mapping[str, Any], R: int, seed: np.random.SeedSequence) -> dict:
    """P16: optima on a circle around the common start, so every peer stays below the
    threshold: adaptive All-for-one is Local SGD, bitwise, with the same seed."""
    rho = p["radius"]
    m = rho * np.array([[1.0, 0], [-1, 0], [0, 1], [0, -1]])
    fam = QuadraticFamily(h=np.ones(2), m=m, s=np.full(2, p["sigma2"] / 2))
    crit = Criterion.binary(p["lam"]) if p["criterion"] == "binary" else Criterion.continuous()
    ss = seed.spawn(1)[0]
    a = run_afo_adaptive(fam, true_gradient_rule(fam, crit, p["sigma2"]), 0.1, p["K"],
                         np.zeros(2), p["runs"], np.random.default_rng(ss), track_sets=False)
    b = run_local_sgd(fam, 0.1, p["K"], np.zeros(2), p["runs"], np.random.default_rng(ss))
    solo = float(np.max(np.abs(a.n_collaborators[:, 1:] - 1)))
    return {"residual": np.asarray(float(np.max(np.abs(a.excess - b.excess))) + solo),
            "collaborators_other_than_self": np.asarray(solo)}


def simulate_p17(p: Mapping[str, Any], R: int, seed: np.random.SeedSequence) -> dict:
    """P17: with sigma_k = sigma/sqrt(n_k), Definition-1 weights equal n_k phi(r_ik)/sum_j n_j
    psi(r_ij); for identical peers they are inverse-variance weights, the smallest sum_k
    alpha_k^2 sigma_k^2 among weights summing to one."""
    rng = rng_of(seed)
    N = p["N"]
    n = rng.integers(1, 20, N).astype(float)
    s2 = p["sigma2"] / n
    r = rng.uniform(0, 1, (p["points"], N, N))
    r[:, np.arange(N), np.arange(N)] = 1.0
    res = []
    for crit in (Criterion.binary(p["lam"]), Criterion.continuous()):
        a1 = collaboration_weights(r, s2, crit).alpha
        a2 = remark1_weights(r, n, crit)
        res.append(np.max(np.abs(a1 - a2)))
    ones = np.ones((1, N, N))
    a = collaboration_weights(ones, s2, Criterion.continuous()).alpha[0, 0]
    best = float(aggregated_variance(a[None], s2)[0])
    w = rng.dirichlet(np.ones(N), size=p["points"])
    others = np.einsum("pk,k->p", w**2, s2)
    res.append(max(0.0, best - float(others.min())))
    res.append(abs(a.sum() - 1))
    return {"residual": np.asarray(max(res)), "inverse_variance": np.asarray(best)}


def simulate_p18(p: Mapping[str, Any], R: int, seed: np.random.SeedSequence) -> dict:
    """P18 (and erratum 15): sigma_suf,cont^2(eps) <= sigma_suf,bin^2(eps) and N^*_bin in
    N^*_cont, for random (b, c, sigma, lambda, eps)."""
    rng = rng_of(seed)
    worst, bad_sets = 0.0, 0
    for _ in range(p["instances"]):
        N = int(rng.integers(2, 12))
        b = rng.exponential(1.0, (N, N)) * (rng.random((N, N)) < 0.7)
        c = rng.uniform(0, 0.8, (N, N)) * (rng.random((N, N)) < 0.5)
        np.fill_diagonal(b, 0)
        np.fill_diagonal(c, 0)
        s2 = rng.uniform(0.1, 5, N)
        lam, mu, eps = rng.uniform(0.05, 1), rng.uniform(0.1, 3), 10 ** rng.uniform(-2, 2)
        x = inputs.sufficient_ratio(b, c, mu, eps, True)
        bn, cn = Criterion.binary(lam), Criterion.continuous()
        sb, sc = (inputs.sufficient_variance(x, s2, k) for k in (bn, cn))
        worst = max(worst, float(np.max((sc - sb) / sb)))
        nb, ncn = (inputs.sufficient_cluster(x, k) for k in (bn, cn))
        bad_sets += int(np.sum(nb & ~ncn))
    return {"residual": np.asarray(max(worst, 0.0) + bad_sets)}


def simulate_e20(p: Mapping[str, Any], R: int, seed: np.random.SeedSequence) -> dict:
    """Erratum 20: one collaborator much less noisy than the others and similar but not
    identical: its weight is about 1/r_ik > 1 ('alpha in [0, 1]' fails); the weights stay
    below sum_k alpha_ik <= 1/lambda (binary)."""
    N, lam = p["N"], p["lam"]
    s2 = np.ones(N)
    s2[0] = p["small"]
    r = np.full((1, N, N), p["r"])
    r[0, np.arange(N), np.arange(N)] = 1.0
    alpha = collaboration_weights(r, s2, Criterion.binary(lam)).alpha[0]
    mean = alpha.ravel()
    return {"mean": mean, "ks": np.arange(mean.size, dtype=float),
            "bound_printed": np.ones_like(mean), "bound_corrected": np.full_like(mean, 1 / lam)}


CHECKS = [
    Check(
        "philippenko2025.P1", "Definition 1: weight identities (I1)-(I5)", CheckKind.IDENTITY,
        Verdict.HOLDS, simulate_p1,
        grid=({"instance": 1, "N": 10, "d": 4, "spread": 2.0, "lam": 0.3, "points": 400},
              {"instance": 2, "N": 6, "d": 2, "spread": 0.5, "lam": 0.8, "points": 400}),
        quick_grid=({"instance": 1, "N": 10, "d": 4, "spread": 2.0, "lam": 0.3,
                     "points": 100},),
        engine="exact", tolerance=1e-10, result_id="philippenko2025.definition1",
        form="printed",
        description="Exact gradients of per-client quadratics (unequal Hessians and variances) "
                    "at random points: sum_k alpha (D_k - G) = -G, sum alpha^2 sigma^2 = "
                    "sigma_psi^4/sigma_phi2^2 <= sigma_psi^2 (equality for continuous), "
                    "sum alpha = (sigma_psi/sigma_phi)^2 in [1, 1/lambda] or [1, sigma_i^2 "
                    "sum sigma_k^-2]; largest relative residual."),
    Check(
        "philippenko2025.P13_binary", "Remark 3: total weight <= 1/lambda along runs (binary)",
        CheckKind.BOUND_HOLDS, Verdict.HOLDS, simulate_p13,
        grid=({"instance": 3, "N": 10, "gap": 3.0, "lam": 0.3, "criterion": "binary",
               "eta": 0.1, "K": 200, "x0": 6.0, "runs": 20},),
        quick_grid=({"instance": 3, "N": 10, "gap": 3.0, "lam": 0.3, "criterion": "binary",
                     "eta": 0.1, "K": 60, "x0": 6.0, "runs": 5},),
        engine="exact", result_id="philippenko2025.remark3_binary", form="printed",
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
        engine="exact", result_id="philippenko2025.remark3_continuous", form="corrected",
        plot=Plot("scatter"),
        xlabel="(replica, iteration) entry", ylabel="sum_k alpha_ik^t",
        description="As P13_binary with the continuous criterion, against Remark 3's "
                    "corrected bound 1/kappa = sigma_i^2 sum_k sigma_k^-2."),
    Check(
        "philippenko2025.P16", "Local SGD is the special case with no peer above threshold",
        CheckKind.IDENTITY, Verdict.HOLDS, simulate_p16,
        grid=({"radius": 5.0, "sigma2": 0.5, "lam": 0.5, "criterion": "binary", "K": 200,
               "runs": 50},
              {"radius": 5.0, "sigma2": 0.5, "criterion": "continuous", "K": 200,
               "runs": 50}),
        quick_grid=({"radius": 5.0, "sigma2": 0.5, "lam": 0.5, "criterion": "binary",
                     "K": 50, "runs": 10},),
        engine="exact", tolerance=0.0, result_id="philippenko2025.definition1",
        form="printed",
        description="Four optima on a circle around the common start: r_ik stays below "
                    "lambda (and at 0 for continuous), alpha = e_i, and the run equals local "
                    "SGD with the same seed bitwise (residual: largest difference plus any "
                    "collaborator other than the client itself)."),
    Check(
        "philippenko2025.P17", "Remark 1: batch-size weights equal Definition 1",
        CheckKind.IDENTITY, Verdict.HOLDS, simulate_p17,
        grid=({"N": 12, "sigma2": 2.0, "lam": 0.4, "points": 200},),
        engine="exact", tolerance=1e-12, result_id="philippenko2025.definition1",
        form="printed",
        description="sigma_k = sigma/sqrt(n_k): n_k phi(r_ik)/sum_j n_j psi(r_ij) against "
                    "Definition 1; for identical peers the weights are inverse-variance, "
                    "summing to one, with a variance below that of random simplex weights."),
    Check(
        "philippenko2025.P18", "Continuous sufficient variance <= binary (every instance)",
        CheckKind.IDENTITY, Verdict.HOLDS, simulate_p18,
        grid=({"instances": 2000},), quick_grid=({"instances": 300},), engine="symbolic",
        tolerance=1e-12, result_id="philippenko2025.definition2_continuous", form="corrected",
        description="Random b, c, sigma, lambda, eps: relative excess of sigma_suf,cont^2 over "
                    "sigma_suf,bin^2 (clipped at 0) plus the number of binary cluster members "
                    "missing from the continuous cluster."),
    Check(
        "philippenko2025.E20", "Erratum: Definition-1 weights can exceed 1",
        CheckKind.ERRATUM, Verdict.CONFIRMED, simulate_e20,
        grid=({"N": 5, "lam": 0.5, "small": 0.01, "r": 0.6},), engine="symbolic",
        result_id="philippenko2025.definition1", form="printed",
        plot=Plot("scatter"),
        xlabel="pair (i, k)", ylabel="alpha_ik",
        description="sigma_0^2 = 0.01, others 1, every r_ik = 0.6 >= lambda: alpha_i0 ~ "
                    "1/0.6 > 1 against the introduction's [0, 1]; every weight stays below "
                    "1/lambda."),
]
