"""Checks of the all-for-one results (Theorem 2, Eq. (6)): predictions P1-P5 and erratum #6."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from pflbounds.algorithms.collaborative import run_afo
from pflbounds.checking import Check, CheckKind, Verdict, bound
from pflbounds.exact.linear_gaussian import afo_expected_excess
from pflbounds.papers.even2022.checks.common import (
    first_below,
    instance_rng,
    mc,
    random_stochastic,
    rng_of,
    two_coordinate_family,
)
from pflbounds.papers.even2022.theory.afo import EQ6, THEOREM2, THEOREM2_PART2
from pflbounds.problems.clusters import threshold_weights
from pflbounds.problems.quadratic import QuadraticFamily
from pflbounds.reporting.figure_specs import Plot

KS = np.unique(np.round(np.geomspace(1, 400, 40))).astype(int)


def _afo_setup(p: Mapping[str, Any]):
    rng = instance_rng(p)
    fam = QuadraticFamily.random(p["N"], p["d"], p["kappa"], p["sigma2"], p["spread"], rng)
    lam = random_stochastic(p["N"], rng, p.get("concentration", 0.5))
    x0 = np.zeros(p["d"])
    b = fam.bias_matrix()
    V = (lam**2).sum(1)
    B = (lam * b**2).sum(1)
    Delta0 = fam.excess(np.broadcast_to(x0, (fam.N, fam.d)))
    return fam, lam, x0, V, B, Delta0


def _worst_agent(measured: np.ndarray, bnd: np.ndarray) -> int:
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = np.where(bnd > 0, measured / bnd, np.inf * (measured > 0))
    return int(np.nanargmax(ratio.max(axis=0)))


def simulate_p1(p: Mapping[str, Any], R: int, seed: np.random.SeedSequence) -> dict:
    """P1: exact E[f_i(x_i^K)] - f_i^* vs Theorem 2's explicit (pre-step) bound, worst agent."""
    fam, lam, x0, V, B, Delta0 = _afo_setup(p)
    eta = p["eta_L"] / fam.L
    measured = afo_expected_excess(fam, lam, eta, x0, KS)
    bnd = bound(THEOREM2, "explicit", eta=eta, mu=fam.mu, L=fam.L, K=KS[:, None],
                Delta0=Delta0[None], sigma2=fam.sigma2, V=V[None], B=B[None])
    i = _worst_agent(measured, bnd)
    return {"ks": KS.astype(float), "mean": measured[:, i], "bound": bnd[:, i],
            "agent": np.asarray(float(i))}


def simulate_p1_mc(p: Mapping[str, Any], R: int, seed: np.random.SeedSequence) -> dict:
    """P1 by Monte Carlo: agent 0's excess error under AFO (Monte Carlo samples)."""
    fam, lam, x0, V, B, Delta0 = _afo_setup(p)
    eta = p["eta_L"] / fam.L
    ks = KS[KS <= p["K"]]
    tr = run_afo(fam, lam, eta, int(ks[-1]), x0, R, rng_of(seed), record=ks)
    bnd = bound(THEOREM2, "explicit", eta=eta, mu=fam.mu, L=fam.L, K=ks,
                Delta0=Delta0[0], sigma2=fam.sigma2, V=V[0], B=B[0])
    exact = afo_expected_excess(fam, lam, eta, x0, ks)[:, 0]
    return {"ks": ks.astype(float), **mc(tr.excess[:, :, 0]), "bound": bnd, "exact": exact}


def _eq6_eta(fam, K, Delta0, V) -> np.ndarray:
    return bound(EQ6, "printed", mu=fam.mu, L=fam.L, K=K, Delta0=Delta0,
                 sigma2=fam.sigma2, V=V)


def _afo_with_eq6(fam, lam, x0, ks, Delta0, V) -> np.ndarray:
    """Exact error at each horizon K with the horizon-dependent step of Eq. (6)."""
    out = np.empty((len(ks), fam.N))
    for n, K in enumerate(ks):
        eta_i = _eq6_eta(fam, float(K), Delta0, V)
        out[n] = afo_expected_excess(fam, lam, eta_i, x0, [int(K)])[0]
    return out


def simulate_p2(p: Mapping[str, Any], R: int, seed: np.random.SeedSequence) -> dict:
    """P2: Theorem 2 with eta from Eq. (6), corrected (safe) form, worst agent."""
    fam, lam, x0, V, B, Delta0 = _afo_setup(p)
    ks = KS[KS >= p.get("K_min", 1)]
    A = 2 * fam.mu**2 * ks[:, None] * Delta0[None] / (fam.sigma2 * fam.L * V[None])
    ks = ks[(A > 1).all(axis=1)]
    measured = _afo_with_eq6(fam, lam, x0, ks, Delta0, V)
    bnd = bound(THEOREM2, p.get("form", "corrected"), mu=fam.mu, L=fam.L,
                K=ks[:, None], Delta0=Delta0[None], sigma2=fam.sigma2, V=V[None], B=B[None])
    i = _worst_agent(measured, bnd)
    return {"ks": ks.astype(float), "mean": measured[:, i], "bound": bnd[:, i]}


def simulate_e6(p: Mapping[str, Any], R: int, seed: np.random.SeedSequence) -> dict:
    """Erratum #6: the proof's post-(6) display against the corrected form where 1 < A < e
    (ln A < 1): the logarithmic branch of Eq. (6) takes a tiny step, the initial error barely
    decays, and sigma^2 L ln(A) V/(mu^2 K) misses it; (1 + ln A)/2 does not."""
    n, kappa = p["n"], p["kappa"]
    fam = QuadraticFamily(h=np.array([1.0, kappa]), m=np.tile([p["offset"], 0.0], (n, 1)),
                          s=np.full(2, p["sigma2"] / 2))
    lam = np.full((n, n), 1.0 / n)
    x0 = np.zeros(2)
    V = np.full(n, 1.0 / n)
    B = np.zeros(n)
    Delta0 = fam.excess(np.zeros((n, 2)))
    ks = KS[KS <= p["K"]]
    A = 2 * fam.mu**2 * ks * Delta0[0] / (fam.sigma2 * fam.L * V[0])
    ks = ks[A > 1.05]  # A -> 1 makes the step vanish: keep away from the degenerate end
    measured = _afo_with_eq6(fam, lam, x0, ks, Delta0, V)[:, 0]
    kw = dict(mu=fam.mu, L=fam.L, K=ks, Delta0=Delta0[0], sigma2=fam.sigma2, V=V[0], B=B[0])
    return {"ks": ks.astype(float), "mean": measured,
            "bound_printed": bound(THEOREM2, "proof", **kw),
            "bound_corrected": bound(THEOREM2, "corrected", **kw)}


def simulate_p3(p: Mapping[str, Any], R: int, seed: np.random.SeedSequence) -> dict:
    """P3: n identical agents, eta from Eq. (6): the error decays like log(K)/K (slope -1)."""
    n, kappa = p["n"], p["kappa"]
    rng = instance_rng(p)
    fam = two_coordinate_family(1, kappa, p["sigma2"], 1.0, rng)
    fam = QuadraticFamily(h=fam.h, m=np.repeat(fam.m, n, axis=0), s=fam.s)
    lam = np.full((n, n), 1.0 / n)
    x0 = np.zeros(2)
    V = np.full(n, 1.0 / n)
    Delta0 = fam.excess(np.zeros((n, 2)))
    ks = np.unique(np.round(np.geomspace(p["K_lo"], p["K_hi"], 24))).astype(int)
    measured = _afo_with_eq6(fam, lam, x0, ks, Delta0, V)[:, 0]
    bnd = bound(THEOREM2, "corrected", mu=fam.mu, L=fam.L, K=ks, Delta0=Delta0[0],
                sigma2=fam.sigma2, V=V[0], B=0.0)
    fit = ks >= p["fit_from"]
    return {"ks": ks.astype(float), "mean": measured, "bound": bnd, "fit_mask": fit}


def simulate_p3n(p: Mapping[str, Any], R: int, seed: np.random.SeedSequence) -> dict:
    """P3: at a fixed horizon with a constant step, the error scales as 1/n exactly."""
    n = p["n"]
    fam = QuadraticFamily(h=np.array([1.0, p["kappa"]]), m=np.zeros((n, 2)),
                          s=np.full(2, p["sigma2"] / 2))
    lam = np.full((n, n), 1.0 / n)
    err = afo_expected_excess(fam, lam, 0.5 / fam.L, np.zeros(2), [p["K"]])[0, 0]
    return {"cost": np.asarray(err)}


def _two_level(p: Mapping[str, Any]) -> tuple[QuadraticFamily, np.ndarray]:
    """Agent 0 with n1 identical agents (b = 0, itself included) and n2 agents at b = beta
    (isotropic H = mu I, so f_i(x_j^*) - f_i^* = b_ij^2/(2 mu) exactly, Lemma 4 tight)."""
    n1, n2, beta, d = p["n1"], p.get("n2", 0), p.get("beta", 0.0), 2
    m = np.zeros((n1 + n2, d))
    m[n1:, 0] = beta  # mu = 1: b = ||m_i - m_j||
    offset = np.asarray(p.get("offset", 3.0), dtype=float)  # every optimum moved by it
    fam = QuadraticFamily(h=np.ones(d), m=m + offset, s=np.full(d, p["sigma2"] / d))
    return fam, fam.bias_matrix()


def _afo_keps(fam: QuadraticFamily, b: np.ndarray, eps: float, K_max: int) -> tuple[float, int]:
    """Empirical K_eps(agent 0) for AFO with eps-threshold weights (b^2 <= mu eps/2) and
    eta = min(1/(2L), mu eps N_i/(2 L sigma^2)) (digest §4.6)."""
    lam = threshold_weights(b**2, fam.mu * eps / 2)
    n_i = int((b[0] ** 2 <= fam.mu * eps / 2).sum())
    eta = min(1 / (2 * fam.L), fam.mu * eps * n_i / (2 * fam.L * fam.sigma2))
    ks = np.arange(0, K_max + 1)
    err = afo_expected_excess(fam, lam, eta, np.zeros(fam.d), ks)[:, 0]
    return first_below(err, ks, eps), n_i


def simulate_p4(p: Mapping[str, Any], R: int, seed: np.random.SeedSequence) -> dict:
    """P4: empirical K_eps(i) <= the explicit sample complexity of Theorem 2 (part 2)."""
    fam, b = _two_level(p)
    eps = p["eps"]
    k_eps, n_i = _afo_keps(fam, b, eps, p["K_max"])
    Delta0 = float(fam.excess(np.zeros((fam.N, fam.d)))[0])
    ub = bound(THEOREM2_PART2, "explicit", mu=fam.mu, L=fam.L, sigma2=fam.sigma2,
               eps=eps, Neps=n_i, Delta0=Delta0)
    return {"ks": np.array([float(n_i)]), "mean": np.array([k_eps]), "bound": np.atleast_1d(ub)}


def simulate_p4s(p: Mapping[str, Any], R: int, seed: np.random.SeedSequence) -> dict:
    """P4: log K_eps against log N_i has slope -1 in the variance regime."""
    fam, b = _two_level(p)
    k_eps, _ = _afo_keps(fam, b, p["eps"], p["K_max"])
    return {"cost": np.asarray(k_eps)}


def simulate_p5(p: Mapping[str, Any], R: int, seed: np.random.SeedSequence) -> dict:
    """P5: K_eps jumps by about (n1 + n2)/n1 when eps crosses the AFO threshold 2 beta^2/mu.

    The two sides are at eps = thr (1 -+ gap), so the prediction is the ratio of Theorem 2
    (part 2) as printed, K ~ kappa sigma^2/(mu eps N_i), between them: (n1 + n2)/n1 times
    eps_above/eps_below (its hidden constant cancels). K_eps is the first integer K with
    E error <= eps, so the crossing lies in (K - 1, K]: the measured ratio lies in
    [(K_below - 1)/K_above, K_below/(K_above - 1)], and the residual is the relative distance
    from the prediction to that interval (0 inside)."""
    fam, b = _two_level(p)
    thr = 2 * p["beta"] ** 2 / fam.mu
    eps = {"below": thr * (1 - p["gap"]), "above": thr * (1 + p["gap"])}
    k, n_i, printed = {}, {}, {}
    for side, e in eps.items():
        k[side], n_i[side] = _afo_keps(fam, b, e, p["K_max"])
        printed[side] = float(bound(THEOREM2_PART2, "printed", mu=fam.mu, L=fam.L,
                                    sigma2=fam.sigma2, eps=e, Neps=n_i[side]))
    predicted = printed["below"] / printed["above"]
    lo = (k["below"] - 1) / k["above"]
    hi = k["below"] / (k["above"] - 1)
    inside = lo <= predicted <= hi
    residual = 0.0 if inside else min(abs(lo / predicted - 1), abs(hi / predicted - 1))
    return {"residual": np.asarray(residual), "ratio": np.asarray(k["below"] / k["above"]),
            "ratio_lo": np.asarray(lo), "ratio_hi": np.asarray(hi),
            "predicted": np.asarray(predicted),
            "paper_factor": np.asarray((p["n1"] + p["n2"]) / p["n1"]),
            "k_below": np.asarray(k["below"]), "k_above": np.asarray(k["above"])}


P5_AGENTS = ((2, 2), (4, 4), (2, 6))
"""(n1, n2) of P5's configurations: agent 0 with n1 identical agents and n2 at distance beta."""

P1_GRID = tuple(
    {"instance": s, "N": 6, "d": 4, "kappa": k, "sigma2": s2, "spread": 1.0, "eta_L": e}
    for s, (k, s2, e) in enumerate(
        (k, s2, e) for k in (1.0, 4.0, 20.0) for s2 in (0.1, 1.0) for e in (1.0, 0.5, 0.1)
    )
)

CHECKS = [
    Check(
        "even2022.P1", "Theorem 2 explicit bound, any eta <= 1/L (exact)", CheckKind.BOUND_HOLDS,
        Verdict.HOLDS, simulate_p1, grid=P1_GRID, quick_grid=P1_GRID[::4], engine="exact",
        result_id=THEOREM2.id, form="explicit",
        xlabel='K (oracle calls)', ylabel='E[f_i(x_i^K)] - f_i* (worst agent)',
        description="Random shared-Hessian quadratics with random row-stochastic weights; "
                    "exact expectations (Appendix A) against (1 - eta mu)^K Delta0 + "
                    "eta sigma^2 L V/(2 mu) + B/(2 mu) for every agent (worst agent shown)."),
    Check(
        "even2022.P1_mc", "Theorem 2 explicit bound by Monte Carlo (agent 0)",
        CheckKind.BOUND_HOLDS, Verdict.HOLDS, simulate_p1_mc,
        grid=({"instance": 101, "N": 6, "d": 4, "kappa": 10.0, "sigma2": 1.0, "spread": 1.0,
               "eta_L": 0.5, "K": 200},
              {"instance": 102, "N": 6, "d": 4, "kappa": 2.0, "sigma2": 0.5, "spread": 2.0,
               "eta_L": 1.0, "K": 200}),
        quick_grid=({"instance": 101, "N": 6, "d": 4, "kappa": 10.0, "sigma2": 1.0,
                     "spread": 1.0, "eta_L": 0.5, "K": 100},),
        engine="mc", replicas=2000, block_size=1000,
        result_id=THEOREM2.id, form="explicit",
        xlabel='K (oracle calls)', ylabel='E[f_1(x_1^K)] - f_1*',
        description="AFO simulated with 2000 replicas; one-sided limits at the check's share "
                    "of even2022's error family, with Bonferroni over the recorded K."),
    Check(
        "even2022.P2", "Theorem 2 with the step of Eq. (6), corrected form",
        CheckKind.BOUND_HOLDS, Verdict.HOLDS, simulate_p2,
        grid=tuple(dict(pt, eta_L=0.5) for pt in P1_GRID if pt["eta_L"] == 1.0),
        quick_grid=tuple(dict(pt, eta_L=0.5) for pt in P1_GRID if pt["eta_L"] == 1.0)[::2],
        engine="exact", result_id=THEOREM2.id, form="corrected",
        xlabel='K (horizon of Eq. (6))', ylabel='E[f_i(x_i^K)] - f_i* (worst agent)',
        description="Eq. (6) step recomputed for each horizon K; exact expectations against "
                    "Delta0 e^{-K/(2 kappa)} + sigma^2 L V (1 + ln A)/(2 mu^2 K) + B/(2 mu)."),
    Check(
        "even2022.E6", "Erratum: Theorem 2 proof constants after Eq. (6)", CheckKind.ERRATUM,
        Verdict.CONFIRMED, simulate_e6,
        grid=({"n": 1, "kappa": 1.0, "sigma2": 200.0, "offset": 2**0.5, "K": 400},
              {"n": 4, "kappa": 4.0, "sigma2": 400.0, "offset": 2.0, "K": 400}),
        quick_grid=({"n": 1, "kappa": 1.0, "sigma2": 200.0, "offset": 2**0.5, "K": 400},),
        engine="exact", result_id=THEOREM2.id, form="proof",
        xlabel='K (horizon of Eq. (6))', ylabel='E[f_i(x_i^K)] - f_i*',
        description="Large noise so that 1 < A < e over a range of horizons: the proof's "
                    "variance term sigma^2 L ln(A) V/(mu^2 K) vanishes as A -> 1 while the "
                    "error stays near Delta0. (On quadratics the excess contracts as "
                    "(1 - eta mu)^{2K}, so the proof's e^{-K/kappa} is not contradicted here.)"),
    Check(
        "even2022.P3", "Variance regime: error ~ log(K)/K with the step of Eq. (6)",
        CheckKind.RATE, Verdict.HOLDS, simulate_p3,
        grid=({"instance": 7, "n": 4, "kappa": 5.0, "sigma2": 1.0, "K_lo": 10, "K_hi": 20000,
               "fit_from": 500},
              {"instance": 8, "n": 16, "kappa": 2.0, "sigma2": 4.0, "K_lo": 10, "K_hi": 20000,
               "fit_from": 500}),
        quick_grid=({"instance": 7, "n": 4, "kappa": 5.0, "sigma2": 1.0, "K_lo": 10,
                     "K_hi": 20000, "fit_from": 500},),
        engine="exact", predicted=-1.0, tolerance=0.15, rate_axis="loglog",
        result_id=THEOREM2.id, form="corrected",
        xlabel='K (horizon of Eq. (6))', ylabel='E[f_i(x_i^K)] - f_i*',
        description="Log-log slope of the exact error vs K over K >= 500, predicted in "
                    "[-1, -1 + 1/ln A] (tolerance 0.15 around -1)."),
    Check(
        "even2022.P3n", "Collaboration speedup: error at fixed K scales as 1/n",
        CheckKind.SCALING, Verdict.HOLDS, simulate_p3n,
        grid=tuple({"n": n, "kappa": 4.0, "sigma2": 1.0, "K": 2000} for n in (1, 2, 4, 8, 16, 32)),
        quick_grid=tuple({"n": n, "kappa": 4.0, "sigma2": 1.0, "K": 2000} for n in (1, 4, 16)),
        engine="exact", predicted=-1.0, tolerance=0.01, x_param="n",
        result_id=THEOREM2.id, form="explicit",
        xlabel='n (identical collaborators)', ylabel='E[f_i(x_i^K)] - f_i* at K = 2000',
        description="n identical agents with lambda = 1/n and eta = 1/(2L): the variance "
                    "floor is exactly proportional to 1/n."),
    Check(
        "even2022.P4", "AFO sample complexity below Theorem 2's explicit K(eps)",
        CheckKind.BOUND_HOLDS, Verdict.HOLDS, simulate_p4,
        grid=tuple({"n1": n, "n2": 8, "beta": 2.0, "sigma2": 2.0, "eps": e, "K_max": 60000}
                   for n in (1, 2, 4, 8, 16) for e in (0.05, 0.01)),
        quick_grid=tuple({"n1": n, "n2": 8, "beta": 2.0, "sigma2": 2.0, "eps": 0.05,
                          "K_max": 20000} for n in (1, 4, 16)),
        engine="exact", result_id=THEOREM2_PART2.id, form="explicit",
        plot=Plot("curves", x="ks", group_by=("eps",)),
        xlabel='N_i (agents eps-close to agent i)', ylabel='K_eps (oracle calls)',
        description="Agent 0 has n1 identical agents and 8 far ones; eps-threshold weights "
                    "b^2 <= mu eps/2; exact K_eps against ceil(max(2 kappa, 2 kappa sigma^2/"
                    "(mu eps N_i)) ln(4 Delta0/eps))."),
    Check(
        "even2022.P4s", "AFO sample complexity scales as 1/N_i", CheckKind.SCALING,
        Verdict.HOLDS, simulate_p4s,
        grid=tuple({"n1": n, "n2": 0, "sigma2": 2.0, "eps": 0.01, "K_max": 60000}
                   for n in (1, 2, 4, 8, 16, 32)),
        quick_grid=tuple({"n1": n, "n2": 0, "sigma2": 2.0, "eps": 0.01, "K_max": 60000}
                         for n in (1, 4, 16)),
        engine="exact", predicted=-1.0, tolerance=0.15, x_param="n1",
        result_id=THEOREM2_PART2.id, form="printed",
        xlabel='N_i (agents eps-close to agent i)', ylabel='K_eps (oracle calls)',
        description="log K_eps vs log N_i in the variance-dominated regime (slope -1)."),
    Check(
        "even2022.P5", "K_eps jumps by (n1+n2)/n1 at the AFO threshold: bias along the "
        "transient", CheckKind.IDENTITY, Verdict.VIOLATED, simulate_p5,
        grid=tuple({"n1": n1, "n2": n2, "beta": 0.2, "sigma2": 2.0, "gap": 0.02,
                    "K_max": 200000} for n1, n2 in P5_AGENTS),
        quick_grid=({"n1": 4, "n2": 4, "beta": 0.2, "sigma2": 2.0, "gap": 0.02,
                     "K_max": 200000},),
        engine="exact", tolerance=0.05, result_id=THEOREM2_PART2.id, form="printed",
        description="K_eps(just below)/K_eps(just above) against the printed K ~ 1/(eps N_i) "
                    "at the two eps (the paper's factor (n1 + n2)/n1 times the ratio of the "
                    "two eps); the residual is the relative distance from that prediction to "
                    "the interval of ratios the integer K_eps allow, against a tolerance of "
                    "5%. Every optimum is moved by 3 in each coordinate and x0 = 0, so the "
                    "far agents' bias, admitted by the threshold (at most eps/4), lies along "
                    "the transient: the cross term shortens K_eps above the threshold and the "
                    "jump exceeds the prediction by more than the tolerance (a finding on "
                    "the reach of 'a jump by about (n1 + n2)/n1', not an erratum). "
                    "P5_orthogonal is the same claim with the bias across the transient."),
    Check(
        "even2022.P5_orthogonal", "K_eps jumps by (n1+n2)/n1 at the AFO threshold: bias "
        "across the transient", CheckKind.IDENTITY, Verdict.HOLDS, simulate_p5,
        grid=tuple({"n1": n1, "n2": n2, "beta": 0.05, "sigma2": 2.0, "gap": 0.02,
                    "K_max": 200000, "offset": [0.0, 3.0]} for n1, n2 in P5_AGENTS),
        quick_grid=({"n1": 4, "n2": 4, "beta": 0.05, "sigma2": 2.0, "gap": 0.02,
                     "K_max": 200000, "offset": [0.0, 3.0]},),
        engine="exact", tolerance=0.05, result_id=THEOREM2_PART2.id, form="printed",
        description="P5 with x0 - m_i orthogonal to the far agents' displacement (optima "
                    "moved by 3 in the second coordinate only, far agents displaced in the "
                    "first), so that their bias meets the transient only at order beta^2, "
                    "and beta small enough for K_eps in the hundreds (integer rounding "
                    "negligible): the measured jump against the printed K ~ 1/(eps N_i) at "
                    "the two eps, tolerance 5%."),
]
