"""philippenko2025's worst-case searches (``WORST_CASES`` in its audit.py) and the families they
search (``instances.py``): the measures against the exact recursions the checks use and hand
values, the hypotheses refused, every case well formed, and the counterexample an erratum
explains."""

from __future__ import annotations

import numpy as np
import pytest

from pflbounds.papers.philippenko2025.checks.common import uniform_weight_excess
from pflbounds.papers.philippenko2025.instances import (
    IDENTICAL_CONSTANT,
    IDENTICAL_DECREASING,
    STEP_RATIO_BINARY,
    STEP_RATIO_CONTINUOUS,
)
from pflbounds.symbolic import catalog
from pflbounds.tightness import InstanceError, paper_cases, run_case
from pflbounds.tightness.engine import case_key
from pflbounds.tightness.registry import get_model

_C = {"mu": 0.5, "L": 0.5, "K": 30, "sigma2": 2.0, "d": 1, "Delta0": 1.5, "N": 4,
      "psi1": 1.0, "eta": 0.3}


def test_the_constant_step_family_is_the_uniform_weight_recursion_of_the_checks():
    """Isotropic (d = 1, h = a): E[eps^t] is the recursion of P5/P9 with sigma^2/N."""
    inst = {"spectrum": np.array([0.5]), "noise": np.array([2.0]),
            "x0": np.array([np.sqrt(3.0)])}
    IDENTICAL_CONSTANT.admissible(_C, inst)
    want = uniform_weight_excess(0.5, 2.0 / 4, 1.5, np.full(30, 0.3))
    assert IDENTICAL_CONSTANT.measure(_C, inst, "last").value == pytest.approx(want[-1],
                                                                                rel=1e-12)
    # grad^2 = 2 a eps on R = a/2 ||e||^2: the average over t = 0..K-1
    avg = IDENTICAL_CONSTANT.measure(_C, inst, "avg_grad2").value
    assert avg == pytest.approx(np.mean(2 * 0.5 * want[:-1]), rel=1e-12)
    steps = IDENTICAL_CONSTANT.measure({**_C, "eps": want[5] * 1.0000001}, inst, "steps")
    assert steps.value == 5.0
    d = IDENTICAL_CONSTANT.derived(_C)
    assert d["sigma_suf2"] == d["sigma_eff2"] == 0.5 and d["beta"] == 0.5
    assert d["S_eff"] == pytest.approx(0.5 * sum((1 - 0.3 * 0.5) ** k for k in range(30)))


def test_the_decreasing_family_runs_the_shifted_step():
    c = {**_C, "C": 2.0, "gamma0": 3.0}
    assert IDENTICAL_DECREASING.steps_of(c)[:2] == pytest.approx([2 / (0.5 * 4), 2 / (0.5 * 5)])
    inst = {"spectrum": np.array([0.5]), "noise": np.array([2.0]),
            "x0": np.array([np.sqrt(3.0)])}
    want = uniform_weight_excess(0.5, 0.5, 1.5, IDENTICAL_DECREASING.steps_of(c))
    assert IDENTICAL_DECREASING.measure(c, inst, "last").value == pytest.approx(want[-1])


@pytest.mark.parametrize("bad, match", [
    ({"spectrum": np.array([0.7])}, "spectrum"),
    ({"noise": np.array([2.5])}, "noise"),
    ({"x0": np.array([2.0])}, "initial excess"),
])
def test_the_family_refuses_instances_outside_the_hypotheses(bad, match):
    inst = {"spectrum": np.array([0.5]), "noise": np.array([2.0]),
            "x0": np.array([np.sqrt(3.0)]), **bad}
    with pytest.raises(InstanceError, match=match):
        IDENTICAL_CONSTANT.admissible(_C, inst)


def test_the_step_ratio_against_hand_values():
    """Binary, lambda = 1/2: r = (1, 0.5), variances (1, 1/3): (1 + 3 * 0.5)/(1 + 3) = 5/8;
    continuous: r = (1, 0.5), precision 2: (1 + 2 * 0.25)/(1 + 2 * 0.5) = 3/4."""
    b = STEP_RATIO_BINARY.measure({"N": 2, "lam": 0.5},
                                  {"ratios": np.array([0.5]),
                                   "variances": np.array([1.0, 1 / 3])}, "ratio")
    assert b.value == pytest.approx(5 / 8)
    c = {"N": 2, "SinvSum": 3.0}
    inst = {"ratios": np.array([0.5]), "precisions": np.array([2.0])}
    STEP_RATIO_CONTINUOUS.admissible(c, inst)
    assert STEP_RATIO_CONTINUOUS.measure(c, inst, "ratio").value == pytest.approx(3 / 4)
    with pytest.raises(InstanceError, match="SinvSum"):
        STEP_RATIO_CONTINUOUS.admissible({**c, "SinvSum": 4.0}, inst)


@pytest.fixture(scope="module")
def cases():
    return paper_cases("philippenko2025")


def test_every_case_names_a_form_and_a_model(cases):
    assert len(cases) >= 20
    for c in cases:
        assert c.form in catalog.get(c.result).forms, c.label
        get_model(c.model)
        assert len(case_key(c)) == 64 and c.title, c.label


def test_remark3_binary_is_tight_and_the_printed_theorem3_fails_at_short_horizons(cases):
    """The search finds Remark 3's binary bound lambda attained up to the variances' range
    (peers at r = lambda with the smallest variance), and the counterexample of erratum 16."""
    by = {(c.result, c.form, c.fixed.get("K")): c for c in cases}
    rec = run_case(by[("philippenko2025.remark3_binary", "printed", None)])
    assert rec.verdict == "HOLDS" and 1.0 <= rec.points[0].ratio < 1.01
    rec = run_case(by[("philippenko2025.theorem3", "printed", 10)])
    assert rec.verdict == "VIOLATED" and rec.points[0].ratio > 1.0


def test_the_expected_counterexample_and_the_reasons_name_real_forms():
    from pflbounds.audit.declarations import declared

    for key in [*declared("philippenko2025", "WORST_EXPECTED", {}),
                *declared("philippenko2025", "UNSEARCHED", {})]:
        rid, _, form = key.partition(":")
        assert not form or form in catalog.get(rid).forms, key


@pytest.mark.slow
def test_the_audits_account_for_90_percent_of_the_stronger_mutants(tmp_path, capsys):
    """The mutation audit, the tightness audit, and the mutation audit again on the worst
    instances: at least 90% of the stronger mutants are caught, refuted, or caught or true
    at the worst instance, and the only counterexample is the expected one (minutes)."""
    import json

    from pflbounds.cli import main

    out = str(tmp_path)
    assert main(["audit", "mutants", "--paper", "philippenko2025", "--out", out,
                 "--no-worst"]) == 0
    assert main(["audit", "tightness", "--paper", "philippenko2025", "--out", out,
                 "--quiet"]) == 0
    assert main(["audit", "mutants", "--paper", "philippenko2025", "--out", out]) == 0
    capsys.readouterr()
    tight = json.loads((tmp_path / "tightness-philippenko2025.json").read_text())
    assert {(c["result"], c["form"]) for c in tight["counterexamples"]} == {
        ("philippenko2025.theorem3", "printed")}
    assert all(u["why"] for u in tight["uncovered"])
    w = json.loads((tmp_path / "mutants-philippenko2025.json").read_text())["worst_instances"]
    assert w["accounted_fraction"] >= 0.9
