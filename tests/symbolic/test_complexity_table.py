"""The typed complexity table and the input checks every calculator shares, on the fixture
paper ``toypaper`` (Corollary 1: K_eps = ceil(ln(2 Delta0/eps)/(eta mu)) iterations, for
eta <= 1/L and eta L sigma2/(mu B) <= eps; rounds ceil(K/b), samples K B)."""

from __future__ import annotations

import json
import math

import pytest

from pflbounds.cli import main
from pflbounds.symbolic import InputError, catalog
from pflbounds.symbolic.complexity import ComplexityRow, ComplexityTable, complexity_table

POINT = dict(eta=0.1, mu=1.0, L=2.0, sigma2=0.1, B=4, Delta0=1.0, eps=0.5)
ARGS = [f"{k}={v:g}" for k, v in POINT.items()]


@pytest.fixture
def toy(extra_paper):
    extra_paper("toypaper")
    catalog.load_papers()


def test_rows_counts_and_the_fewest_per_column(toy):
    t = complexity_table("toypaper", {**POINT, "b": 5}, {})
    assert isinstance(t, ComplexityTable) and t.paper == "toypaper"
    k = math.ceil(math.log(2 * 1.0 / 0.5) / 0.1)
    assert [r.method for r in t.rows] == ["minibatch SGD (b = 5)", "minibatch SGD (b = 1)"]
    assert [r.counts for r in t.rows] == [
        {"iterations": k, "rounds": math.ceil(k / 5), "samples": 4 * k},
        {"iterations": k, "rounds": k, "samples": 4 * k}]
    assert all(r.result == "toypaper.corollary1" and r.relation == "=" for r in t.rows)
    assert t.best == {"iterations": "minibatch SGD (b = 5)", "rounds": "minibatch SGD (b = 5)",
                      "samples": "minibatch SGD (b = 5)"}
    t.require_inputs()  # every row has its numbers: no error


def test_missing_inputs_are_named_all_at_once(toy):
    t = complexity_table("toypaper", {"eta": 0.1, "eps": 0.5}, {})
    assert all(set(r.missing) == {"B", "Delta0", "L", "mu", "sigma2"} for r in t.rows)
    with pytest.raises(InputError) as e:
        t.require_inputs()
    msg = str(e.value)
    assert msg.startswith("complexity for toypaper needs more inputs: B (minibatch size); ")
    assert all(f"{n} (" in msg for n in ("Delta0", "L", "mu", "sigma2"))
    assert " for minibatch" not in msg  # every row lacks them: no row is named
    assert set(e.value.missing) == {"B", "Delta0", "L", "mu", "sigma2"}


@pytest.mark.parametrize("change, message", [
    ({"B": 0}, r"B=0 is outside its domain: expected an integer >= 1 \(minibatch size\)"),
    ({"mu": 3.0}, r"mu=3 > L=2: a mu-strongly convex quadratic"),
    ({"foo": 1.0, "T": 2.0}, r"unexpected input\(s\) T, foo for complexity --paper toypaper; "
                             r"it takes: B, Delta0, L, b, eps, eta, mu, sigma2"),
])
def test_inputs_are_checked_before_any_row(toy, change, message):
    with pytest.raises(InputError, match=message):
        complexity_table("toypaper", {**POINT, **change}, {})


def test_a_point_outside_a_form_s_hypotheses_is_the_row_s_error(toy):
    t = complexity_table("toypaper", {**POINT, "eta": 0.6}, {})
    assert all("eta <= 1/L" in r.error and r.counts["iterations"] is None for r in t.rows)
    with pytest.raises(InputError, match="no method of toypaper applies to these inputs: "
                                         r"minibatch SGD \(b = 1\): condition eta <= 1/L"):
        t.require_inputs()


def test_the_command_line_prints_the_table_and_its_json(toy, capsys):
    t = complexity_table("toypaper", {**POINT, "b": 5}, {})
    assert main(["complexity", "--paper", "toypaper", *ARGS, "b=5"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out == t.text()
    assert out[0] == "toypaper: iterations, rounds and samples to reach eps"
    assert out[1].split() == ["method", "iterations", "rounds", "samples", "result", "[form]"]
    assert "  fewest rounds: minibatch SGD (b = 5)" in out
    assert main(["complexity", "--paper", "toypaper", *ARGS, "b=5", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc == json.loads(json.dumps(t.to_dict()))
    assert doc["columns"] == [["iterations", "iterations"], ["rounds", "rounds"],
                              ["samples", "samples"]]
    assert doc["rows"][0]["rounds"] == 3 and doc["rows"][0]["guaranteed"] is True
    assert main(["complexity", "--paper", "toypaper", "eta=0.1"]) == 2
    assert "needs more inputs" in capsys.readouterr().err


def test_a_calculator_that_returns_a_dict_keeps_its_document():
    doc = {"question": "q", "lines": ["a line"], "objective": {"key": "o"},
           "columns": [["rounds", "comm rounds"]],
           "rows": [{"method": "m", "result": "p.r", "form": "printed", "rounds": 3.0,
                     "hidden_constants": [], "parameters": {"tau": 2}},
                    {"method": "n", "algorithm": "x", "result": "p.r", "form": "printed",
                     "rounds": None, "error": "no", "missing": ["mu"]}],
           "best": {"rounds": "m"}, "notes": ["n1"]}
    t = ComplexityTable.from_dict("p", doc)
    assert t.rows[0].counts == {"rounds": 3.0} and t.rows[0].extra == {"parameters": {"tau": 2}}
    assert t.rows[1].missing == ("mu",) and t.rows[0].algorithm is None
    assert t.to_dict() == {**doc, "paper": "p"}


def test_fewest_skips_lower_bounds_and_rows_not_guaranteed():
    rows = [ComplexityRow("lb", "lower", "p.t", "printed", relation=">=", counts={"k": 1.0}),
            ComplexityRow("printed", "a", "p.t", "printed", counts={"k": 2.0}, guaranteed=False),
            ComplexityRow("slow", "a", "p.t", "corrected", counts={"k": 5.0}, guaranteed=True),
            ComplexityRow("fast", "b", "p.t", "corrected", counts={"k": 4.0}),
            ComplexityRow("none", "c", "p.t", "corrected", counts={"k": None})]
    assert ComplexityTable("p", "q", rows).fewest("k") == "fast"
    assert ComplexityTable("p", "q", rows[:2]).fewest("k") is None
