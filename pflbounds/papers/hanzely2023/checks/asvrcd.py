"""Finite-sum checks: ASVRCD-PFL (Monte Carlo: its draw set, block x refresh x index, is too
large for the propagator), P7 on Theorem 9's parameters (symbolic) and the SVRCD-PFL erratum
(exact: the estimator's expectation by enumerating its draws)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from pflbounds.algorithms.block_pfl import run_asvrcd_pfl, svrcd_estimator
from pflbounds.checking import Check, CheckKind, Verdict, bound
from pflbounds.papers.hanzely2023.checks.common import REL, P, asvrcd_parameters, instance
from pflbounds.papers.hanzely2023.theory.asvrcd import (
    LEMMA15,
    LEMMA16,
    LEMMA16_57,
    THEOREM8,
    THEOREM9,
)
from pflbounds.reporting.figure_specs import Plot


def _costs(p: Mapping[str, Any], R: int, seed, counter: str) -> np.ndarray:
    """Per replica, the value of ``counter`` when E... the replica's F(y^k) - F^* first falls
    below REL (F(0) - F^*); inf if never within the horizon."""
    obj = instance(p)
    c = obj.constants
    par = asvrcd_parameters(c, obj.n)
    K = int(p["K"]) if "K" in p else int(p["K_per_n"] * obj.n)
    rec = np.arange(0, K + 1, max(1, K // 400))
    run = run_asvrcd_pfl(obj, **par, K=K, R=R, rng=np.random.default_rng(seed), record=rec)
    e = run.metrics["excess"]
    hit = e <= REL * e[:, :1]
    first = np.argmax(hit, axis=1)
    reached = hit[np.arange(R), first]
    x = run.costs[counter] if counter != "iterations" else np.broadcast_to(rec, e.shape)
    return np.where(reached, x[np.arange(R), first], np.inf)


def simulate_p6(p: Mapping[str, Any], R: int, seed) -> dict:
    return {"cost": _costs(p, R, seed, p.get("counter", "rounds"))}


_PART = {"rounds": "communication", "grad_w_stochastic": "grad_w",
         "grad_beta_stochastic": "grad_beta"}
"""The counter of a run and the part of Theorem 9 (corrected) that counts it: rounds, and the
component gradients per client (2 per w-step or beta-step, n per refresh)."""


def simulate_p6_bound(p: Mapping[str, Any], R: int, seed) -> dict:
    """Per replica, rounds (or, with ``counter``, component gradient calls per client) to REL
    of the initial error, against Theorem 9's expected count (corrected accounting, p_w and
    rho of Theorem 8, hidden constant 1, log(1/REL))."""
    obj = instance(p)
    c = obj.constants
    par = asvrcd_parameters(c, obj.n)
    counter = p.get("counter", "rounds")
    count = float(bound(THEOREM9, "corrected", Lcw=c["Lcw"], Lcb=c["Lcb"], mu=c["mu"],
                        n=obj.n, pw=par["pw"], rho=par["rho"], Delta0=1.0,
                        eps=REL)[_PART[counter]])
    costs = _costs(p, R, seed, counter)
    return {"ks": np.array([float(obj.n)]), "samples": costs[:, None],
            "bound": np.array([count])}


def simulate_p7(p: Mapping[str, Any], R: int, seed) -> dict:
    """Theorem 8's p_w against the paper's grid of p_w (Section 6.2), from Theorem 9
    (corrected): with rho fixed (rho = p*/n), the iteration count; with rho = p_w/n, the
    communication count (ties below p*: 2(n + sqrt(n Lcal^w/mu)) log(1/eps) there)."""
    kw = {k: p[k] for k in ("Lcw", "Lcb", "mu", "n")}
    kw.update(Delta0=1.0, eps=np.exp(-1.0))
    pstar = p["Lcw"] / (p["Lcw"] + p["Lcb"])
    grid = np.array([0.1, 0.3, 0.5, 0.7, 0.9])
    rho = pstar / p["n"]
    it = bound(THEOREM9, "corrected", pw=grid, rho=rho, **kw)["iterations"]
    it0 = float(bound(THEOREM9, "corrected", pw=pstar, rho=rho, **kw)["iterations"])
    comm = bound(THEOREM9, "corrected", pw=grid, rho=grid / p["n"], **kw)["communication"]
    comm0 = float(bound(THEOREM9, "corrected", pw=pstar, rho=rho, **kw)["communication"])
    return {"ks": np.r_[grid, grid], "mean": np.r_[np.full(5, it0), np.full(5, comm0)],
            "bound": np.r_[it, comm], "p_star": np.asarray(pstar)}


def simulate_svrcd_bias(p: Mapping[str, Any], R: int, seed) -> dict:
    """E[g] - grad F(y) of SVRCD-PFL's estimator, exactly: the average over the block coin
    and every index choice (one index per client, drawn independently: by linearity the
    expectation over the n^M tuples is the average over n shared indices). Relative to
    ||grad F(y)||, at random y and snapshot v."""
    obj = instance(p)
    rng = np.random.default_rng([7, int(p.get("instance", 0))])
    R_ = 4
    w, b = rng.standard_normal((R_, obj.d0)), rng.standard_normal((R_, obj.M, obj.d1))
    wv, bv = rng.standard_normal((R_, obj.d0)), rng.standard_normal((R_, obj.M, obj.d1))
    gvw, gvb = obj.client_grads(wv, bv)
    st = {"w": w, "beta": b, "wv": wv, "bv": bv, "gw_v": gvw.mean(1), "gb_v": gvb}
    pw = 0.4
    cv = p["step"] == "corrected"
    Ew, Eb = np.zeros_like(w), np.zeros_like(b)
    for on, prob in ((True, pw), (False, 1 - pw)):
        for j in range(obj.n):
            idx = np.full((R_, obj.M), j)
            gw, gb = svrcd_estimator(obj, st, idx, np.full(R_, on), pw, cv)
            Ew += prob * gw / obj.n
            Eb += prob * gb / obj.n
    tw, tb = obj.grad_F(w, b)
    bias = np.sqrt(((Ew - tw) ** 2).sum(-1) + ((Eb - tb) ** 2).sum((-1, -2)))
    scale = np.sqrt((tw**2).sum(-1) + (tb**2).sum((-1, -2)))
    tol = np.full(R_, 1e-12)
    inf = np.full(R_, np.inf)
    key = "bound_corrected" if cv else "bound_printed"
    other = "bound_printed" if cv else "bound_corrected"
    return {"ks": np.arange(R_, dtype=float), "mean": bias / scale, key: tol, other: inf}


def _jointly_convex(rng: np.random.Generator, dx: int, dy: int, rank_one: bool
                    ) -> tuple[np.ndarray, float, float]:
    """The Hessian A of a jointly convex quadratic H(x, y) = z^T A z/2 (random PSD, or rank one
    vv^T with ||v_x|| = ||v_y||, where Eqs. (56)-(57) are attained), L_x and L_y."""
    if rank_one:
        v = rng.normal(size=dx + dy)
        v[:dx] /= np.linalg.norm(v[:dx])
        v[dx:] /= np.linalg.norm(v[dx:])
        A = np.outer(v, v)
    else:
        G = rng.normal(size=(dx + dy, dx + dy)) * np.exp(rng.uniform(-1, 1, dx + dy))
        A = G @ G.T
    return (A, float(np.linalg.eigvalsh(A[:dx, :dx])[-1]),
            float(np.linalg.eigvalsh(A[dx:, dx:])[-1]))


def simulate_lemma16(p: Mapping[str, Any], R: int, seed) -> dict:
    """Eq. (56) (``eq = "56"``): lambda_max of the Hessian against 2 max(L_x, L_y); Eq. (57):
    D_H(z, z') = (z - z')^T A (z - z')/2 against (||g_x||^2/L_x + ||g_y||^2/L_y)/4, g = A (z -
    z'), at a random pair (rank one: along v). S random quadratics, every third rank one."""
    rng = np.random.default_rng([2023, 16, int(p.get("instance", 0))])
    dx, dy, S = int(p["dx"]), int(p["dy"]), int(p["S"])
    meas, Lx, Ly, gx, gy = [], [], [], [], []
    for s in range(S):
        A, lx, ly = _jointly_convex(rng, dx, dy, s % 3 == 0)
        if p["eq"] == "56":
            meas.append(float(np.linalg.eigvalsh(A)[-1]))
        else:
            dz = A[:, 0] * rng.uniform(0.5, 2) if s % 3 == 0 else rng.normal(size=dx + dy)
            g = A @ dz
            meas.append(float(dz @ A @ dz / 2))
            gx.append(float(g[:dx] @ g[:dx]))
            gy.append(float(g[dx:] @ g[dx:]))
        Lx.append(lx)
        Ly.append(ly)
    if p["eq"] == "56":
        b = bound(LEMMA16, "printed", Lx=np.array(Lx), Ly=np.array(Ly))
    else:
        b = bound(LEMMA16_57, "printed", Lx=np.array(Lx), Ly=np.array(Ly), gx2=np.array(gx),
                  gy2=np.array(gy))
    return {"ks": np.arange(float(S)), "mean": np.array(meas), "bound": np.asarray(b)}


_BASE = {"objective": "mx2", "lam": 2.0, "mup": 1.0, "Lp": 2.0, "M": 4, "d": 1}
_P6_GRADS = tuple({**_BASE, "n": n, "K_per_n": 300, "noise": 3.0, "counter": k}
                  for n in (20, 40) for k in ("grad_w_stochastic", "grad_beta_stochastic"))
_P7_ENTRIES = ("iterations (rho fixed)",) * 5 + ("communications (rho = p_w/n)",) * 5
"""What the recorded entries of P7 are: five iteration counts, then five round counts."""

CHECKS = [
    Check(P + "P6_n", "ASVRCD-PFL's rounds to eps stay within Theorem 9's count (hidden "
          "constant 1) as n grows", CheckKind.BOUND_HOLDS, Verdict.HOLDS, simulate_p6_bound,
          grid=tuple({**_BASE, "n": n, "K_per_n": 300, "noise": 3.0} for n in (20, 40, 80)),
          quick_grid=({**_BASE, "n": 20, "K_per_n": 300, "noise": 3.0},), engine="mc",
          replicas=16, block_size=16, result_id=THEOREM9.id, form="corrected",
          description="MX2 with mu' = 1, L' = 2, lambda = 2 (Lcal^w/mu = 2.6, so n dominates "
          "n + sqrt(n Lcal^w/mu)), components that disagree (noise 3), rho = p_w/n. The "
          "measured rounds grow slower than n: Theorem 8's n is an upper bound (Theorem 6 "
          "bounds the rounds below by sqrt(L^w/mu) log(1/eps) only).",
          xlabel="n", ylabel="rounds to eps"),
    Check(P + "P6_grads", "ASVRCD-PFL's gradient calls to eps stay within Theorem 9's "
          "counts (hidden constant 1)", CheckKind.BOUND_HOLDS, Verdict.HOLDS,
          simulate_p6_bound, grid=_P6_GRADS, quick_grid=_P6_GRADS[:2], engine="mc",
          replicas=16, block_size=16, result_id=THEOREM9.id, form="corrected",
          description="P6_n's instances; per replica, the component gradients per client "
          "(w, then beta) spent until F(y^k) - F^* <= 1e-6 (F(0) - F^*), against Theorem 9's "
          "grad_w and grad_beta (2 p_w + rho n and 2 p_beta + rho n per iteration).",
          xlabel="n", ylabel="gradient calls to eps"),
    Check(P + "P6_zeta", "ASVRCD-PFL converges to the exact optimum at a rate that does not "
          "depend on heterogeneity", CheckKind.SCALING, Verdict.HOLDS, simulate_p6,
          grid=tuple({**_BASE, "n": 20, "K": 5000, "spread": s, "counter": "iterations"}
                     for s in (0.1, 1.0, 10.0)),
          quick_grid=tuple({**_BASE, "n": 20, "K": 5000, "spread": s,
                            "counter": "iterations"} for s in (0.1, 10.0)),
          engine="mc", replicas=16, block_size=16, result_id=THEOREM8.id, form="printed",
          predicted=0.0, tolerance=0.15, x_param="spread",
          description="Client optima spread 0.1, 1, 10 (zeta_*^2 over four decades): "
          "iterations to 1e-6 of the initial error (a replica that does not arrive within the "
          "horizon 5000 counts as infinite), no floor (LSGD-PFL keeps one: P4).",
          xlabel="spread of the client optima", ylabel="iterations to eps"),
    Check(P + "P7", "Theorem 8's p_w minimises Theorem 9's iterations (rho fixed) and "
          "communications (rho = p_w/n) over the paper's grid",
          CheckKind.BOUND_HOLDS, Verdict.HOLDS, simulate_p7,
          grid=({"Lcw": 0.1, "Lcb": 2.0, "mu": 0.01, "n": 100},
                {"Lcw": 2.0, "Lcb": 0.5, "mu": 0.01, "n": 1000},
                {"Lcw": 1.0, "Lcb": 1.0, "mu": 1e-4, "n": 10}),
          engine="symbolic", result_id=THEOREM9.id, form="corrected", rel_tol=1e-9,
          description="Section 6.2's grid p_w in {0.1, 0.3, 0.5, 0.7, 0.9}: the first five "
          "entries are iterations at rho = p*/n, the last five rounds at rho = p_w/n.",
          plot=Plot("scatter", categories=_P7_ENTRIES, xlabel="Theorem 9 at the grid's p_w "
                    "(bound)", ylabel="Theorem 9 at Theorem 8's p_w (measured)"),
          xlabel="p_w", ylabel="iterations (Theorem 9)"),
    Check(P + "P_lemma16", "Lemma 16's (56): a jointly convex, blockwise smooth H is "
          "2 max(L_x, L_y)-smooth", CheckKind.BOUND_HOLDS, Verdict.HOLDS, simulate_lemma16,
          grid=({"eq": "56", "dx": 3, "dy": 4, "S": 60},
                {"eq": "56", "dx": 10, "dy": 2, "S": 60, "instance": 1}),
          quick_grid=({"eq": "56", "dx": 3, "dy": 4, "S": 30},), engine="exact",
          result_id=LEMMA16.id, form="printed", rel_tol=1e-9,
          description="Random jointly convex quadratics (random PSD Hessians, and rank-one "
          "vv^T with ||v_x|| = ||v_y||, where the bound is attained): lambda_max of the "
          "Hessian against 2 max(L_x, L_y) of its diagonal blocks.",
          xlabel="random quadratic", ylabel="lambda_max of the Hessian"),
    Check(P + "P_lemma16_57", "Lemma 16's (57) bounds the Bregman divergence below",
          CheckKind.LOWER_BOUND, Verdict.HOLDS, simulate_lemma16,
          grid=({"eq": "57", "dx": 3, "dy": 4, "S": 60},
                {"eq": "57", "dx": 10, "dy": 2, "S": 60, "instance": 1}),
          quick_grid=({"eq": "57", "dx": 3, "dy": 4, "S": 30},), engine="exact",
          result_id=LEMMA16_57.id, form="printed", rel_tol=1e-9,
          description="As P_lemma16, at a random pair of points (rank one: along v, where the "
          "bound is attained): D_H against (||g_x||^2/L_x + ||g_y||^2/L_y)/4.",
          xlabel="random quadratic", ylabel="D_H"),
    Check(P + "E_svrcd", "Algorithm 7's estimator is biased as printed; with the control "
          "variate it is unbiased", CheckKind.ERRATUM, Verdict.CONFIRMED, simulate_svrcd_bias,
          grid=({"objective": "mx2", "lam": 1.0, "noise": 1.0, "step": "printed"},
                {"objective": "mx2", "lam": 1.0, "noise": 1.0, "step": "corrected"}),
          engine="exact", result_id=LEMMA15.id, form="printed",
          description="||E g - grad F(y)||/||grad F(y)|| by enumeration of the block coin and "
          "the indices, at 4 random (y, v).", plot=Plot("scatter", by="point"),
          xlabel="random point", ylabel="relative bias"),
]
