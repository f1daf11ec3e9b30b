"""The tidy results table and the outcome files."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from pflbounds.running import (
    load_outcomes,
    read_results_csv,
    read_results_parquet,
    results_rows,
    run_checks,
    save_outcomes,
)
from pflbounds.running.results import COLUMNS


@pytest.fixture
def outcomes(toys):
    ids = ["toy.mc_true", "toy.exact_div10", "toy.mc_scaling", "toy.identity",
           "toy.erratum", "toy.boom"]
    return run_checks([toys[i] for i in ids], base_seed=9, progress=False)


def test_rows_are_tidy(outcomes):
    rows = results_rows(outcomes)
    assert all(set(r) == set(COLUMNS) for r in rows)
    by = {}
    for r in rows:
        by.setdefault(r["check_id"], []).append(r)
    assert len(by["toy.mc_true"]) == 2 * 7  # points x K
    assert len(by["toy.mc_scaling"]) == 6 and all(r["k"] is None for r in by["toy.mc_scaling"])
    assert len(by["toy.identity"]) == 2 and by["toy.identity"][0]["bound"] == 1e-12
    assert by["toy.erratum"][0]["bound_printed"] == 0.5
    assert by["toy.erratum"][0]["bound_corrected"] == 2.0
    assert by["toy.boom"][0]["verdict"] == "ERROR" and by["toy.boom"][0]["point"] is None
    r = by["toy.mc_true"][3]
    assert r["lo"] < r["measured"] < r["hi"] < r["bound"]
    assert json.loads(r["params"]) == {"c": 3.0}
    assert r["version"] and len(r["config_hash"]) == 64 and r["seed"] == 9 and r["time"]


def test_save_and_load_round_trip(outcomes, tmp_path):
    outcomes[0].evidence[0]["lo"] = outcomes[0].evidence[0]["lo"].copy()
    outcomes[0].evidence[0]["lo"][0] = -math.inf  # non-finite values survive both files
    paths = save_outcomes(outcomes, tmp_path / "out")
    assert {p.name for p in (tmp_path / "out").iterdir()} == {
        "outcomes.json", "results.csv", "results.json", "results.parquet"}
    back = load_outcomes(tmp_path / "out")
    assert [o.to_dict() for o in back] == [o.to_dict() for o in outcomes]
    rows = read_results_csv(paths["csv"])
    expected = results_rows(outcomes)
    assert len(rows) == len(expected)
    for a, b in zip(rows, expected, strict=True):
        for c in COLUMNS:
            if isinstance(b[c], float):
                assert a[c] == b[c] or (math.isnan(a[c]) and math.isnan(b[c])), c
            else:
                assert a[c] == b[c], c
    assert rows[0]["lo"] == -math.inf
    table = json.loads(paths["table"].read_text())
    assert len(table) == len(rows) and table[0]["lo"] == "-inf"
    parquet = read_results_parquet(paths["parquet"])
    assert len(parquet) == len(rows) and parquet[0]["lo"] == -math.inf
    for a, b in zip(parquet, expected, strict=True):
        for c in COLUMNS:
            if isinstance(b[c], float) and math.isnan(b[c]):
                assert math.isnan(a[c]), c
            else:
                assert a[c] == b[c], c
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]  # no temporaries


def test_save_replaces_existing_files_atomically(outcomes, tmp_path):
    save_outcomes(outcomes, tmp_path)
    save_outcomes(outcomes[:1], tmp_path)
    assert [o.check_id for o in load_outcomes(tmp_path)] == ["toy.mc_true"]
    assert len(read_results_csv(tmp_path / "results.csv")) == 14
    assert np.array_equal(load_outcomes(tmp_path / "outcomes.json")[0].evidence[1]["ks"],
                          outcomes[0].evidence[1]["ks"])


def test_per_agent_rows(toys):
    o = run_checks([toys["toy.mc_agents_bad"]], base_seed=2, progress=False)[0]
    rows = results_rows([o])
    assert len(rows) == 4 * 7
    assert [r["entry"] for r in rows[::7]] == ["[0]", "[1]", "[2]", "[3]"]
    assert rows[7 * 2]["bound"] == pytest.approx(3.0 * 3.0 / 10.0)  # agent 2, K=1
