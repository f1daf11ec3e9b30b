"""Monte Carlo checks of erickson2025 (digest §7): Theorem 4.3's envelope (P1), exact
stationarity with variance reduction against the plain partial-participation estimate (P3),
the sigma^2 and delta floors and how they scale (P4, P5), the sigma^2 floor under a
rescaling of f (erratum 2); P13 (Readings A and B) is defined in
:mod:`.readings` and listed here, after the floors.

Runs: Karula (eta = 3/(8L)) on random quadratic clients under active pairwise constraints
(:mod:`pflbounds.papers.erickson2025.checks.karula_runs`); ||G_eta||^2 with the exact
projection, certified (the upper end of the certified interval is the measured value, so a
HOLDS is conservative). Theorem 4.3 bounds the average (1/K) sum_{k<K} E||G_eta(theta^k)||^2
in its proof (and so min_k): the checks of the explicit and corrected forms measure that
average; the printed form's check measures E||G_eta(theta^{K-1})||^2 >= min_k, so a HOLDS
there is a HOLDS of the statement. Floors: runs start at theta* (Delta0 = 0), so the bound
is the floor itself and no transient term enters.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from pflbounds.checking import Check, CheckKind, Verdict
from pflbounds.papers.erickson2025.checks.karula_runs import run, running_average, theorem_bound
from pflbounds.papers.erickson2025.checks.plots import plot_p1, plot_p3, plot_p4, plot_p5
from pflbounds.papers.erickson2025.checks.readings import P13

_RES = "erickson2025.theorem4_3_eta38"


def simulate_p1(p: Mapping[str, Any], R: int, seed: np.random.SeedSequence) -> dict:
    """P1: (1/K) sum_{k<K} ||G_eta(theta^k)||^2 against the corrected (= explicit at sigma =
    0) Theorem 4.3 at horizons K, with delta the largest certified inexactness of the run.
    Extra evidence for the figure: the mean curves of the average and of min_{k<K}
    E||G_eta||^2 at every K and the three envelopes there."""
    h = np.asarray(p["horizons"], dtype=int)
    Km = int(h.max())
    r = run(p, R, seed, K=Km)
    avg = running_average(r["G2hi"][:, :Km])
    k = np.arange(1, Km + 1)
    env = {f"env_{f}": theorem_bound(f, r, k, 0.0, r["delta_max"])
           for f in ("printed", "explicit", "corrected")}
    return {"samples": avg[:, h - 1], "ks": h.astype(float),
            "bound": theorem_bound("corrected", r, h, 0.0, r["delta_max"]),
            "curve_k": k.astype(float), "curve_avg": avg.mean(axis=0),
            "curve_min": np.minimum.accumulate(r["G2hi"][:, :Km].mean(axis=0)), **env}


def simulate_p1_printed(p: Mapping[str, Any], R: int, seed: np.random.SeedSequence) -> dict:
    """P1, printed 8L/3: E||G_eta(theta^{K-1})||^2 (>= min_{k<K}) against the printed form."""
    h = np.asarray(p["horizons"], dtype=int)
    r = run(p, R, seed, K=int(h.max()))
    return {"samples": r["G2hi"][:, h - 1], "ks": h.astype(float),
            "bound": theorem_bound("printed", r, h, 0.0, r["delta_max"])}


def simulate_p3(p: Mapping[str, Any], R: int, seed: np.random.SeedSequence) -> dict:
    """P3 (VR): Karula's ||G_eta(theta^K)||^2 (sigma = 0, certified exact projections)
    against the target 1e-10. Extra evidence for the figure: the mean curves of Karula and of
    the non-VR estimate (its own random stream) at every k."""
    K = int(p["K"])
    r = run(p, R, seed, K=K)
    plain = run(p, R, np.random.SeedSequence(seed.entropy, spawn_key=(*seed.spawn_key, 1)),
                K=K, estimator="plain")
    return {"samples": r["G2hi"][:, -1:], "ks": np.array([float(K)]),
            "bound": np.array([float(p["target"])]), "curve_k": r["ks"].astype(float),
            "curve_vr": r["G2hi"].mean(axis=0), "curve_plain": plain["G2hi"].mean(axis=0)}


def simulate_p3_plain(p: Mapping[str, Any], R: int, seed: np.random.SeedSequence) -> dict:
    """P3 (non-VR): the plateau of ||G_eta||^2 (mean over the last 20% of K rounds, lower end
    of the certified interval) of nu_i = 1[i in S_k] G_i/s stays above ``level``."""
    K = int(p["K"])
    r = run(p, R, seed, K=K, estimator="plain", record=range(int(0.8 * K), K + 1))
    return {"samples": r["G2lo"].mean(axis=1, keepdims=True), "ks": np.array([float(K)]),
            "bound": np.array([float(p["level"])])}


def _floor_run(p: Mapping[str, Any], R: int, seed: np.random.SeedSequence) -> dict:
    scale = float(p.get("scale", 1.0))
    sigma2 = float(p.get("sigma2", 0.0)) * scale**2
    return run(p, R, seed, K=int(p["K"]), sigma2=sigma2, delta=float(p.get("delta", 0.0)),
               start="optimum") | {"sigma2": sigma2}


def simulate_floor(p: Mapping[str, Any], R: int, seed: np.random.SeedSequence) -> dict:
    """P4/P5: from theta* (Delta0 = 0), (1/K) sum_{k<K} ||G_eta||^2 against the corrected
    Theorem 4.3, i.e. the floor 32 (s+1)/s sigma^2 + (128L/3) delta; the printed and explicit
    values at the same point are extra evidence for the figure."""
    r = _floor_run(p, R, seed)
    K = int(p["K"])
    avg = running_average(r["G2hi"][:, :K])[:, -1:]
    ks = np.array([K])
    return {"samples": avg, "ks": np.array([float(K)]),
            "bound": theorem_bound("corrected", r, ks, r["sigma2"], r["delta_max"]),
            "cert_width": np.asarray(float(np.max(r["G2hi"] - r["G2lo"]))),
            **{f"floor_{f}": theorem_bound(f, r, ks, r["sigma2"], r["delta_max"])
               for f in ("printed", "explicit")}}


def simulate_floor_scaling(p: Mapping[str, Any], R: int, seed: np.random.SeedSequence) -> dict:
    """P4/P5 linearity: per replica, the mean of ||G_eta||^2 over the second half of the run
    (the plateau) from theta*; its log-log slope against sigma^2 is 1 for small noise
    (P4_linear), against delta between 1 and 2 (P5_linear explains why)."""
    r = _floor_run(p, R, seed)
    K = int(p["K"])
    return {"cost": r["G2hi"][:, K // 2:].mean(axis=1)}


def simulate_p4_rescaled(p: Mapping[str, Any], R: int, seed: np.random.SeedSequence) -> dict:
    """Erratum 2 (dropped eta on sigma^2) on runs: f -> c f (H -> c H, oracle noise c sigma,
    eta = 3/(8 c L), the same trajectories), from theta*. The plateau scales as c^2, the
    explicit floor (64L/3) 4 sigma^2 (s+1)/s as c^3 (and the printed one, 8 times smaller,
    too), the corrected 32 (s+1)/s sigma^2 as c^2: for small c the explicit (hence the
    printed) floor is violated and the corrected one holds."""
    r = _floor_run(p, R, seed)
    K = int(p["K"])
    avg = running_average(r["G2hi"][:, :K])[:, -1:]
    ks = np.array([K])
    return {"samples": avg, "ks": ks.astype(float),
            "bound_printed": theorem_bound("explicit", r, ks, r["sigma2"], r["delta_max"]),
            "bound_corrected": theorem_bound("corrected", r, ks, r["sigma2"], r["delta_max"])}


_BASE = {"n": 6, "d": 3, "s": 3, "cond": 10.0, "rho": 0.5, "inst": 0}
_SMALL = {"n": 4, "d": 2, "s": 2, "cond": 2.0, "rho": 0.5, "inst": 1}
_XL = "K (rounds)"

CHECKS = [
    Check(
        "erickson2025.P1", "Theorem 4.3 (explicit/corrected): the average of E||G_eta||^2",
        CheckKind.BOUND_HOLDS, Verdict.HOLDS, simulate_p1, engine="mc", replicas=50,
        grid=(dict(_BASE, horizons=[1, 2, 5, 10, 20, 30]),
              dict(_BASE, s=5, horizons=[1, 2, 5, 10, 20, 30]),
              dict(_BASE, n=9, d=4, s=5, inst=2, horizons=[1, 2, 5, 10, 20])),
        quick_grid=(dict(_BASE, horizons=[1, 2, 5]),),
        result_id=_RES, form="corrected", xlabel=_XL, plot=plot_p1,
        ylabel="(1/K) sum_{k<K} E||G_eta(theta^k)||^2",
        description="Karula, Reading B, sigma = 0, exact projections (certified), random "
                    "quadratics under active constraints: the proof's average is below "
                    "(64L/3)(Delta0/K + 2 delta) at every horizon."),
    Check(
        "erickson2025.P1_printed", "Theorem 4.3 as printed (8L/3) on generic instances",
        CheckKind.BOUND_HOLDS, Verdict.HOLDS, simulate_p1_printed, engine="mc", replicas=50,
        grid=(dict(_BASE, horizons=[1, 2, 5, 10, 20, 30]),
              dict(_BASE, s=5, horizons=[1, 2, 5, 10, 20, 30])),
        quick_grid=(dict(_BASE, horizons=[1, 2, 5]),),
        result_id=_RES, form="printed", xlabel=_XL, ylabel="E||G_eta(theta^{K-1})||^2",
        description="The last iterate's E||G_eta||^2 (at least min_{k<K}) is below the "
                    "printed (8L/3) Delta0/K on generic instances; the margin shows how close "
                    "(P2 is the instance where it fails)."),
    Check(
        "erickson2025.P3", "Variance reduction: exact stationarity under partial participation",
        CheckKind.BOUND_HOLDS, Verdict.HOLDS, simulate_p3, engine="mc", replicas=20,
        grid=(dict(_SMALL, K=300, target=1e-10),), quick_grid=(dict(_SMALL, K=250,
                                                                    target=1e-10),),
        result_id=_RES, form="corrected", xlabel=_XL, ylabel="E||G_eta(theta^K)||^2",
        plot=plot_p3,
        description="sigma = 0, exact (certified) projections: Karula's ||G_eta||^2 falls "
                    "below 1e-10 with s = 2 of n = 4 clients per round."),
    Check(
        "erickson2025.P3_plain", "Without variance reduction partial participation plateaus",
        CheckKind.LOWER_BOUND, Verdict.HOLDS, simulate_p3_plain, engine="mc", replicas=20,
        grid=(dict(_SMALL, K=300, level=1e-6),), quick_grid=(dict(_SMALL, K=60, level=1e-6),),
        result_id=_RES, form="corrected", xlabel=_XL,
        ylabel="mean of E||G_eta||^2 over the last 20% of rounds",
        description="The unbiased non-VR estimate nu_i = 1[i in S_k] G_i/s on the same "
                    "instance: constraints are active, grad f(theta*) != 0, and ||G_eta||^2 "
                    "stays above 1e-6 (10^4 times Karula's target)."),
    Check(
        "erickson2025.P4", "Theorem 4.3: the sigma^2 floor (corrected)",
        CheckKind.BOUND_HOLDS, Verdict.HOLDS, simulate_floor, engine="mc", replicas=30,
        grid=tuple(dict(_BASE, K=100, sigma2=v) for v in (1e-4, 1e-2, 1.0)),
        quick_grid=(dict(_BASE, K=40, sigma2=1e-2),),
        result_id=_RES, form="corrected", xlabel=_XL, plot=plot_p4,
        ylabel="(1/K) sum_{k<K} E||G_eta(theta^k)||^2",
        description="Gaussian oracle noise E||zeta||^2 = sigma^2, runs from theta*: the "
                    "average of E||G_eta||^2 is below 32 (s+1)/s sigma^2 over four decades."),
    Check(
        "erickson2025.P4_linear", "The sigma^2 plateau is linear in sigma^2",
        CheckKind.SCALING, Verdict.HOLDS, simulate_floor_scaling, engine="mc", replicas=30,
        grid=tuple(dict(_BASE, K=100, sigma2=v) for v in (1e-8, 1e-6, 1e-4)),
        quick_grid=tuple(dict(_BASE, K=40, sigma2=v) for v in (1e-8, 1e-4)),
        x_param="sigma2", predicted=1.0, tolerance=0.15, result_id=_RES, form="corrected",
        description="Log-log slope of the plateau of E||G_eta||^2 against sigma^2, claimed "
                    "for small noise only: sigma^2 from 1e-8 to 1e-4, where the iterates stay "
                    "on the faces of K active at theta* and the plateau is the linear response "
                    "to the noise. The claim was narrowed to this range after a VIOLATED "
                    "verdict on 1e-4 to 1: larger noise moves the iterates across the faces "
                    "and the average grows faster than linearly (slope 1.05 from 1e-4 to 1e-2 "
                    "and 1.29 from 1e-2 to 1 on P4's runs, shown in P4's figure)."),
    Check(
        "erickson2025.P4_rescaled", "Erratum: the printed sigma^2 floor fails when f is rescaled",
        CheckKind.ERRATUM, Verdict.CONFIRMED, simulate_p4_rescaled, engine="mc", replicas=30,
        grid=tuple(dict(_BASE, K=100, sigma2=1e-2, scale=c) for c in (1.0, 1e-6)),
        quick_grid=(dict(_BASE, K=40, sigma2=1e-2, scale=1e-6),),
        result_id=_RES, form="explicit", xlabel=_XL,
        ylabel="(1/K) sum_{k<K} E||G_eta(theta^k)||^2",
        description="f -> c f: the measured floor scales as c^2, the explicit (64L/3) 4 "
                    "sigma^2 (s+1)/s as c^3 (the printed is 8 times smaller): the floors are "
                    "loose by about 5e3 at c = 1, so at c = 1e-6 the explicit bound (hence the "
                    "printed) is violated, while the corrected one holds at every c."),
    Check(
        "erickson2025.P5", "Theorem 4.3: the delta floor (controlled-delta projections)",
        CheckKind.BOUND_HOLDS, Verdict.HOLDS, simulate_floor, engine="mc", replicas=30,
        grid=tuple(dict(_BASE, K=100, delta=v) for v in (1e-6, 1e-4, 1e-2)),
        quick_grid=(dict(_BASE, K=40, delta=1e-4),),
        result_id=_RES, form="corrected", xlabel=_XL, plot=plot_p5,
        ylabel="(1/K) sum_{k<K} E||G_eta(theta^k)||^2",
        description="sigma = 0, every projection exactly delta-inexact (towards the "
                    "consensus point), runs from theta*: the average is below (128L/3) delta."),
    Check(
        "erickson2025.P5_linear", "The delta plateau grows faster than linearly in delta",
        CheckKind.SCALING, Verdict.HOLDS, simulate_floor_scaling, engine="mc", replicas=30,
        grid=tuple(dict(_BASE, K=100, delta=v) for v in (1e-6, 1e-5, 1e-4)),
        quick_grid=tuple(dict(_BASE, K=40, delta=v) for v in (1e-6, 1e-4)),
        x_param="delta", predicted=1.15, tolerance=0.0, side="at_least", result_id=_RES,
        form="corrected",
        description="Log-log slope of the plateau of E||G_eta||^2 against delta, for the "
                    "controlled-delta projection towards the consensus point: faster than "
                    "linear, not the digest's 'roughly linear'. The claim is one-sided, slope "
                    ">= 1.15 (HOLDS when the lower confidence limit is at least 1.15). "
                    "Derivation: the "
                    "point moves lambda ||c - Pi_K(z)|| with lambda ~ 2 eta delta/b when b = "
                    "2 <Pi_K(z) - z, c - Pi_K(z)> > 0 (constraints active at theta*, so G^2 = "
                    "O(delta^2), slope 2); Lemma A.2 (5) only caps the move at sqrt(2 eta "
                    "delta) (slope 1, reached when b = 0, e.g. a move along a face). "
                    "Measured about 1.7 from 1e-6 to 1e-5 (the certified upper end, whose "
                    "width is about 1e-11, lifts the smallest plateau) and 2.0 from 1e-5 to "
                    "1e-4. The bound (128L/3) delta is linear, so it loosens as delta falls."),
    P13,
]
