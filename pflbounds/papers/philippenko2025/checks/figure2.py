"""Figure 2 of Appendix A regenerated: the synthetic least squares (N = 20, two clusters,
d in {2, 10}, batch 2, b_alpha = 1, weights recomputed every step, step 1/(2 beta) for d = 2
and 1/(4 beta) for d = 10, 100 and 200 iterations) with Local, FedAvg, All-for-one with the
binary (lambda = 1/2, not stated in the paper) and continuous criteria from the estimators of
Eq. (1), and the authors' code variant of the ratio (digest §5.8, [C]).

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
from pflbounds.papers.philippenko2025.checks.common import rng_of
from pflbounds.papers.philippenko2025.checks.estimated import lsr, lsr_rho
from pflbounds.reporting.figure_specs import figure, series

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


_F2 = {"instance": 70, "N": 20, "b": 2, "b_alpha": 1, "lam": 0.5, "compare": 5}
_D = ((2, 0.25, 100), (10, 0.125, 200))

CHECKS = [
    Check(
        "philippenko2025.F2", "Figure 2 regenerated: no method beats the oracle's exact curve",
        CheckKind.LOWER_BOUND, Verdict.HOLDS, simulate_figure2,
        grid=tuple(dict(_F2, d=d, gamma=g, T=T, method=m) for d, g, T in _D
                   for m in ("local", "fedavg", "binary", "continuous")),
        quick_grid=tuple(dict(_F2, d=2, gamma=0.25, T=100, method=m)
                         for m in ("local", "fedavg", "binary", "continuous")),
        engine="mc", replicas=300, block_size=300,
        result_id="philippenko2025.theorem2_constant", form="printed",
        xlabel="t", ylabel="(1/N) sum_i R_i(theta_i^t)", plot=plot_figure2,
        description="Appendix A's experiment (digest §5.2 recipe): the client-averaged loss of "
                    "Local, FedAvg and All-for-one with estimated weights (b_alpha = 1) stays "
                    "above the oracle's exact curve rho_oracle^t eps0 for t = 1..5, as the paper "
                    "says ('a theoretical lower bound for the true All-for-one'). The figure "
                    "shows what else reproduces: FedAvg saturates at once at its lower bound; the "
                    "fixed-weight curves are geometric (straight on a log axis), not "
                    "sub-linear; at d = 10 the binary criterion keeps about one collaborator "
                    "from the start (it is Local), with no early whole-cluster phase."),
    Check(
        "philippenko2025.F2_code", "Figure 2 with the authors' code's ratio: FedAvg's plateau",
        CheckKind.LOWER_BOUND, Verdict.HOLDS, simulate_figure2,
        grid=tuple(dict(_F2, d=10, gamma=0.125, T=200, compare=200, method=m, side="fedavg")
                   for m in ("binary_code", "continuous_code")),
        engine="mc", replicas=100, block_size=100,
        result_id="philippenko2025.definition1", form="printed",
        xlabel="t", ylabel="(1/N) sum_i R_i(theta_i^t)", plot=plot_figure2,
        description="The ratio of the authors' code (unsquared ||g_i - g_k|| over ||g_i||^2, "
                    "weights renormalised to sum to one, digest §5.8) is not scale-invariant: "
                    "with optima in U(-5, 5)^10 it stays positive for the other cluster, every "
                    "client keeps about 19 collaborators and the loss never goes below half "
                    "of FedAvg's lower bound, unlike the paper's Figure 2(b)."),
]
