"""scott2024's worst-case searches (``WORST_CASES`` in its audit.py): every case is well formed
and names a bound form of the paper; population D's exact measures agree with the closed forms
of the checks (the printed Lemma C.5 is beaten by the Jacobian's b2^2, erratum5); Lemma C.2's
(44) is an equality and (45) is attained by aligned means; the searches find exactly the
counterexamples the errata explain; every uncovered form has its reason."""

from __future__ import annotations

import numpy as np
import pytest

from pflbounds.audit.declarations import declared
from pflbounds.papers.scott2024.audit import CLIENT_SAMPLING, POPULATION_D
from pflbounds.symbolic import catalog
from pflbounds.tightness import paper_cases, run_case
from pflbounds.tightness.engine import case_key
from pflbounds.tightness.models import InstanceError
from pflbounds.tightness.registry import get_model


@pytest.fixture(scope="module")
def cases():
    return paper_cases("scott2024")


def test_every_case_names_a_form_and_a_model(cases):
    assert len(cases) >= 16
    for c in cases:
        assert c.form in catalog.get(c.result).forms, c.label
        get_model(c.model)
        assert len(case_key(c)) == 64 and c.title


def test_population_d_measures_the_checks_closed_forms():
    c = {"b2": 3.0, "L1": 1.0, "sigma1_2": 1.0, "Delta0": 0.5, "G2": 9.0, "T": 1,
         "beta": 0.01, "c": 1, "k": 1}
    inst = {"v2": np.array([9.0]), "e0": np.array([0.0]), "s2": np.array([1.0])}
    POPULATION_D.admissible(c, inst)
    # one round from the optimum: E||eta_1 - eta_0||^2 = beta^2 |v|^2 s2 (E_C5_lemmaC5)
    assert POPULATION_D.measure(c, inst, "step").value == pytest.approx(9 * 0.01**2, rel=1e-9)
    with pytest.raises(InstanceError, match="Jacobian"):
        POPULATION_D.admissible(c, {**inst, "v2": np.array([9.5])})
    with pytest.raises(InstanceError, match="G2"):
        POPULATION_D.admissible({**c, "G2": 0.0}, {**inst, "e0": np.array([0.5])})


def test_client_sampling_is_exact_over_all_subsets():
    import itertools

    rng = np.random.default_rng(3)
    n, k, d = 6, 3, 2
    means = rng.standard_normal((n, d))
    means /= np.linalg.norm(means, axis=1).max()
    traces = rng.random(n)
    c = {"n": n, "c": k, "d": d, "Vsum": float(traces.sum()), "a_max": 1.0}
    inst = {"traces": traces, "means": means}
    subsets = list(itertools.combinations(range(n), k))
    want = np.mean([traces[list(s)].sum() + np.sum(means[list(s)].sum(0) ** 2)
                    for s in subsets])
    assert CLIENT_SAMPLING.measure(c, inst, "uncentred").value == pytest.approx(want, rel=1e-12)
    assert CLIENT_SAMPLING.measure(c, inst, "centred").value == pytest.approx(
        k / n * traces.sum(), rel=1e-12)


@pytest.mark.slow
def test_the_searches_find_the_errata_and_nothing_else(cases):
    expected = declared("scott2024", "WORST_EXPECTED", {})
    for case in cases:
        rec = run_case(case)
        key = f"{case.result}:{case.form}"
        for p in rec.points:
            if p.ratio > 1 + 1e-9:
                assert key in expected, (case.label, p.ratio)
        if case.result == "scott2024.lemmaC2":  # (44) is an equality
            assert all(p.ratio == pytest.approx(1.0, rel=1e-9) for p in rec.points)
        if case.result == "scott2024.lemmaC2_45":  # attained by equal means of norm a
            assert max(p.ratio for p in rec.points) == pytest.approx(1.0, rel=1e-6)


def test_every_key_of_the_declarations_names_a_real_form():
    for key in [*declared("scott2024", "WORST_EXPECTED", {}),
                *declared("scott2024", "UNSEARCHED", {})]:
        rid, _, form = key.partition(":")
        r = catalog.get(rid)
        assert not form or form in r.forms, key


@pytest.mark.slow
def test_the_audits_account_for_90_percent_of_the_stronger_mutants(tmp_path, capsys):
    """The mutation audit, the tightness audit, and the mutation audit again on the worst
    instances: at least 90% of the stronger mutants are caught, refuted, or caught or true at
    the worst instance; every counterexample is one an erratum explains, and the survivors
    no search reaches are Lemma C.4's (a signed inner product). Minutes."""
    import json

    from pflbounds.cli import main

    out = str(tmp_path)
    assert main(["audit", "mutants", "--paper", "scott2024", "--out", out, "--no-worst"]) == 0
    assert main(["audit", "tightness", "--paper", "scott2024", "--out", out, "--quiet"]) == 0
    assert main(["audit", "mutants", "--paper", "scott2024", "--out", out]) == 0
    capsys.readouterr()
    tight = json.loads((tmp_path / "tightness-scott2024.json").read_text())
    expected = declared("scott2024", "WORST_EXPECTED", {})
    assert all(f"{c['result']}:{c['form']}" in expected for c in tight["counterexamples"])
    assert all(u["why"] for u in tight["uncovered"])
    doc = json.loads((tmp_path / "mutants-scott2024.json").read_text())
    assert doc["worst_instances"]["accounted_fraction"] >= 0.9
    unreached = {s["result"] for s in doc["survivors"] if s["worst"]["status"] == "unreached"}
    assert unreached <= {"scott2024.lemmaC4"}
