"""The synthetic experiment of Appendix A and its Figure 2, regenerated: the least squares
(N = 20, two clusters, d in {2, 10}, batch 2, b_alpha = 1, weights recomputed every step, step
1/(2 beta) for d = 2 and 1/(4 beta) for d = 10, 100 and 200 iterations) with Local, FedAvg,
All-for-one with the binary (lambda = 1/2, not stated in the paper) and continuous criteria
from the estimators of Eq. (1), and the authors' code variant of the ratio (digest §5.8,
[C]).

Runs: F2 and F2_code draw the figure and compare every method with the oracle's exact curve
or FedAvg's floor; P19 checks that fixed weights (Local, oracle) follow the exact geometric
curve (the paper says sub-linear: erratum 23); P19_adaptive and P19_local place the paper's
practical weights between the oracle's and Local's exact curves.

The oracle All-for-one and Local have exact curves here (digest P19): E[R_i(theta_t)] =
rho^t R_i(theta_0) with rho = (1 - 2 gamma)^2 + 4 gamma^2 (d + 1)/(b n), n = N/2 and 1; FedAvg
cannot go below ||theta^{*,0} - theta^{*,1}||^2/4 (digest P12). The figure plots the
client-averaged loss of every method against these curves, each bound in the colour of its
method.

Departures from the paper, all stated in the report: the optima are drawn from U(-5, 5)^d as
in the authors' code (the paper does not say); every model of an iteration uses the same
sample of client k (the All-for-one convention of the engines; the authors' code draws one per
pair); the loss is the exact R_i, not a test-set estimate; Monte Carlo over replicas instead
of three seeds.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from pflbounds.algorithms.adaptive_afo import run_afo_adaptive
from pflbounds.algorithms.collaborative import run_afo, run_global_model
from pflbounds.algorithms.similarity_weights import Criterion, estimated_rule
from pflbounds.checking import Check, CheckKind, Verdict
from pflbounds.checking.draws import DrawPlan
from pflbounds.papers.philippenko2025.checks.common import criterion, instance_rng, rng_of
from pflbounds.papers.philippenko2025.instances import appendix_a_stream
from pflbounds.papers.philippenko2025.theory.rates import THEOREM2_CONSTANT
from pflbounds.papers.philippenko2025.theory.weights import DEFINITION1
from pflbounds.problems.clusters import cluster_weights
from pflbounds.problems.least_squares_stream import LeastSquaresStream
from pflbounds.reporting.figure_specs import figure, series


def lsr(p: Mapping[str, Any]) -> tuple[LeastSquaresStream, np.ndarray]:
    """Appendix A's stream of the grid point (its ``instance`` seed, ``d``, ``N``, ``b``)."""
    return appendix_a_stream(p["d"], instance_rng(p), p["N"], p["b"])


def lsr_rho(p: Mapping[str, Any], n: int) -> float:
    """Exact mean-square contraction (1 - 2 gamma)^2 + 4 gamma^2 (d + 1)/(b n) of uniform
    weights over n same-optimum clients (digest P19)."""
    g = p["gamma"]
    return (1 - 2 * g) ** 2 + 4 * g * g * (p["d"] + 1) / (p["b"] * n)


def simulate_p19(p: Mapping[str, Any], R: int, seed: np.random.SeedSequence) -> dict:
    """P19: TB-LSR with fixed weights (Local: n = 1, oracle: n = N/2): E[R_i(theta_t)] /
    (rho^t R_i(theta_0)) = 1 at every t (Monte Carlo equivalence test)."""
    prob, labels = lsr(p)
    n = 1 if p["method"] == "local" else p["N"] // 2
    Lam = np.eye(p["N"]) if n == 1 else cluster_weights(labels)
    ks = np.arange(0, p["T"] + 1)
    tr = run_afo(prob, Lam, p["gamma"], p["T"], np.zeros(p["d"]), R, rng_of(seed), record=ks)
    e0 = float(tr.excess[0, 0, 0])
    ratio = tr.excess[:, 1:, 0] / (lsr_rho(p, n) ** ks[1:] * e0)
    return {"samples": ratio, "target": np.ones(p["T"]), "ks": ks[1:].astype(float),
            "rho": np.asarray(lsr_rho(p, n))}


def simulate_p19_adaptive(p: Mapping[str, Any], R: int, seed: np.random.SeedSequence) -> dict:
    """P19: the paper's practical setting (estimated weights, b_alpha = 1, weights recomputed
    every step) on TB-LSR against the exact oracle curve rho_oracle^t eps0 (``side="lower"``)
    or the exact Local curve rho_local^t eps0 (``side="upper"``)."""
    prob, labels = lsr(p)
    ks = np.arange(p["k0"], p["T"] + 1, p["every"])
    tr = run_afo_adaptive(prob, estimated_rule(prob, criterion(p), p["b_alpha"]), p["gamma"],
                          p["T"], np.zeros(p["d"]), R, rng_of(seed), record=[0, *ks],
                          track_sets=False)
    e0 = float(tr.excess[0, 0, 0])
    n = 1 if p["side"] == "upper" else p["N"] // 2
    return {"samples": tr.excess[:, 1:, 0], "bound": lsr_rho(p, n) ** ks * e0,
            "ks": ks.astype(float), "collaborators": tr.n_collaborators[:, 1:, 0].mean(0)}


LABELS = {"local": "Local", "fedavg": "FedAvg", "binary": "All-for-one binary",
          "continuous": "All-for-one continuous", "binary_code": "All-for-one binary [C]",
          "continuous_code": "All-for-one continuous [C]"}


def run_method(p: Mapping[str, Any], R: int, rng: np.random.Generator, ks: np.ndarray):
    """One method of Figure 2 on Appendix A's stream; returns the trace (excess (R, n, N))."""
    prob, labels = lsr(p)
    m, d, g, T = p["method"], p["d"], p["gamma"], p["T"]
    x0 = np.zeros(d)
    if m == "local":
        return run_afo(prob, np.eye(p["N"]), g, T, x0, R, rng, record=ks)
    if m == "fedavg":
        return run_global_model(prob, g, T, x0, R, rng, record=ks)
    crit = Criterion.binary(p["lam"]) if m.startswith("binary") else Criterion.continuous()
    variant = "code" if m.endswith("_code") else "paper"
    return run_afo_adaptive(prob, estimated_rule(prob, crit, p["b_alpha"], variant=variant), g,
                            T, x0, R, rng, record=ks, track_sets=False)


def simulate_figure2(p: Mapping[str, Any], R: int, seed: np.random.SeedSequence) -> dict:
    """The client-averaged loss (1/N) sum_i R_i(theta_i^t) of one method at t = 1..``compare``
    against the oracle's exact curve rho_oracle^t eps0 (``side="oracle"``: no method beats
    the oracle, the paper's "theoretical lower bound") or half of FedAvg's floor
    ||theta^{*,0} - theta^{*,1}||^2/8 (``side="fedavg"``: the method saturates like FedAvg).
    The whole curve t = 0..T (mean and the 10%-90% range of the replicas) is kept for the
    figure; the comparisons stop at ``compare``: the loss is a product of random contractions
    (multiplicative noise), its distribution grows heavy tails with t and a confidence
    interval of the mean soon reaches below zero (at d = 2, Local's from t = 7 with 300
    replicas), and the exact oracle curve later falls below the double-precision floor."""
    prob, _ = lsr(p)
    ks = np.arange(0, p["T"] + 1)
    tr = run_method(p, R, rng_of(seed), ks)
    loss = tr.excess.mean(axis=-1)  # (R, T + 1): client average
    e0 = float(loss[0, 0])
    c = np.unique(prob.optima, axis=0)
    floor = float(np.sum((c[0] - c[1]) ** 2) / 4)
    n = int(p.get("compare", p["T"]))
    if p.get("side", "oracle") == "oracle":
        bound = lsr_rho(p, p["N"] // 2) ** ks[1:n + 1] * e0
    else:
        bound = np.full(n, floor / 2)
    out = {"samples": loss[:, 1:n + 1], "bound": bound, "ks": ks[1:n + 1].astype(float),
           "t": ks.astype(float), "curve": loss.mean(axis=0),
           "curve_lo": np.quantile(loss, 0.1, axis=0), "curve_hi": np.quantile(loss, 0.9, axis=0),
           "eps0": np.asarray(e0), "fedavg_floor": np.asarray(floor),
           "rho_local": np.asarray(lsr_rho(p, 1)),
           "rho_oracle": np.asarray(lsr_rho(p, p["N"] // 2))}
    if hasattr(tr, "n_collaborators"):
        out["collaborators"] = tr.n_collaborators[:, 1:, :].mean(axis=(0, 2))
    return out


def plot_figure2(outcome) -> list[dict]:
    """One figure per d: each method's mean loss (band: 10%-90% of the replicas) with, in its
    colour, its exact curve (Local, oracle) or floor (FedAvg), on a log loss axis against t
    (the paper's axes)."""
    figs = []
    for d in sorted({int(ev["params"]["d"]) for ev in outcome.evidence}):
        pts = [ev for ev in outcome.evidence if int(ev["params"]["d"]) == d]
        ks = np.asarray(pts[0]["t"], dtype=float)
        e0 = float(pts[0]["eps0"])
        items = []
        notes = []
        for ev in pts:
            m = ev["params"]["method"]
            items.append(series(LABELS[m], ks, ev["curve"], "measured", lo=ev["curve_lo"],
                                hi=ev["curve_hi"], group=m))
            if "collaborators" in ev:
                c = np.asarray(ev["collaborators"], dtype=float)
                notes.append(f"{LABELS[m]}: mean |N_i^t| = {c[0]:.3g} at t = 1, "
                             f"{c[-1]:.3g} at t = {len(c)}")
        methods = {ev["params"]["method"] for ev in pts}
        if "local" in methods:
            items.append(series("Local exact rho_local^t eps0", ks,
                                float(pts[0]["rho_local"]) ** ks * e0, "reference",
                                group="local"))
        if "fedavg" in methods:
            items.append(series(r"FedAvg lower bound $\Vert\theta^{*,0} - \theta^{*,1}"
                                r"\Vert^2/4$", ks,
                                np.full(ks.shape, float(pts[0]["fedavg_floor"])), "lower_bound",
                                group="fedavg"))
        items.append(series("oracle All-for-one exact rho_oracle^t eps0 (a lower bound for "
                            "every method)", ks, float(pts[0]["rho_oracle"]) ** ks * e0,
                            "lower_bound", group="oracle"))
        prm = pts[0]["params"]
        f = figure("curves", f"Figure 2 regenerated: synthetic least squares, d = {d}.",
                   "t (iteration)", "(1/N) sum_i R_i(theta_i^t)", items, logx=False, logy=True)
        f["caption"] = (f"N = {prm['N']}, batch {prm['b']}, gamma = {prm['gamma']:g}, b_alpha "
                        f"= {prm['b_alpha']}, lambda = {prm['lam']:g}; mean over replicas, "
                        "band from 10% to 90% of the replicas. Straight lines on this axis are "
                        "geometric decay: fixed weights contract at the exact rho^t, not "
                        "sub-linearly. Late in the run the mean of the replicas falls below "
                        "Local's exact curve: the loss is a product of random contractions "
                        "whose mean is carried by rare draws that a few hundred replicas miss. "
                        "Values near 1e-32 are rounding errors of double precision. "
                        + "; ".join(notes) + ".")
        figs.append(f)
    return figs


def simulate_order(p: Mapping[str, Any], n: int, seed: np.random.SeedSequence) -> dict:
    """Figure 2's ordering at an early time t: ``n`` independent draws of log10 of the
    client-averaged loss (1/N) sum_i R_i(theta_i^t) of each method of ``p["methods"]`` (the
    paper plots log10 of the loss), each method on its own stream of the same instance; the
    comparison takes paired differences draw by draw."""
    ks = np.array([0, int(p["t"])])
    out = []
    for m, ss in zip(p["methods"], seed.spawn(len(p["methods"])), strict=True):
        tr = run_method(dict(p, method=m, T=int(p["t"])), n, rng_of(ss), ks)
        out.append(np.log10(tr.excess[:, -1, :].mean(axis=-1)))
    return {"draws": np.stack(out, axis=1)}


def _order_plan(sd: float, effect: float) -> DrawPlan:
    return DrawPlan(
        draws=40, effect=effect, sd=sd,
        sd_source="pilot of 100 draws with seeds 99 and 100 (not the checks' seeds): sd of "
                  "the paired difference of log10 losses at t = 5",
        budget_draws=1000,
        budget_note="about 0.03 s per draw of the three methods at t = 5: a second per 40 "
                    "draws; the budget allows 1000")


_ORDER_NOTE = ("Appendix A's stream, estimated weights (b_alpha = 1), t = 5, log10 of the "
               "client-averaged loss over 40 independent draws per method, paired by draw: "
               "the paper says All-for-one is accelerated against Local ('it exploits "
               "same-cluster clients'; at d = 10 'a linear phase in which All-for-one "
               "collaborates with its whole cluster'). Effect: a quarter of the exact gap "
               "between Local's and the oracle's log10 loss at t = 5 (the figure gives no "
               "number).")


_F2 = {"instance": 70, "N": 20, "b": 2, "b_alpha": 1, "lam": 0.5, "compare": 5}
_D = ((2, 0.25, 100), (10, 0.125, 200))
_LSR = {"instance": 70, "N": 20, "b": 2}

def _order_check(d: int, criterion: str, expected: Verdict, note: str) -> Check:
    """Figure 2's ordering at t = 5: All-for-one with ``criterion`` below Local at dimension
    ``d`` (d = 2: gamma 0.25; d = 10: gamma 0.125), paired over the plan's draws."""
    gamma, plan = {2: (0.25, _order_plan(0.45, 0.42)), 10: (0.125, _order_plan(0.08, 0.23))}[d]
    return Check(
        f"philippenko2025.F2_{criterion}_d{d}",
        f"Figure 2: All-for-one {criterion} below Local at t = 5 (d = {d})",
        CheckKind.COMPARISON, expected, simulate_order,
        grid=(dict(_F2, d=d, gamma=gamma, t=5, methods=[criterion, "local"]),),
        engine="mc", methods=(criterion, "local"), plan=plan,
        result_id=DEFINITION1.id, form="printed",
        description=f"{_ORDER_NOTE} Predicted: {expected.value}{note}.")


CHECKS = [
    Check(
        "philippenko2025.F2", "Figure 2 regenerated: no method beats the oracle's exact curve",
        CheckKind.LOWER_BOUND, Verdict.HOLDS, simulate_figure2,
        grid=tuple(dict(_F2, d=d, gamma=g, T=T, method=m) for d, g, T in _D
                   for m in ("local", "fedavg", "binary", "continuous")),
        quick_grid=tuple(dict(_F2, d=2, gamma=0.25, T=100, method=m)
                         for m in ("local", "fedavg", "binary", "continuous")),
        engine="mc", replicas=300, block_size=300,
        result_id=THEOREM2_CONSTANT.id, form="printed",
        xlabel="t", ylabel="(1/N) sum_i R_i(theta_i^t)", plot=plot_figure2,
        description="Appendix A's experiment (digest §5.2 recipe): the client-averaged loss of "
                    "Local, FedAvg and All-for-one with estimated weights (b_alpha = 1) stays "
                    "above the oracle's exact curve rho_oracle^t eps0 for t = 1..5, as the paper "
                    "says ('a theoretical lower bound for the true All-for-one'). The figure "
                    "shows what else reproduces: FedAvg saturates at once at its lower bound; the "
                    "fixed-weight curves are geometric (straight on a log axis), not "
                    "sub-linear; at d = 10 the binary criterion keeps the client alone "
                    "from the start (it is Local), with no early whole-cluster phase."),
    Check(
        "philippenko2025.F2_code", "Figure 2 with the authors' code's ratio: FedAvg's plateau",
        CheckKind.LOWER_BOUND, Verdict.HOLDS, simulate_figure2,
        grid=tuple(dict(_F2, d=10, gamma=0.125, T=200, compare=200, method=m, side="fedavg")
                   for m in ("binary_code", "continuous_code")),
        engine="mc", replicas=100, block_size=100,
        result_id=DEFINITION1.id, form="printed",
        xlabel="t", ylabel="(1/N) sum_i R_i(theta_i^t)", plot=plot_figure2,
        description="The ratio of the authors' code (unsquared ||g_i - g_k|| over ||g_i||^2, "
                    "weights renormalised to sum to one, digest §5.8) is not scale-invariant: "
                    "with optima in U(-5, 5)^10 it stays positive for the other cluster, every "
                    "client keeps nearly every other client as a collaborator and the loss never "
                    "goes below half "
                    "of FedAvg's lower bound, unlike the paper's Figure 2(b)."),
    Check(
        "philippenko2025.P19", "Synthetic least squares: E[R_i(theta_t)] = rho^t R_i(theta_0)",
        CheckKind.IDENTITY, Verdict.HOLDS, simulate_p19,
        grid=tuple(dict(_LSR, d=d, gamma=g, method=m, T=T)
                   for d, g, T in ((2, 0.25, 3), (10, 0.125, 10))
                   for m in ("local", "oracle")),
        quick_grid=(dict(_LSR, d=10, gamma=0.125, method="oracle", T=6),),
        engine="mc", replicas=20000, block_size=5000, tolerance=0.1,
        result_id=THEOREM2_CONSTANT.id, form="printed",
        description="Appendix A's stream (x ~ N(0, I_d), no label noise, batch 2, steps "
                    "1/(2 beta) for d = 2 and 1/(4 beta) for d = 10), fixed weights: the "
                    "mean-square error contracts geometrically with rho = (1 - 2 gamma)^2 + 4 "
                    "gamma^2 (d + 1)/(b n) (b the batch, n the clients averaged: 1 for Local, "
                    "the cluster for the oracle), not sub-linearly; ratio to rho^t within "
                    "10%."),
    Check(
        "philippenko2025.P19_adaptive", "Synthetic least squares: practical weights above oracle",
        CheckKind.LOWER_BOUND, Verdict.HOLDS, simulate_p19_adaptive,
        grid=tuple(dict(_LSR, d=10, gamma=0.125, T=30, k0=5, every=5, b_alpha=1,
                        criterion=c, lam=0.5, side="lower") for c in ("binary", "continuous")),
        quick_grid=(dict(_LSR, d=10, gamma=0.125, T=30, k0=5, every=5, b_alpha=1,
                         criterion="continuous", side="lower"),),
        engine="mc", replicas=1200, block_size=400,
        result_id=THEOREM2_CONSTANT.id, form="printed",
        xlabel="t", ylabel="E[R_1(theta_t)]",
        description="Estimated weights (Eq. (1), b_alpha = 1, every step) never beat the "
                    "oracle's exact curve rho_oracle^t eps0."),
    Check(
        "philippenko2025.P19_local", "Synthetic least squares: continuous weights beat Local",
        CheckKind.BOUND_HOLDS, Verdict.HOLDS, simulate_p19_adaptive,
        grid=(dict(_LSR, d=10, gamma=0.125, T=60, k0=5, every=5, b_alpha=1,
                   criterion="continuous", side="upper"),),
        engine="mc", replicas=300, block_size=300,
        result_id=THEOREM2_CONSTANT.id, form="printed",
        xlabel="t", ylabel="E[R_1(theta_t)]",
        description="With the continuous criterion the estimated weights keep about three "
                    "collaborators and stay below Local's exact curve rho_local^t eps0 (the "
                    "binary criterion with lambda = 1/2 keeps about one: it is Local)."),
    *(_order_check(d, crit, verdict, note) for d, crit, verdict, note in (
        (2, "continuous", Verdict.HOLDS, ""),
        (2, "binary", Verdict.HOLDS, ""),
        (10, "continuous", Verdict.HOLDS, ""),
        (10, "binary", Verdict.INCONCLUSIVE, " (F2: at d = 10 the binary criterion keeps the "
         "client alone from t = 1, so it runs Local: no acceleration to see)"),
    )),
]
