"""Checks of the one-step descent and Theorem 1: P2 (Lemma 1 corrected, (S2)), erratum 1
(Lemma 1 printed), P3 (Theorem 1's envelope, Monte Carlo, data-dependent) and P5 (Theorem 1
exact, in the fixed-weight regime)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from pflbounds.algorithms.adaptive_afo import run_afo_adaptive
from pflbounds.algorithms.collaborative import run_afo
from pflbounds.algorithms.similarity_weights import (
    Criterion,
    aggregated_variance,
    collaboration_weights,
    true_gradient_rule,
    true_ratios,
)
from pflbounds.checking import Check, CheckKind, Verdict, bound
from pflbounds.exact.linear_gaussian import afo_expected_excess
from pflbounds.papers.philippenko2025.checks.common import (
    FIX,
    criterion,
    fixed_regime,
    instance_rng,
    kappa,
    raw,
    rng_of,
)
from pflbounds.papers.philippenko2025.instances import tb_a, two_clusters
from pflbounds.papers.philippenko2025.theory.descent import LEMMA1, S2, THEOREM1
from pflbounds.problems.client_quadratics import ClientQuadratics
from pflbounds.problems.clusters import cluster_weights
from pflbounds.reporting.figure_specs import Plot
from pflbounds.symbolic.catalog import get
from pflbounds.symbolic.result import Result
from pflbounds.symbolic.units import DimensionError


def key(result: Result) -> str:
    """The result's key (its id without the paper): a grid point of P2 names the bound it is
    compared with by it."""
    return result.id.split(".", 1)[1]


def _one_step(prob: ClientQuadratics, X: np.ndarray, alpha: np.ndarray, eta: np.ndarray
              ) -> dict[str, np.ndarray]:
    """Exact one-step quantities of All-for-one at theta = X[:, i] for every client i:
    E[R_i(theta^+)] - R_i(theta) with theta^+ = theta - eta sum_k alpha_ik g_k(theta) and
    additive noise (E = R_i(mean) + scale tr(A_i) eta^2 sum_k alpha_ik^2 sigma_k^2/d), and the
    Lemma-1 inputs."""
    R, N, d = X.shape
    CG = prob.exact_grad(np.broadcast_to(X[:, :, None, :], (R, N, N, d)))
    own = CG[:, np.arange(N), np.arange(N)]
    D = ((CG - own[:, :, None]) ** 2).sum(-1)
    G = (own**2).sum(-1)
    V = aggregated_variance(alpha, prob.sigma2_agents)
    mean = X - eta[..., None] * np.einsum("rik,rikd->rid", alpha, CG)
    trA = np.trace(prob.A, axis1=1, axis2=2)
    change = prob.excess(mean) + prob.scale * trA * eta**2 * V / d - prob.excess(X)
    g_next = prob.exact_grad(mean)
    Gnext = (g_next**2).sum(-1) + (2 * prob.scale) ** 2 * np.einsum(
        "kab,kab->k", prob.A, prob.A) * eta**2 * V / d  # E||grad R_i(theta^+)||^2
    return {"change": change, "Asum": alpha.sum(-1), "ADsum": np.einsum("rik,rik->ri", alpha, D),
            "G": G, "Gnext": Gnext, "Valpha": V}


def _instance(p: Mapping[str, Any]) -> ClientQuadratics:
    """TB-A or TB-P (``scale``) of the grid point."""
    return tb_a(p["N"], p["d"], p["lo"], p["hi"], p["spread"], p["scale"], instance_rng(p))


def _weights(prob: ClientQuadratics, X: np.ndarray, kind: str, lam: float,
             rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray | None]:
    if kind == "random":
        a = rng.exponential(1.0, X.shape[:2] + (prob.N,)) * (rng.random(
            X.shape[:2] + (prob.N,)) < 0.6)
        a[:, np.arange(prob.N), np.arange(prob.N)] += 0.1  # A_i > 0 (Lemma 1's Jensen step)
        return a, None
    crit = Criterion.binary(lam) if kind == "binary" else Criterion.continuous()
    w = collaboration_weights(true_ratios(prob, X)[0], prob.sigma2_agents, crit)
    return w.alpha, w.sigma_eff2


def simulate_p2(p: Mapping[str, Any], R: int, seed: np.random.SeedSequence) -> dict:
    """P2: the exact one-step change against Lemma 1 corrected (any weights >= 0) or (S2)
    (Definition-1 weights), with eta = frac/(beta sum_k alpha_ik)."""
    prob = _instance(p)
    rng = rng_of(seed)
    X = 2 * rng.standard_normal((p["points"], prob.N, prob.d))
    alpha, seff = _weights(prob, X, p["weights"], p.get("lam", 0.5), rng)
    eta = p["frac"] / (prob.beta * np.maximum(alpha.sum(-1), 1e-12))
    q = _one_step(prob, X, alpha, eta)
    if p["bound"] == key(S2):
        bnd = bound(S2, eta=eta, G=q["G"], beta=prob.beta, sigma_eff2=seff, Asum=q["Asum"])
    else:
        bnd = bound(LEMMA1, "corrected", eta=eta, ADsum=q["ADsum"], Asum=q["Asum"],
                    G=q["G"], beta=prob.beta, Valpha=q["Valpha"])
    mean = q["change"].ravel()
    return {"mean": mean, "bound": bnd.ravel(), "ks": np.arange(mean.size, dtype=float)}


def simulate_e1(p: Mapping[str, Any], R: int, seed: np.random.SeedSequence) -> dict:
    """Erratum 1: Lemma 1 as printed (gradient norm at theta^t, eta beta sum sigma^2 alpha^2)
    against the corrected form, on an instance whose units make eta > 2 admissible
    (beta sum alpha eta < 1 with beta small): the printed bound, not unit-consistent, fails."""
    prob = _instance(p)
    r = get_dimension_failure()
    rng = rng_of(seed)
    X = 2 * rng.standard_normal((p["points"], prob.N, prob.d))
    alpha, _ = _weights(prob, X, "binary", p["lam"], rng)
    eta = p["frac"] / (prob.beta * alpha.sum(-1))
    q = _one_step(prob, X, alpha, eta)
    common = dict(eta=eta, ADsum=q["ADsum"], Asum=q["Asum"], beta=prob.beta)
    printed = raw(LEMMA1, "printed", Gnext=q["Gnext"], Vprinted=q["Valpha"], **common)
    corrected = bound(LEMMA1, "corrected", G=q["G"], Valpha=q["Valpha"], **common)
    mean = q["change"].ravel()
    return {"mean": mean, "ks": np.arange(mean.size, dtype=float),
            "bound_printed": printed.ravel(), "bound_corrected": corrected.ravel(),
            "printed_fails_dimension_check": np.asarray(float(r))}


def get_dimension_failure() -> bool:
    """Whether the catalog's printed Lemma 1 fails the dimension check (erratum 1)."""
    try:
        get(LEMMA1.id).dimension_check("printed")
    except DimensionError:
        return True
    return False


def simulate_p3(p: Mapping[str, Any], R: int, seed: np.random.SeedSequence) -> dict:
    """P3: Theorem 1 (corrected: E[(sigma_eff^t)^2]) on two clusters with true-gradient
    weights; per replica the bound (1 - eta mu)^T eps0 + beta eta^2/2 sum_t (1 - eta mu)^(T-t)
    (sigma_eff^t)^2 with the effective variances of that replica (paired comparison)."""
    fam, _ = two_clusters(p["N"], p["d"], p["gap"], p["a"], p["sigma2"])
    crit = Criterion.binary(p["lam"]) if p["criterion"] == "binary" else Criterion.continuous()
    eta, K = p["eta"], p["K"]
    tr = run_afo_adaptive(fam, true_gradient_rule(fam, crit, p["sigma2"]), eta, K,
                          np.full(p["d"], p["x0"]), R, rng_of(seed), track_sets=False)
    i = 0
    seff = tr.sigma_eff2[:, 1:, i]  # (R, K): the effective variance of step t = 1..K
    q = 1 - eta * fam.mu
    S = np.zeros_like(seff)
    acc = np.zeros(R)
    for t in range(K):
        acc = q * acc + seff[:, t]
        S[:, t] = acc
    ks = np.arange(1, K + 1)
    eps0 = float(tr.excess[0, 0, i])
    kappa = p["lam"] if crit.name == "binary" else 1.0 / p["N"]
    bnd = bound(THEOREM1, "corrected", eta=eta, mu=fam.mu, beta=fam.L, T=ks[None, :],
                eps0=eps0, S_eff=S, kappa_w=kappa)
    sel = np.unique(np.round(np.geomspace(1, K, p["n_rec"]))).astype(int) - 1
    return {"ks": ks[sel].astype(float), "samples": tr.excess[:, 1:, i][:, sel],
            "bound_samples": bnd[:, sel]}


def _adaptive_equals_oracle(fam, labels, x0, p, eta, K=30, R=20) -> float:
    """Largest |adaptive - oracle| excess of the clients of cluster 0 over a short run with
    the same seed (0 up to rounding in the fixed-weight regime)."""
    a = run_afo_adaptive(fam, true_gradient_rule(fam, criterion(p), fam.sigma2_agents), eta, K,
                         x0, R, np.random.default_rng(7), track_sets=False)
    o = run_afo(fam, cluster_weights(labels), eta, K, x0, R, np.random.default_rng(7))
    own = labels == 0  # the common start is in cluster 0's basin only
    return float(np.max(np.abs(a.excess[..., own] - o.excess[..., own])))


def simulate_p5(p: Mapping[str, Any], R: int, seed: np.random.SeedSequence) -> dict:
    """P5: exact E[eps^T] in the fixed-weight regime (= oracle All-for-one) against Theorem
    1 with the deterministic effective variance sigma^2/(n lambda) (binary) or sigma^2/n."""
    fam, labels, x0 = fixed_regime(p)
    eta = p["eta"]
    ks = np.unique(np.round(np.geomspace(1, p["K"], 40))).astype(int)
    exact = afo_expected_excess(fam, cluster_weights(labels), eta, x0, ks)[:, 0]
    seff = p["sigma2"] / (p["n"] * (p["lam"] if p["criterion"] == "binary" else 1.0))
    q = 1 - eta * fam.mu
    S = seff * (1 - q**ks) / (1 - q)
    bnd = bound(THEOREM1, "corrected", eta=eta, mu=fam.mu, beta=fam.L, T=ks, eps0=p["e0"],
                S_eff=S, kappa_w=kappa(p, fam.N))
    return {"ks": ks.astype(float), "mean": exact, "bound": bnd,
            "adaptive_vs_oracle": np.asarray(_adaptive_equals_oracle(fam, labels, x0, p, eta))}


_TBA = {"instance": 10, "N": 6, "d": 3, "lo": 0.5, "hi": 2.0, "spread": 1.0, "scale": 0.5,
        "points": 300}


_TBP = dict(_TBA, instance=11, scale=1.0)


_P3 = {"N": 20, "d": 5, "gap": 3.0, "a": 1.0, "sigma2": 1.0, "x0": 5.0, "n_rec": 30}


CHECKS = [
    Check(
        "philippenko2025.P2", "Lemma 1 (corrected): exact one-step change, any weights",
        CheckKind.BOUND_HOLDS, Verdict.HOLDS, simulate_p2,
        grid=tuple(dict(tb, weights=w, bound=key(LEMMA1), frac=f)
                   for tb in (_TBA, _TBP) for w in ("random", "binary", "continuous")
                   for f in (0.3, 0.99)),
        quick_grid=(dict(_TBA, weights="random", bound=key(LEMMA1), frac=0.99),
                    dict(_TBP, weights="binary", bound=key(LEMMA1), frac=0.99)),
        engine="exact", result_id=LEMMA1.id, form="corrected",
        plot=Plot("scatter"),
        xlabel="random point", ylabel="E[R_i(theta^+)] - R_i(theta)",
        description="Per-client quadratics (TB-A: 1/2 normalisation; TB-P: Property 1's) at "
                    "random points, random or Definition-1 weights, eta = frac/(beta sum "
                    "alpha): exact expected change (additive noise) against the corrected "
                    "Lemma 1."),
    Check(
        "philippenko2025.P2_S2", "(S2): exact one-step change with Definition-1 weights",
        CheckKind.BOUND_HOLDS, Verdict.HOLDS, simulate_p2,
        grid=tuple(dict(tb, weights=w, bound=key(S2), frac=f, lam=0.4)
                   for tb in (_TBA, _TBP) for w in ("binary", "continuous") for f in (0.3, 0.99)),
        quick_grid=(dict(_TBA, weights="continuous", bound=key(S2), frac=0.99),),
        engine="exact", result_id=S2.id, form="printed",
        plot=Plot("scatter"),
        xlabel="random point", ylabel="E[R_i(theta^+)] - R_i(theta)",
        description="As P2 with Definition-1 weights against -eta/2 ||grad R_i||^2 + beta "
                    "eta^2 sigma_eff^2/2."),
    Check(
        "philippenko2025.E1", "Erratum: Lemma 1 as printed", CheckKind.ERRATUM,
        Verdict.CONFIRMED, simulate_e1,
        grid=(dict(_TBA, instance=12, lo=0.02, hi=0.05, lam=0.5, frac=0.95),),
        engine="exact", result_id=LEMMA1.id, form="printed",
        plot=Plot("scatter"),
        xlabel="random point", ylabel="E[R_i(theta^+)] - R_i(theta)",
        description="The printed Lemma 1 has the unit [f]^2/[x]^2 (dimension check); in units "
                    "where beta < 0.05 the admissible step exceeds 2 and eta beta sum sigma^2 "
                    "alpha^2 falls below the true variance term: the printed bound fails at "
                    "some points, the corrected one nowhere."),
    Check(
        "philippenko2025.P3", "Theorem 1: envelope with the measured effective variances",
        CheckKind.BOUND_HOLDS, Verdict.HOLDS, simulate_p3,
        grid=(dict(_P3, criterion="binary", lam=0.5, eta=0.2, K=300),
              dict(_P3, criterion="continuous", eta=0.04, K=600)),
        quick_grid=(dict(_P3, criterion="binary", lam=0.5, eta=0.2, K=120),),
        engine="mc", replicas=600, block_size=300, bound_mode="paired",
        result_id=THEOREM1.id, form="corrected",
        xlabel="T", ylabel="E[eps_1^T]",
        description="TB-Q, 2 clusters of 10 at distance 3, true-gradient weights, eta < "
                    "kappa/beta; E[bound - eps^T] >= 0 with the bound computed in each "
                    "replica from its own effective variances (one-sided 99% limits, "
                    "Bonferroni over T)."),
    Check(
        "philippenko2025.P5", "Theorem 1 in the fixed-weight regime (exact)",
        CheckKind.BOUND_HOLDS, Verdict.HOLDS, simulate_p5,
        grid=tuple(dict(FIX, criterion=c, eta=e, K=500, **({"lam": 0.5} if c == "binary"
                                                            else {}))
                   for c, e in (("binary", 0.1), ("binary", 0.4), ("continuous", 0.04))),
        quick_grid=(dict(FIX, criterion="binary", lam=0.5, eta=0.4, K=200),),
        engine="exact", result_id=THEOREM1.id, form="corrected",
        xlabel="T", ylabel="E[eps_1^T]",
        description="Clusters at distance 10, start at excess 1 (below the threshold 100): "
                    "the weights are the oracle's at every step; exact E[eps^T] = (1 - eta "
                    "a)^(2T) eps0 + variance against Theorem 1, whose bias term decays only "
                    "as (1 - eta a)^T."),
]
