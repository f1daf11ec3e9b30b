"""The hanzely2023 complexity calculator (``pflbounds complexity --paper hanzely2023``).

For an objective of the catalogue (``--objective``, with the base constants mu', L', Lcal',
lambda, Lambda, alpha, M) or for constants given directly (mu, Lw, Lb, Lcw, Lcb), it reports
for each method the iterations, communication rounds, grad_w and grad_beta calls (full
gradients of F and stochastic component gradients of F_i), the parameters the method runs
with, Theorem 6's lower bounds and the ratio to each. Every number comes from the catalog's
formulas (Theorems 1, 5, 6-9, and the generic formulas of the theory modules ``acd``,
``asvrcd`` and ``lower``), as a :class:`~pflbounds.symbolic.complexity.ComplexityTable`.

Conventions: counts are per client (each of the M clients evaluates one gradient per call);
ACD-PFL uses full local gradients, whose cost in component gradients is n each;
ASVRCD-PFL's full-gradient equivalents are its component counts divided by n. The O-forms
multiply log(Delta0/eps) with Delta0 = F(x^0) - F^* (default 1: the paper's log(1/eps)).

Inputs: every name is a constant of the paper in its domain and the values satisfy the paper's
instance relations (:func:`~pflbounds.symbolic.complexity.check_inputs`), with Footnote 1's
Lcal^beta <= n L^beta besides; which names a question takes depends on ``--objective`` (its
base constants, or mu, Lw, Lb, Lcw, Lcb without one), and the objective's conditions are
checked on its base constants.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Any

import numpy as np
import sympy as sp

from pflbounds.papers.hanzely2023.symbols import Lb, Lcb, Lw, components_relations
from pflbounds.papers.hanzely2023.theory.acd import THEOREM7, THEOREM7_PARAMETERS
from pflbounds.papers.hanzely2023.theory.asvrcd import (
    ASVRCD_PW,
    THEOREM8,
    THEOREM8_PARAMETERS,
    THEOREM9,
)
from pflbounds.papers.hanzely2023.theory.lower import THEOREM6
from pflbounds.papers.hanzely2023.theory.lsgd import (
    ETA_EPS,
    ETA_MAX_CORRECTED,
    K_EXPLICIT,
    THEOREM1,
)
from pflbounds.papers.hanzely2023.theory.objectives import NAMES, OBJECTIVES, objective
from pflbounds.symbolic.catalog import get, instance_relations
from pflbounds.symbolic.complexity import ComplexityRow, ComplexityTable, check_inputs
from pflbounds.symbolic.constants import all_constants, get_constant
from pflbounds.symbolic.evaluate import InputError, check_conditions, check_relations, numeric
from pflbounds.symbolic.hidden import strip_hidden
from pflbounds.symbolic.result import Result

PAPER = "hanzely2023"
ALGORITHMS = ("lsgd-pfl", "acd-pfl", "asvrcd-pfl")
COLUMNS = (
    ("iterations", "iterations"), ("communication", "rounds"), ("grad_w", "grad_w F"),
    ("grad_beta", "grad_beta F"), ("grad_w_stochastic", "grad_w F_i"),
    ("grad_beta_stochastic", "grad_beta F_i"),
)
"""(key, header) of the count columns, in display order."""
BASE_INPUTS = ("mup", "Lp", "Lcp", "lam", "Lam", "alpha", "amax", "amin", "LwR", "LbR",
               "LcwR", "LcbR")
RUN_INPUTS = ("n", "eps", "Delta0", "tau", "B", "sigma2", "zeta2", "Dw0", "Db0", "M")
_LSGD_SPECIFIC = ("tau", "B", "sigma2", "zeta2")
_LSGD_NEEDS = ("mu", "Lw", "Lb", "tau", "B", "sigma2", "zeta2", "M", "eps")
_ACD_NEEDS = ("mu", "Lw", "Lb", "eps")
_ASVRCD_NEEDS = ("mu", "Lcw", "Lcb", "n", "eps")
_LB_TO_LCB = {Lb: Lcb}
"""Theorem 9 as printed has L^beta where Lcal^beta is meant (hanzely2023.erratum15_theorem9)."""
_N1 = {Lw: Lb}
"""Theorem 6 with n = 1 (full local gradients): sqrt(L^w/mu) log(1/eps) grad_w F calls and
sqrt(L^beta/mu) log(1/eps) grad_beta F calls (the paper's remark after the theorem)."""


# ------------------------------------------------------------------------------ constants
_RELATIONS_EXTRA = [components_relations(Lb, Lcb, "L^beta", "Lcal^beta", "beta",
                                         "Footnote 1")[1]]
"""Footnote 1's Lcal^beta <= n L^beta: no result takes the three together, so the paper does
not register it; the calculator, which does, checks it with the registered relations."""
_THEOREM8_KEY = THEOREM8.id.removeprefix(f"{PAPER}.")
"""The entry of an ASVRCD-PFL row that gives Theorem 8's own counts."""


def _check_relations(vals: Mapping[str, float], where: str = "", *,
                     registered: bool = True) -> None:
    """Refuse values that describe no instance (the paper's instance relations, as ``eval``
    does, unless ``registered`` is False: they are checked already); ``where`` names derived
    constants in the message."""
    rels = [*(instance_relations(PAPER) if registered else ()), *_RELATIONS_EXTRA]
    try:
        check_relations(rels, vals)
    except InputError as e:
        raise InputError(f"{where}{e}") from None
    if "eps" in vals and "Delta0" not in vals:
        try:
            check_relations([*instance_relations(PAPER), *_RELATIONS_EXTRA],
                            {**vals, "Delta0": 1.0})
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
    check_inputs(PAPER, vals, all_constants(PAPER))  # domains, the paper's instance relations
    _check_relations(vals, registered=False)
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


def _row(method: str, algorithm: str, result: Result, form: str, *,
         counts: Mapping[str, float | None] | None = None, missing: list[str] | None = None,
         error: str | None = None, note: str | None = None, **extra: Any) -> ComplexityRow:
    """A row of ``result`` [``form``]: every column's count (None where not computed), the
    form's hidden constants, and what else the row reports (``extra``)."""
    rid = result.id
    return ComplexityRow(
        method, algorithm, rid, form, relation=get(rid).relation,
        counts={**{k: None for k, _ in COLUMNS}, **(counts or {})},
        hidden_constants=list(_hidden_constants(rid, form)), note=note, error=error,
        missing=tuple(missing) if missing else None, extra=extra)


@functools.cache
def _hidden_constants(result: str, form: str) -> tuple[str, ...]:
    """The hidden-constant notes of a form (printing them is half the cost of a table)."""
    return tuple(get(result).form(form).hidden_constants)


def _parts(result: Result, form: str = "printed") -> dict[str, sp.Expr]:
    return dict(get(result.id).form(form).exprs)


def _lower(c: _Ctx, has_w: bool, has_beta: bool) -> dict[str, float | None]:
    """Theorem 6 (the appendix's standard form, (n + sqrt(n Lcal/mu)) log(Delta0/eps)) for
    every count c can compute; for full gradients its n = 1 remark, sqrt(L/mu) log."""
    t6 = _parts(THEOREM6, "appendix")
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


def _ratios(counts: Mapping[str, Any], lower: Mapping[str, float | None]
            ) -> dict[str, float | None]:
    out = {}
    for k, lb in lower.items():
        v = counts.get(k)
        if v is None or lb is None:
            out[k] = None
        elif lb == 0:
            out[k] = None if v == 0 else float("inf")
        else:
            out[k] = v / lb
    return out


def _acd(c: _Ctx, has_w: bool, has_beta: bool) -> ComplexityRow:
    missing = c.has(*_ACD_NEEDS)
    if missing:
        return _row("ACD-PFL", "acd-pfl", THEOREM7, "printed", missing=missing)
    t7 = _parts(THEOREM7)
    par = _parts(THEOREM7_PARAMETERS)
    row = _row(
        "ACD-PFL", "acd-pfl", THEOREM7, "printed",
        counts={"iterations": c(t7["iterations"]), "communication": c(t7["communication"]),
                "grad_w": c(t7["grad_w"]), "grad_beta": c(t7["grad_beta"])},
        note="full local gradients; one round and one grad_w F per w-step (probability p_w)",
        parameters={k: c(e) for k, e in par.items()})
    if "n" in c.v:
        row.counts["grad_w_stochastic"] = c.v["n"] * row.counts["grad_w"]
        row.counts["grad_beta_stochastic"] = c.v["n"] * row.counts["grad_beta"]
    return row


def _asvrcd(c: _Ctx, has_w: bool, has_beta: bool, which: str) -> ComplexityRow:
    name = f"ASVRCD-PFL (rho = p_{which}/n)"
    missing = c.has(*_ASVRCD_NEEDS)
    if missing:
        return _row(name, "asvrcd-pfl", THEOREM9, "corrected", missing=missing)
    pw = c(ASVRCD_PW) if has_w and has_beta else float(has_w)
    p = pw if which == "w" else 1 - pw
    if p == 0:
        return _row(name, "asvrcd-pfl", THEOREM9, "corrected",
                    error=f"the objective has no {'w' if which == 'w' else 'beta'}-block "
                    f"(p_{which} = 0): this choice of rho does not apply")
    n = c.v["n"]
    kw = {"pw": pw, "rho": p / n}
    t9 = _parts(THEOREM9, "corrected")
    printed = _parts(THEOREM9)
    it = c(t9["iterations"], **kw)
    par = _parts(THEOREM8_PARAMETERS)
    row = _row(
        name, "asvrcd-pfl", THEOREM9, "corrected",
        counts={
            "iterations": it,
            "communication": c(printed["communication"].xreplace(_LB_TO_LCB), **kw)
            if has_w else 0.0,
            "grad_w_stochastic": c(t9["grad_w"], **kw) if has_w else 0.0,
            "grad_beta_stochastic": c(t9["grad_beta"], **kw) if has_beta else 0.0},
        note="Theorem 9 with Theorem 8's p_w; communication as the paper counts it "
             "(iterations x (rho n + p_w)); communication_expected counts a refresh as one "
             "round (iterations x (p_w + rho))",
        communication_expected=c(t9["communication"], **kw) if has_w else 0.0,
        parameters={"rho": kw["rho"], **{k: c(e, **kw) for k, e in par.items()}})
    row.extra["parameters"]["p_w"] = pw
    row.counts["grad_w"] = row.counts["grad_w_stochastic"] / n
    row.counts["grad_beta"] = row.counts["grad_beta_stochastic"] / n
    t8 = _parts(THEOREM8)
    if which == "w":
        row.extra[_THEOREM8_KEY] = {
            "communication": c(t8["communication"]) if has_w else 0.0,
            "grad_w_stochastic": c(t8["grad_w"]) if has_w else 0.0}
    else:
        row.extra[_THEOREM8_KEY] = {
            "grad_beta_stochastic": c(t8["grad_beta"]) if has_beta else 0.0}
    return row


def _lsgd(c: _Ctx) -> list[ComplexityRow]:
    missing = c.has(*_LSGD_NEEDS)
    if missing:
        return [_row("LSGD-PFL (Theorem 1)", "lsgd-pfl", THEOREM1, "printed", missing=missing)]
    tau, B = c.v["tau"], c.v["B"]
    it = c(get(THEOREM1.id).form("printed").expr)
    rows = [_row("LSGD-PFL (Theorem 1)", "lsgd-pfl", THEOREM1, "printed",
                 counts={"iterations": it, "communication": it / tau,
                         "grad_w_stochastic": it * B, "grad_beta_stochastic": it * B},
                 note="stochastic minibatch gradients (B per client and step); one round per "
                      "tau steps; no log(Delta0/eps) factor (O~ hides logs)",
                 parameters={"eta_max": c(ETA_MAX_CORRECTED), "tau": tau, "B": B})]
    if not c.has("Dw0", "Db0"):
        K = c(K_EXPLICIT)
        rows.append(_row(
            "LSGD-PFL (Theorem 5, explicit)", "lsgd-pfl", THEOREM1, "explicit",
            counts={"iterations": K, "communication": float(np.ceil(K / tau)),
                    "grad_w_stochastic": K * B, "grad_beta_stochastic": K * B},
            note="derived from Theorem 5 (corrected): a guarantee, no hidden constant",
            parameters={"eta": c(ETA_EPS), "tau": tau, "B": B}))
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


def table(values: Mapping[str, Any], matrices: Mapping[str, Any], *, objective=None,
          algorithm=None) -> ComplexityTable:
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
    rows: list[ComplexityRow] = []

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
        if not row.missing and not row.error:
            row.extra["lower_bound"] = lower
            row.extra["ratio_to_lower_bound"] = _ratios(row.counts, lower)
    rows.append(_row("lower bound (Theorem 6)", "lower-bound", THEOREM6, "appendix",
                     counts=lower,
                     note="the form of Section 2.1 and App. B.8 ((n + sqrt(n Lcal/mu)) log); "
                          "Omega: hidden constant set to 1; grad_w/grad_beta: the n = 1 remark "
                          "(full gradients), sqrt(L/mu) log"))
    for row in rows:
        row.guaranteed = row.algorithm != "lower-bound"
        if row.missing and objective is not None:
            row.missing = tuple(_base_names(list(row.missing), objective, vals))
    out = ComplexityTable(
        PAPER, "iterations, communication rounds and gradient calls to reach eps", rows,
        columns=COLUMNS, notes=notes, lines=_lines(info if objective is not None else None,
                                                   consts),
        extra={"objective": info if objective is not None else None,
               "constants": {k: consts.get(k) for k in NAMES},
               "inputs": {k: v for k, v in c.v.items() if k not in NAMES}})
    out.best = {key: out.fewest(key) for key, _ in COLUMNS[1:]}
    return out
