"""The synthetic experiments of Section 5 (digest §6.1-6.2), small: what reproduces.

``S51`` and ``S52`` (Monte Carlo): after the same number of communication rounds, ASCD-PFL
and ASVRCD-PFL have a lower training loss F - F^* than LSGD-PFL, in expectation of the ratio
to LSGD-PFL's in the same replica (measured) against 1 (bound) ("ASCD-PFL
and ASVRCD-PFL are much better than LSGD-PFL", Figures 1-2), at every heterogeneity level of
the paper's grid. Their figures are Figures 1-2's: F - F^* and the estimation error against
communication rounds, mean +- standard error over the replicas, one figure per sigma_h.
Sizes are smaller than the paper's (n = 100 for 1000, 200 rounds for 1000, 10 replicas for
30); the full grids are the paper's sigma_h.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from pflbounds.checking import Check, CheckKind, Verdict
from pflbounds.papers.hanzely2023.checks.common import P
from pflbounds.papers.hanzely2023.experiments import METHODS, SIGMA_H, run
from pflbounds.reporting.figure_specs import figure, series

_KEYS = {"LSGD-PFL": "lsgd", "ASCD-PFL": "ascd", "ASVRCD-PFL": "asvrcd"}


def simulate(p: Mapping[str, Any], R: int, seed) -> dict:
    """Per replica, the final F - F^* of ASCD-PFL and of ASVRCD-PFL divided by LSGD-PFL's
    (samples, against 1), and the mean and standard-error curves of every method."""
    out = run(p, R, np.random.default_rng(seed))
    last = {m: out[m]["excess"][:, -1] for m in METHODS}
    ev: dict[str, Any] = {
        "ks": np.array([1.0, 2.0]),
        "samples": np.stack([last["ASCD-PFL"], last["ASVRCD-PFL"]], axis=1)
        / last["LSGD-PFL"][:, None],
        "bound": np.ones(2),
        "p_w": np.asarray(out["pw"]), "lam": np.asarray(out["lam"]),
    }
    for m in METHODS:
        k = _KEYS[m]
        for metric in ("excess", "estimation"):
            v = out[m][metric]
            ev[f"{k}_{metric}_mean"] = v.mean(0)
            ev[f"{k}_{metric}_se"] = v.std(0, ddof=1) / np.sqrt(v.shape[0]) if R > 1 \
                else np.zeros(v.shape[1])
        ev[f"{k}_rounds"] = out[m]["rounds"]
    return ev


def plot(outcome) -> list[dict]:
    """Figures 1-2: F - F^* and the estimation error against rounds, mean +- s.e., every
    method at every sigma_h of the outcome (one figure per metric)."""
    figs = []
    section = outcome.evidence[0]["params"]["section"]
    levels = ", ".join(f"sigma_h = {e['params']['sigma_h']:g}: lambda = "
                       f"{float(np.asarray(e['lam'])):.3g}, p_w = "
                       f"{float(np.asarray(e['p_w'])):.3g}" for e in outcome.evidence)
    for metric, label in (("excess", "F - F^*"),
                          ("estimation", "||w/sqrt(M) - w^*||^2 + sum_m ||beta_m - "
                                         "beta_m^*||^2")):
        items = []
        for e in outcome.evidence:
            sh = e["params"]["sigma_h"]
            for m in METHODS:
                k = _KEYS[m]
                mean = np.asarray(e[f"{k}_{metric}_mean"])
                se = np.asarray(e[f"{k}_{metric}_se"])
                items.append(series(f"{m} (sigma_h = {sh:g})", e[f"{k}_rounds"], mean,
                                    "measured", lo=mean - se, hi=mean + se,
                                    group=f"{m} {sh:g}"))
        f = figure("curves", f"Section {section}", "communication rounds", label, items,
                   logx=False)
        f["caption"] = (f"As the paper's Figure {1 if section == '5.1' else 2}: {label} "
                        f"against communication rounds, mean +- standard error over the "
                        f"replicas ({levels}).")
        f["name"] = f"hanzely2023-section{section}-{metric}"
        figs.append(f)
    return figs


def _grid(section: str, rounds: int) -> tuple[dict, ...]:
    return tuple({"section": section, "sigma_h": s, "n": 100, "rounds": rounds, "points": 12}
                 for s in SIGMA_H[section])


_OBJECTIVE = {"5.1": "objective (11)", "5.2": "objective (16)"}


def _check(section: str, quick_rounds: int, description: str) -> Check:
    return Check(
        P + "S" + section.replace(".", ""), f"Section {section} ({_OBJECTIVE[section]}): "
        "ASCD-PFL and ASVRCD-PFL end below LSGD-PFL after the same rounds",
        CheckKind.BOUND_HOLDS, Verdict.HOLDS, simulate, grid=_grid(section, 200),
        quick_grid=({**_grid(section, quick_rounds)[0], "points": 6},), engine="mc",
        replicas=10, block_size=10, result_id=None, plot=plot, description=description,
        xlabel="method (1 ASCD-PFL, 2 ASVRCD-PFL)", ylabel="F - F^* relative to LSGD-PFL")


CHECKS = [
    _check("5.1", 30, "Synthetic logistic MX2 of Section 5.1 (d = 15, M = 20, n = 100, code's "
           "label sign and lambda = 0.01/sigma_h), paper's parameters (LSGD-PFL tau = 5, "
           "eta = 0.01; Theorem 9's for ASCD/ASVRCD); measured: final F - F^* of ASCD-PFL, "
           "ASVRCD-PFL over LSGD-PFL's in the same replica; bound: 1."),
    _check("5.2", 60, "Synthetic logistic explicit weight sharing of Section 5.2 (d_g = 10, "
           "d_l = 5, M = 20, n = 100, no penalty as in the code), as S51."),
]
