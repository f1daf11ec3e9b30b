"""``pflbounds list --checks``: every check with its result, kind, expected claim verdicts,
role, cost class (and its basis), the extras it needs and whether the quick suite runs it."""

from __future__ import annotations

import json

from pflbounds.checking import registry
from pflbounds.cli import main
from pflbounds.running.suite import find_suite, load_suite


def test_json_lists_every_check_with_its_fields(capsys):
    assert main(["list", "--checks", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert [r["id"] for r in rows] == [c.id for c in registry.all_checks()]
    quick = {c.id for c in load_suite(find_suite("quick")).checks}
    assert {r["id"] for r in rows if r["quick_suite"]} == quick
    by_id = {r["id"]: r for r in rows}
    p11 = by_id["even2022.P11"]
    assert (p11["kind"], p11["expected"], p11["role"]) == ("erratum", "CONFIRMED", "claim")
    assert p11["expected_claims"] == {"explicit": "VIOLATED", "corrected": "HOLDS"}
    assert p11["result"] and p11["requires"] == [] and p11["cost"] in ("cheap", "minutes")
    p1 = by_id["scott2024.P1"]
    assert p1["requires"] == ["jax"] and (p1["cost"], p1["cost_basis"]) == (
        "minutes", "trains networks (JAX)")
    assert by_id["erickson2025.S52_karula_fedavg"]["requires"] == ["digits"]
    syn = by_id["erickson2025.P14_r2"]
    assert syn["requires"] == ["jax"] and (syn["cost"], syn["cost_basis"]) == ("long", "declared")
    assert {r["cost"] for r in rows} <= {"cheap", "minutes", "long"}
    assert any(r["role"] == "control" for r in rows)


def test_text_has_a_row_per_check_of_the_paper(capsys):
    assert main(["list", "--checks", "--paper", "even2022"]) == 0
    lines = capsys.readouterr().out.splitlines()
    ids = [c.id for c in registry.all_checks("even2022")]
    assert lines[0].split() == ["check", "result", "kind", "role", "cost", "quick", "needs",
                                "expects"]
    assert [ln.split()[0] for ln in lines[1:1 + len(ids)]] == ids
    assert lines[1 + len(ids)].startswith(f"{len(ids)} checks. cost of the full grid")
    p11 = next(ln for ln in lines if ln.startswith("even2022.P11 "))
    assert p11.endswith("explicit VIOLATED, corrected HOLDS")


def test_an_unknown_paper_is_one_line(capsys):
    assert main(["list", "--checks", "--paper", "nope2000"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "unknown paper 'nope2000'" in err and "even2022" in err
