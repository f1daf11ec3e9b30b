"""The worst-case search: run a :class:`~pflbounds.tightness.case.SearchCase`.

For each point of the case's sweep the engine evaluates the bound with
:func:`pflbounds.symbolic.evaluate` (domains, instance relations and side conditions
enforced: a point outside the hypotheses is a :class:`CaseError`), then finds the admissible
instance that maximises measured / bound (for a lower bound: minimises it, the best method
against the bound), in one of four modes:

* ``exact``: the model's worst case over the sets in closed form, where it decouples
  (:meth:`pflbounds.tightness.models.Model.decoupled`); the attaining instance is measured
  again by the model's exact engine and must agree to 1e-9;
* ``sdp``: the worst case over a whole function class by PEPit
  (:mod:`pflbounds.tightness.pepit`): the primal value is attained, the dual one proven;
* ``optimize``: scipy's L-BFGS-B on the raw coordinates of the sets from ``starts`` seeded
  starts, gradients by finite differences, on an exact (deterministic) measure;
* ``random``: ``budget`` seeded uniform draws of the raw coordinates; with a Monte Carlo
  measure every draw uses the same runs (common random numbers) and the worst draw is
  measured again on independent runs, whose confidence interval gives the verdict.

Every instance evaluated is checked against the hypotheses at the case's constants
(:meth:`Model.admissible`): a set that reaches outside them is a :class:`CaseError`.
"""

from __future__ import annotations

import hashlib
import itertools
import math
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np
import sympy as sp
from scipy.optimize import minimize
from scipy.stats import norm
from threadpoolctl import threadpool_limits

from pflbounds import version
from pflbounds.checking.jsonsafe import canonical_json, to_jsonable
from pflbounds.symbolic import catalog
from pflbounds.symbolic.evaluate import HypothesisError, InputError, evaluate
from pflbounds.symbolic.result import Kind, Result
from pflbounds.tightness.case import CaseError, SearchCase
from pflbounds.tightness.models import (
    InstanceError,
    Measurement,
    Model,
    NotDecoupled,
)
from pflbounds.tightness.record import FORMAT, PointRecord, RecordCache, SearchRecord
from pflbounds.tightness.registry import get_model
from pflbounds.tightness.spaces import Box, Resolved, SpaceError

__all__ = ["EXACT_RTOL", "case_key", "replay", "run_case"]

EXACT_RTOL = 1e-9
"""Relative tolerance of a comparison of exact values (bound against an exact expectation;
a decoupled worst case against its instance measured again)."""
CONFIRM_TOP = 3
"""Draws of a Monte Carlo random search measured again on independent runs."""


def case_key(case: SearchCase) -> str:
    """The cache key: SHA-256 of the case's canonical JSON (title left out), the form's
    formula and conditions, and the package version."""
    r = catalog.get(case.result)
    f = r.form(case.form)
    formula = {p: sp.srepr(e) for p, e in f.exprs.items()}
    conds = [sp.srepr(c.relation) for c in r.conditions_for(case.form)]
    body = {k: v for k, v in case.canonical().items() if k != "title"}
    text = canonical_json({"format": FORMAT, "version": version.__version__, "case": body,
                           "formula": formula, "conditions": conds})
    return hashlib.sha256(text.encode()).hexdigest()


def run_case(case: SearchCase, *, cache: RecordCache | str | Path | None = None,
             mode: str | None = None) -> SearchRecord:
    """Search every point of ``case``; a cached record is returned as stored (its
    ``cached`` attribute set). ``mode`` overrides the case's search mode (it is then part
    of the key)."""
    if mode is not None and mode != case.search.mode:
        case = replace(case, search=replace(case.search, mode=mode))
    store = RecordCache(cache) if isinstance(cache, (str, Path)) else cache
    try:
        result = catalog.get(case.result)
        result.form(case.form)
    except KeyError as e:
        raise CaseError(f"{case.label}: {e.args[0] if e.args else e}") from None
    key = case_key(case)
    if store is not None:
        hit = store.get(key)
        if hit is not None:
            return hit
        store.check_writable(key)  # before the work, not after
    try:
        model = get_model(case.model)
    except KeyError as e:
        raise CaseError(f"{case.label}: {e.args[0]}") from None
    sense = _sense(case, result)
    t0 = time.perf_counter()
    names = list(case.sweep)
    points = []
    # one BLAS thread: small matrices run faster, and reductions give the same bits
    with threadpool_limits(limits=1):
        for i, values in enumerate(itertools.product(*(case.sweep[n] for n in names))):
            constants = {**case.fixed, **dict(zip(names, values, strict=True))}
            points.append(_Point(case, result, model, constants, sense, i).run())
    record = SearchRecord(key, version.__version__, case.canonical(), sense, points,
                          round(time.perf_counter() - t0, 3))
    if store is not None:
        store.put(record)
    return record


def replay(case: SearchCase, point: PointRecord) -> Measurement:
    """Measure the recorded worst instance of ``point`` again: an exact measure gives the
    recorded value, a Monte Carlo one the same runs (the seed and the stream of the record's
    confirmations), PEPit the same solve."""
    model = get_model(case.model)
    consts = {k: float(v) for k, v in point.constants.items()}
    inst = {k: np.asarray(v, dtype=np.float64) for k, v in point.instance.items()}
    measure = case.measure or model.measures[0]
    with threadpool_limits(limits=1):
        model.admissible(consts, inst, seed=point.seed)
        if model.kind == "sdp":
            return model.sdp(consts, measure)
        return model.measure(consts, inst, measure, seed=point.seed,
                             replicas=case.search.confirm, stream=1)


def _sense(case: SearchCase, r: Result) -> str:
    if r.relation == "<=":
        return "max"
    if r.relation == ">=":
        return "min"
    if r.kind is Kind.COMPLEXITY:
        return "max"  # a sufficient count: the steps an instance needs must not exceed it
    raise CaseError(f"{case.label}: {r.id} states an equality (a step size, an identity): "
                    "a worst-case search compares bounds and sufficient counts only")


class _Budget(Exception):
    """The evaluation budget is spent."""


@dataclass
class _Best:
    ratio: float
    raw: np.ndarray | None
    consts: dict[str, float]
    inst: dict[str, np.ndarray]
    bound: float
    meas: Measurement


class _Point:
    """One point of the sweep: its sets, its bound and its searches."""

    def __init__(self, case: SearchCase, result: Result, model: Model,
                 constants: dict[str, float], sense: str, index: int) -> None:
        self.case, self.result, self.model, self.sense = case, result, model, sense
        self.index = index
        self.seed = case.search.seed
        self.measure_name = case.measure or model.measures[0]
        if self.measure_name not in model.measures:
            raise CaseError(f"{case.label}: measure {self.measure_name!r}: the model offers "
                            f"{', '.join(model.measures)}")
        unknown = [k for k in list(case.free) + list(case.pinned)
                   if k not in model.parameters and k not in model.constants
                   and k not in result.inputs(case.form)]
        if unknown:
            raise CaseError(f"{case.label}: {', '.join(unknown)} is neither a parameter of "
                            f"{model.name} ({', '.join(model.parameters) or 'none'}) nor a "
                            "constant")
        self.free_consts = [k for k in case.free if k not in model.parameters]
        for k in self.free_consts:
            if k in case.pinned:
                raise CaseError(f"{case.label}: constant {k} is pinned; fix it instead")
        self.constants = constants
        missing = [k for k in model.constants if k not in constants
                   and k not in self.free_consts]
        if missing:
            raise CaseError(f"{case.label}: {model.name} needs the constant(s) "
                            f"{', '.join(missing)}: fix, sweep or search them")
        # a searched constant moves the bound when the bound reads it, or when the model
        # derives the bound's constants from it (a generated instance's certified constants)
        self.bound_varies = bool(set(self.free_consts) & (set(result.inputs(case.form))
                                                          | set(model.constants)))
        self._fixed_bound: tuple[float, list[str]] | None = None
        if not self.bound_varies:
            self.bound(constants)  # the hypotheses at the constants, before the sets
        self.sets: dict[str, Resolved] = {}
        for k, space in case.free.items():
            try:
                self.sets[k] = space.resolve(constants)
            except SpaceError as e:
                raise CaseError(f"{case.label}: free {k}: {e}") from None
            if k in self.free_consts and not (isinstance(space, Box)
                                              and self.sets[k].shape == (1,)):
                raise CaseError(f"{case.label}: constant {k} is searched over a set of one "
                                "number: Box(1, lo, hi)")
        self.order = sorted(self.sets)
        self.lower = np.concatenate([self.sets[k].lower for k in self.order] or [np.zeros(0)])
        self.upper = np.concatenate([self.sets[k].upper for k in self.order] or [np.zeros(0)])
        self.pinned: dict[str, np.ndarray] = {}
        for k in model.parameters:
            if k in case.pinned:
                self.pinned[k] = case.pinned[k]
            elif k not in self.sets:
                try:
                    self.pinned[k] = model.pinned_default(k, constants)
                except KeyError:
                    raise CaseError(f"{case.label}: {k} is neither free nor pinned and "
                                    f"{model.name} has no default for it") from None
        self.evaluations = 0
        self.budget = case.search.budget

    # ------------------------------------------------------------------ pieces
    def unpack(self, raw: np.ndarray) -> tuple[dict[str, float], dict[str, np.ndarray]]:
        consts = dict(self.constants)
        inst = dict(self.pinned)
        at = 0
        for k in self.order:
            r = self.sets[k]
            val = r.map(raw[at:at + r.dim])
            at += r.dim
            if k in self.free_consts:
                consts[k] = float(val[0])
            else:
                inst[k] = val
        return consts, inst

    def bound(self, consts: Mapping[str, float]) -> tuple[float, list[str]]:
        if self._fixed_bound is not None and not self.bound_varies:
            return self._fixed_bound
        c = self.case
        vals = dict(consts)
        for k, v in self.model.derived(consts).items():
            if k in vals and not math.isclose(vals[k], v, rel_tol=1e-12, abs_tol=0.0):
                raise CaseError(f"{c.label}: {k}={vals[k]:.15g} conflicts with the model, "
                                f"which gives {k}={v:.15g} from its constants")
            vals[k] = v
        needed = self.result.inputs(c.form)
        missing = [k for k in needed if k not in vals]
        if missing:
            raise CaseError(f"{c.label}: the bound needs {', '.join(missing)}: fix or sweep "
                            "them")
        try:
            ev = evaluate(self.result, c.form, finite=True, **{k: vals[k] for k in needed})
        except (InputError, HypothesisError) as e:
            raise CaseError(f"{c.label}: {e}") from None
        value = ev.value
        if isinstance(value, dict):
            if c.part not in value:
                raise CaseError(f"{c.label}: the form has parts {', '.join(value)}: name one "
                                "as part=")
            value = value[c.part]
        out = (float(np.asarray(value)), list(ev.hidden_constants))
        if not self.bound_varies:
            self._fixed_bound = out
        return out

    def measure(self, consts: Mapping[str, float], inst: Mapping[str, np.ndarray],
                replicas: int, stream: int) -> Measurement:
        if self.evaluations >= self.budget:
            raise _Budget
        self.evaluations += 1
        try:
            self.model.admissible(consts, inst, seed=self.seed)
        except InstanceError as e:
            raise CaseError(f"{self.case.label}: an instance of the declared sets breaks a "
                            f"hypothesis: {e}") from None
        return self.model.measure(consts, inst, self.measure_name, seed=self.seed,
                                  replicas=replicas, stream=stream)

    def ratio(self, measured: float, bound: float) -> float:
        if bound > 0:
            return measured / bound
        if measured == 0 and bound == 0:
            return 1.0
        return math.inf if measured > 0 else (-math.inf if bound == 0 else measured / bound)

    def better(self, a: float, b: float) -> bool:
        """Whether ratio a is worse for the bound than ratio b."""
        if math.isnan(a):
            return False
        if math.isnan(b):
            return True
        return a > b if self.sense == "max" else a < b

    # ------------------------------------------------------------------ modes
    def run(self) -> PointRecord:
        t0 = time.perf_counter()
        mode = self.case.search.mode
        if mode == "auto":
            mode = self._auto()
        self._probe()
        runner: dict[str, Callable[[], tuple[_Best, str, str, dict[str, Any]]]] = {
            "exact": self._exact, "sdp": self._sdp, "optimize": self._optimize,
            "random": self._random}
        best, how, worst_is, detail = runner[mode]()
        default, default_json = self._default() if mode != "sdp" else (None, None)
        if (mode in ("optimize", "random") and default is not None
                and self.better(default.ratio, best.ratio)):
            best = default
            detail["found_by"] = "the default instance (no searched instance did worse)"
        verdict, extra = self._verdict(best, mode)
        detail.update(extra)
        if best.meas.detail and mode != "sdp":
            detail["measurement"] = best.meas.detail
        derived = self.model.derived(best.consts)
        if derived:
            detail["derived"] = sorted(derived)
        return PointRecord(
            constants={k: float(v) for k, v in sorted({**best.consts, **derived}.items())},
            bound=best.bound, hidden_constants=self.bound(best.consts)[1],
            measured=best.meas.value, stderr=best.meas.stderr,
            ratio=self.ratio(best.meas.value, best.bound), verdict=verdict, how=how,
            mode=mode, worst_is=worst_is,
            instance={k: to_jsonable(np.asarray(v)) for k, v in sorted(best.inst.items())},
            raw=None if best.raw is None else [float(x) for x in best.raw], seed=self.seed,
            default=default_json, evaluations=self.evaluations,
            seconds=round(time.perf_counter() - t0, 3), detail=to_jsonable(detail))

    def _probe(self) -> None:
        """Check the instances at the corners and the centre of the raw box against the
        hypotheses before searching (a box that reaches outside [mu, L] is caught at its
        ends even when no search would go there)."""
        if not self.sets:
            return
        for raw in (self.lower, self.upper, 0.5 * (self.lower + self.upper)):
            consts, inst = self.unpack(raw)
            try:
                self.model.admissible(consts, inst, seed=self.seed)
            except InstanceError as e:
                raise CaseError(f"{self.case.label}: an instance of the declared sets breaks "
                                f"a hypothesis: {e}") from None
            self.bound(consts)

    def _auto(self) -> str:
        if self.model.kind == "sdp":
            return "sdp"
        if self.model.kind == "exact":
            try:
                self._decoupled()
                return "exact"
            except NotDecoupled:
                return "optimize"
        return "random"

    def _decoupled(self):
        if self.free_consts:
            raise NotDecoupled(f"constant(s) {', '.join(self.free_consts)} are searched")
        if self.sense != "max":
            raise NotDecoupled("the decoupled worst case maximises (an upper bound)")
        return self.model.decoupled(self.constants, self.sets, self.pinned, self.measure_name)

    def _exact(self) -> tuple[_Best, str, str, dict[str, Any]]:
        try:
            w = self._decoupled()
        except NotDecoupled as e:
            raise CaseError(f"{self.case.label}: no exact worst case: {e}") from None
        inst = {**self.pinned, **w.instance}
        meas = self.measure(self.constants, inst, self.case.search.replicas, 0)
        if not math.isclose(meas.value, w.value, rel_tol=EXACT_RTOL, abs_tol=1e-300):
            raise RuntimeError(f"{self.case.label}: the decoupled worst case {w.value!r} and "
                               f"its instance measured again {meas.value!r} disagree")
        bound = self.bound(self.constants)[0]
        best = _Best(self.ratio(w.value, bound), None, dict(self.constants), inst, bound,
                     Measurement(w.value))
        return best, "exact", "exact", {"method": w.method, **w.detail,
                                        "instance_measured": meas.value}

    def _sdp(self) -> tuple[_Best, str, str, dict[str, Any]]:
        if self.model.kind != "sdp":
            raise CaseError(f"{self.case.label}: {self.model.name} is not an SDP model")
        if self.sets:
            raise CaseError(f"{self.case.label}: an SDP worst case is over the whole function "
                            f"class; free {', '.join(self.sets)} cannot be searched (sweep "
                            "them)")
        self.evaluations += 1
        self.model.admissible(self.constants, self.pinned, seed=self.seed)
        meas = self.model.sdp(self.constants, self.measure_name)
        bound = self.bound(self.constants)[0]
        best = _Best(self.ratio(meas.value, bound), None, dict(self.constants),
                     {}, bound, meas)
        detail = dict(meas.detail)
        detail["ratio_dual"] = self.ratio(float(detail["dual"]), bound)
        return best, "sdp", "sdp", detail

    def _evaluate(self, raw: np.ndarray, replicas: int, stream: int,
                  best: list[_Best]) -> float:
        consts, inst = self.unpack(raw)
        bound = self.bound(consts)[0]
        meas = self.measure(consts, inst, replicas, stream)
        ratio = self.ratio(meas.value, bound)
        if not best or self.better(ratio, best[0].ratio):
            best[:] = [_Best(ratio, raw.copy(), consts, inst, bound, meas)]
        return ratio

    def _rng(self, purpose: int) -> np.random.Generator:
        return np.random.default_rng(np.random.SeedSequence([self.seed, 1000 + self.index,
                                                             purpose]))

    def _optimize(self) -> tuple[_Best, str, str, dict[str, Any]]:
        if self.model.kind != "exact":
            raise CaseError(f"{self.case.label}: optimize needs an exact measure; "
                            f"{self.model.name} is {self.model.kind}: use mode random")
        best: list[_Best] = []
        sign = -1.0 if self.sense == "max" else 1.0
        n = self.lower.size
        starts = [0.5 * (self.lower + self.upper)]
        rng = self._rng(1)
        for _ in range(self.case.search.starts - 1):
            starts.append(rng.uniform(self.lower, self.upper))
        runs = []

        def f(x: np.ndarray) -> float:
            r = self._evaluate(np.clip(x, self.lower, self.upper), 0, 0, best)
            if math.isnan(r):
                return math.inf
            return sign * min(max(r, -1e300), 1e300)

        for s in starts:
            if n == 0:
                try:
                    f(s)
                except _Budget:
                    pass
                break
            try:
                res = minimize(f, s, method="L-BFGS-B",
                               bounds=list(zip(self.lower, self.upper, strict=True)),
                               options={"maxiter": 10_000, "ftol": 1e-15, "gtol": 1e-12})
                runs.append({"ratio": float(sign * res.fun), "iterations": int(res.nit),
                             "message": str(res.message)})
            except _Budget:
                runs.append({"ratio": None, "iterations": None, "message": "budget spent"})
                break
        return best[0], "searched", self._worst_is(), {
            "starts": runs, "budget": self.budget, "method": "L-BFGS-B, finite differences"}

    def _random(self) -> tuple[_Best, str, str, dict[str, Any]]:
        mc = self.model.kind == "monte_carlo"
        reps = self.case.search.replicas
        rng = self._rng(2)
        cands: list[_Best] = []
        while True:
            raw = rng.uniform(self.lower, self.upper)
            one: list[_Best] = []
            try:
                self._evaluate(raw, reps, 0, one)
            except _Budget:
                break
            cands.append(one[0])
            if self.lower.size == 0:
                break
        sign = -1.0 if self.sense == "max" else 1.0
        cands.sort(key=lambda b: (math.isnan(b.ratio), sign * b.ratio))
        detail: dict[str, Any] = {"draws": len(cands), "budget": self.budget,
                                  "method": "seeded uniform draws of the raw coordinates"}
        if not mc:
            return cands[0], "searched", self._worst_is(), detail
        # Monte Carlo: the best draws measured again on independent runs (the search's
        # own estimates favour draws whose runs happened to be high)
        top = cands[:CONFIRM_TOP]
        self.budget += len(top)
        confirmed = []
        for b in top:
            search = b.meas
            b.meas = self.measure(b.consts, b.inst, self.case.search.confirm, 1)
            b.ratio = self.ratio(b.meas.value, b.bound)
            confirmed.append({"search_ratio": self.ratio(search.value, b.bound),
                              "search_stderr": search.stderr, "ratio": b.ratio,
                              "stderr": b.meas.stderr})
        best = min(top, key=lambda b: (math.isnan(b.ratio), sign * b.ratio))
        detail.update(replicas=reps, confirm_replicas=self.case.search.confirm,
                      confirmed=confirmed)
        return best, "searched", self._worst_is(), detail

    def _worst_is(self) -> str:
        return "at least" if self.sense == "max" else "at most"

    # ------------------------------------------------------------------ verdicts
    def _verdict(self, best: _Best, mode: str) -> tuple[str, dict[str, Any]]:
        m, bound = best.meas.value, best.bound
        upper = self.sense == "max"
        if mode == "sdp":
            d = best.meas.detail
            if not d.get("accepted", False):
                return "REFUSED", {"why": "PEPit's relative duality gap exceeds the limit"}
            dual, primal = float(d["dual"]), float(d["primal"])
            slack = 1e-12 * max(abs(dual), 1e-300)
            if bound >= dual - slack:
                return "HOLDS", {}
            if bound < primal - slack:
                return "VIOLATED", {}
            return "INCONCLUSIVE", {"why": "the bound lies between PEPit's primal and dual"}
        if best.meas.stderr > 0:
            z = float(norm.ppf(self.case.search.confidence))
            lo, hi = m - z * best.meas.stderr, m + z * best.meas.stderr
            extra = {"interval": [lo, hi], "confidence": self.case.search.confidence}
            if (lo > bound) if upper else (hi < bound):
                return "VIOLATED", extra
            if (hi <= bound) if upper else (lo >= bound):
                return "HOLDS", extra
            return "INCONCLUSIVE", extra
        tol = EXACT_RTOL * max(abs(bound), 1e-300)
        beyond = m > bound + tol if upper else m < bound - tol
        return ("VIOLATED" if beyond else "HOLDS"), {}

    def _default(self) -> tuple[_Best | None, dict[str, Any] | None]:
        """The model's default instance (with the case's pinned values) and its ratio, when
        the model has one and no constant is searched; a Monte Carlo measure uses the runs
        of the confirmations (stream 1) with as many replicas."""
        if self.free_consts:
            return None, None
        d = self.model.default(self.constants)
        if d is None:
            return None, None
        inst = {**d, **dict(self.case.pinned)}
        try:
            self.model.admissible(self.constants, inst, seed=self.seed)
        except InstanceError as e:
            return None, {"instance": None, "why": str(e)}
        self.evaluations += 1
        meas = self.model.measure(self.constants, inst, self.measure_name, seed=self.seed,
                                  replicas=self.case.search.confirm, stream=1)
        bound = self.bound(self.constants)[0]
        ratio = self.ratio(meas.value, bound)
        out = {"measured": meas.value, "stderr": meas.stderr, "ratio": ratio,
               "instance": {k: to_jsonable(np.asarray(v)) for k, v in sorted(inst.items())}}
        return _Best(ratio, None, dict(self.constants), inst, bound, meas), out
