"""Checks of the collaboration weights (Definitions 1 and 3): P1 (the identities (I1)-(I5)), P16
(Local as a special case), P17 (Remark 1), erratum 20 (weights above 1), and P14 (the
estimated weights of Algorithm B collapse near the optimum, a shift to local training)."""

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
    estimated_rule,
    true_gradient_rule,
    true_ratios,
)
from pflbounds.checking import Check, CheckKind, Verdict
from pflbounds.exact.linear_gaussian import afo_limit
from pflbounds.papers.philippenko2025.checks.common import (
    criterion,
    instance_rng,
    raw,
    rng_of,
)
from pflbounds.papers.philippenko2025.instances import tb_a, two_clusters
from pflbounds.papers.philippenko2025.theory.weights import DEFINITION1, REMARK1
from pflbounds.problems.clusters import cluster_weights
from pflbounds.problems.quadratic import QuadraticFamily
from pflbounds.reporting.figure_specs import Plot


def simulate_p1(p: Mapping[str, Any], R: int, seed: np.random.SeedSequence) -> dict:
    """P1: (I1)-(I5) at random points of per-client quadratics with unequal variances."""
    prob = tb_a(p["N"], p["d"], 0.5, 2.0, p["spread"], 0.5, instance_rng(p))
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


def remark1_printed(r: np.ndarray, n: np.ndarray, crit: Criterion) -> np.ndarray:
    """Remark 1's weights from its printed formula (the catalog's form): alpha_ik = n_k
    phi(r_ik)/sum_{j in N_i} n_j psi(r_ij), with N_i = {j : phi(r_ij) > 0} the collaborators
    and psi(x) = x phi(x) (Definition 1). Needs no variance."""
    phi = crit.phi(r)
    in_set = crit.selects(r)
    n_psi = np.sum(np.where(in_set, n * r * phi, 0.0), axis=-1)  # (..., N) per client i
    return raw(REMARK1, "printed", n_k=n, phi_r=phi, nPsiSum=n_psi[..., None])


def definition1_printed(r: np.ndarray, s2: np.ndarray, crit: Criterion) -> np.ndarray:
    """Definition 1's weights from the catalog's form: alpha_ik = phi(r_ik) (sigma_{i,psi}/
    sigma_k)^2 with (sigma_{i,psi})^-2 = sum_k psi(r_ik)/sigma_k^2."""
    phi = crit.phi(r)
    eff = 1.0 / np.sum(r * phi / s2, axis=-1)
    return raw(DEFINITION1, "printed", phi_r=phi, sigma_eff2=eff[..., None], sigma_k2=s2)


def simulate_p17(p: Mapping[str, Any], R: int, seed: np.random.SeedSequence) -> dict:
    """P17 (Remark 1): with sigma_k = sigma/sqrt(n_k), Remark 1's printed weights n_k
    phi(r_ik)/sum_{j in N_i} n_j psi(r_ij) equal Definition 1's, both as the catalog prints it
    and as the algorithms compute it (``collaboration_weights``); for identical peers they are
    inverse-variance weights, the smallest sum_k alpha_k^2 sigma_k^2 among weights summing to
    one. Residual: the largest relative difference (and any shortfall)."""
    rng = rng_of(seed)
    N = p["N"]
    n = rng.integers(1, 20, N).astype(float)
    s2 = p["sigma2"] / n
    r = rng.uniform(0, 1, (p["points"], N, N))
    r[:, np.arange(N), np.arange(N)] = 1.0
    res = []
    for crit in (Criterion.binary(p["lam"]), Criterion.continuous()):
        remark = remark1_printed(r, n, crit)
        scale = np.maximum(np.abs(remark), 1e-300)
        for other in (definition1_printed(r, s2, crit),
                      collaboration_weights(r, s2, crit).alpha):
            res.append(float(np.max(np.abs(other - remark) / np.where(remark > 0, scale,
                                                                     1.0))))
    ones = np.ones((1, N, N))
    a = collaboration_weights(ones, s2, Criterion.continuous()).alpha[0, 0]
    best = float(aggregated_variance(a[None], s2)[0])
    w = rng.dirichlet(np.ones(N), size=p["points"])
    others = np.einsum("pk,k->p", w**2, s2)
    res.append(max(0.0, best - float(others.min())))
    res.append(abs(a.sum() - 1))
    return {"residual": np.asarray(max(res)), "residuals": np.asarray(res),
            "inverse_variance": np.asarray(best)}


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


def simulate_p14(p: Mapping[str, Any], R: int, seed: np.random.SeedSequence) -> dict:
    """P14: Algorithm B (Eq. (1) with m = b_alpha fresh gradients per pair) on TB-Q with
    additive noise. ``what="plateau"``: the late excess loss (clients and the last 100
    iterations) against 3 times the oracle's exact plateau (a lower bound: the selection
    collapses); ``what="peers"``: same-cluster peers selected by client 0 at the end against
    (n - 1)/2 (while ||grad R||^2 >> s^2/m they are all selected)."""
    N = 2 * p["n"]
    fam, labels = two_clusters(N, p["d"], p["gap"], 1.0, p["sigma2"])
    x0 = np.zeros(p["d"])
    x0[-1] = p["x0"]
    K = p["K"]
    late = list(range(K - 100, K + 1, 20))
    tr = run_afo_adaptive(fam, estimated_rule(fam, criterion(p), p["m"], sigma2=fam.sigma2_agents),
                          p["eta"], K, x0, R, rng_of(seed), record=[1, *late])
    same = (labels == labels[0])
    same[0] = False
    if p["what"] == "peers":
        picked = tr.collaborators[:, :, 0, :][:, :, same].sum(-1)  # (R, n_rec)
        return {"samples": picked[:, -1:], "bound": np.array([(p["n"] - 1) / 2]),
                "ks": np.array([float(K)]), "early_peers": picked[:, 0].mean()}
    oracle = float(afo_limit(fam, cluster_weights(labels), p["eta"]).mean())
    local = float(afo_limit(fam, np.eye(N), p["eta"]).mean())
    plateau = tr.excess[:, 1:, :].mean(axis=(1, 2))
    return {"samples": plateau[:, None], "bound": np.array([3 * oracle]),
            "ks": np.array([float(K)]), "oracle_plateau": np.asarray(oracle),
            "local_plateau": np.asarray(local)}


_P14 = {"n": 10, "d": 5, "gap": 3.0, "sigma2": 1.0, "x0": 5.0, "eta": 0.05, "lam": 0.5,
        "criterion": "binary"}


_P14Q = dict(_P14, n=5, d=2, K=400, m=4)


CHECKS = [
    Check(
        "philippenko2025.P1", "Definition 1: weight identities (I1)-(I5)", CheckKind.IDENTITY,
        Verdict.HOLDS, simulate_p1,
        grid=({"instance": 1, "N": 10, "d": 4, "spread": 2.0, "lam": 0.3, "points": 400},
              {"instance": 2, "N": 6, "d": 2, "spread": 0.5, "lam": 0.8, "points": 400}),
        quick_grid=({"instance": 1, "N": 10, "d": 4, "spread": 2.0, "lam": 0.3,
                     "points": 100},),
        engine="exact", tolerance=1e-10, result_id=DEFINITION1.id,
        form="printed",
        description="Exact gradients of per-client quadratics (unequal Hessians and variances) "
                    "at random points: sum_k alpha (D_k - G) = -G, sum alpha^2 sigma^2 = "
                    "sigma_psi^4/sigma_phi2^2 <= sigma_psi^2 (equality for continuous), "
                    "sum alpha = (sigma_psi/sigma_phi)^2 in [1, 1/lambda] or [1, sigma_i^2 "
                    "sum sigma_k^-2]; largest relative residual."),
    Check(
        "philippenko2025.P16", "Local SGD is the special case with no peer above threshold",
        CheckKind.IDENTITY, Verdict.HOLDS, simulate_p16,
        grid=({"radius": 5.0, "sigma2": 0.5, "lam": 0.5, "criterion": "binary", "K": 200,
               "runs": 50},
              {"radius": 5.0, "sigma2": 0.5, "criterion": "continuous", "K": 200,
               "runs": 50}),
        quick_grid=({"radius": 5.0, "sigma2": 0.5, "lam": 0.5, "criterion": "binary",
                     "K": 50, "runs": 10},),
        engine="exact", tolerance=0.0, result_id=DEFINITION1.id,
        form="printed",
        description="Four optima on a circle around the common start: r_ik stays below "
                    "lambda (and at 0 for continuous), alpha = e_i, and the run equals local "
                    "SGD with the same seed bitwise (residual: largest difference plus any "
                    "collaborator other than the client itself)."),
    Check(
        "philippenko2025.P17", "Remark 1: batch-size weights equal Definition 1",
        CheckKind.IDENTITY, Verdict.HOLDS, simulate_p17,
        grid=({"N": 12, "sigma2": 2.0, "lam": 0.4, "points": 200},),
        engine="exact", tolerance=1e-12, result_id=REMARK1.id,
        form="printed",
        description="Random batch sizes n_k and similarity ratios, sigma_k = sigma/sqrt(n_k): "
                    "Remark 1's printed weights n_k phi(r_ik)/sum_{j in N_i} n_j psi(r_ij) "
                    "(computed without sigma) against Definition 1's printed weights and "
                    "against the weights the algorithms use, for both criteria; for identical "
                    "peers the weights are inverse-variance, summing to one, with a variance "
                    "at most that of random simplex weights. Residual: the largest relative "
                    "difference."),
    Check(
        "philippenko2025.E20", "Erratum: Definition-1 weights can exceed 1",
        CheckKind.ERRATUM, Verdict.CONFIRMED, simulate_e20,
        grid=({"N": 5, "lam": 0.5, "small": 0.01, "r": 0.6},), engine="symbolic",
        result_id=DEFINITION1.id, form="printed",
        plot=Plot("scatter"),
        xlabel="pair (i, k)", ylabel="alpha_ik",
        description="sigma_0^2 = 0.01, others 1, every r_ik = 0.6 >= lambda: alpha_i0 ~ "
                    "1/0.6 > 1 against the introduction's [0, 1]; every weight stays below "
                    "1/lambda."),
    Check(
        "philippenko2025.P14", "Estimated weights: the plateau rises towards Local's",
        CheckKind.LOWER_BOUND, Verdict.HOLDS, simulate_p14,
        grid=(dict(_P14, K=600, m=1, what="plateau"), dict(_P14, K=600, m=4, what="plateau"),
              dict(_P14, K=600, m=4, criterion="continuous", what="plateau")),
        quick_grid=(dict(_P14Q, what="plateau"),),
        engine="mc", replicas=100, block_size=100,
        result_id=DEFINITION1.id, form="printed",
        xlabel="K", ylabel="late E[eps] (client average)",
        description="TB-Q, Algorithm B with b_alpha = m: the estimator's bias s^2/m stops "
                    "selecting identical peers once ||grad R_i||^2 ~ s^2/m; the plateau is "
                    "at least three times the oracle's exact plateau (the evidence also gives "
                    "the oracle's and Local's exact plateaus)."),
    Check(
        "philippenko2025.P14_peers", "Estimated weights: identical peers dropped near the optimum",
        CheckKind.BOUND_HOLDS, Verdict.HOLDS, simulate_p14,
        grid=(dict(_P14, K=600, m=1, what="peers"), dict(_P14, K=600, m=4, what="peers")),
        quick_grid=(dict(_P14Q, what="peers"),),
        engine="mc", replicas=100, block_size=100,
        result_id=DEFINITION1.id, form="printed",
        xlabel="K", ylabel="same-cluster peers selected by client 1",
        description="Mean number of same-cluster peers client 1 selects at the end, against "
                    "half of them (early on, all are selected: evidence early_peers)."),
]
