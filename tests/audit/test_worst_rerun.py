"""The survivors' re-run on recorded worst instances (:mod:`pflbounds.audit.worst_rerun`),
on synthetic tightness entries about real forms: the mutant is evaluated at each recorded
point against the measurement there, exact, Monte Carlo (its confidence limit) or PEPit,
for an upper bound and a lower bound."""

from __future__ import annotations

import pytest

from pflbounds.audit.mutate import mutants
from pflbounds.audit.record import FormKey
from pflbounds.audit.worst_rerun import rerun_mutant, worst_summary
from pflbounds.symbolic import catalog, evaluate

T2 = FormKey("even2022.theorem2", "explicit")
VALS = {"B": 0.01, "Delta0": 1.0, "K": 20.0, "L": 1.0, "V": 0.625, "eta": 0.5, "mu": 0.05,
        "sigma2": 0.05}


def _halved_first_term():
    return next(m for m in mutants(T2.expr()) if m.change.startswith("Delta0*(-eta*mu + 1)**K")
                and m.change.endswith("x 1/2"))


def _entry(measured: float, stderr: float = 0.0, sense: str = "max", key: FormKey = T2,
           values: dict | None = None, kind: str = "search", fixed: dict | None = None,
           bound: float | None = None) -> dict:
    values = values or VALS
    if bound is None:
        bound = float(evaluate(catalog.get(key.result_id), key.form, **values).value)
    ev = {"kind": kind, "values": values, **({"fixed": fixed} if fixed is not None else {})}
    return {"result": key.result_id, "form": key.form, "part": key.part, "sense": sense,
            "source": "WORST_CASES[0]", "points": [{
                "constants": values, "bound": bound, "measured": measured, "stderr": stderr,
                "confidence": 0.99, "how": "exact", "worst_is": "exact",
                "instance": "K=20: somewhere", "eval": ev}]}


def _mutant_value(m) -> float:
    from pflbounds.audit.record import substituted

    with substituted(T2, m.expr):
        return float(evaluate(catalog.get(T2.result_id), "explicit", **VALS).value)


def test_true_caught_and_unreached_at_an_exact_point():
    m = _halved_first_term()
    bound = float(evaluate(catalog.get(T2.result_id), "explicit", **VALS).value)
    mv = _mutant_value(m)
    assert mv < bound
    w = rerun_mutant(T2, m.change, m.formula, [_entry(0.5 * mv)])
    assert w["status"] == "true at the worst instance"
    assert w["factor"] == pytest.approx(bound / mv) and w["ratio_to_mutant"] == pytest.approx(.5)
    w = rerun_mutant(T2, m.change, m.formula, [_entry(1.01 * mv)])
    assert w["status"] == "caught at the worst instance" and w["ratio_to_mutant"] > 1
    assert rerun_mutant(T2, m.change, m.formula, [])["status"] == "unreached"
    # at Delta0 = 0 the halved term vanishes: the mutant equals the bound there
    flat = _entry(0.0, values={**VALS, "Delta0": 0.0})
    w = rerun_mutant(T2, m.change, m.formula, [flat])
    assert w["status"] == "unreached" and "At no point searched" in w["why"]


def test_a_monte_carlo_point_is_caught_only_beyond_its_confidence_limit():
    m = _halved_first_term()
    mv = _mutant_value(m)
    noisy = _entry(1.01 * mv, stderr=0.05 * mv)  # above the mutant, within the noise
    assert rerun_mutant(T2, m.change, m.formula, [noisy])["status"] == \
        "true at the worst instance"
    sure = _entry(1.5 * mv, stderr=0.05 * mv)
    assert rerun_mutant(T2, m.change, m.formula, [sure])["status"] == \
        "caught at the worst instance"


def test_a_pepit_point_is_evaluated_with_its_fixed_inputs():
    m = _halved_first_term()
    pep = _entry(0.3, kind="pepit", values={"mu": 1.0, "L": 20.0, "eta": 0.05, "K": 1.0,
                                             "Delta0": 1.0},
                 fixed={"sigma2": 0.0, "B": 0.0, "V": 1.0}, bound=0.95)
    w = rerun_mutant(T2, m.change, m.formula, [pep])
    assert w["status"] == "true at the worst instance"
    assert w["mutant"] == pytest.approx(0.95 / 2)  # (1 - eta mu)^K Delta0 / 2 at K = 1


def test_a_lower_bound_is_caught_below_a_stronger_mutant():
    key = FormKey("even2022.theorem1", "explicit")
    vals = {"d": 20.0, "eps": 5e-5, "N_eff": 2.0}
    doubled = next(m for m in mutants(key.expr()) if m.change.endswith("x 1/2"))
    entry = _entry(0.0, sense="min", key=key, values=vals)
    lb = entry["points"][0]["bound"]
    entry["points"][0]["measured"] = 0.9 * lb  # a method beats even the original
    w = rerun_mutant(key, doubled.change, doubled.formula, [entry])
    # halving the -log 2 of its numerator raises the lower bound: a stronger claim
    assert w["status"] == "caught at the worst instance" and w["factor"] > 1


def test_the_summary_counts_every_stronger_mutant_once():
    ms = [{"status": "caught"}, {"status": "refuted"},
          {"status": "survived", "worst": {"status": "true at the worst instance"}},
          {"status": "survived", "worst": {"status": "unreached"}},
          {"status": "survived"}]
    s = worst_summary(ms)
    assert (s["accounted"], s["unreached"], s["not re-run"]) == (3, 1, 1)
    assert s["accounted_fraction"] == pytest.approx(0.6)
