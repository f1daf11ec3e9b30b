"""hanzely2023's instance relations: what they refuse and what they must not refuse (an
absent block, every objective of the catalogue at admissible base constants), the calculator
refusing exactly what ``eval`` refuses, the target against the initial error, and Lemma 5's
statement standing with L^w (its erratum is a slip of the proof's wording)."""

from __future__ import annotations

import numpy as np
import pytest

from pflbounds.checking import CheckKind, Verdict, registry
from pflbounds.symbolic import HypothesisError, InputError, evaluate, get
from pflbounds.symbolic.catalog import instance_relations
from pflbounds.symbolic.complexity import complexity_table
from pflbounds.symbolic.loader import load_papers

load_papers()
H = "hanzely2023."


def _t7(**kw):
    return evaluate(get(H + "theorem7"), **{"Delta0": 1, "eps": 0.01, "mu": 1, **kw}).value


def test_an_absent_block_puts_no_bound_on_mu():
    # traditional FL has no beta-block (Table 2: L^beta = 0) and mu = mu' > 0
    v = _t7(Lw=4, Lb=0)
    assert v["grad_beta"] == 0 and v["iterations"] == pytest.approx(2 * np.log(100))
    # a present block with a constant below mu is no instance
    with pytest.raises(InputError, match=r"mu <= Lb unless Lb = 0\] fails: Lb=0.5, mu=1"):
        _t7(Lw=4, Lb=0.5)
    with pytest.raises(InputError, match=r"Lb=0, Lw=0"):
        _t7(Lw=0, Lb=0)


def test_eps_at_or_above_the_initial_error_is_refused():
    below = _t7(Lw=4, Lb=1, eps=0.999)
    assert all(x > 0 for x in below.values())
    for eps in (1.0, 3.0):
        with pytest.raises(InputError, match=rf"eps={eps:g} >= Delta0=1"):
            _t7(Lw=4, Lb=1, eps=eps)


def test_explicit_theorem1_count_is_zero_when_the_start_meets_the_target():
    """Theorem 1's explicit count (from Theorem 5) is a max(0, ...): a target above the
    initial error needs no iteration, and is not refused."""
    v = evaluate(get(H + "theorem1"), "explicit", B=4, Db0=1e-6, Dw0=1e-6, Lb=0, Lw=1, M=10,
                 eps=10.0, mu=0.1, sigma2=1, tau=2, zeta2=0.1).value
    assert v == 0


_BASE = {"mup": 0.2, "Lp": 2.0, "Lcp": 4.0, "lam": 0.4, "Lam": 7.0, "amax": 0.3, "amin": 0.1,
         "M": 5, "mu": 0.1, "LwR": 1.0, "LbR": 2.0, "LcwR": 3.0, "LcbR": 4.0}


@pytest.mark.parametrize("key", ["fl", "full", "mt2", "mt-extended", "mx2", "apfl2", "ws2",
                                 "residual", "mt2-unscaled", "mx2-unscaled", "apfl2-unscaled",
                                 "ws2-unscaled"])
def test_every_objective_passes_the_relations_at_admissible_base_constants(key):
    from pflbounds.papers.hanzely2023.objectives import OBJECTIVES

    vals = {x: _BASE[x] for x in OBJECTIVES[key].inputs}
    t = complexity_table("hanzely2023", {**vals, "n": 10, "eps": 1e-3}, {},
                         objective=key).to_dict()
    acd = next(r for r in t["rows"] if r["algorithm"] == "acd-pfl")
    assert acd["iterations"] > 0 and np.isfinite(acd["iterations"])


@pytest.mark.parametrize("bad", [
    {"mu": 2.0}, {"Lw": 0.0, "Lb": 0.0}, {"Lcw": 0.5}, {"Lcb": 0.5}, {"n": 1},
    {"eps": 2.0, "Delta0": 1.5},
])
def test_the_calculator_refuses_what_eval_refuses_with_the_same_reason(bad):
    good = {"mu": 0.1, "Lw": 1.0, "Lb": 1.0, "Lcw": 2.0, "Lcb": 3.0, "n": 10, "eps": 0.01,
            "Delta0": 1.0}
    point = {**good, **bad}
    complexity_table("hanzely2023", good, {})  # the good point is accepted
    with pytest.raises(InputError) as calc:
        complexity_table("hanzely2023", point, {})
    with pytest.raises(InputError) as ev:
        for rid, form in (("theorem7", None), ("theorem6", "appendix"), ("theorem8", None),
                          ("unrescaled", None)):
            r = get(H + rid)
            evaluate(r, form, strict=False, rho=0.1, M=2,
                     **{k: v for k, v in point.items() if k in r.inputs(form) or k == "M"})
    assert str(calc.value).split(": ", 1)[1] == str(ev.value).split(": ", 1)[1]


def test_base_constant_relations_hold_on_certified_instances():
    """mu' <= L' <= Lcal' <= n L' on the random least-squares clients of the checks: the
    relations refuse no instance the checks build."""
    from pflbounds.papers.hanzely2023.checks.common import instance
    from pflbounds.symbolic.evaluate import check_relations

    rels = instance_relations("hanzely2023")
    for s in range(3):
        obj = instance({"objective": "mx2", "lam": 0.5, "instance": s, "M": 4, "d": 3,
                        "n": 6})
        check_relations(rels, {**obj.base_constants, **obj.constants, "n": obj.n})


def test_lemma5_statement_stands_and_its_check_measures_it():
    assert list(get(H + "lemma5").forms) == ["printed"]
    assert list(get(H + "lemma6").forms) == ["printed"]
    e = next(x for x in get(H + "lemma5").errata if x.id == H + "lemma5_constant")
    assert e.forms == () and e.check_id == H + "P_lemma5" and "not of the statement" in e.what
    chk = registry.get(H + "P_lemma5")
    assert chk.kind is CheckKind.BOUND_HOLDS and chk.expected is Verdict.HOLDS
    out = chk.simulate(chk.quick_grid[0], 1, None)
    assert float(out["Lw_over_Lb"]) < 0.5  # where L = max{L^w, L^beta} would be L^beta
    assert np.all(out["mean"] <= out["bound"]) and np.max(out["mean"] / out["bound"]) > 0.1


def test_lemma13_needs_a_step_below_one_over_mu():
    r = get(H + "lemma13")
    v = evaluate(r, C1=1, C2=1, L=2, M=3, etak=0.5, lam_dis=1, mu=1, tau=2).value
    assert v["45"] > 0
    with pytest.raises(HypothesisError, match="etak=1, mu=1"):
        evaluate(r, C1=1, C2=1, L=2, M=3, etak=1, lam_dis=1, mu=1, tau=2)
