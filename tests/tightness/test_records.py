"""Records: JSON, reproducible from the case's seed (bitwise, wall times aside), replayable,
and cached on disk under a key that moves with the case, the formula and the version."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

import pflbounds
from pflbounds.tightness import (
    Box,
    CacheError,
    Rotation,
    Search,
    SearchCase,
    SearchRecord,
    Simplex,
    Sphere,
    case_key,
    replay,
    run_case,
    spectrum,
)

FIXED = {"mu": 1e-3, "L": 1.0, "K": 20, "sigma2": 0.002, "R0": 1.0, "d": 2}  # eta: swept
FREE = {"spectrum": spectrum(), "rotation": Rotation("d"), "noise": Simplex("d", "sigma2"),
        "x0": Sphere("d", "sqrt(R0)")}
SEARCHED = SearchCase("tightfix.sgd_worst", "explicit", "quadratic_sgd", fixed=FIXED,
                      free=FREE, sweep={"eta": [1.0, 0.5]},
                      search=Search(mode="optimize", starts=3, budget=600, seed=7),
                      title="half the worst case")
MONTE_CARLO = SearchCase(
    "tightfix.sgd_any", "printed", "logistic_sgd",
    fixed={"mu": 0.05, "L": 1.0, "eta": 0.5, "K": 20, "sigma2": 1.0, "R0": 4.0, "d": 2,
           "n": 30},
    free={"scales": Box("d", 0.05, 1), "teacher": Box("d", -6, 6),
          "x0": Sphere("d", "sqrt(R0)")},
    search=Search(budget=6, replicas=16, confirm=64, seed=2))


@pytest.mark.parametrize("case", [SEARCHED, MONTE_CARLO], ids=["optimize", "monte-carlo"])
def test_same_seed_same_record(tightfix, case):
    a, b = run_case(case), run_case(case)
    assert a.to_json(timings=False) == b.to_json(timings=False)
    assert a.fingerprint() == b.fingerprint()
    text = json.dumps(a.to_json(), allow_nan=False, sort_keys=True)  # strict JSON
    assert "seconds" in text and "seconds" not in json.dumps(a.to_json(timings=False))
    other = run_case(replace(case, search=replace(case.search, seed=case.search.seed + 1)))
    assert other.fingerprint() != a.fingerprint()  # the seed is what reproduces it


def test_a_record_holds_what_reproduces_its_worst_instance(tightfix):
    rec = run_case(SEARCHED)
    assert [p.constants["eta"] for p in rec.points] == [1.0, 0.5]
    for p in rec.points:
        assert p.seed == 7 and p.raw is not None and len(p.raw) == 7
        assert set(p.instance) == {"spectrum", "rotation", "noise", "x0"}
        assert p.evaluations <= 600 + 1  # the budget, and the default instance
        assert replay(SEARCHED, p).value == p.measured
    assert rec.worst is max(rec.points, key=lambda p: p.ratio)
    mc = run_case(MONTE_CARLO).points[0]
    again = replay(MONTE_CARLO, mc)
    assert (again.value, again.stderr) == (mc.measured, mc.stderr)


def test_records_round_trip_through_json(tightfix):
    rec = run_case(SEARCHED)
    back = SearchRecord.from_json(json.loads(json.dumps(rec.to_json())))
    assert back.to_json() == rec.to_json()
    assert SearchCase.from_json(rec.case).canonical() == SEARCHED.canonical()


def test_cache_hit_returns_the_stored_record(tightfix, tmp_path):
    first = run_case(SEARCHED, cache=tmp_path / "tight")
    assert not first.cached
    files = list((tmp_path / "tight").iterdir())
    assert [f.name for f in files] == [f"{first.key}.json"]
    hit = run_case(SEARCHED, cache=tmp_path / "tight")
    assert hit.cached and hit.to_json() == first.to_json()  # wall times included


def test_the_key_moves_with_the_case_the_formula_and_the_version(tightfix, monkeypatch):
    k = case_key(SEARCHED)
    assert case_key(replace(SEARCHED, title="another title")) == k
    assert case_key(replace(SEARCHED, form="printed")) != k
    assert case_key(replace(SEARCHED, fixed={**FIXED, "K": 21})) != k
    assert case_key(replace(SEARCHED, search=replace(SEARCHED.search, budget=601))) != k
    monkeypatch.setattr(pflbounds.version, "__version__", "99.0")
    assert case_key(SEARCHED) != k


def test_the_key_moves_with_a_replaced_formula(tightfix):
    from pflbounds.symbolic import catalog

    r = catalog.get("tightfix.sgd_worst")
    k = case_key(SEARCHED)
    mutant = replace(r, forms={**r.forms, "explicit": replace(r.forms["explicit"],
                                                               expr=r.forms["explicit"].expr / 3)})
    with catalog.replaced(mutant):
        assert case_key(SEARCHED) != k


def test_a_foreign_file_at_a_key_is_left_alone(tightfix, tmp_path):
    folder = tmp_path / "cache"
    folder.mkdir()
    foreign = folder / f"{case_key(SEARCHED)}.json"
    foreign.write_text("my notes\n")
    with pytest.raises(CacheError, match="is not a tightness record written by pflbounds"):
        run_case(SEARCHED, cache=folder)
    assert foreign.read_text() == "my notes\n"
    (tmp_path / "file").write_text("x")
    with pytest.raises(CacheError, match="is a file"):
        run_case(SEARCHED, cache=tmp_path / "file")
