"""The philippenko2025 calculator (``pflbounds complexity --paper philippenko2025``).

Given the heterogeneity (matrices b and c, or a clustered description: N, clusters,
b_between, c_between), the variances sigma2, beta, mu, lam and eps, it reports per client and
criterion (binary, continuous): the sufficient cluster |N_i^*(eps)| and variance
sigma_{i,suf}^2(eps) (Definition 2, b^2 reading), the iterations T_i^eps of Corollary 1
(printed; and corrected, with the shifted step, when eps0 is given), the Theorem 2 floor
eta beta sigma_suf^2/(2 mu) when eta is given, and the ratio of T_i^eps to Even et al.'s lower
bound, evaluated from the catalog (``even2022.theorem1``, its hidden constant set to 1).
Every number comes from the catalog's formulas.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import numpy as np

from pflbounds.limits import MAX_CLIENTS
from pflbounds.papers.philippenko2025.inputs import check_pair_matrix, variances
from pflbounds.papers.philippenko2025.paper import EVEN2022_LOWER_BOUND
from pflbounds.papers.philippenko2025.theory.rates import THEOREM2_FLOOR
from pflbounds.papers.philippenko2025.theory.sample_complexity import COROLLARY1
from pflbounds.papers.philippenko2025.theory.sufficient_cluster import (
    DEFINITION2_BINARY,
    DEFINITION2_CONTINUOUS,
)
from pflbounds.symbolic.catalog import get
from pflbounds.symbolic.complexity import (
    ComplexityRow,
    ComplexityTable,
    check_inputs,
    evaluate_row,
)
from pflbounds.symbolic.evaluate import (
    HypothesisError,
    InputError,
    check_conditions,
    evaluate,
)

PAPER = "philippenko2025"
CRITERIA = ("binary", "continuous")
DEFINITION2 = {"binary": DEFINITION2_BINARY, "continuous": DEFINITION2_CONTINUOUS}
COLUMNS = (("iterations", "iterations T_i^eps"), ("Nstar", "|N_i^*(eps)|"),
           ("sigma_suf2", "sigma_suf^2"), ("floor", "Thm 2 floor"),
           ("ratio", "T / lower bound"))
REQUIRED = ("mu", "beta", "eps", "sigma2")
OPTIONAL = ("lam", "eps0", "eta", "C", "gamma0", "N", "clusters", "b_between", "c_between")
LOWER = ((EVEN2022_LOWER_BOUND, "corrected", "lower bound (Even et al., b^2 < 36 mu eps)"),
         (EVEN2022_LOWER_BOUND, "printed", "lower bound (Even et al. printed, b^2 <= 4 mu eps)"))
"""(result, form, method) of the rows of the lower bound, evaluated on the same b."""


def clustered_matrices(N: int, clusters: int, b_between: float,
                       c_between: float = 0.0) -> tuple[np.ndarray, np.ndarray]:
    """b and c for N clients in ``clusters`` clusters (client i in cluster i mod clusters):
    b_between and c_between across clusters, 0 within (the setting of Appendix A)."""
    if N < 1 or clusters < 1 or clusters > N:
        raise InputError(f"need 1 <= clusters <= N, got clusters={clusters}, N={N}")
    if N > MAX_CLIENTS:  # the N x N matrices below would not fit in memory
        raise InputError(f"N={N} is too large: at most {MAX_CLIENTS} clients")
    lab = np.arange(N) % clusters
    other = lab[:, None] != lab[None, :]
    return other * float(b_between), other * float(c_between)


def _heterogeneity(vals: Mapping[str, float], matrices: Mapping[str, Any]
                   ) -> tuple[np.ndarray, np.ndarray | None, str]:
    described = [k for k in ("clusters", "b_between", "c_between") if k in vals]
    if "b" in matrices:
        if described:
            raise InputError(f"give the matrix b or a clustered description, not both "
                             f"({', '.join(described)} given with b)")
        extra = sorted(set(matrices) - {"b", "c"})
        if extra:
            raise InputError(f"unexpected matrix input(s) {', '.join(extra)}; philippenko2025 "
                             "reads b and c")
        b = check_pair_matrix("b", matrices["b"])
        c = None
        if "c" in matrices:
            c = check_pair_matrix("c", matrices["c"])
            if c.shape != b.shape:
                raise InputError(f"b is {b.shape[0]} x {b.shape[0]} but c is {c.shape[0]} x "
                                 f"{c.shape[1]}")
        if "N" in vals and int(vals["N"]) != b.shape[0]:
            raise InputError(f"N={vals['N']:g} but b is {b.shape[0]} x {b.shape[0]}")
        return b, c, f"b: {b.shape[0]} x {b.shape[0]} matrix" + (", c matrix" if c is not None
                                                                  else ", c = 0")
    if "c" in matrices:
        raise InputError("c is given without b: give the matrix b too")
    need = [k for k in ("N", "clusters", "b_between") if k not in vals]
    if need:
        raise InputError("give the heterogeneity: b=FILE (and optionally c=FILE), or N, "
                         "clusters and b_between (optionally c_between); missing "
                         + ", ".join(need))
    b, c = clustered_matrices(int(vals["N"]), int(vals["clusters"]), vals["b_between"],
                              vals.get("c_between", 0.0))
    return b, c, (f"{int(vals['N'])} clients in {int(vals['clusters'])} clusters, b_between = "
                  f"{vals['b_between']:g}, c_between = {vals.get('c_between', 0.0):g}")


def _check_inputs(vals: Mapping[str, Any]) -> float:
    """Refuse inputs that describe no instance, or that no result of the table admits, as
    ``eval`` does: every name one the table reads, the required ones given, each input in its
    domain and the paper's instance relations (mu <= beta, lambda <= 1, eps <= eps0) with the
    shared checks of every calculator, then the conditions of Corollary 1 and of Theorem 2's
    floor over the given inputs alone (C > 1, eta <= 1/mu); the conditions that involve a
    criterion's kappa are checked per criterion. ``sigma2`` (one value per client allowed) is
    checked against the clients once they are known. Returns C (2 when not given)."""
    extra = sorted(set(vals) - set(REQUIRED) - set(OPTIONAL))
    if extra:
        raise InputError(f"unexpected input(s) {', '.join(extra)} for the philippenko2025 "
                         f"calculator; it reads {', '.join(REQUIRED + OPTIONAL)} and the "
                         "matrices b, c")
    missing = [k for k in REQUIRED if k not in vals]
    if missing:
        raise InputError("the philippenko2025 calculator needs " + ", ".join(missing))
    C = float(vals.get("C", 2.0))
    scalars = {**{k: v for k, v in vals.items() if k != "sigma2"}, "C": C}
    check_inputs(PAPER, scalars, REQUIRED + OPTIONAL)
    for result, form in ((COROLLARY1, "printed"), (THEOREM2_FLOOR, None)):
        conds = get(result.id).conditions_for(form)
        check_conditions(tuple(cd for cd in conds
                               if {x.name for x in cd.relation.free_symbols} <= set(scalars)),
                         scalars)
    return C


def _kappa(criterion: str, lam: float | None, s2: np.ndarray) -> np.ndarray:
    """Remark 3's uniform bound on the step ratio, per client."""
    if criterion == "binary":
        return np.full(s2.shape, float(lam))
    return 1.0 / (s2 * np.sum(1.0 / s2))


def _lower_bounds(vals: Mapping[str, float], b: np.ndarray, s2: np.ndarray
                  ) -> list[ComplexityRow]:
    rows = []
    for rid, form, method in LOWER:
        v = {"mu": vals["mu"], "eps": vals["eps"], "sigma2": float(np.max(s2))}
        if form == "printed":
            v["r"] = 1.0 / math.sqrt(vals["mu"])
        row = ComplexityRow(method, "lower", rid, form)
        value = evaluate_row(row, v, {"b": b})
        row.counts = {"iterations": None if value is None else np.asarray(value, dtype=float)}
        rows.append(row)
    return rows


def _sufficient(crit: str, vals: Mapping[str, Any], mats: Mapping[str, np.ndarray],
                s2: np.ndarray) -> dict[str, np.ndarray]:
    """|N_i^*(eps)| and sigma_{i,suf}^2(eps) per client (Definition 2, b^2 reading)."""
    return evaluate(get(DEFINITION2[crit].id), "corrected", matrices=mats, strict=False,
                    mu=vals["mu"], eps=vals["eps"], sigma2=s2,
                    **({"lam": vals.get("lam")} if crit == "binary" else {})).value


def table(values: Mapping[str, Any], matrices: Mapping[str, Any], *, objective=None,
          algorithm=None) -> ComplexityTable:
    """Per client and criterion: the sufficient cluster and variance, Corollary 1's iterations
    and their ratio to the lower bound (see the module docstring)."""
    if objective is not None:
        raise KeyError("philippenko2025 has a single objective (each client's own R_i); "
                       "omit --objective")
    algos = (*CRITERIA, "lower")
    if algorithm is not None and algorithm not in algos:
        raise KeyError(f"unknown algorithm {algorithm!r} for philippenko2025; choose from "
                       f"{', '.join(algos)}")
    vals = dict(values)
    C = _check_inputs(vals)
    b, c, described = _heterogeneity(vals, matrices)
    N = b.shape[0]
    s2 = variances(vals["sigma2"], N)
    mats = {"b": b} if c is None else {"b": b, "c": c}
    lows = _lower_bounds(vals, b, s2)
    lb = lows[0].counts["iterations"]
    lines = [f"heterogeneity: {described}; mu = {vals['mu']:g}, beta = {vals['beta']:g}, "
             f"eps = {vals['eps']:g}, C = {C:g}" + ("" if "C" in vals else
                                                    " (default: minimises C^2/(C - 1))")]
    rows: list[ComplexityRow] = []
    clients: list[dict[str, Any]] = [{"client": i} for i in range(N)]
    notes = ["iterations count All-for-one steps (each uses one stochastic gradient of every "
             "selected client at every model: up to N^2 gradients per step)",
             "the lower bound hides an unspecified constant (Omega, set to 1); it counts "
             "neighbours through b only (c_ik = 0 there)"]
    for crit in CRITERIA:
        if algorithm not in (None, crit):
            continue
        if crit == "binary" and "lam" not in vals:
            notes.append("give lam (the binary threshold) for the binary criterion")
            continue
        lam = vals.get("lam")
        suf = _sufficient(crit, vals, mats, s2)
        kappa = _kappa(crit, lam, s2)
        common = dict(beta=vals["beta"], mu=vals["mu"], eps=vals["eps"],
                      sigma_suf2=suf["sigma_suf2"], C=C)
        floor = None
        if "eta" in vals:
            try:
                floor = np.asarray(evaluate(
                    get(THEOREM2_FLOOR.id), strict=False, eta=vals["eta"],
                    beta=vals["beta"], mu=vals["mu"], sigma_suf2=suf["sigma_suf2"],
                    kappa_w=kappa).value)
            except HypothesisError as e:
                notes.append(f"no Theorem 2 floor for the {crit} criterion: {e}")
        forms: list[tuple[str, dict[str, Any]]] = [("printed", {})]
        if "eps0" in vals:
            g0 = (np.full(N, float(vals["gamma0"])) if "gamma0" in vals else
                  np.maximum(0.0, np.ceil(C * vals["beta"] / (vals["mu"] * kappa) - 1)))
            forms.append(("corrected", {"eps0": vals["eps0"], "gamma0": g0, "kappa_w": kappa}))
        for form, more in forms:
            label = {"printed": "Cor. 1 printed", "corrected": "Cor. 1 shifted step"}[form]
            row = ComplexityRow(f"AFO {crit}" + (f" (lam = {lam:g})" if crit == "binary" else "")
                                + f", {label}", crit, COROLLARY1.id, form,
                                counts={"Nstar": suf["Nstar"], "sigma_suf2": suf["sigma_suf2"],
                                        "floor": floor})
            # the inputs passed _check_inputs: only a criterion's kappa can fail here
            value = evaluate_row(row, {**common, **more})
            if value is None:
                raise HypothesisError(f"{crit} criterion: {row.error}")
            T = np.asarray(value, dtype=float)
            row.counts.update(iterations=T, ratio=None if lb is None else T / lb)
            if form == "corrected":
                row.extra["gamma0"] = more["gamma0"]
            rows.append(row)
        for i in range(N):
            ci = clients[i]
            ci[f"Nstar_{crit}"] = float(suf["Nstar"][i])
            ci[f"sigma_suf2_{crit}"] = float(suf["sigma_suf2"][i])
            if floor is not None:
                ci[f"floor_{crit}"] = float(floor[i])
            for row in rows:
                if row.algorithm == crit and row.counts.get("iterations") is not None:
                    ci[f"T_{crit}_{row.form}"] = float(row.counts["iterations"][i])
                    if row.counts.get("ratio") is not None:
                        ci[f"ratio_{crit}_{row.form}"] = float(row.counts["ratio"][i])
    if algorithm in (None, "lower"):
        rows.extend(lows)
    shown = clients if N <= 12 else clients[:6] + clients[-2:]
    for ci in shown:
        parts = [f"client {ci['client']}:"]
        for crit in CRITERIA:
            if f"Nstar_{crit}" in ci:
                parts.append(f"{crit} |N*| = {ci[f'Nstar_{crit}']:g}, sigma_suf^2 = "
                             f"{ci[f'sigma_suf2_{crit}']:.4g}, T = "
                             f"{ci.get(f'T_{crit}_printed', float('nan')):.4g}"
                             + (f", ratio = {ci[f'ratio_{crit}_printed']:.3g}"
                                if f"ratio_{crit}_printed" in ci else "") + ";")
        lines.append(" ".join(parts).rstrip(";"))
    if len(shown) < N:
        lines.insert(len(lines) - 2, f"... ({N - len(shown)} more clients in --json)")
    ok = [r for r in rows if r.algorithm != "lower" and r.counts.get("iterations") is not None
          and r.form == ("corrected" if "eps0" in vals else "printed")]
    best = {"iterations": min(ok, key=lambda r: float(np.max(r.counts["iterations"]))).method
            } if ok else {}
    return ComplexityTable(
        PAPER, "sufficient cluster and variance, and iterations to reach eps (Definition 2, "
        "Corollary 1, Theorem 2)", rows, columns=COLUMNS, best=best, notes=notes, lines=lines,
        extra={"clients": clients, "inputs": {"C": C, **vals}})
