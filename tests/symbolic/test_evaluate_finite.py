"""Values that are not numbers are named, never returned or warned: overflows and 0/0 of a
form, overflowing derivations, undefined elasticities; messages keep the digits that show why
a value fails."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest

from pflbounds.shown import shown
from pflbounds.symbolic import catalog
from pflbounds.symbolic.constants import get_constant
from pflbounds.symbolic.evaluate import (
    HypothesisError,
    InputError,
    elasticities,
    evaluate,
    require_finite,
)


@pytest.fixture(autouse=True)
def _warnings_are_errors():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        yield


def _r(rid: str):
    catalog.load_papers()
    return catalog.get(rid)


@pytest.mark.parametrize("x, text", [(1.0, "1"), (0.25, "0.25"), (1e20, "1e+20"),
                                     (1.0000001, "1.0000001"), (0.1 + 0.2, "0.30000000000000004"),
                                     (math.inf, "inf"), (-0.5, "-0.5"), ("x", "x")])
def test_shown_keeps_the_digits_that_matter(x, text):
    assert shown(x) == text


def test_domain_and_condition_messages_show_why():
    catalog.load_papers()
    with pytest.raises(ValueError, match=r"delta=1\.0000001 is outside its domain"):
        get_constant("delta", "scott2024").check_value(1.0000001)
    with pytest.raises(HypothesisError,
                       match=r"eta=0\.25000001 \(left side 0\.25000001, right side 0\.25\)"):
        evaluate(_r("even2022.lemma6"), eta=0.25000001, mu=1, L=2, sigma2=1, T=10, Delta0=1)


def test_an_overflowing_value_is_named_only_when_asked():
    r = _r("even2022.lemma4")
    with pytest.raises(InputError, match=r"even2022.lemma4 \[printed\] overflows double "
                                         r"precision: its value exceeds 1.8e\+308 at b=1e\+300"):
        evaluate(r, b=1e300, mu=1, finite=True)
    assert evaluate(r, b=1e300, mu=1).value == math.inf  # the engine's own use is unchanged


def test_a_0_over_0_value_names_the_zero_input():
    r = _r("even2022.theorem3")
    with pytest.raises(InputError, match=r"\[explicit\] is undefined at sigma2=0"):
        evaluate(r, "explicit", BiasSum=1, DeltaLam0=1, K=1, L=1, N=1, SumLam2=1, mu=1,
                 sigma2=0, finite=True)


def test_require_finite_points_at_the_first_bad_entry():
    with pytest.raises(InputError, match=r"x is infinite at a=0 \(first at index 1\)"):
        require_finite("x", np.array([1.0, np.inf]), {"divide by zero"},
                       {"a": np.array([1.0, 0.0])})
    require_finite("x", np.array([1.0, 2.0]), {"overflow"}, {})  # finite: fine


def test_an_overflowing_derivation_is_named():
    r = _r("even2022.theorem2")
    b = np.array([[0.0, 1e200], [1e200, 0.0]])
    with pytest.raises(InputError, match=r"B \(.*\) computed from b and Lambda overflows"):
        evaluate(r, "explicit", matrices={"b": b, "Lambda": np.full((2, 2), 0.5)}, eta=0.1,
                 mu=1, L=2, sigma2=0.5, K=20, Delta0=1)


def test_elasticities_explain_undefined_entries():
    el = elasticities(_r("even2022.theorem1"), eps=0.01, r=1, sigma2=0, Neps=2)
    assert el["sigma2"] == "undefined at sigma2=0"
    assert el["r"] == "undefined where the value is 0"


def test_elasticities_of_step_functions_are_zero_between_jumps():
    el = elasticities(_r("even2022.corollary1"), "corrected", F0=1, L=1, eps=0.01,
                      invN_mean=1, mu=1, rho_W=1, sigma2=1)
    assert el and all(v == 0 for v in el.values())  # a ceiling: flat between its jumps
    el = elasticities(_r("even2022.theorem4"), C=1, D_star=1, Delta2=1, F0=1, K=1, L=1,
                      S=1e300, b_max=1, d_eff=1, mu=1, nu2=1, sigma2=1, u=1)
    assert all(isinstance(v, float) and math.isfinite(v) for v in el.values())
    assert el["K"] == pytest.approx(-el["L"])


def test_elasticities_of_a_multi_part_form_need_the_part():
    r = _r("even2022.corollary2")
    with pytest.raises(InputError, match="has parts S, C, KC, K: name the one"):
        elasticities(r, Delta2=1, L=1, d_eff=1, eps=1, mu=1, nu2=1, sigma2=1)
    el = elasticities(r, part="K", Delta2=1, L=1, d_eff=1, eps=1, mu=1, nu2=1, sigma2=1)
    assert el == {"L": 1.0, "mu": -1.0}
