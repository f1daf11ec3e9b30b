"""The hanzely2023 complexity calculator (``pflbounds complexity --paper hanzely2023``).

For an objective of the catalogue (``--objective``, with the base constants mu', L', Lcal',
lambda, Lambda, alpha, M) or for constants given directly (mu, Lw, Lb, Lcw, Lcb), it reports
for each method the iterations, communication rounds, grad_w and grad_beta calls (full
gradients of F and stochastic component gradients of F_i), the parameters the method runs
with, Theorem 6's lower bounds and the ratio to each. Every number comes from the catalog's
formulas (:mod:`pflbounds.papers.hanzely2023.generic`, Theorems 1, 5, 6-9).

Conventions: counts are per client (each of the M clients evaluates one gradient per call);
ACD-PFL uses full local gradients, whose cost in component gradients is n each;
ASVRCD-PFL's full-gradient equivalents are its component counts divided by n. The O-forms
multiply log(Delta0/eps) with Delta0 = F(x^0) - F^* (default 1: the paper's log(1/eps)).
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Any

import numpy as np
import sympy as sp

from pflbounds.papers.hanzely2023 import generic as G
from pflbounds.papers.hanzely2023 import lsgd
from pflbounds.papers.hanzely2023.objectives import NAMES, OBJECTIVES, objective
from pflbounds.papers.hanzely2023.symbols import Lb, Lcb, components_relations
from pflbounds.symbolic.catalog import get, instance_relations, register_complexity
from pflbounds.symbolic.constants import get_constant
from pflbounds.symbolic.evaluate import InputError, check_conditions, check_relations, numeric
from pflbounds.symbolic.hidden import strip_hidden

PAPER = "hanzely2023"
ALGORITHMS = ("lsgd-pfl", "acd-pfl", "asvrcd-pfl")
COLUMNS = [
    ("iterations", "iterations"), ("communication", "rounds"), ("grad_w", "grad_w F"),
    ("grad_beta", "grad_beta F"), ("grad_w_stochastic", "grad_w F_i"),
    ("grad_beta_stochastic", "grad_beta F_i"),
]
"""(key, header) of the count columns, in display order."""
BASE_INPUTS = ("mup", "Lp", "Lcp", "lam", "Lam", "alpha", "amax", "amin", "LwR", "LbR",
               "LcwR", "LcbR")
RUN_INPUTS = ("n", "eps", "Delta0", "tau", "B", "sigma2", "zeta2", "Dw0", "Db0", "M")
_LSGD_SPECIFIC = ("tau", "B", "sigma2", "zeta2")
_LSGD_NEEDS = ("mu", "Lw", "Lb", "tau", "B", "sigma2", "zeta2", "M", "eps")
_ACD_NEEDS = ("mu", "Lw", "Lb", "eps")
_ASVRCD_NEEDS = ("mu", "Lcw", "Lcb", "n", "eps")
_LB_TO_LCB = {G.Lb: G.Lcb}
"""Theorem 9 as printed has L^beta where Lcal^beta is meant (hanzely2023.erratum15_theorem9)."""
_N1 = {G.Lw: G.Lb}
"""Theorem 6 with n = 1 (full local gradients): sqrt(L^w/mu) log(1/eps) grad_w F calls and
sqrt(L^beta/mu) log(1/eps) grad_beta F calls (the paper's remark after the theorem)."""


# ------------------------------------------------------------------------------ constants
_RELATIONS_EXTRA = [components_relations(Lb, Lcb, "L^beta", "Lcal^beta", "beta",
                                         "Footnote 1")[1]]
"""Footnote 1's Lcal^beta <= n L^beta: no result takes the three together, so the paper does
not register it; the calculator, which does, checks it with the registered relations."""


def _check_relations(vals: Mapping[str, float], where: str = "") -> None:
    """Refuse values that describe no instance (the paper's instance relations, as ``eval``
    does); ``where`` names derived constants in the message."""
    rels = [*instance_relations(PAPER), *_RELATIONS_EXTRA]
    try:
        check_relations(rels, vals)
    except InputError as e:
        raise InputError(f"{where}{e}") from None
    if "eps" in vals and "Delta0" not in vals:
        try:
            check_relations(rels, {**vals, "Delta0": 1.0})
        except InputError as e:
            raise InputError(f"{where}{e} (Delta0 = F(x^0) - F^* is 1 unless given)") from None


def _resolve(values: Mapping[str, Any], objective_key: str | None
             ) -> tuple[dict[str, float], dict[str, Any]]:
    """The constants (mu, Lw, Lb, Lcw, Lcb) that are known, and the objective's report."""
    vals = {k: float(v) for k, v in values.items()}
    for k, v in vals.items():
        get_constant(k, PAPER).check_value(v)  # ValueError naming the input and its domain
    if "alpha" in vals:
        if "amax" in vals or "amin" in vals:
            raise InputError("give alpha (every alpha_m equal) or amax and amin, not both")
        if not 0.0 < vals["alpha"] < 1.0:
            raise InputError(f"alpha={vals['alpha']:g} is outside (0, 1): Eq. (12) takes every "
                             "APFL mixing weight with 0 < alpha_m < 1")
        vals["amax"] = vals["amin"] = vals.pop("alpha")
    _check_relations(vals)
    if objective_key is None:
        base = sorted(k for k in vals if k in BASE_INPUTS)
        if base:
            raise InputError(f"{', '.join(base)} are base constants of an objective: name it "
                             f"with --objective ({', '.join(OBJECTIVES)}), or give mu, Lw, Lb, "
                             "Lcw, Lcb directly")
        _unexpected(vals, set(NAMES) | set(RUN_INPUTS), "without --objective")
        return {k: vals[k] for k in NAMES if k in vals}, {"key": None, "values": vals}
    obj = objective(objective_key)
    own = set(obj.inputs)
    direct = sorted(k for k in NAMES if k in vals and k not in own)
    if direct:
        raise InputError(f"{', '.join(direct)}: --objective {obj.key} computes the constants "
                         f"from its base inputs ({', '.join(obj.inputs)}); give those, or drop "
                         "--objective to give mu, Lw, Lb, Lcw, Lcb directly")
    _unexpected(vals, own | set(RUN_INPUTS) | {"amax", "amin"}, f"--objective {obj.key}")
    conditions = []
    for c in obj.conditions:
        names = sorted(s.name for s in c.relation.free_symbols)
        lacking = [x for x in names if x not in vals]
        if lacking:
            conditions.append({"condition": c.label or str(c), "status":
                               f"not checked: give {', '.join(lacking)}"})
            continue
        check_conditions((c,), vals)  # HypothesisError naming the condition and the values
        conditions.append({"condition": c.label or str(c), "status": "holds"})
    consts = {k: float(numeric(e, vals)) for k, e in obj.constants.items()
              if {s.name for s in e.free_symbols} <= set(vals)}
    run = {k: v for k, v in vals.items() if k in RUN_INPUTS}
    _check_relations({**consts, **run}, f"the constants of --objective {obj.key} ("
                     f"{_fmt(consts)}): ")
    printed = None
    if obj.printed is not None:
        printed = {k: float(numeric(e, vals)) for k, e in obj.printed.items()
                   if {s.name for s in e.free_symbols} <= set(vals)}
    info = {"key": obj.key, "name": obj.name, "equation": obj.equation, "f_m": obj.f_m,
            "rescaled": obj.rescaled, "derived": obj.derived, "result": obj.result_id,
            "constants": {k: consts.get(k) for k in NAMES},
            "constants_printed": printed, "conditions": conditions,
            "has_w": obj.has_w, "has_beta": obj.has_beta, "values": vals}
    if obj.note:
        info["note"] = obj.note
    return consts, info


def _unexpected(vals: Mapping[str, float], allowed: set[str], where: str) -> None:
    extra = sorted(set(vals) - allowed)
    if extra:
        raise InputError(f"unexpected input(s) {', '.join(extra)} {where}; expected some of "
                         f"{', '.join(sorted(allowed))}")


# ------------------------------------------------------------------------------ evaluation
class _Ctx:
    """Numbers known for this question, with zero constants substituted symbolically (an
    absent block: L^beta = 0 makes L^beta/p_beta = 0, not 0/0)."""

    def __init__(self, consts: Mapping[str, float], vals: Mapping[str, float]) -> None:
        self.v = {**{k: x for k, x in vals.items() if k not in NAMES}, **consts}
        self.v.setdefault("Delta0", 1.0)
        self.zero = {k for k in NAMES if consts.get(k) == 0.0}

    def has(self, *names: str) -> list[str]:
        return [n for n in names if n not in self.v]

    def __call__(self, expr: sp.Expr, **extra: float) -> float:
        e = strip_hidden(sp.sympify(expr))
        e = e.xreplace({s: 0 for s in e.free_symbols if s.name in self.zero})
        return float(numeric(e, {**self.v, **extra}))


def _row(method: str, algorithm: str, result: str, form: str, **kw: Any) -> dict[str, Any]:
    row: dict[str, Any] = {"method": method, "algorithm": algorithm, "result": result,
                           "form": form, "relation": get(result).relation}
    row.update({k: None for k, _ in COLUMNS})
    row.update(kw)
    row.setdefault("hidden_constants", list(_hidden_constants(result, form)))
    return row


@functools.cache
def _hidden_constants(result: str, form: str) -> tuple[str, ...]:
    """The hidden-constant notes of a form (printing them is half the cost of a table)."""
    return tuple(get(result).form(form).hidden_constants)


def _parts(result: str, form: str = "printed") -> dict[str, sp.Expr]:
    return dict(get(result).form(form).exprs)


def _lower(c: _Ctx, has_w: bool, has_beta: bool) -> dict[str, float | None]:
    """Theorem 6 (the appendix's standard form, (n + sqrt(n Lcal/mu)) log(Delta0/eps)) for
    every count c can compute; for full gradients its n = 1 remark, sqrt(L/mu) log."""
    t6 = _parts("hanzely2023.theorem6", "appendix")
    out: dict[str, float | None] = {k: None for k, _ in COLUMNS}
    out.pop("iterations")
    if not c.has("mu", "eps", "Lw"):
        out["communication"] = c(t6["communication"]) if has_w else 0.0
        out["grad_w"] = c(t6["communication"]) if has_w else 0.0
    if not c.has("mu", "eps", "Lb"):
        out["grad_beta"] = c(t6["communication"].xreplace(_N1)) if has_beta else 0.0
    if not c.has("mu", "eps", "Lcw", "n"):
        out["grad_w_stochastic"] = c(t6["grad_w"]) if has_w else 0.0
    if not c.has("mu", "eps", "Lcb", "n"):
        out["grad_beta_stochastic"] = c(t6["grad_beta"]) if has_beta else 0.0
    return out


def _ratios(row: dict[str, Any], lower: Mapping[str, float | None]) -> dict[str, float | None]:
    out = {}
    for k, lb in lower.items():
        v = row.get(k)
        if v is None or lb is None:
            out[k] = None
        elif lb == 0:
            out[k] = None if v == 0 else float("inf")
        else:
            out[k] = v / lb
    return out


def _acd(c: _Ctx, has_w: bool, has_beta: bool) -> dict[str, Any]:
    res = "hanzely2023.theorem7"
    missing = c.has(*_ACD_NEEDS)
    if missing:
        return _row("ACD-PFL", "acd-pfl", res, "printed", missing=missing)
    t7 = _parts(res)
    par = _parts("hanzely2023.theorem7_parameters")
    row = _row(
        "ACD-PFL", "acd-pfl", res, "printed", iterations=c(t7["iterations"]),
        communication=c(t7["communication"]), grad_w=c(t7["grad_w"]),
        grad_beta=c(t7["grad_beta"]), parameters={k: c(e) for k, e in par.items()},
        note="full local gradients; one round and one grad_w F per w-step (probability p_w)")
    if "n" in c.v:
        row["grad_w_stochastic"] = c.v["n"] * row["grad_w"]
        row["grad_beta_stochastic"] = c.v["n"] * row["grad_beta"]
    return row


def _asvrcd(c: _Ctx, has_w: bool, has_beta: bool, which: str) -> dict[str, Any]:
    res = "hanzely2023.theorem9"
    name = f"ASVRCD-PFL (rho = p_{which}/n)"
    missing = c.has(*_ASVRCD_NEEDS)
    if missing:
        return _row(name, "asvrcd-pfl", res, "corrected", missing=missing)
    pw = c(G.ASVRCD_PW) if has_w and has_beta else float(has_w)
    p = pw if which == "w" else 1 - pw
    if p == 0:
        return _row(name, "asvrcd-pfl", res, "corrected",
                    error=f"the objective has no {'w' if which == 'w' else 'beta'}-block "
                    f"(p_{which} = 0): this choice of rho does not apply")
    n = c.v["n"]
    kw = {"pw": pw, "rho": p / n}
    t9 = _parts(res, "corrected")
    printed = _parts(res)
    it = c(t9["iterations"], **kw)
    par = _parts("hanzely2023.theorem8_parameters")
    row = _row(
        name, "asvrcd-pfl", res, "corrected", iterations=it,
        communication=c(printed["communication"].xreplace(_LB_TO_LCB), **kw) if has_w else 0.0,
        communication_expected=c(t9["communication"], **kw) if has_w else 0.0,
        grad_w_stochastic=c(t9["grad_w"], **kw) if has_w else 0.0,
        grad_beta_stochastic=c(t9["grad_beta"], **kw) if has_beta else 0.0,
        parameters={"rho": kw["rho"], **{k: c(e, **kw) for k, e in par.items()}},
        note="Theorem 9 with Theorem 8's p_w; communication as the paper counts it "
             "(iterations x (rho n + p_w)); communication_expected counts a refresh as one "
             "round (iterations x (p_w + rho))")
    row["parameters"]["p_w"] = pw
    row["grad_w"] = row["grad_w_stochastic"] / n
    row["grad_beta"] = row["grad_beta_stochastic"] / n
    t8 = _parts("hanzely2023.theorem8")
    if which == "w":
        row["theorem8"] = {"communication": c(t8["communication"]) if has_w else 0.0,
                           "grad_w_stochastic": c(t8["grad_w"]) if has_w else 0.0}
    else:
        row["theorem8"] = {"grad_beta_stochastic": c(t8["grad_beta"]) if has_beta else 0.0}
    return row


def _lsgd(c: _Ctx) -> list[dict[str, Any]]:
    missing = c.has(*_LSGD_NEEDS)
    if missing:
        return [_row("LSGD-PFL (Theorem 1)", "lsgd-pfl", "hanzely2023.theorem1", "printed",
                     missing=missing)]
    tau, B = c.v["tau"], c.v["B"]
    it = c(get("hanzely2023.theorem1").form("printed").expr)
    rows = [_row("LSGD-PFL (Theorem 1)", "lsgd-pfl", "hanzely2023.theorem1", "printed",
                 iterations=it, communication=it / tau, grad_w_stochastic=it * B,
                 grad_beta_stochastic=it * B,
                 parameters={"eta_max": c(lsgd.ETA_MAX_CORRECTED), "tau": tau, "B": B},
                 note="stochastic minibatch gradients (B per client and step); one round per "
                      "tau steps; no log(Delta0/eps) factor (O~ hides logs)")]
    if not c.has("Dw0", "Db0"):
        K = c(lsgd.K_EXPLICIT)
        rows.append(_row(
            "LSGD-PFL (Theorem 5, explicit)", "lsgd-pfl", "hanzely2023.theorem1", "explicit",
            iterations=K, communication=float(np.ceil(K / tau)), grad_w_stochastic=K * B,
            grad_beta_stochastic=K * B,
            parameters={"eta": c(lsgd.ETA_EPS), "tau": tau, "B": B},
            note="derived from Theorem 5 (corrected): a guarantee, no hidden constant"))
    return rows


def _base_names(missing: list[str], key: str, vals: Mapping[str, float]) -> list[str]:
    """Missing constants of an objective named by the base inputs they need."""
    o = OBJECTIVES[key]
    out: set[str] = set()
    for m in missing:
        if m in NAMES and m in o.constants:
            out |= {s.name for s in o.constants[m].free_symbols} - set(vals)
        else:
            out.add(m)
    return sorted(out)


def _fmt(consts: Mapping[str, float | None]) -> str:
    return ", ".join(f"{k} = {v:.6g}" for k, v in consts.items() if v is not None)


def _lines(info: Mapping[str, Any] | None, consts: Mapping[str, float]) -> list[str]:
    """The summary printed above the table: the objective and its constants."""
    if info is None:
        return [f"constants: {_fmt({k: consts.get(k) for k in NAMES})}"]
    out = [f"objective {info['key']}: {info['name']} {info['equation']}, {info['f_m']}",
           f"constants ({'derived' if info['derived'] else 'best reading'}): "
           f"{_fmt(info['constants'])}"]
    printed = info.get("constants_printed")
    if printed and any(abs(printed[k] - info["constants"][k]) > 1e-12 * abs(printed[k])
                       for k in printed if info["constants"].get(k) is not None):
        out.append(f"Table 2 as printed: {_fmt(printed)} (see the errata of "
                   f"{info['result']})")
    for c in info["conditions"]:
        out.append(f"condition {c['condition']}: {c['status']}")
    return out


def _best(rows: list[dict[str, Any]]) -> dict[str, str | None]:
    out: dict[str, str | None] = {}
    for key, _ in COLUMNS[1:]:
        ok = [r for r in rows if r.get(key) is not None and r["algorithm"] != "lower-bound"]
        out[key] = min(ok, key=lambda r: r[key])["method"] if ok else None
    return out


def table(values: Mapping[str, Any], matrices: Mapping[str, Any], *, objective=None,
          algorithm=None) -> dict[str, Any]:
    """Counts to reach eps for each method, on one objective or on given constants."""
    if matrices:
        raise KeyError(f"hanzely2023 takes no matrix inputs (got {', '.join(matrices)})")
    if algorithm is not None and algorithm not in ALGORITHMS:
        raise KeyError(f"unknown algorithm {algorithm!r} for hanzely2023; choose from "
                       f"{', '.join(ALGORITHMS)}")
    consts, info = _resolve(values, objective)
    vals = info.pop("values")
    has_w = info.get("has_w", consts.get("Lw", 1.0) != 0 or consts.get("Lcw", 1.0) != 0)
    has_beta = info.get("has_beta", consts.get("Lb", 1.0) != 0 or consts.get("Lcb", 1.0) != 0)
    c = _Ctx(consts, vals)
    log = f"{np.log(c.v['Delta0'] / c.v['eps']):.4g}" if "eps" in c.v else "log(Delta0/eps)"
    notes = [f"counts to reach E[F(x)] - F^* <= eps; O-forms multiply log(Delta0/eps) = {log} "
             "(Delta0 = F(x^0) - F^*, default 1: the paper's log(1/eps)) and hide a constant "
             "factor, set to 1",
             "counts are per client; grad_w/grad_beta: full gradients of F; *_stochastic: "
             "component gradients of F_i (a full gradient costs n of them)",
             "ASCD-PFL, SCD-PFL and SVRCD-PFL have no theory in the paper: not listed"]
    rows: list[dict[str, Any]] = []
    def want(a: str) -> bool:
        return algorithm is None or algorithm == a

    if want("lsgd-pfl"):
        if algorithm is None and all(k not in vals for k in _LSGD_SPECIFIC):
            notes.append("LSGD-PFL omitted: give tau, B, sigma2, zeta2 (and M) to include it; "
                         "Dw0 and Db0 add Theorem 5's explicit count")
        else:
            rows += _lsgd(c)
    if want("acd-pfl"):
        rows.append(_acd(c, has_w, has_beta))
    if want("asvrcd-pfl"):
        cal = {"Lcw", "Lcb", "Lcp", "LcwR", "LcbR"}
        if algorithm is None and not cal & (set(vals) | set(consts)):
            notes.append("ASVRCD-PFL omitted: give the finite-sum smoothness (Lcp, or Lcw and "
                         "Lcb) and n to include it")
        else:
            rows += [_asvrcd(c, has_w, has_beta, "w"), _asvrcd(c, has_w, has_beta, "beta")]
    lower = _lower(c, has_w, has_beta)
    for row in rows:
        if not row.get("missing") and not row.get("error"):
            row["lower_bound"] = lower
            row["ratio_to_lower_bound"] = _ratios(row, lower)
    rows.append(_row("lower bound (Theorem 6)", "lower-bound", "hanzely2023.theorem6",
                     "appendix", **lower,
                     note="the form of Section 2.1 and App. B.8 ((n + sqrt(n Lcal/mu)) log); "
                          "Omega: hidden constant set to 1; grad_w/grad_beta: the n = 1 remark "
                          "(full gradients), sqrt(L/mu) log"))
    for row in rows:
        row["guaranteed"] = row["algorithm"] != "lower-bound"
        if row.get("missing") and objective is not None:
            row["missing"] = _base_names(row["missing"], objective, vals)
    return {
        "question": "iterations, communication rounds and gradient calls to reach eps",
        "lines": _lines(info if objective is not None else None, consts),
        "objective": info if objective is not None else None,
        "constants": {k: consts.get(k) for k in NAMES},
        "inputs": {k: v for k, v in c.v.items() if k not in NAMES},
        "columns": [list(col) for col in COLUMNS],
        "rows": rows, "best": _best(rows), "notes": notes,
    }


register_complexity(PAPER, table)
