"""Checks of Theorem 4.3 at eta = 3/(8L), erickson2025 (digest §7): the K = 1 counterexample to
the printed constant (P2, erratum 1), the dimension error of eps (E_dimension, erratum 2), the
envelope on runs (P1, P1_printed), exact stationarity with variance reduction against the
plain partial-participation estimate (P3, P3_plain), the sigma^2 and delta floors and how they
scale (P4, P5, P4_linear, P5_linear), the sigma^2 floor under a rescaling of f (P4_rescaled,
erratum 2), and Readings A and B of the gradient table, their shared limit and their speed to
||G_eta||^2 <= 1e-8 (P13).

Runs: Karula (eta = 3/(8L)) on random quadratic clients under active pairwise constraints
(:func:`pflbounds.papers.erickson2025.checks.common.run`); ||G_eta||^2 with the exact
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

from pflbounds.algorithms.driver import first_reach
from pflbounds.checking import Check, CheckKind, Verdict, bound
from pflbounds.papers.erickson2025.checks.common import (
    evidence_array,
    evidences_with,
    first_evidence_with,
    run,
    running_average,
    theorem_bound,
    timed_karula,
)
from pflbounds.papers.erickson2025.checks.corollaries import plot_p4, plot_p5
from pflbounds.papers.erickson2025.instances import counterexample
from pflbounds.papers.erickson2025.theory.convergence import THEOREM4_3_ETA38
from pflbounds.reporting.figure_specs import figure, series
from pflbounds.reporting.numbers import fmt
from pflbounds.reporting.outcome_figures import default_figures
from pflbounds.symbolic.catalog import get
from pflbounds.symbolic.units import DimensionError


def simulate_p2(p: Mapping[str, Any], R: int, seed: np.random.SeedSequence) -> dict:
    """P2: at K = 1 the left side is ||G_eta(theta^0)||^2 (no randomness, any sigma, delta):
    the printed 8L/3 bound is violated (ratio 16/15), the proof's 64L/3 holds. Extra evidence
    for the figure: both ratios along theta^0 = c - t n_hat, t from 0.05 to 0.3 and 1/7."""
    c = counterexample(p)
    kw = dict(L=c["L"], n=c["n"], s=2, K=1, Delta0=c["Delta0"], sigma2=0.0, delta=0.0)
    printed = float(bound(THEOREM4_3_ETA38, "printed", **kw))
    explicit = float(bound(THEOREM4_3_ETA38, "explicit", **kw))
    ts = np.unique(np.r_[np.linspace(0.05, 0.3, 26), 1 / 7])
    sweep = {"printed": [], "explicit": []}
    for t in ts:
        ct = counterexample(dict(p, t=float(t)))
        for form, out in sweep.items():
            env = float(bound(THEOREM4_3_ETA38, form, **dict(kw, Delta0=ct["Delta0"])))
            out.append(ct["G2"] / env)
    return {"mean": np.array([c["G2"]]), "ks": np.array([1.0]),
            "bound_printed": np.array([printed]), "bound_corrected": np.array([explicit]),
            "ratio_printed": np.asarray(c["G2"] / printed),
            "ratio_explicit": np.asarray(c["G2"] / explicit), "sweep_t": ts,
            "sweep_ratio_printed": np.asarray(sweep["printed"]),
            "sweep_ratio_explicit": np.asarray(sweep["explicit"])}


def _dim_ok(form: str) -> bool:
    try:
        get(THEOREM4_3_ETA38.id).dimension_check(form)
    except DimensionError:
        return False
    return True


def simulate_e_dimension(p: Mapping[str, Any], R: int, seed: np.random.SeedSequence) -> dict:
    """Erratum 2 (dropped eta on sigma^2): the printed and explicit Theorem 4.3 fail the
    dimension check ([f]^2/[x]^2 added to [f]) and the corrected form passes it; rescaling
    f -> c f (L -> c L, sigma^2 -> c^2 sigma^2, delta, Delta0 -> c delta, c Delta0) must scale
    a bound on ||G_eta||^2 by c^2: only the corrected form does. Residual 0 when all hold."""
    c = p["scale"]
    base = dict(L=2.0, n=30, s=10, K=20, Delta0=1.0, sigma2=0.3, delta=0.05)
    scaled = dict(base, L=c * 2.0, sigma2=c**2 * 0.3, Delta0=c * 1.0, delta=c * 0.05)
    ratio = {f: float(bound(THEOREM4_3_ETA38, f, **scaled))
             / float(bound(THEOREM4_3_ETA38, f, **base)) / c**2
             for f in ("printed", "explicit", "corrected")}
    ok = (not _dim_ok("printed")) and (not _dim_ok("explicit")) \
        and _dim_ok("corrected") and abs(ratio["corrected"] - 1) < 1e-12 \
        and abs(ratio["printed"] - 1) > 1e-3 and abs(ratio["explicit"] - 1) > 1e-3
    return {"residual": np.asarray(0.0 if ok else 1.0),
            "printed_scaling": np.asarray(ratio["printed"]),
            "corrected_scaling": np.asarray(ratio["corrected"])}


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


TARGET = 1e-8
"""P13's stationarity target: rounds (and wall time) until the certified ||G_eta||^2 <= it
(digest §7 P13: "report the iterations needed to reach ||G||^2 <= 1e-8")."""


READINGS = ("A", "B")


def simulate_p13(p: Mapping[str, Any], R: int, seed: np.random.SeedSequence) -> dict:
    """P13 (digest §7): Readings A and B (sigma = 0) from the consensus point both end at
    theta* (the same stationary point): residual max ||theta^K - theta*||/(1 + ||theta*||)
    over replicas and readings (theta* by cvxpy).

    Evidence of the speed, per reading: the rounds to the certified ||G_eta||^2 <= 1e-8 per
    replica (``rounds_<r>_replicas``; ``rounds_<r>``, their mean) and the wall time: Karula
    alone (:func:`timed_karula`, no certification) on the batch of R replicas up to the round
    where its last replica reaches the target, divided by R (``seconds_<r>``, per replica;
    ``seconds_per_round_<r>``; ``batch_rounds_<r>``, the rounds timed). The wall time is
    measured on whatever machine runs the check, so it is evidence only: the verdict is the
    residual's."""
    K = int(p["K"])
    res, out = 0.0, {}
    streams = np.random.SeedSequence(seed.entropy, spawn_key=seed.spawn_key).spawn(2)
    for reading, ss in zip(READINGS, streams, strict=True):
        r = run(p, R, ss, K=K, reading=reading)
        x_star = r["inst"].constrained_optimum[0]
        err = np.sqrt(((r["theta"] - x_star) ** 2).sum(axis=(1, 2)))
        res = max(res, float(err.max()) / (1.0 + float(np.linalg.norm(x_star))))
        rounds = first_reach(r["G2hi"], TARGET, r["ks"])
        batch = int(rounds.max()) if np.all(np.isfinite(rounds)) else K
        secs, _ = timed_karula(p, R, ss, K=batch, reading=reading)
        out |= {f"rounds_{reading}": np.asarray(float(rounds.mean())),
                f"rounds_{reading}_replicas": rounds,
                f"batch_rounds_{reading}": np.asarray(float(batch)),
                f"seconds_{reading}": np.asarray(secs / R),
                f"seconds_per_round_{reading}": np.asarray(secs / R / max(batch, 1))}
    return {"residual": np.asarray(res), **out}


def _participation(n: int, s: int) -> str | None:
    """The curve of a grid point in P13's figures: s = n/3 or s = n (others: table only)."""
    return "s = n" if s == n else "s = n/3" if 3 * s == n else None


def _speed_points(outcome: Any) -> list[tuple[int, int, dict]]:
    evs = [e for e in outcome.evidence if "rounds_A_replicas" in e]
    return sorted(((int(e["params"]["n"]), int(e["params"]["s"]), e) for e in evs),
                  key=lambda t: (t[0], t[1]))


def _rounds(e: dict, reading: str) -> np.ndarray:
    return np.asarray(e[f"rounds_{reading}_replicas"], dtype=float).ravel()


def plot_p13(outcome: Any) -> list[dict]:
    """P13's residual table, then the speed of the two readings (digest §4.2, §8 #25): the
    rounds to ||G_eta||^2 <= 1e-8 against n (median over replicas, band = range), one curve
    per reading and participation (s = n/3, s = n); the ratio B/A of the medians against n
    with the line n (Reading B's effective per-client step is eta/n, Reading A's eta); and
    a table of every grid point's rounds and wall time."""
    figs = default_figures(outcome)
    pts = _speed_points(outcome)
    if not pts:
        return figs
    items, ratio_items, ns_all = [], [], set()
    for part in ("s = n/3", "s = n"):
        sel = [(n, e) for n, s, e in pts if _participation(n, s) == part]
        if not sel:
            continue
        n = np.array([v[0] for v in sel], dtype=float)
        ns_all.update(n.tolist())
        med = {}
        for reading in READINGS:
            rs = [_rounds(e, reading) for _, e in sel]
            med[reading] = np.array([np.median(v) for v in rs])
            items.append(series(f"Reading {reading}, {part}", n, med[reading], "measured",
                                [v.min() for v in rs], [v.max() for v in rs],
                                group=f"{reading} {part}"))
        ratio_items.append(series(f"B/A, {part}", n, med["B"] / med["A"], "measured",
                                  group=part))
    xs = np.array(sorted(ns_all))
    ratio_items.append(series("n (ratio of the effective steps, eta against eta/n)", xs, xs,
                              "reference", group="n"))
    cid = outcome.check_id
    rounds_fig = figure("curves", f"{cid}: rounds to ||G_eta||^2 <= 1e-8 by number of clients",
                        "n (clients)", "rounds to ||G_eta||^2 <= 1e-8", items, logx=True,
                        logy=True)
    rounds_fig["caption"] = (
        "Karula, sigma = 0, eta = 3/(8L), certified exact projections, from the consensus "
        "point; median over the replicas, band from the fastest to the slowest replica. With "
        "s = n every client is sampled every round, so the replicas coincide.")
    ratio_fig = figure("curves", f"{cid}: Reading B's rounds over Reading A's, by number of "
                       "clients", "n (clients)", "rounds B / rounds A (medians)", ratio_items,
                       logx=True, logy=True)
    ratio_fig["caption"] = (
        "Reading B's per-client step is eta/n, Reading A's is eta (digest §4.2 and §8 #25). "
        "With s = n both tables are fresh every round and B needs about n times A's rounds "
        "(Reading A about 10 rounds at every n, Reading B about 10 n). With s = n/3 Reading "
        "A steps mostly on stale entries (a client's entry is refreshed with probability 1/3 "
        "per round and its fresh gradient enters with weight 1/s), which costs it 4 to 5 "
        "times its rounds at s = n, while B, limited by its step eta/n and not by the "
        "refresh, needs about its rounds at s = n: the ratio is about n/4 to n/3.")
    rows = []
    for n, s, e in pts:
        for reading in READINGS:
            v = _rounds(e, reading)
            rows.append([str(n), str(s), reading, fmt(float(np.median(v))),
                         f"{fmt(float(v.min()))} to {fmt(float(v.max()))}",
                         fmt(float(np.asarray(e[f"seconds_{reading}"]))),
                         fmt(1e3 * float(np.asarray(e[f"seconds_per_round_{reading}"])))])
    table = {"kind": "table",
             "title": f"{cid}: rounds and wall time to ||G_eta||^2 <= 1e-8 at each grid point",
             "columns": ["n", "s", "reading", "median rounds", "range of rounds",
                         "wall seconds per replica", "wall milliseconds per round"],
             "rows": rows,
             "caption": "Wall time: Karula alone (no certification) on the batch of all "
                        "replicas, vectorised, up to the round where the batch's slowest "
                        "replica reaches 1e-8, divided by the replicas (and by those rounds); "
                        "measured on the machine that ran the check, evidence only."}
    return [*figs, rounds_fig, ratio_fig, table]


def plot_p1(outcome: Any) -> list[dict]:
    """Per grid point: (1/K) sum_{k<K} E||G_eta||^2 under the corrected envelope (= explicit
    at sigma = 0) and min_{k<K} E||G_eta||^2 under the printed (8L/3)(Delta0/K + eps)."""
    figs = []
    for e in evidences_with(outcome, "curve_avg"):
        k = evidence_array(e, "curve_k")
        p = e["params"]
        items = [
            series(r"average $(1/K)\sum_{k<K} E\Vert G_\eta(\theta^k)\Vert^2$", k,
                   evidence_array(e, "curve_avg"), "measured", group="average"),
            series(r"explicit = corrected $(64L/3)(\Delta_0/K + 2\delta)$ ($\sigma = 0$)", k,
                   evidence_array(e, "env_corrected"), "bound", group="average"),
            series(r"$\min_{k<K} E\Vert G_\eta(\theta^k)\Vert^2$", k,
                   evidence_array(e, "curve_min"),
                   "measured", group="min"),
            series(r"printed $(8L/3)(\Delta_0/K + 2\delta)$", k, evidence_array(e, "env_printed"),
                   "bound", group="min"),
        ]
        fig = figure("curves", f"{outcome.check_id}: Theorem 4.3's three envelopes "
                     f"(n = {p['n']}, s = {p['s']})", "K (rounds)", r"$E\Vert G_\eta\Vert^2$",
                     items, logx=True, logy=True)
        fig["caption"] = ("Karula (Reading B, sigma = 0, certified exact projections) from the "
                          "consensus point: the proof's average stays under the corrected "
                          "envelope; min_k E||G_eta||^2, what the statement bounds, under the "
                          "printed one, 8 times smaller (P2 is an instance where it fails).")
        figs.append(fig)
    return figs


def plot_p2(outcome: Any) -> list[dict]:
    """||G_eta(theta^0)||^2 over the printed and the explicit K = 1 envelopes along the family
    theta^0 = c - t n_hat of the 3-client instance (t = 1/7 is digest §5.4's point)."""
    e = first_evidence_with(outcome, "sweep_t")
    if e is None:
        return []
    t = evidence_array(e, "sweep_t")
    items = [series(r"$\Vert G_\eta(\theta^0)\Vert^2 / ((8L/3)\Delta_0)$ (printed)", t,
                    evidence_array(e, "sweep_ratio_printed"), "measured", group="printed"),
             series(r"$\Vert G_\eta(\theta^0)\Vert^2 / ((64L/3)\Delta_0)$ (explicit)", t,
                    evidence_array(e, "sweep_ratio_explicit"), "measured", group="explicit")]
    fig = figure("curves", f"{outcome.check_id}: the K = 1 counterexample along its family",
                 r"$t$ ($\theta^0 = c - t\,\hat n$)", "ratio to the envelope", items,
                 logx=False, logy=True, hlines=[(1.0, "envelope reached (ratio 1)")])
    fig["caption"] = ("n = 3, d = 1, L = 1, eta = 3/8, exact projections (Clarabel): above 1 "
                      "the envelope is violated. The printed one fails only in a window around "
                      "t = 1/7 (from about 0.134 to 0.155; ratio 16/15 at t = 1/7); the "
                      "proof's (64L/3) Delta0 holds along the whole family (ratio at most "
                      "2/15).")
    return [fig]


def plot_p3(outcome: Any) -> list[dict]:
    """E||G_eta(theta^k)||^2 of Karula (VR) and of the non-VR estimate on the same instance,
    with Karula's target 1e-10 and the level the non-VR run stays above."""
    e = first_evidence_with(outcome, "curve_vr")
    if e is None:
        return []
    k = evidence_array(e, "curve_k")
    target = float(np.asarray(e["bound"]).ravel()[0])
    items = [series("Karula (variance reduced, Reading B)", k, evidence_array(e, "curve_vr"),
                    "measured",
                    group="vr"),
             series(r"target $10^{-10}$", k, np.full(k.shape, target), "bound", group="vr"),
             series(r"non-VR $\nu_i = 1[i \in S_k]\, G_i/s$", k, evidence_array(e, "curve_plain"),
                    "measured", group="plain"),
             series(r"level $10^{-6}$ (P3_plain, a lower bound)", k, np.full(k.shape, 1e-6),
                    "lower_bound", group="plain")]
    fig = figure("curves", f"{outcome.check_id}: variance reduction against the plain "
                 "partial-participation estimate", "k (rounds)",
                 r"$E\Vert G_\eta(\theta^k)\Vert^2$", items, logx=False, logy=True)
    fig["caption"] = ("sigma = 0, s = 2 of n = 4 clients per round, eta = 3/(8L), certified "
                      "exact projections: with constraints active grad f(theta*) != 0, so the "
                      "unbiased non-VR estimate keeps a variance floor, while Karula's table "
                      "removes it.")
    return [fig]


_BASE = {"n": 6, "d": 3, "s": 3, "cond": 10.0, "rho": 0.5, "inst": 0}
_SMALL = {"n": 4, "d": 2, "s": 2, "cond": 2.0, "rho": 0.5, "inst": 1}
_XL = "K (rounds)"


def _p13_speed_grid() -> tuple[dict, ...]:
    """n in {6, 12, 30} with s = n/3 and s = n; K lets Reading B (about n times slower per
    round at s = n) settle to the 1e-6 residual."""
    K = {6: 400, 12: 600, 30: 1200}
    return tuple(dict(_SMALL, n=n, s=s, K=K[n]) for n in (6, 12, 30) for s in (n // 3, n))


P13 = Check(
    "erickson2025.P13", "Readings A and B reach the same stationary point",
    CheckKind.IDENTITY, Verdict.HOLDS, simulate_p13, engine="mc", replicas=10,
    grid=(dict(_SMALL, K=300), *_p13_speed_grid()), quick_grid=(dict(_SMALL, K=250),),
    tolerance=1e-6, result_id=THEOREM4_3_ETA38.id, form="corrected",
    plot=plot_p13,
    description="sigma = 0: both readings end within 1e-6 (relative) of the cvxpy optimum "
                "theta* on every grid point (n = 4, s = 2; n = 6, 12, 30 with s = n/3 and "
                "s = n). Evidence: the rounds to ||G_eta||^2 <= 1e-8 under each reading "
                "per replica, and the wall time per replica, with figures of the rounds and "
                "of their ratio B/A against n.")


CHECKS = [
    Check(
        "erickson2025.P2", "Theorem 4.3 at K = 1: the 3-client counterexample",
        CheckKind.ERRATUM, Verdict.CONFIRMED, simulate_p2,
        grid=({"r12": 1.0},), engine="exact", rel_tol=1e-9, plot=plot_p2,
        result_id=THEOREM4_3_ETA38.id, form="printed",
        xlabel="K", ylabel="||G_eta(theta^0)||^2",
        description="n = 3, d = 1, L = 1, eta = 3/8, exact projection (Clarabel): "
                    "||G_eta(theta^0)||^2 = 64/441 against the printed (8L/3) Delta0 = 40/294 "
                    "(violated, ratio 16/15) and the proof's (64L/3) Delta0 (holds, 2/15)."),
    Check(
        "erickson2025.E_dimension", "Erratum: eps of Theorem 4.3 is not unit-consistent",
        CheckKind.IDENTITY, Verdict.HOLDS, simulate_e_dimension,
        grid=({"scale": 10.0}, {"scale": 0.01}), engine="symbolic", tolerance=0.0,
        result_id=THEOREM4_3_ETA38.id, form="printed",
        description="Residual 0 when the printed and explicit forms fail the dimension check, "
                    "the corrected one passes it, and only the corrected value scales like "
                    "[f]^2/[x]^2 when f is rescaled."),
    Check(
        "erickson2025.P1", "Theorem 4.3 (explicit/corrected): the average of E||G_eta||^2",
        CheckKind.BOUND_HOLDS, Verdict.HOLDS, simulate_p1, engine="mc", replicas=50,
        grid=(dict(_BASE, horizons=[1, 2, 5, 10, 20, 30]),
              dict(_BASE, s=5, horizons=[1, 2, 5, 10, 20, 30]),
              dict(_BASE, n=9, d=4, s=5, inst=2, horizons=[1, 2, 5, 10, 20])),
        quick_grid=(dict(_BASE, horizons=[1, 2, 5]),),
        result_id=THEOREM4_3_ETA38.id, form="corrected", xlabel=_XL, plot=plot_p1,
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
        result_id=THEOREM4_3_ETA38.id, form="printed", xlabel=_XL,
        ylabel="E||G_eta(theta^{K-1})||^2",
        description="The last iterate's E||G_eta||^2 (at least min_{k<K}) is below the "
                    "printed (8L/3) Delta0/K on generic instances; the margin shows how close "
                    "(P2 is the instance where it fails)."),
    Check(
        "erickson2025.P3", "Variance reduction: exact stationarity under partial participation",
        CheckKind.BOUND_HOLDS, Verdict.HOLDS, simulate_p3, engine="mc", replicas=20,
        grid=(dict(_SMALL, K=300, target=1e-10),), quick_grid=(dict(_SMALL, K=250,
                                                                    target=1e-10),),
        result_id=THEOREM4_3_ETA38.id, form="corrected", xlabel=_XL, ylabel="E||G_eta(theta^K)||^2",
        plot=plot_p3,
        description="sigma = 0, exact (certified) projections: Karula's ||G_eta||^2 falls "
                    "below 1e-10 with s = 2 of n = 4 clients per round."),
    Check(
        "erickson2025.P3_plain", "Without variance reduction partial participation plateaus",
        CheckKind.LOWER_BOUND, Verdict.HOLDS, simulate_p3_plain, engine="mc", replicas=20,
        grid=(dict(_SMALL, K=300, level=1e-6),), quick_grid=(dict(_SMALL, K=60, level=1e-6),),
        result_id=THEOREM4_3_ETA38.id, form="corrected", xlabel=_XL,
        ylabel="mean of E||G_eta||^2 over the last 20% of rounds",
        description="The unbiased non-VR estimate nu_i = 1[i in S_k] G_i/s on the same "
                    "instance: constraints are active, grad f(theta*) != 0, and ||G_eta||^2 "
                    "stays above 1e-6 (10^4 times Karula's target)."),
    Check(
        "erickson2025.P4", "Theorem 4.3: the sigma^2 floor (corrected)",
        CheckKind.BOUND_HOLDS, Verdict.HOLDS, simulate_floor, engine="mc", replicas=30,
        grid=tuple(dict(_BASE, K=100, sigma2=v) for v in (1e-4, 1e-2, 1.0)),
        quick_grid=(dict(_BASE, K=40, sigma2=1e-2),),
        result_id=THEOREM4_3_ETA38.id, form="corrected", xlabel=_XL, plot=plot_p4,
        ylabel="(1/K) sum_{k<K} E||G_eta(theta^k)||^2",
        description="Gaussian oracle noise E||zeta||^2 = sigma^2, runs from theta*: the "
                    "average of E||G_eta||^2 is below 32 (s+1)/s sigma^2 over four decades."),
    Check(
        "erickson2025.P4_linear", "The sigma^2 plateau is linear in sigma^2",
        CheckKind.SCALING, Verdict.HOLDS, simulate_floor_scaling, engine="mc", replicas=30,
        grid=tuple(dict(_BASE, K=100, sigma2=v) for v in (1e-8, 1e-6, 1e-4)),
        quick_grid=tuple(dict(_BASE, K=40, sigma2=v) for v in (1e-8, 1e-4)),
        x_param="sigma2", predicted=1.0, tolerance=0.15, result_id=THEOREM4_3_ETA38.id,
        form="corrected",
        post_hoc="the noise range was narrowed from P4's levels (1e-4 to 1) to 1e-8 to 1e-4 "
                 "after the slope over P4's levels came out above the tolerance "
                 "(P4_linear_original keeps that prediction)",
        description="Log-log slope of the plateau of E||G_eta||^2 against sigma^2, claimed "
                    "for small noise only: sigma^2 from 1e-8 to 1e-4, where the iterates stay "
                    "on the faces of K active at theta* and the plateau is the linear response "
                    "to the noise. The range was narrowed after a VIOLATED verdict on 1e-4 to "
                    "1 (P4_linear_original): larger noise moves the iterates across the faces "
                    "and the average grows faster than linearly (P4's figure)."),
    Check(
        "erickson2025.P4_linear_original", "The sigma^2 plateau is linear in sigma^2 (P4 of "
        "the digest, over P4's noise levels)",
        CheckKind.SCALING, Verdict.VIOLATED, simulate_floor_scaling, engine="mc", replicas=150,
        grid=tuple(dict(_BASE, K=100, sigma2=v) for v in (1e-4, 1e-2, 1.0)),
        quick_grid=tuple(dict(_BASE, K=40, sigma2=v) for v in (1e-2, 1.0)),
        x_param="sigma2", predicted=1.0, tolerance=0.15, result_id=THEOREM4_3_ETA38.id,
        form="corrected",
        description="The prediction as first declared: the log-log slope of the plateau of "
                    "E||G_eta||^2 against sigma^2 is 1 (within 0.15) over P4's noise levels, "
                    "1e-4 to 1. Expected VIOLATED (the finding): the plateau grows faster than "
                    "linearly over this range, because larger noise moves the iterates across "
                    "the faces of K active at theta*; it is linear only for small noise "
                    "(P4_linear, a claim narrowed after this verdict). 150 replicas: the "
                    "slope's interval at the check's share of the paper's level."),
    Check(
        "erickson2025.P4_rescaled", "Erratum: the printed sigma^2 floor fails when f is rescaled",
        CheckKind.ERRATUM, Verdict.CONFIRMED, simulate_p4_rescaled, engine="mc", replicas=30,
        grid=tuple(dict(_BASE, K=100, sigma2=1e-2, scale=c) for c in (1.0, 1e-6)),
        quick_grid=(dict(_BASE, K=40, sigma2=1e-2, scale=1e-6),),
        result_id=THEOREM4_3_ETA38.id, form="explicit", xlabel=_XL,
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
        result_id=THEOREM4_3_ETA38.id, form="corrected", xlabel=_XL, plot=plot_p5,
        ylabel="(1/K) sum_{k<K} E||G_eta(theta^k)||^2",
        description="sigma = 0, every projection exactly delta-inexact (towards the "
                    "consensus point), runs from theta*: the average is below (128L/3) delta."),
    Check(
        "erickson2025.P5_linear", "The delta plateau grows faster than linearly in delta",
        CheckKind.SCALING, Verdict.HOLDS, simulate_floor_scaling, engine="mc", replicas=30,
        grid=tuple(dict(_BASE, K=100, delta=v) for v in (1e-6, 1e-5, 1e-4)),
        quick_grid=tuple(dict(_BASE, K=40, delta=v) for v in (1e-6, 1e-4)),
        x_param="delta", predicted=1.15, tolerance=0.0, side="at_least",
        result_id=THEOREM4_3_ETA38.id,
        form="corrected",
        post_hoc="the digest's 'roughly linear' (slope 1) was replaced, after the measured "
                 "slope came out near 2, by a derived slope of 2 and then by the one-sided "
                 "claim 'at least 1.15' (P5_linear_original keeps the first prediction)",
        description="Log-log slope of the plateau of E||G_eta||^2 against delta, for the "
                    "controlled-delta projection towards the consensus point: faster than "
                    "linear, not the digest's 'roughly linear'. The claim is one-sided, slope "
                    ">= 1.15 (HOLDS when the lower confidence limit is at least 1.15). "
                    "Derivation: the "
                    "point moves lambda ||c - Pi_K(z)|| with lambda ~ 2 eta delta/b when b = "
                    "2 <Pi_K(z) - z, c - Pi_K(z)> > 0 (constraints active at theta*, so G^2 = "
                    "O(delta^2), slope 2); Lemma A.2 (5) only caps the move at sqrt(2 eta "
                    "delta) (slope 1, reached when b = 0, e.g. a move along a face). "
                    "The certified upper end of ||G_eta||^2 lifts the smallest plateau, which "
                    "flattens the slope at the low end. The bound (128L/3) delta is linear, so "
                    "it loosens as delta falls."),
    Check(
        "erickson2025.P5_linear_original", "The delta plateau is roughly linear in delta (P5 "
        "of the digest)",
        CheckKind.SCALING, Verdict.VIOLATED, simulate_floor_scaling, engine="mc", replicas=30,
        grid=tuple(dict(_BASE, K=100, delta=v) for v in (1e-6, 1e-5, 1e-4)),
        quick_grid=tuple(dict(_BASE, K=40, delta=v) for v in (1e-6, 1e-4)),
        x_param="delta", predicted=1.0, tolerance=0.15, result_id=THEOREM4_3_ETA38.id,
        form="corrected",
        description="The prediction as first declared (the digest's 'roughly linear'): the "
                    "log-log slope of the plateau of E||G_eta||^2 against delta, controlled-"
                    "delta projections towards the consensus point, is 1 (within 0.15). "
                    "Expected VIOLATED (the finding): the plateau grows faster than linearly, "
                    "because with constraints active at theta* the projected point moves by "
                    "O(delta), not O(sqrt(delta)) (P5_linear's derivation; a claim narrowed "
                    "after this verdict)."),
    P13,
]
