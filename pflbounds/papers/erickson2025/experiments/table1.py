"""Table 1 of erickson2025 (§5.1, digest §6.1), regenerated on the synthetic ridge data: the
claims the paper makes about it (the ordering of the four strategies in estimation error and
test R^2, and IFCA's collapse to one cluster) and the checks of the orderings (P14 of digest
§7), which read the shared §5.1 draws (:func:`pflbounds.papers.erickson2025.checks.common.
run_synthetic`).

Each claim states a comparison between two measured quantities of the same runs, so its one
form is the comparison quantity itself (``err_ref``, ``r2_ref``: the value of the method the
claim compares with); it carries no constant of the theory.

Absolute numbers are not reproducible (the generator is underspecified, digest §6.1 and §8
#26); each check records one ordering with the verdict found on the full grid (n = 30, d =
50, K = 1000 rounds, t by CV over 0.001..1, three draws). Karula's error below FedAvg's and
IFCA's and its R^2 above theirs, after K rounds and at every method's limit, and FedAvg above
the clients' own ridge optima reproduce (HOLDS); FedAvg's R^2 above Local's K gradient steps
and IFCA's collapse to one cluster do not (VIOLATED, the expected verdict; each description
says why). FedAvg's error below Local's K steps HOLDS on the mean of the three draws but is
not separated by them (P14_error_local_gd).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import sympy as sp

from pflbounds.checking import CheckKind, Verdict
from pflbounds.papers.erickson2025.checks.common import (
    METHODS,
    column,
    comparison_table,
    pm2se,
    synthetic_check,
)
from pflbounds.papers.erickson2025.paper import IFCA, SECTION5, form, result
from pflbounds.papers.erickson2025.symbols import err_ref, r2_ref
from pflbounds.symbolic.result import Kind

TABLE1_ERROR = result(
    "table1_error", "Table 1: estimation error ordering", Kind.UPPER_BOUND,
    "estimation error of the better method of an ordering", "x",
    "Karula < FedAvg ~ IFCA << Local in estimation error (5.86, 7.47, 7.69, 35.33).",
    [form("printed", err_ref, "err_ref: the error of the method it is compared with.")],
    source="Table 1, §5.1", quantity_typst="e", methods=SECTION5)

TABLE1_R2 = result(
    "table1_r2", "Table 1: test R^2 ordering", Kind.LOWER_BOUND,
    "mean test R^2 of the better method of an ordering", "1",
    "Karula > FedAvg >~ IFCA > Local in test R^2 (0.938, 0.846, 0.821, 0.692).",
    [form("printed", r2_ref, "r2_ref: the R^2 of the method it is compared with.")],
    source="Table 1, §5.1", quantity_typst="R^2", methods=SECTION5)

IFCA_COLLAPSE = result(
    "ifca_collapse", "§5.1: IFCA collapses to one cluster", Kind.UPPER_BOUND,
    "effective number of IFCA clusters in use (exp of the share entropy)", "1",
    "IFCA 'does not discover meaningful client clusters and effectively collapses to "
    "learning a single global model'.",
    [form("printed", sp.Rational(3, 2), "3/2: about one cluster in use.")],
    source="§5.1", quantity_typst="k_\"eff\"", methods=IFCA)

TABLE1_PAPER = {"Local": ("35.33 ± 2.729", "0.692 ± 0.108"), "FedAvg": ("7.47 ± 0.493",
                "0.846 ± 0.026"), "IFCA": ("7.69 ± 0.509", "0.821 ± 0.024"),
                "Karula": ("5.86 ± 0.204", "0.938 ± 0.009")}
"""Table 1 as printed: estimation error and test R^2, mean ± 2 SE."""


def plot_table1(outcome: Any) -> list[dict]:
    """Table 1 regenerated: estimation error and test R^2, mean ± 2 SE over draws, the
    change of the error over the second half of the run, beside the paper's numbers; then
    Karula's cross-validation curve over the t grid."""
    figs = []
    for ev in outcome.evidence:
        prm, err, r2 = ev["params"], np.asarray(ev["error"]), np.asarray(ev["r2"])
        change = 100 * np.asarray(ev["change"])
        rows = [[m, pm2se(err[:, j], ".2f"), pm2se(r2[:, j], ".3f"),
                 f"{change[:, j].max():.2g}", *TABLE1_PAPER[m]]
                for j, m in enumerate(METHODS)]
        rows[0][0] = "Local (K gradient steps)"
        rows.insert(1, ["Local (ridge optimum)", pm2se(ev["local_optimum_error"], ".2f"),
                        pm2se(ev["local_optimum_r2"], ".3f"), "0 (exact)", "", ""])
        figs.append({
            "kind": "table", "title": f"Table 1 regenerated (synthetic ridge, n = "
            f"{prm['n']}, d = {prm['d']}, s = {prm['s']}, K = {prm['K']}, {prm['seeds']} "
            "draws)", "columns": ["strategy", "estimation error", "test R^2",
                                  "change K/2 to K (%, worst draw)", "paper: error",
                                  "paper: R^2"],
            "rows": rows,
            "caption": "Mean ± 2 SE over independent draws of the §5.1 generator (digest "
            "defaults for what the paper leaves open). The change column is |e_K - e_{K/2}|"
            "/e_K of the estimation error, the largest over the draws: how far each method is "
            "from converged in the quantity compared. Karula's t by 5-fold CV: "
            f"{np.asarray(ev['t']).tolist()}; IFCA's k by 5-fold CV: "
            f"{np.asarray(ev['k']).tolist()} (effective clusters "
            f"{np.round(np.asarray(ev['ifca_effective']), 2).tolist()}). The orderings, not "
            "the absolute numbers, are compared with the paper."})
        if "limit_error" in ev:
            figs.append(_limits_table(ev))
        cv, ke = np.asarray(ev["cv_t"]), np.asarray(ev["karula_error_t"])
        kc = 100 * np.asarray(ev["karula_change_t"])
        lim = "karula_limit_error_t" in ev
        rows = [[f"{t:g}", ", ".join(f"{v:.4f}" for v in cv[:, g] / cv.min(axis=1)),
                 pm2se(ke[:, g], ".2f"), f"{kc[:, g].max():.2g}"]
                + ([pm2se(np.asarray(ev["karula_limit_error_t"])[:, g], ".2f"),
                    f"{100 * np.asarray(ev['karula_distance_t'])[:, g].max():.2g}"]
                   if lim else [])
                for g, t in enumerate(prm["t_grid"])]
        figs.append({
            "kind": "table", "title": "Karula's 5-fold cross-validation over t (§5.1)",
            "columns": ["t", "held-out error / min (per draw)", "estimation error (K rounds)",
                        "change K/2 to K (%, worst draw)"]
            + (["estimation error at theta^*(t)", "distance to theta^*(t) (%, worst draw)"]
               if lim else []),
            "rows": rows,
            "caption": "The held-out squared error summed over folds and clients, divided by "
            "its minimum over the grid (1 marks the chosen t), per draw; beside it Karula's "
            "estimation error at each t on the full training data after K rounds (mean ± 2 "
            "SE) and its change over the second half of the run"
            + ("; then the error at the limit theta^*(t) (the constrained optimum, cvxpy + "
               "Clarabel) and the distance ||theta^K - theta^*(t)||/||theta^*(t)||." if lim
               else ".")})
    return figs


def _limits_table(ev: Mapping[str, Any]) -> dict:
    """Table 1 with every method at the point its iteration converges to, and how far its
    K-round models are from it."""
    err, r2 = np.asarray(ev["limit_error"]), np.asarray(ev["limit_r2"])
    dist = 100 * np.asarray(ev["limit_distance"])
    what = {"Local": "ridge optima H_i^-1 b_i", "FedAvg": "consensus ridge optimum",
            "IFCA": "Lloyd fixed point from its last state",
            "Karula": "theta^*(t) at the chosen t (cvxpy + Clarabel)"}
    rows = [[m, what[m], pm2se(err[:, j], ".2f"), pm2se(r2[:, j], ".3f"),
             f"{dist[:, j].max():.3g}"] for j, m in enumerate(METHODS)]
    bad = int(np.asarray(ev["limit_inaccurate"]).sum())
    solves = np.asarray(ev["karula_limit_error_t"]).size
    settled = np.asarray(ev["ifca_settled"])
    loop = {"dykstra": "Dykstra", "dual": "dual"}.get(str(ev["params"].get("projection")),
                                                        "loop's")
    return {
        "kind": "table", "title": "Table 1 at the limits: each method at the point its "
        "iteration converges to", "columns": ["strategy", "limit", "estimation error",
                                              "test R^2", "K-round models' distance (%)"],
        "rows": rows,
        "caption": "Mean ± 2 SE over the same draws as Table 1. Distance: ||theta^K - "
        "theta^*||/||theta^*|| of the K-round models theta^K to the method's limit theta^*, the "
        "largest over the draws. Karula's limit solves min sum_i alpha_i f_i(theta_i) over K(t, D) "
        f"(Clarabel, tolerance 1e-10; {bad} of the {solves} solves reported "
        "'optimal_inaccurate', the others 'optimal'; largest constraint violation before "
        f"the shrink {float(np.max(ev['limit_violation'])):.2g}); its objective is below that "
        "of Karula's K-round models at every t by at least "
        f"{float(np.min(ev['karula_objective_gap_t'])):.3g} (a negative value would mean an "
        "inaccurate limit). IFCA's limit alternates cluster ridge optima and reassignment "
        f"from its last state until no client moves (settled in {int(settled.sum())} of "
        f"{settled.size} draws). The recorded Karula models at the chosen t are exact "
        f"projections (cvxpy + Clarabel); the {loop} projection of the loop was within "
        f"{float(np.max(ev['exact_distance'])):.1e} of them."}


plot_r2 = comparison_table("§5.1 Table 1: mean test R^2 (mean over draws)", "test R^2",
                           "Karula", ("FedAvg", "IFCA"),
                           "The claim: Karula's R^2 at least each of the others'.")
plot_error_limit = comparison_table(
    "§5.1 Table 1 at the limits: mean estimation error (mean over draws)", "estimation error",
    "Karula (theta^*(t))", ("FedAvg (consensus optimum)", "IFCA (Lloyd fixed point)"),
    "The claim: Karula's error at most each of the others', every method at the point its "
    "iteration converges to.")
plot_r2_limit = comparison_table(
    "§5.1 Table 1 at the limits: mean test R^2 (mean over draws)", "test R^2",
    "Karula (theta^*(t))", ("FedAvg (consensus optimum)", "IFCA (Lloyd fixed point)"),
    "The claim: Karula's R^2 at least each of the others', every method at its limit.")


CHECKS = [
    synthetic_check(
        "P14_error_fedavg", "§5.1 Table 1: Karula's estimation error below FedAvg's",
        CheckKind.BOUND_HOLDS, Verdict.HOLDS,
        lambda o: (column(o, "error", "Karula"), column(o, "error", "FedAvg")),
        "Mean over draws of (1/n) sum_i ||theta_i - theta_i^true||: Karula (measured) "
        "against FedAvg (bound). Expected HOLDS (reproduces): 6.56 against 8.25 at K = "
        "1000; Karula's error still fell by up to 16% over the second half of the run, "
        "FedAvg's moved by at most 0.7%; at the limits 6.16 against 8.29 "
        "(P14_error_limit).", "estimation error", claim=TABLE1_ERROR, plot=plot_table1),
    synthetic_check(
        "P14_error_ifca", "§5.1 Table 1: Karula's estimation error below IFCA's",
        CheckKind.BOUND_HOLDS, Verdict.HOLDS,
        lambda o: (column(o, "error", "Karula"), column(o, "error", "IFCA")),
        "Karula (measured) against IFCA (bound), mean estimation error. Expected HOLDS "
        "(reproduces): 6.56 against 8.27.", "estimation error", claim=TABLE1_ERROR),
    synthetic_check(
        "P14_error_local", "§5.1 Table 1: FedAvg's estimation error below Local's (optimum)",
        CheckKind.BOUND_HOLDS, Verdict.HOLDS,
        lambda o: (column(o, "error", "FedAvg"), np.asarray(o["local_optimum_error"]).mean()),
        "The paper's Local is far worse than FedAvg (35.3 against 7.5): FedAvg (measured) "
        "against the clients' own ridge optima (bound). Expected HOLDS (reproduces): 8.25 "
        "against 14.0 (N_i < d for 47 to 70% of the clients).", "estimation error",
        claim=TABLE1_ERROR),
    synthetic_check(
        "P14_error_local_gd", "§5.1 Table 1: FedAvg's estimation error below Local's "
        "(K steps)", CheckKind.BOUND_HOLDS, Verdict.HOLDS,
        lambda o: (column(o, "error", "FedAvg"), column(o, "error", "Local")),
        "FedAvg (measured) against Local's K gradient steps from 0 (bound), the same "
        "budget. Expected HOLDS on the mean of the three draws (8.25 against 8.35), but the "
        "draws do not separate the two: FedAvg is below Local's K steps in two draws (8.34 "
        "against 9.02, 7.95 against 8.04) and above in the third (8.45 against 7.99), and an "
        "earlier set of three draws gave the opposite mean ordering (8.05 against 7.84). "
        "Local's K steps are early-stopped gradient descent on ill-conditioned ridge losses "
        "(lam = 1e-6): their error still rises over the second half of the run (7.94 at "
        "K/2) towards the ridge optima's 14.0, which FedAvg beats clearly (P14_error_local).",
        "estimation error", claim=TABLE1_ERROR),
    synthetic_check(
        "P14_r2", "§5.1 Table 1: Karula's test R^2 above FedAvg's and IFCA's",
        CheckKind.LOWER_BOUND, Verdict.HOLDS,
        lambda o: ([column(o, "r2", "Karula")] * 2, [column(o, "r2", "FedAvg"),
                                                     column(o, "r2", "IFCA")]),
        "Mean test R^2 of Karula (measured) against FedAvg and IFCA (bounds). Expected "
        "HOLDS (reproduces): 0.587 against 0.331 and 0.404.", "test R^2", claim=TABLE1_R2,
        plot=plot_r2),
    synthetic_check(
        "P14_r2_local", "§5.1 Table 1: FedAvg's test R^2 above Local's (optimum)",
        CheckKind.LOWER_BOUND, Verdict.HOLDS,
        lambda o: (column(o, "r2", "FedAvg"), np.asarray(o["local_optimum_r2"]).mean()),
        "FedAvg (measured) against the clients' own ridge optima (bound), mean test R^2. "
        "Expected HOLDS (reproduces): 0.331 against -1.42.", "test R^2", claim=TABLE1_R2),
    synthetic_check(
        "P14_r2_local_gd", "§5.1 Table 1: FedAvg's test R^2 above Local's (K steps)",
        CheckKind.LOWER_BOUND, Verdict.VIOLATED,
        lambda o: (column(o, "r2", "FedAvg"), column(o, "r2", "Local")),
        "FedAvg (measured) against Local's K gradient steps (bound), mean test R^2. "
        "Expected VIOLATED: the paper claims FedAvg's R^2 is above Local's; here it does "
        "not reproduce against Local's K steps (0.331 against 0.421, lower in every draw) "
        "because those are early-stopped, implicitly regularised models "
        "(P14_error_local_gd), not the clients' ridge optima (R^2 -1.42, P14_r2_local).",
        "test R^2", claim=TABLE1_R2),
    synthetic_check(
        "P14_error_limit", "§5.1 Table 1 at the limits: Karula's estimation error below "
        "FedAvg's and IFCA's", CheckKind.BOUND_HOLDS, Verdict.HOLDS,
        lambda o: ([column(o, "limit_error", "Karula")] * 2,
                   [column(o, "limit_error", "FedAvg"), column(o, "limit_error", "IFCA")]),
        "Every method at the point its iteration converges to, so that K does not decide "
        "the ordering: Karula's constrained optimum theta^*(t) at the CV-chosen t (cvxpy + "
        "Clarabel; measured) against FedAvg's consensus ridge optimum and IFCA's Lloyd fixed "
        "point from its last state (bounds), mean estimation error. Expected HOLDS "
        "(reproduces): 6.16 against 8.29 and 8.26. Karula's K-round models at the chosen t "
        "are still up to 32% from theta^*(t) (relative distance), FedAvg's 3% from its "
        "limit, IFCA's 15%.", "estimation error", claim=TABLE1_ERROR, plot=plot_error_limit),
    synthetic_check(
        "P14_r2_limit", "§5.1 Table 1 at the limits: Karula's test R^2 above FedAvg's and "
        "IFCA's", CheckKind.LOWER_BOUND, Verdict.HOLDS,
        lambda o: ([column(o, "limit_r2", "Karula")] * 2,
                   [column(o, "limit_r2", "FedAvg"), column(o, "limit_r2", "IFCA")]),
        "Mean test R^2 at the limits (P14_error_limit): Karula (measured) against FedAvg and "
        "IFCA (bounds). Expected HOLDS (reproduces): 0.600 against 0.329 and 0.399.",
        "test R^2", claim=TABLE1_R2, plot=plot_r2_limit),
    synthetic_check(
        "P14_ifca_collapse", "§5.1: IFCA collapses to about one cluster",
        CheckKind.BOUND_HOLDS, Verdict.VIOLATED,
        lambda o: (np.asarray(o["ifca_effective"]).mean(), 1.5),
        "exp(entropy) of the clients' final cluster shares, mean over draws, at most 1.5. "
        "Expected VIOLATED: the paper claims IFCA collapses to a single global model; here "
        "it does not reproduce (2.88 effective clusters, k = 3 chosen in all three draws) "
        "because on these data several cluster models predict held-out samples better "
        "than one: the 5-fold CV error at k = 3 is 7-16% below that at k = 1 in every "
        "draw.", "effective clusters", claim=IFCA_COLLAPSE),
]
