"""erickson2025's worst-case models (audit.py): the exact variance model's decoupled worst
case is attained and is Lemma A.1's (n - s)/(2n) of the bound; the Karula model rescales its
instance to the case's Delta0 and refuses inadmissible instances; every form a check
evaluates has a case or a reason."""

from __future__ import annotations

import numpy as np
import pytest

from pflbounds.papers.erickson2025 import audit
from pflbounds.papers.erickson2025.experiments.table1 import TABLE1_ERROR
from pflbounds.papers.erickson2025.theory.convergence import THEOREM4_3_ETA38
from pflbounds.papers.erickson2025.theory.dissimilarity import PROPOSITION3_4
from pflbounds.papers.erickson2025.theory.lemmas import LEMMA_A1, LEMMA_A2_4
from pflbounds.papers.erickson2025.theory.participation import ADMISSIBLE_S
from pflbounds.symbolic.evaluate import evaluate
from pflbounds.tightness.models import InstanceError

VR = {"n": 6, "s": 2, "d": 3, "L": 1.5, "E_th_phi": 2.0, "sigma2": 0.0}


def test_variance_worst_case_is_attained_and_below_lemma_a1_by_its_factor():
    m = audit.VarianceOnQuadratics()
    w = m.decoupled(VR, {}, {}, "mse")
    m.admissible(VR, w.instance)
    assert m.measure(VR, w.instance, "mse").value == pytest.approx(w.value, rel=1e-12)
    bound = float(evaluate(LEMMA_A1, "printed", L=1.5, n=6, s=2, E_th_phi=2.0,
                           sigma2=0.0).value)
    assert w.value / bound == pytest.approx((6 - 2) / (2 * 6), rel=1e-12)
    # a random admissible instance stays below the worst case
    rng = np.random.default_rng(0)
    Q, _ = np.linalg.qr(rng.standard_normal((6, 3, 3)))
    gap = rng.standard_normal((6, 3))
    gap *= np.sqrt(2.0 / 6) / np.linalg.norm(gap, axis=1, keepdims=True)
    inst = {"spectra": rng.uniform(-1.5, 1.5, (6, 3)), "rotations": Q, "gap": gap}
    m.admissible(VR, inst)
    assert m.measure(VR, inst, "mse").value < w.value


def test_variance_model_refuses_noise_and_eigenvalues_beyond_l():
    m = audit.VarianceOnQuadratics()
    with pytest.raises(InstanceError, match="sigma2"):
        m.default({**VR, "sigma2": 0.1})
    bad = {**m.default(VR), "spectra": np.full((6, 3), 2.0)}
    with pytest.raises(InstanceError, match="max |h|"):
        m.admissible(VR, bad)


def test_karula_model_rescales_to_delta0_and_measures_every_term():
    m = audit.KarulaOnQuadratics()
    c = {"n": 4, "d": 2, "s": 2, "L": 1.0, "Delta0": 0.7, "K": 3, "sigma2": 1e-3,
         "delta": 1e-4}
    inst = m.default(c)
    m.admissible(c, inst)
    q = m.clients(c, inst, 0, floor=False)
    gap = float(q.mean_objective(q.consensus_start())) - q.constrained_optimum[1]
    assert gap == pytest.approx(0.7, rel=1e-6)
    out = m.measure(c, inst, "min", seed=0, replicas=4)
    assert out.value > 0 and out.detail["Delta0"] == pytest.approx(0.7, rel=1e-6)
    with pytest.raises(InstanceError, match="rho"):
        m.admissible(c, {**inst, "rho": np.array([1.5])})


def test_every_evaluated_form_has_a_case_or_a_reason():
    cased = {(c.result, c.form) for c in audit.WORST_CASES}
    for rid in (LEMMA_A2_4.id, PROPOSITION3_4.id, TABLE1_ERROR.id):
        assert rid in audit.UNSEARCHED and audit.UNSEARCHED[rid].strip()
    assert (LEMMA_A1.id, "printed") in cased and (ADMISSIBLE_S.id, "corrected") in cased
    assert {(THEOREM4_3_ETA38.id, f) for f in ("printed", "explicit", "corrected")} <= cased


def test_the_recursions_step_condition_is_the_corrected_form_exactly():
    m = audit.LyapunovCondition()
    for s in (2, 6, 10, 20):
        c = {"n": 30, "s": s, "eta": 0.375, "L": 1.0}
        got = m.measure(c, {}, "condition").value
        want = float(evaluate(ADMISSIBLE_S, "corrected", **c).value)
        assert got == pytest.approx(want, rel=1e-9)
        # the printed condition understates it (erratum 3)
        assert float(evaluate(ADMISSIBLE_S, "printed", **c).value) < got
