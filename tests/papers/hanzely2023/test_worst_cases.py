"""The worst-case models of hanzely2023 measure what the checks measure: the generated
instance of a grid point, its constants, and the method's exact value there."""

from __future__ import annotations

import numpy as np
import pytest

from pflbounds.checking import bound
from pflbounds.papers.hanzely2023.audit import (
    LEMMA5_STATES,
    LSGD_MX2,
    THEOREM3_RUNS,
)
from pflbounds.papers.hanzely2023.checks.common import instance
from pflbounds.papers.hanzely2023.checks.lsgd import simulate_p4
from pflbounds.papers.hanzely2023.checks.nonconvex import simulate_theorem3
from pflbounds.papers.hanzely2023.theory.lsgd import LEMMA5, THEOREM5
from pflbounds.tightness import InstanceError

_P4 = {"lam": 1.0, "spread": 1.0, "noise": 0.1, "instance": 0.0, "M": 5.0, "d": 2.0,
       "n": 10.0, "tau": 2.0, "eta_frac": 1.0, "sigma2": 1.0}


def test_lsgd_model_measures_p4s_weighted_average_and_derives_its_constants():
    ev = simulate_p4({"objective": "mx2", "lam": 1.0, "tau": 2, "sigma2": 1.0,
                      "form": "corrected"}, 1, 0)
    K = int(ev["ks"][-1])
    c = {**_P4, "K": float(K)}
    assert LSGD_MX2.measure(c, {}, "weighted").value == pytest.approx(ev["mean"][-1],
                                                                       rel=1e-12)
    d = LSGD_MX2.derived(c)
    obj = instance({"objective": "mx2", "lam": 1.0})
    assert d["Lw"] == obj.constants["Lw"] and d["zeta2"] == obj.heterogeneity()
    b = bound(THEOREM5, "corrected", K=K, tau=2, sigma2=1.0, M=5, **{
        k: v for k, v in d.items() if k != "M"})
    assert float(b) == pytest.approx(ev["bound"][-1], rel=1e-12)


def test_lsgd_model_refuses_a_step_above_the_cap():
    with pytest.raises(InstanceError, match="eta_frac"):
        LSGD_MX2.admissible({**_P4, "K": 10.0, "eta_frac": 1.5}, {})


def test_theorem3_model_is_p11s_run_at_its_last_k():
    p = {"objective": "mx2", "M": 3, "d": 2, "lam": 1.0, "mup": 0.5, "Lp": 1.0, "tau": 2,
         "K": 40, "instance": 1}
    ev = simulate_theorem3(p, 1, 0)
    c = {"lam": 1.0, "mup": 0.5, "Lp": 1.0, "instance": 1.0, "M": 3.0, "d": 2.0, "tau": 2.0,
         "K": 40.0, "eta_frac": 1.0}
    assert THEOREM3_RUNS.measure(c, {}, "stationarity").value == ev["mean"][-1]
    d = THEOREM3_RUNS.derived(c)
    assert d["s2dif"] == float(ev["sigma_dif2"]) and d["eta"] == float(ev["eta"])
    assert d["C1"] == d["s1sq"] == 0.0  # exact gradients


def test_lemma5_states_satisfy_both_sides_and_vary_with_the_state():
    base = {"lam": 1.0, "spread": 1.0, "noise": 0.1, "instance": 0.0, "M": 5.0, "d": 3.0,
            "n": 8.0, "mix": 0.5, "state": 3.0}
    seen = []
    for scale in (1e-3, 0.1, 10.0):
        c = {**base, "scale": scale}
        d = LEMMA5_STATES.derived(c)
        b = bound(LEMMA5, "printed", **d)
        for part in ("21", "22"):
            assert LEMMA5_STATES.measure(c, {}, part).value <= float(b[part])
        seen.append(d["Vk"])
    assert np.all(np.diff(seen) > 0)  # the copies spread with the scale
