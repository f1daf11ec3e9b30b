"""Mutation audit: the operators, the classification, the recording of evaluated forms, the
substitution, and the audit of a paper whose bounds are tight, loose, wrong and unused."""

from __future__ import annotations

import json

import numpy as np
import pytest
import sympy as sp

from pflbounds.audit.mutants import audit_mutants, format_table
from pflbounds.audit.mutate import classify, direction, mutants
from pflbounds.audit.record import FormKey, recording, substituted
from pflbounds.cli import main
from pflbounds.symbolic import catalog
from pflbounds.symbolic.hidden import Otilde

K = sp.Symbol("K", positive=True, integer=True)
N = sp.Symbol("N", positive=True, integer=True)
x, y = sp.symbols("x y", positive=True)


POINTS = [{x: 0.3, y: 1.7, K: 3, N: 5}, {x: 0.6, y: 0.4, K: 7, N: 2}]


def operator_of(expr, target):
    """The operator of the mutant of ``expr`` equal to ``target`` at sample points (None if
    there is none)."""
    want = [complex(target.subs(p)) for p in POINTS]
    for m in mutants(expr):
        got = [complex(m.expr.subs(p)) for p in POINTS]
        if np.allclose(got, want, rtol=1e-12, atol=0):
            return m.operator
    return None


def test_operators_cover_factors_exponents_terms_and_logs():
    expr = 2 * (1 - x) ** K * y + x / (4 * N) + sp.log(3 * K)
    assert operator_of(expr, (1 - x) ** K * y + x / (4 * N) + sp.log(3 * K)) == "factor"
    assert operator_of(expr, 2 * (1 - x) ** K * y + x / (8 * N) + sp.log(3 * K)) == "factor"
    assert operator_of(expr, 2 * (1 - x) ** (K + 1) * y + x / (4 * N) + sp.log(3 * K)) \
        == "exponent"  # a contraction factor
    assert operator_of(expr, 2 * (1 - x) ** K * y + x / (4 * N**2) + sp.log(3 * K)) \
        == "exponent"
    assert operator_of(expr, 2 * (1 - x) ** K * y + sp.log(3 * K)) == "drop"
    assert operator_of(expr, 2 * (1 - x) ** K * y + x / (4 * N) + sp.log(3 * K) - 1) == "log"
    found = [m.expr for m in mutants(expr)]
    assert expr not in found and len(set(found)) == len(found)  # distinct, no identity


def test_constant_factors_inside_hidden_constants_are_left_alone():
    expr = y + Otilde(3 * x / K)
    changes = [m.change for m in mutants(expr)]
    assert not any("3 -> " in c for c in changes)  # O(3x/K) and O(x/K) are the same claim
    assert any("exponent of K" in c for c in changes)  # the rate inside O() is a claim


def test_exponential_contraction_factor_and_fractional_exponent():
    expr = sp.exp(-K * x) + 1 / sp.sqrt(N)
    assert operator_of(expr, sp.exp(-(K + 1) * x) + 1 / sp.sqrt(N)) == "exponent"
    assert operator_of(expr, sp.exp(-K * x) + N ** sp.Rational(-1, 4)) == "exponent"  # halved
    assert operator_of(expr, sp.exp(-K * x) + N ** sp.Rational(1, 2)) is None  # not +-1


@pytest.mark.parametrize(("mutant", "sign", "expected"), [
    (x / 2, 1, "stronger"), (2 * x, 1, "weaker"), (x / 2, -1, "weaker"),
    (x**2, 1, "mixed"), (x + 0 * y, 1, "equivalent"), (sp.log(x - 3), 1, "undefined"),
    (x / 2, 0, "no direction"),
])
def test_classify(mutant, sign, expected):
    inputs = [{"x": np.array([0.5, 2.0]), "y": np.array(1.0)}]
    assert classify(x, mutant, inputs, sign) == expected


def test_direction_of_results(audit_paper):
    assert direction(catalog.get("auditpaper.tight")) == 1
    assert direction(catalog.get("even2022.theorem1")) == -1  # a lower bound
    assert direction(catalog.get("even2022.eq6")) == 0  # a step-size rule


def test_recording_names_the_forms_and_inputs_and_substitution_restores(audit_paper):
    from pflbounds.checking import registry
    from pflbounds.running.executor import run_check

    check = registry.get("auditpaper.loose")
    key = FormKey("auditpaper.loose", "printed")
    with recording({key.expr(): [key]}) as calls:
        run_check(check, progress=False)
    assert [k for k, _ in calls] == [key]
    assert calls[0][1]["eta"] == pytest.approx(0.1) and calls[0][1]["K"].shape == (20,)
    original = key.expr()
    smaller = original / 4
    with substituted(key, smaller) as used:
        o = run_check(check, progress=False)
        assert catalog.get("auditpaper.loose").form("printed").expr == smaller
    assert used and o.verdict.value == "VIOLATED"
    assert catalog.get("auditpaper.loose").form("printed").expr == original


def shown_note(a):
    """The notes of the surviving mutants of the unused form (none was given)."""
    return [m.note for m in a.survivors if m.key.result_id == "auditpaper.shown" and m.note]


def test_audit_of_tight_loose_wrong_and_unused_forms(audit_paper):
    a = audit_mutants("auditpaper", seed=0, notes={"auditpaper.loose:printed": "on purpose"})
    rows = {(r["result"], r["form"]): r for r in a.rows()}
    tight = rows[("auditpaper.tight", "printed")]
    assert tight["stronger"] == tight["caught"] == 5  # an exact bound: every stronger caught
    assert rows[("auditpaper.wrong", "printed")]["refuted"] == 5  # erratum still confirmed
    assert rows[("auditpaper.wrong", "corrected")]["caught"] == 5
    loose = [m for m in a.survivors if m.key.result_id == "auditpaper.loose"]
    assert {m.change for m in loose} == {
        "2 -> 1 in 2*Delta0*(-eta*mu + 1)**K",
        "exponent of the contraction factor -eta*mu + 1: K -> K + 1"}
    assert "still HOLDS, margin 1.11 (original 2.22)" in loose[0].explanation
    assert loose[0].note == "on purpose" and not shown_note(a)
    shown = [m for m in a.survivors if m.key.result_id == "auditpaper.shown"]
    assert len(shown) == 5
    assert all("the evidence its verdict reads is unchanged" in m.explanation for m in shown)
    d = a.to_dict()
    assert d["totals"] == {"mutants": 56, "stronger": 25, "caught": 13, "refuted": 5,
                           "survived": 7, "detected_fraction": pytest.approx(18 / 25)}
    text = format_table(a)
    assert "stronger mutants caught or refuted: 18 of 25 (72.0%)" in text


def test_audit_refuses_bad_grids_and_unknown_papers(audit_paper):
    with pytest.raises(ValueError, match="grids must be some of"):
        audit_mutants("auditpaper", grids=("huge",))
    with pytest.raises(KeyError, match="no registered checks"):
        audit_mutants("nosuchpaper")


def test_cli_audit_mutants_writes_json(audit_paper, tmp_path, capsys):
    assert main(["audit", "mutants", "--paper", "auditpaper", "--only", "auditpaper.loose",
                 "--out", str(tmp_path), "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["totals"]["stronger"] == 5 and doc["totals"]["survived"] == 2
    assert json.loads((tmp_path / "mutants-auditpaper.json").read_text()) == doc


def test_a_mutant_that_loses_an_input_still_accepts_it(audit_paper):
    """A mutant without one of the form's symbols (a dropped term) is served with the form's
    inputs: an evaluation that passes every input of the form runs the mutant instead of
    failing on an unexpected input (which no check would ever have run)."""
    from pflbounds.audit.record import keeping_inputs
    from pflbounds.symbolic.evaluate import evaluate

    assert keeping_inputs(x + y, x * 2) != x * 2
    assert keeping_inputs(x + y, x * 2).free_symbols == {x, y}
    assert keeping_inputs(x + y, 2 * x + y) == 2 * x + y
    from pflbounds.symbolic.constants import Delta0

    key = FormKey("auditpaper.loose", "printed")
    lost = key.expr().subs(Delta0, 1)  # 2 (1 - eta mu)^K: Delta0 gone
    assert Delta0 not in lost.free_symbols
    ks = np.array([1.0, 2.0])
    with substituted(key, lost) as calls:
        v = evaluate(catalog.get(key.result_id), "printed", eta=0.1, mu=1.0, K=ks, Delta0=5.0)
    assert np.allclose(v.value, 2 * 0.9**ks, rtol=1e-12) and len(calls) == 1
    v = evaluate(catalog.get(key.result_id), "printed", eta=0.1, mu=1.0, K=ks, Delta0=5.0)
    assert np.allclose(v.value, 10 * 0.9**ks, rtol=1e-12)  # restored


def test_audit_runs_only_the_declared_checks(audit_paper, tmp_path, monkeypatch, capsys):
    """AUDIT_CHECKS (patterns) restricts the checks that run: the forms only the others
    evaluate are not audited, and the left-out checks are listed."""
    a = audit_mutants("auditpaper", audited=["auditpaper.l*"])
    assert {r["result"] for r in a.rows()} == {"auditpaper.loose"}
    assert sorted(a.left_out) == ["auditpaper.E1", "auditpaper.tight"]
    assert sorted(a.baseline) == ["auditpaper.loose"]
    assert a.to_dict()["totals"]["stronger"] == 5
    assert "not audited (outside the paper's AUDIT_CHECKS): auditpaper." in format_table(a)
    with pytest.raises(ValueError, match="audited checks auditpaper.nope: no check"):
        audit_mutants("auditpaper", audited=["auditpaper.tight", "auditpaper.nope"])
    from pflbounds.audit.declarations import audit_module

    monkeypatch.setattr(audit_module("auditpaper"), "AUDIT_CHECKS", ["auditpaper.E1"],
                        raising=False)
    assert main(["audit", "mutants", "--paper", "auditpaper", "--out", str(tmp_path),
                 "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert sorted(doc["checks_left_out"]) == ["auditpaper.loose", "auditpaper.tight"]
    assert {r["result"] for r in doc["rows"]} == {"auditpaper.wrong", "auditpaper.shown"}


@pytest.mark.parametrize(("args", "message"), [
    (["--paper", "nopaper"], "--paper 'nopaper': unknown paper"),
    (["--paper", "auditpaper", "--grids", "huge"], "--grids 'huge': expected quick, full"),
    (["--paper", "auditpaper", "--only", "auditpaper.nope"], "--only auditpaper.nope: not a"),
])
def test_cli_audit_mutants_bad_input_is_one_line(audit_paper, args, message, capsys):
    assert main(["audit", "mutants", *args]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


@pytest.mark.slow
def test_even2022_audit_decides_and_explains_every_stronger_mutant():
    """The audit of the real paper on its quick grids, in two worker processes: every
    baseline as expected, every stronger mutant run and decided, every substituted form
    reached by the checks that ran it, every survivor explained; the forms that errata
    refute (Theorem 2's proof display, Theorem 3 as printed with its explicit constants)
    stay refuted under every stronger mutant."""
    from pflbounds.audit.declarations import declared

    a = audit_mutants("even2022", seed=2022, jobs=2,
                      notes=declared("even2022", "MUTANT_NOTES", {}))
    assert a.excluded == []
    assert all(m.status in ("caught", "refuted", "survived") for m in a.stronger)
    assert all(r.evaluated for m in a.stronger for r in m.runs)
    assert all(m.explanation for m in a.survivors)
    rows = {(r["result"], r["form"]): r for r in a.rows()}
    for key in (("even2022.theorem2", "proof"), ("even2022.theorem3", "explicit")):
        assert rows[key]["stronger"] > 0 and rows[key]["refuted"] == rows[key]["stronger"]
