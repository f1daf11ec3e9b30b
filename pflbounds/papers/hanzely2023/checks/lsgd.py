"""Checks of LSGD-PFL (Theorems 1, 5, Lemma 5, Table 1) on quadratic objectives, by the exact
propagator: P4 (Theorem 5 at every K), Lemma 5's (21), P5 (the local-step trade-off and its
crossing at tau*), and the errata on the tau = 1 step condition and on Algorithm 1's
beta-step."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from pflbounds.algorithms.block_pfl import run_lsgd_pfl
from pflbounds.algorithms.driver import first_reach
from pflbounds.checking import Check, CheckKind, Verdict, bound
from pflbounds.exact import propagate
from pflbounds.exact.propagator_block_pfl import lsgd_pfl_metrics, lsgd_pfl_schedule
from pflbounds.papers.hanzely2023.checks.common import P, instance
from pflbounds.papers.hanzely2023.theory.lsgd import (
    ETA_EPS,
    ETA_MAX,
    ETA_MAX_CORRECTED,
    LEMMA5,
    TABLE1_LSGD,
    THEOREM1,
    THEOREM5,
    THEOREM5_WEAK,
)
from pflbounds.problems.pfl_objectives import PFLObjective
from pflbounds.symbolic.catalog import get
from pflbounds.symbolic.evaluate import numeric, solve

KS = np.unique(np.round(np.geomspace(1, 400, 30))).astype(int)


def _step(obj: PFLObjective, tau: int, rule: str) -> float:
    c = obj.constants
    expr = ETA_MAX if rule == "printed" else ETA_MAX_CORRECTED
    return float(numeric(expr, {"Lw": c["Lw"], "Lb": c["Lb"], "tau": tau}))


def _theorem5_inputs(obj: PFLObjective, p: Mapping[str, Any]) -> dict[str, float]:
    o, c = obj.optimum, obj.constants
    return {"mu": c["mu"], "Lw": c["Lw"], "Lb": c["Lb"], "M": obj.M, "B": 1,
            "tau": p["tau"], "sigma2": p.get("sigma2", 0.0), "zeta2": obj.heterogeneity(),
            "Dw0": float(o["w"] @ o["w"]), "Db0": float((o["beta"] ** 2).sum())}


def lsgd_exact(obj: PFLObjective, eta: float, tau: int, ks, sigma2: float = 0.0,
               beta_factor: float | None = None) -> np.ndarray:
    """Exact (E[F(w^k, beta^k)] - F^*, E[F(w_bar^k, beta_bar^k)] - F^*) at ks, (n, 2)."""
    Hm, gm = obj.client_quadratics()
    sched, x0, info = lsgd_pfl_schedule(Hm, gm, obj.d0, eta=eta, tau=tau,
                                        mu=obj.constants["mu"], sigma2=sigma2,
                                        beta_factor=beta_factor)
    met = lsgd_pfl_metrics(obj.hessian, obj.optimum["x"], info)
    return propagate(sched, x0, np.r_[0, ks], metrics=met).metrics[1:]


def simulate_p4(p: Mapping[str, Any], R: int, seed) -> dict:
    """Exact E[F(w_bar^K, beta_bar^K)] - F^* against Theorem 5 (form of the check) at every
    recorded K, with the step at the corrected cap."""
    obj = instance(p)
    eta = _step(obj, p["tau"], "corrected") * p.get("eta_frac", 1.0)
    e = lsgd_exact(obj, eta, p["tau"], KS, p.get("sigma2", 0.0))[:, 1]
    b = bound(THEOREM5, p["form"], eta=eta, K=KS, **_theorem5_inputs(obj, p))
    return {"ks": KS.astype(float), "mean": e, "bound": b}


def simulate_weak(p: Mapping[str, Any], R: int, seed) -> dict:
    """Theorem 5 at mu = 0 on a strongly convex instance (convex, so within its hypotheses):
    exact E[F] - F^* of the uniform average of the virtual iterates (the weights of Theorem 5
    with mu = 0) against Phi^0/K + eta Psi^0, with the step at the corrected cap."""
    obj = instance(p)
    eta = _step(obj, p["tau"], "corrected")
    Hm, gm = obj.client_quadratics()
    sched, x0, info = lsgd_pfl_schedule(Hm, gm, obj.d0, eta=eta, tau=p["tau"], mu=0.0,
                                        sigma2=p.get("sigma2", 0.0))
    met = lsgd_pfl_metrics(obj.hessian, obj.optimum["x"], info)
    e = propagate(sched, x0, np.r_[0, KS], metrics=met).metrics[1:, 1]
    inputs = {k: v for k, v in _theorem5_inputs(obj, p).items() if k != "mu"}
    b = bound(THEOREM5_WEAK, "corrected", eta=eta, K=KS, **inputs)
    return {"ks": KS.astype(float), "mean": e, "bound": b}


def simulate_tau1(p: Mapping[str, Any], R: int, seed) -> dict:
    """tau = 1, L^w >> L^beta: the printed cap 1/(4 L^beta) allows a step that diverges in w;
    the corrected cap also bounds by 1/(4 L^w)."""
    obj = instance(p)
    ks = KS[KS <= 100]
    inputs = _theorem5_inputs(obj, p)
    eta = _step(obj, 1, p["step"])
    e = lsgd_exact(obj, eta, 1, ks)[:, 1]
    printed = bound(THEOREM5, "printed", eta=eta, K=ks, **inputs)
    if p["step"] == "printed":  # the corrected condition excludes this step
        corrected = np.full(ks.shape, np.inf)
    else:
        corrected = bound(THEOREM5, "corrected", eta=eta, K=ks, **inputs)
    return {"ks": ks.astype(float), "mean": e, "bound_printed": printed,
            "bound_corrected": np.asarray(corrected), "eta": np.asarray(eta),
            "Lw_over_Lb": np.asarray(obj.constants["Lw"] / obj.constants["Lb"])}


def simulate_beta_step(p: Mapping[str, Any], R: int, seed) -> dict:
    """Algorithm 1 as printed (beta_m - eta grad_beta f_m) and as analysed (eta/M): Theorem
    5's corrected bound against both runs."""
    obj = instance(p)
    ks = KS[KS <= 200]
    eta = _step(obj, p["tau"], "corrected")
    factor = 1.0 if p["step"] == "printed" else None
    e = lsgd_exact(obj, eta, p["tau"], ks, beta_factor=factor)[:, 1]
    b = bound(THEOREM5, "corrected", eta=eta, K=ks, **_theorem5_inputs(obj, p))
    inf = np.full(ks.shape, np.inf)
    if p["step"] == "printed":
        return {"ks": ks.astype(float), "mean": e, "bound_printed": b, "bound_corrected": inf}
    return {"ks": ks.astype(float), "mean": e, "bound_printed": inf, "bound_corrected": b}


def simulate_p5(p: Mapping[str, Any], R: int, seed) -> dict:
    """Identical clients (zeta_* = 0), no noise: LSGD-PFL is deterministic. Measured: rounds
    until F(w_bar^k) - F^* <= eps; bound: ceil(K/tau) with K the smallest count for which
    Theorem 5 (corrected) guarantees eps, with the corrected step for this tau."""
    obj = instance(p)
    tau = int(p["tau"])
    eta = _step(obj, tau, "corrected")
    inputs = _theorem5_inputs(obj, p)
    f0 = float(obj.excess(np.zeros((1, obj.d0)), np.zeros((1, obj.M, obj.d1)))[0])
    eps = p["rel"] * f0
    K = solve(get(THEOREM5.id), "K", eps, "corrected", eta=eta, **inputs).value
    # rounds after k steps are ceil(k/tau): recording every tau steps reads them exactly
    run = run_lsgd_pfl(obj, eta, tau, int(K), 1, np.random.default_rng(0), mu=inputs["mu"],
                       record=np.arange(0, int(K) + 1, tau))
    rounds = float(first_reach(run.metrics["excess_avg"], eps, run.costs["rounds"])[0])
    return {"ks": np.array([float(tau)]), "mean": np.array([rounds]),
            "bound": np.array([float(np.ceil(K / tau))]), "cost": np.asarray(rounds),
            "eta": np.asarray(eta)}


def simulate_theorem1(p: Mapping[str, Any], R: int, seed) -> dict:
    """Exact E[F(w_bar^k, beta_bar^k)] - F^* of LSGD-PFL with noise (sigma^2 per client) at
    Theorem 1's explicit step eta = min{cap, eps B M/(8 sigma^2), sqrt(eps/(32 e L^w tau(tau -
    1)(3 zeta^2 + sigma^2/B)))}, eps = ``rel`` (F(0) - F^*): measured, the first k of a
    geometric grid of 60 points up to the count (and the count itself) with the excess <= eps
    (an upper estimate of the first k: the grid's points are at most 1.2 apart in ratio);
    bound, Theorem 1's explicit count. A count never reached is recorded as twice the count."""
    obj = instance(p)
    inputs = _theorem5_inputs(obj, p)
    f0 = float(obj.excess(np.zeros((1, obj.d0)), np.zeros((1, obj.M, obj.d1)))[0])
    eps = float(p["rel"]) * f0
    K = float(bound(THEOREM1, "explicit", eps=eps, **inputs))
    eta = float(numeric(ETA_EPS, {**inputs, "eps": eps}))
    ks = np.unique(np.round(np.geomspace(1, max(K, 1.0), 60))).astype(int)
    e = lsgd_exact(obj, eta, int(p["tau"]), ks, inputs["sigma2"])[:, 1]
    hit = np.flatnonzero(e <= eps)
    first = float(ks[hit[0]]) if hit.size else 2 * K
    return {"ks": np.array([float(p["tau"])]), "mean": np.array([first]),
            "bound": np.array([K]), "eta": np.asarray(eta), "eps": np.asarray(eps),
            "excess_at_count_over_eps": np.asarray(e[-1] / eps)}


def simulate_lemma5(p: Mapping[str, Any], R: int, seed) -> dict:
    """Lemma 5's (21) (or (22) with ``part``) at random states (local copies w_m spread around
    their mean w, beta_m around beta^*, at scales from 1e-3 to 10): measured (1/M) sum_m
    ||grad_w f_m(w_m, beta_m)||^2, bound 6 L^w (F(w, beta) - F^*) + 3 (L^w)^2 V + 3 zeta_*^2
    (for (22): ||(1/M) sum_m grad_w f_m||^2 + (1/M^2) sum_m ||grad_beta f_m||^2 against
    4 max{L^w, L^beta} (F - F^*) + 2 (L^w)^2 V) from the catalog,
    with the instance's exact constants. The states are drawn from the grid point (a fixed
    seed), so the check is deterministic; they are sorted by their bound."""
    obj = instance(p)
    rng = np.random.default_rng([2023, 5, int(p.get("instance", 0))])
    S, o = int(p.get("states", 400)), obj.optimum
    scale = np.exp(rng.uniform(np.log(1e-3), np.log(10.0), S))[:, None, None]
    w = o["w"][None] + scale[:, 0] * rng.normal(size=(S, obj.d0))
    W = w[:, None, :] + scale * rng.uniform(0, 1, (S, 1, 1)) * rng.normal(size=(S, obj.M,
                                                                                 obj.d0))
    beta = o["beta"][None] + scale * rng.normal(size=(S, obj.M, obj.d1))
    wbar = W.mean(1)
    gw, gb = obj.client_grads(W, beta)
    part = p.get("part", "21")
    if part == "21":
        measured = (gw**2).sum(-1).mean(-1)
    else:  # (22): ||(1/M) sum_m grad_w f_m||^2 + (1/M^2) sum_m ||grad_beta f_m||^2
        measured = (gw.mean(1) ** 2).sum(-1) + (gb**2).sum((-1, -2)) / obj.M**2
    c = obj.constants
    b = bound(LEMMA5, "printed", Fgap=np.maximum(obj.excess(wbar, beta), 0.0), Lw=c["Lw"],
              Lb=c["Lb"], Vk=((W - wbar[:, None, :]) ** 2).sum(-1).mean(-1),
              zeta2=obj.heterogeneity())[part]
    order = np.argsort(b)
    return {"ks": np.arange(S, dtype=float), "mean": measured[order], "bound": b[order],
            "Lw_over_Lb": np.asarray(c["Lw"] / c["Lb"])}


_LEMMA5 = [{"objective": o, "instance": s, "M": 5, "d": 3, "n": 8, **kw}
           for s in range(3)
           for o, kw in (("mx2", {"lam": 0.4}), ("mx2", {"lam": 2.0}),
                         ("mt2", {"lam": 0.05, "Lam": 0.4}))]
_P4 = [{"objective": o, "tau": t, "sigma2": s2, "form": f, **kw}
       for o, kw in (("mx2", {"lam": 1.0}), ("mt2", {"lam": 0.5, "Lam": 4.0}))
       for t in (1, 2, 5) for s2 in (0.0, 1.0) for f in ("corrected",)]
_MT2_WIDE = {"objective": "mt2", "lam": 0.5, "Lam": 40.0, "tau": 1}
_T1 = tuple({**o, "tau": t, "sigma2": s2, "rel": 0.05}
            for o, taus in (({"objective": "mx2", "lam": 1.0}, (1, 2, 5)),
                            ({"objective": "mt2", "lam": 0.5, "Lam": 4.0}, (1, 2)))
            for t in taus for s2 in (0.1, 1.0))
"""Theorem 1's grid: the MT2 instance with tau = 5 is left out (its count, about 1e5
iterations, costs the propagator about a minute)."""
_P5_BASE = {"objective": "mx2", "lam": 0.02, "identical": True, "rel": 1e-3}
_TAUS_BELOW, _TAUS_ABOVE = (1, 2, 4, 8), (32, 64, 128)

CHECKS = [
    Check(P + "P4", "Theorem 5 (corrected) bounds LSGD-PFL's weighted average at every K",
          CheckKind.BOUND_HOLDS, Verdict.HOLDS, simulate_p4, grid=tuple(_P4),
          quick_grid=(_P4[2], _P4[9]), engine="exact", result_id=THEOREM5.id,
          form="corrected",
          description="Quadratic MX2 and MT2, heterogeneous clients, tau in {1, 2, 5}, "
          "Gaussian gradient noise sigma^2 in {0, 1}, the largest step of the corrected rule; "
          "exact expectations (propagator).", xlabel="K", ylabel="E[F(w_bar^K)] - F^*"),
    Check(P + "P4_printed", "Theorem 5 as printed (Phi^0 with the 2 on w only) holds under the "
          "corrected step", CheckKind.BOUND_HOLDS, Verdict.HOLDS, simulate_p4,
          grid=tuple({**g, "form": "printed"} for g in _P4),
          quick_grid=({**_P4[2], "form": "printed"},), engine="exact",
          result_id=THEOREM5.id, form="printed", xlabel="K",
          ylabel="E[F(w_bar^K)] - F^*"),
    Check(P + "P_lemma5", "Lemma 5's (21) holds with L^w as stated (not only with L = max{L^w, "
          "L^beta}, as its proof writes)", CheckKind.BOUND_HOLDS, Verdict.HOLDS,
          simulate_lemma5, grid=tuple(_LEMMA5), quick_grid=(_LEMMA5[0], _LEMMA5[2]),
          engine="exact", result_id=LEMMA5.id, form="printed", rel_tol=1e-9,
          description="Quadratic MX2 and MT2 clients with L^w < L^beta (where the proof's L "
          "= max{L^w, L^beta} would be L^beta), 400 random states each (local copies w_m, "
          "personal beta_m) at scales 1e-3 to 10; exact gradients and F - F^*.",
          xlabel="state (sorted by bound)", ylabel="(1/M) sum_m ||grad_w f_m||^2"),
    Check(P + "P_lemma5_22", "Lemma 5's (22) bounds the averaged w-gradient and the "
          "beta-gradients at every state", CheckKind.BOUND_HOLDS, Verdict.HOLDS,
          simulate_lemma5, grid=tuple({**q, "part": "22"} for q in _LEMMA5),
          quick_grid=tuple({**_LEMMA5[i], "part": "22"} for i in (0, 2)), engine="exact",
          result_id=LEMMA5.id, form="printed", rel_tol=1e-9,
          description="P_lemma5's instances and states; measured ||(1/M) sum_m grad_w "
          "f_m||^2 + (1/M^2) sum_m ||grad_beta f_m||^2, bound 4 max{L^w, L^beta} (F - F^*) "
          "+ 2 (L^w)^2 V_k, exact.",
          xlabel="state (sorted by bound)", ylabel="left side of (22)"),
    Check(P + "P_theorem5_weak", "Theorem 5 at mu = 0 bounds LSGD-PFL's uniform average at "
          "every K", CheckKind.BOUND_HOLDS, Verdict.HOLDS, simulate_weak,
          grid=tuple({k: v for k, v in q.items() if k != "form"} for q in _P4),
          quick_grid=({"objective": "mx2", "lam": 1.0, "tau": 2, "sigma2": 1.0},),
          engine="exact", result_id=THEOREM5_WEAK.id, form="corrected",
          description="P4's instances (strongly convex, hence convex: within the hypotheses "
          "of the mu = 0 statement), the uniform average of the virtual iterates k = 0..K "
          "(Theorem 5's weights at mu = 0), exact; bound: Phi^0/K + eta Psi^0 (corrected "
          "Phi^0).", xlabel="K", ylabel="E[F(w_bar^K, beta_bar^K)] - F^*"),
    Check(P + "P_theorem1", "LSGD-PFL reaches eps within Theorem 1's explicit count",
          CheckKind.BOUND_HOLDS, Verdict.HOLDS, simulate_theorem1, grid=_T1,
          quick_grid=(_T1[2], _T1[7]), engine="exact", result_id=THEOREM1.id,
          form="explicit",
          description="Random least-squares MX2 and MT2 clients (heterogeneous), Gaussian "
          "gradient noise sigma^2 per client, eps = 0.05 (F(0) - F^*), Theorem 1's explicit "
          "step; measured: the first k of a geometric grid with the exact E[F(w_bar^k, "
          "beta_bar^k)] - F^* <= eps; bound: the explicit count.",
          xlabel="tau", ylabel="iterations to eps"),
    Check(P + "E_lsgd_tau1", "With tau = 1 the printed step rule puts no condition on L^w: "
          "LSGD-PFL diverges", CheckKind.ERRATUM, Verdict.CONFIRMED, simulate_tau1,
          grid=({**_MT2_WIDE, "step": "printed"}, {**_MT2_WIDE, "step": "corrected"}),
          engine="exact", result_id=THEOREM5.id, form="corrected",
          description="MT2 with Lambda = 40 (L^w = 32 L^beta): eta = 1/(4 L^beta) is "
          "admissible as printed.", xlabel="K", ylabel="E[F(w_bar^K)] - F^*"),
    Check(P + "E_lsgd_beta_step", "Algorithm 1's printed beta-step (grad_beta f_m) diverges; "
          "the analysed step (1/M) converges within Theorem 5", CheckKind.ERRATUM,
          Verdict.CONFIRMED, simulate_beta_step,
          grid=({"objective": "mx2", "lam": 1.0, "M": 12, "tau": 1, "step": "printed"},
                {"objective": "mx2", "lam": 1.0, "M": 12, "tau": 1, "step": "corrected"}),
          engine="exact", result_id=THEOREM5.id, form="corrected", xlabel="K",
          ylabel="E[F(w_bar^K)] - F^*"),
    Check(P + "P5", "LSGD-PFL rounds to eps stay within Theorem 5's count for every tau",
          CheckKind.BOUND_HOLDS, Verdict.HOLDS, simulate_p5,
          grid=tuple({**_P5_BASE, "tau": t} for t in (*_TAUS_BELOW, 16, *_TAUS_ABOVE)),
          quick_grid=tuple({**_P5_BASE, "tau": t} for t in (2, 8)), engine="exact",
          result_id=THEOREM5.id, form="corrected",
          description="Identical clients (zeta_* = 0), sigma = 0, MX2 with L^beta/L^w = 101 "
          "(tau* - 1 = L^beta/(2 sqrt(3e) L^w), between the grid's taus 16 and 32): "
          "deterministic runs.",
          xlabel="tau", ylabel="rounds to eps"),
    Check(P + "P5_below", "Below tau*, LSGD-PFL's rounds to eps fall as 1/tau",
          CheckKind.SCALING, Verdict.HOLDS, simulate_p5,
          grid=tuple({**_P5_BASE, "tau": t} for t in _TAUS_BELOW),
          quick_grid=tuple({**_P5_BASE, "tau": t} for t in (1, 4)), engine="exact",
          result_id=TABLE1_LSGD.id, form="printed", predicted=-1.0, tolerance=0.15,
          x_param="tau",
          description="Table 1: max(L^beta/tau, L^w)/mu rounds; with the step 1/(4 L^beta) "
          "(tau - 1 below tau* - 1 = L^beta/(2 sqrt(3e) L^w)) the iterations do not depend "
          "on tau.",
          xlabel="tau", ylabel="rounds to eps"),
    Check(P + "P5_above", "Above tau*, LSGD-PFL's rounds to eps level off", CheckKind.SCALING,
          Verdict.HOLDS, simulate_p5, grid=tuple({**_P5_BASE, "tau": t} for t in _TAUS_ABOVE),
          quick_grid=tuple({**_P5_BASE, "tau": t} for t in _TAUS_ABOVE[:2]), engine="exact",
          result_id=TABLE1_LSGD.id, form="printed", predicted=0.0, tolerance=0.15,
          x_param="tau",
          description="The step 1/(8 sqrt(3e)(tau - 1) L^w) falls as 1/tau: iterations grow as "
          "tau and rounds stay level (Table 1's L^w/mu term).",
          xlabel="tau", ylabel="rounds to eps"),
]
