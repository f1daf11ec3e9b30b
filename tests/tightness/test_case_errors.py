"""A case that cannot be searched as declared is refused in one line that says why: its
bound's hypotheses at the case's constants, a model's missing constants, an unknown
parameter, a mode that does not apply; and the engine stays paper-neutral."""

from __future__ import annotations

import ast
from dataclasses import replace
from pathlib import Path

import pytest

import pflbounds.tightness as tightness
from pflbounds.tightness import (
    Box,
    CaseError,
    Search,
    SearchCase,
    Simplex,
    Sphere,
    get_model,
    run_case,
    spectrum,
)

FIXED = {"mu": 1e-3, "L": 1.0, "eta": 1.0, "K": 20, "sigma2": 0.002, "R0": 1.0, "d": 2}
FREE = {"spectrum": spectrum(), "noise": Simplex("d", "sigma2"), "x0": Sphere("d", "sqrt(R0)")}
BASE = SearchCase("tightfix.sgd_worst", "printed", "quadratic_sgd", fixed=FIXED, free=FREE)


def _refused(case: SearchCase, match: str) -> None:
    with pytest.raises(CaseError, match=match) as info:
        run_case(case)
    assert "\n" not in str(info.value)


def test_the_bounds_hypotheses_are_enforced(tightfix):
    _refused(replace(BASE, fixed={**FIXED, "eta": 2.0}), r"eta <= 1/L")
    _refused(replace(BASE, fixed={**FIXED, "mu": 2.0}), r"mu=2 > L=1")
    _refused(replace(BASE, fixed={**FIXED, "K": 2.5}), r"K=2.5 is outside its domain")


def test_a_searched_step_may_not_leave_the_bounds_hypotheses(tightfix):
    _refused(replace(BASE, fixed={k: v for k, v in FIXED.items() if k != "eta"},
                     free={**FREE, "eta": Box(1, 0.5, 1.5)},
                     search=Search(mode="optimize", starts=1, budget=10)), r"eta <= 1/L")


def test_models_and_parameters_are_checked(tightfix):
    _refused(replace(BASE, model="no_such_model"), r"unknown model 'no_such_model'")
    _refused(replace(BASE, free={**FREE, "teacher": Box(2, 0, 1)}),
             r"teacher is neither a parameter of quadratic_sgd")
    _refused(replace(BASE, fixed={k: v for k, v in FIXED.items() if k != "sigma2"}),
             r"needs the constant\(s\) sigma2")
    _refused(replace(BASE, measure="median"), r"measure 'median': the model offers last, "
                                              r"distance")
    _refused(replace(BASE, free={**FREE, "x0": Sphere("d", "sqrt(R1)")}),
             r"free x0: sphere radius = 'sqrt\(R1\)': unknown name")


def test_modes_that_do_not_apply_are_refused(tightfix):
    pinned_x0 = replace(BASE, free={k: v for k, v in FREE.items() if k != "x0"},
                        pinned={"x0": [1.0, 0.0]}, search=Search(mode="exact"))
    _refused(pinned_x0, r"no exact worst case: the exact worst case needs x0 searched over a "
                        r"sphere")
    _refused(replace(BASE, search=Search(mode="sdp")), r"quadratic_sgd is not an SDP model")
    sdp = SearchCase("tightfix.gd_rate", "printed", "gd_pepit",
                     fixed={"mu": 0.1, "L": 1, "eta": 1, "Delta0": 1},
                     free={"K": Box(1, 1, 5)})
    _refused(sdp, r"over the whole function class; free K cannot be searched")
    mc = SearchCase("tightfix.sgd_any", "printed", "logistic_sgd",
                    fixed={"mu": 0.05, "L": 1, "eta": 0.5, "K": 5, "sigma2": 1, "R0": 1,
                           "d": 2, "n": 10},
                    free={"x0": Sphere("d", "sqrt(R0)")}, search=Search(mode="optimize"))
    _refused(mc, r"optimize needs an exact measure; logistic_sgd is monte_carlo")


def test_an_equality_has_no_worst_case(tightfix):
    _refused(SearchCase("tightfix.step_rule", "printed", "quadratic_sgd", fixed=FIXED),
             r"states an equality")


def test_a_fixed_constant_must_agree_with_the_model(tightfix):
    fixed = {"mu": 0.1, "L": 1.0, "eta": 1.0, "K": 5, "sigma2": 0.0, "Delta0": 1.0, "d": 1,
             "b": 1.0, "lam": 0.5, "B": 0.3}
    _refused(SearchCase("tightfix.afo_pair", "printed", "afo_two_agents", fixed=fixed),
             r"B=0.3 conflicts with the model, which gives B=0.5")


@pytest.mark.parametrize(("kw", "match"), [
    ({"fixed": {"K": float("nan")}}, r"K=nan: expected a finite number"),
    ({"fixed": {"K": 1}, "sweep": {"K": [1, 2]}}, r"K is both fixed and swept"),
    ({"fixed": {"d": 1}, "free": {"d": Box()}}, r"d is both free and fixed"),
    ({"fixed": {}, "free": {"x0": "a sphere"}}, r"free parameter x0: expected a set"),
])
def test_declarations_are_checked_when_made(kw, match):
    args = {"fixed": {}, **kw}
    with pytest.raises(CaseError, match=match):
        SearchCase("x.y", "printed", "quadratic_sgd", **args)


@pytest.mark.parametrize(("kw", "match"), [
    ({"budget": 0}, r"budget=0: expected an integer >= 1"),
    ({"mode": "grid"}, r"search mode 'grid': expected one of auto, exact"),
    ({"replicas": 1}, r"replicas=1: expected an integer >= 2"),
    ({"confidence": 1.0}, r"confidence=1.0: expected a number in \(0.5, 1\)"),
])
def test_search_settings_are_checked(kw, match):
    with pytest.raises(CaseError, match=match):
        Search(**kw)


def test_a_model_can_be_named_by_its_dotted_path():
    m = get_model("pflbounds.tightness.quadratic:QuadraticSGD")
    assert m.name == "quadratic_sgd" and m.kind == "exact"
    with pytest.raises(KeyError, match="is not a tightness model"):
        get_model("pflbounds.tightness.spaces:Box")


def test_the_engine_never_imports_a_paper():
    root = Path(tightness.__file__).parent
    for path in root.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [node.module or ""]
            for n in names:
                assert not n.startswith("pflbounds.papers"), f"{path.name} imports {n}"
