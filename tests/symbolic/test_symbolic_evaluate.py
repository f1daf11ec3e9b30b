"""Evaluation, inversion and elasticities: vectorisation, errors, domains, conditions."""

from __future__ import annotations

import math

import numpy as np
import pytest
import sympy as sp

from pflbounds.symbolic import (
    HypothesisError,
    InputError,
    elasticities,
    evaluate,
    get,
    solve,
)
from pflbounds.symbolic.constants import constant, get_constant
from pflbounds.symbolic.evaluate import (
    Evaluation,
    TargetUnreachable,
    check_conditions,
    numeric,
)
from pflbounds.symbolic.hidden import (
    Omega,
    Otilde,
    describe_hidden,
    hidden_terms,
    strip_hidden,
)
from pflbounds.symbolic.result import Condition

THM2 = "even2022.theorem2"
THM3 = "even2022.theorem3"
AFO = dict(mu=1.0, L=2.0, sigma2=0.5, K=20, Delta0=1.0, V=0.4, B=0.05)


def thm2_explicit(eta, mu, L, sigma2, K, Delta0, V, B):
    return (1 - eta * mu) ** K * Delta0 + eta * sigma2 * L * V / (2 * mu) + B / (2 * mu)


def thm3_corrected(eta, mu, L, sigma2, K, F0, SumLam2, BiasSum, N):
    return (F0 * np.exp(-eta * mu * K) + eta * L * sigma2 * SumLam2 / (mu * N)
            + BiasSum / (2 * mu * N))


# ----------------------------------------------------------------------------- vectorised
def test_vectorised_over_one_input():
    eta = np.linspace(0.01, 0.5, 9)
    ev = evaluate(get(THM2), "explicit", eta=eta, **AFO)
    assert isinstance(ev.value, np.ndarray) and ev.value.shape == (9,)
    np.testing.assert_allclose(ev.value, thm2_explicit(eta, **AFO), rtol=1e-13)
    for i in (0, 4, 8):
        single = evaluate(get(THM2), "explicit", eta=float(eta[i]), **AFO).value
        assert single == pytest.approx(ev.value[i], rel=1e-15)


def test_vectorised_broadcasts_two_inputs():
    eta = np.array([0.05, 0.1, 0.2])[:, None]
    K = np.array([1, 10, 100, 1000])[None, :]
    vals = {k: v for k, v in AFO.items() if k != "K"}
    ev = evaluate(get(THM2), "explicit", eta=eta, K=K, **vals)
    assert ev.value.shape == (3, 4)
    np.testing.assert_allclose(ev.value, thm2_explicit(eta, K=K, **vals), rtol=1e-13)
    # monotone in K at fixed eta, and the K -> infinity limit is the floor
    assert np.all(np.diff(ev.value, axis=1) < 0)
    floor = eta[:, 0] * 0.5 * 2.0 * 0.4 / 2 + 0.05 / 2
    np.testing.assert_allclose(ev.value[:, -1], floor, rtol=1e-6)


def test_vectorised_hidden_form_with_lists():
    ev = evaluate(get(THM2), "printed", mu=1.0, L=[2.0, 4.0], sigma2=0.5, K=[20, 40],
                  Delta0=1.0, V=0.4, B=0.05)
    L = np.array([2.0, 4.0])
    K = np.array([20.0, 40.0])
    want = np.exp(-K / (2 * L)) + L * 0.5 * 0.4 / K + 0.05
    np.testing.assert_allclose(ev.value, want, rtol=1e-13)
    assert ev.hidden_constants


def test_numeric_reports_missing_names():
    mu = get_constant("mu").symbol
    with pytest.raises(InputError, match="missing input"):
        numeric(mu + 1, {})
    assert numeric(Otilde(mu * 3), {"mu": 2.0}) == 6.0


# ----------------------------------------------------------------------------- hypotheses
def test_hypothesis_error_names_condition_and_values():
    vals = dict(mu=1.0, L=2.0, sigma2=1.0, K=10, F0=1.0, SumLam2=2.0, BiasSum=0.0, N=4,
                rho_W=1.0)
    with pytest.raises(HypothesisError) as info:
        evaluate(get(THM3), "corrected", eta=0.3, **vals)
    msg = str(info.value)
    assert "eta <= 1/(2*L*rho_W)" in msg
    assert "[eta <= 1/(2 L rho(W))]" in msg
    assert "eta=0.3" in msg and "L=2" in msg and "rho_W=1" in msg
    assert "left side 0.3" in msg and "right side 0.25" in msg
    # on the boundary it is accepted
    ok = evaluate(get(THM3), "corrected", eta=0.25, **vals).value
    assert ok == pytest.approx(thm3_corrected(0.25, **{k: v for k, v in vals.items()
                                                       if k != "rho_W"}), rel=1e-13)


def test_hypothesis_error_second_condition_rho():
    vals = dict(mu=1.0, L=2.0, sigma2=1.0, K=10, F0=1.0, SumLam2=2.0, BiasSum=0.0, N=4)
    with pytest.raises(HypothesisError, match=r"rho_W <= 1 .*rho_W=1\.5"):
        evaluate(get(THM3), "corrected", eta=0.1, rho_W=1.5, **vals)


def test_hypothesis_error_on_arrays_gives_first_index():
    with pytest.raises(HypothesisError) as info:
        evaluate(get("even2022.lemma6"), eta=np.array([0.1, 0.2, 0.3, 0.1]), mu=1.0, L=2.0,
                 sigma2=1.0, T=10, Delta0=1.0)
    msg = str(info.value)
    assert "first at index 2" in msg and "eta <= 1/(2*L)" in msg


def test_strict_and_non_strict_relations():
    mu = get_constant("mu").symbol
    L = get_constant("L").symbol
    check_conditions((Condition(sp.Le(mu, L)),), {"mu": 2.0, "L": 2.0})
    with pytest.raises(HypothesisError):
        check_conditions((Condition(sp.Lt(mu, L)),), {"mu": 2.0, "L": 2.0})
    check_conditions((Condition(sp.Ge(mu, L)),), {"mu": 2.0, "L": 2.0})
    with pytest.raises(HypothesisError):
        check_conditions((Condition(sp.Gt(mu, L)),), {"mu": 2.0, "L": 2.0})
    check_conditions((Condition(sp.Eq(mu, L)),), {"mu": 2.0, "L": 2.0 * (1 + 1e-14)})
    with pytest.raises(HypothesisError):
        check_conditions((Condition(sp.Eq(mu, L)),), {"mu": 2.0, "L": 2.1})


def test_theorem2_condition_A_greater_than_one():
    with pytest.raises(HypothesisError, match=r"A_i > 1"):
        evaluate(get(THM2), "corrected", mu=1.0, L=2.0, sigma2=10.0, K=1, Delta0=1.0, V=1.0,
                 B=0.0)


# ----------------------------------------------------------------------------- inputs
def test_missing_inputs_are_listed_with_meaning_unit_and_matrix_hint():
    with pytest.raises(InputError) as info:
        evaluate(get(THM2), "explicit", mu=1.0)
    msg = str(info.value)
    assert msg.startswith("even2022.theorem2 [explicit] needs: ")
    assert "eta (step size, unit [f]^-1*[x]^2)" in msg
    assert "sigma2 (bound on the stochastic-gradient noise variance" in msg
    assert "V (sum_j lambda_ij^2 for agent i (variance factor), unit 1) (or give Lambda)" in msg
    assert "B (" in msg and "(or give b and Lambda)" in msg
    assert "mu (" not in msg  # given


def test_unknown_inputs_are_rejected():
    with pytest.raises(InputError) as info:
        evaluate(get(THM2), "explicit", eta=0.1, foo=1.0, bar=2.0, **AFO)
    msg = str(info.value)
    assert "unexpected input(s) bar, foo" in msg
    assert "it needs: B, Delta0, K, L, V, eta, mu, sigma2" in msg


def test_non_strict_evaluation_ignores_extra_inputs():
    ev = evaluate(get(THM2), "explicit", strict=False, eta=0.1, foo=1.0, **AFO)
    assert "foo" not in ev.inputs
    assert ev.value == pytest.approx(thm2_explicit(0.1, **AFO), rel=1e-14)


def test_derivation_needs_its_scalar_uses():
    b = np.abs(np.subtract.outer([0.0, 1.0], [0.0, 1.0]))
    with pytest.raises(InputError, match="Neps is computed from b but also needs mu, eps"):
        evaluate(get("even2022.theorem2_part2"), "printed", matrices={"b": b}, L=1.0,
                 sigma2=1.0)


@pytest.mark.parametrize(
    "name, value, piece",
    [
        ("mu", -1.0, "mu=-1 is outside its domain: expected a number > 0 (strong-convexity"),
        ("mu", 0.0, "mu=0 is outside its domain"),
        ("K", 2.5, "K=2.5 is outside its domain: expected an integer >= 1"),
        ("K", 0, "K=0 is outside its domain"),
        ("B", -0.1, "B=-0.1 is outside its domain: expected a number >= 0"),
        ("sigma2", math.inf, "sigma2=inf is outside its domain"),
        ("sigma2", math.nan, "sigma2=nan is outside its domain"),
    ],
)
def test_domain_errors(name, value, piece):
    vals = dict(AFO, eta=0.1)
    vals[name] = value
    with pytest.raises(ValueError) as info:
        evaluate(get(THM2), "explicit", **vals)
    assert piece in str(info.value)


def test_domain_error_in_an_array_names_the_bad_entry():
    with pytest.raises(ValueError, match="K=3.5 is outside its domain"):
        evaluate(get(THM2), "explicit", eta=0.1, **dict(AFO, K=np.array([1, 2, 3.5, 4])))


def test_domain_error_is_an_input_error():
    with pytest.raises(InputError):
        evaluate(get(THM2), "explicit", **dict(AFO, eta=0.1, mu=-1.0))


def test_unknown_form():
    with pytest.raises(KeyError, match="has no form 'typo'; available: printed, explicit, proof"):
        evaluate(get(THM2), "typo", **AFO)


def test_default_form_is_printed():
    ev = evaluate(get("even2022.lemma4"), b=0.5, mu=0.25)
    assert ev.form == "printed" and ev.value == pytest.approx(0.5)


# ----------------------------------------------------------------------------- Evaluation
def test_evaluation_to_json_keys_and_values():
    ev = evaluate(get(THM2), "explicit", eta=np.array([0.1, 0.2]), **AFO)
    doc = ev.to_json()
    assert set(doc) == {"id", "form", "value", "hidden_constants", "inputs"}
    assert doc["value"] == [pytest.approx(x) for x in thm2_explicit(np.array([0.1, 0.2]), **AFO)]
    assert doc["inputs"]["eta"] == [0.1, 0.2]
    assert isinstance(doc["inputs"]["K"], float)
    ev2 = Evaluation("x", "printed", float("inf"), [], {"a": 1.0}, solved_for="K", target=1.0)
    d2 = ev2.to_json()
    assert d2["value"] == "inf" and d2["solved_for"] == "K" and d2["target"] == 1.0


def test_evaluation_with_matrices_reports_derived():
    lam = np.array([[0.5, 0.5], [0.2, 0.8]])
    b = np.array([[0.0, 1.0], [1.0, 0.0]])
    ev = evaluate(get(THM2), "explicit", matrices={"Lambda": lam, "b": b}, eta=0.1,
                  **{k: v for k, v in AFO.items() if k not in ("V", "B")})
    doc = ev.to_json()
    assert set(doc) == {"id", "form", "value", "hidden_constants", "inputs", "derived"}
    assert doc["derived"] == {"V": "V_i = sum_j lambda_ij^2", "B": "B_i = sum_j lambda_ij b_ij^2"}
    assert doc["inputs"]["V"] == [pytest.approx(0.5), pytest.approx(0.68)]
    assert doc["inputs"]["B"] == [pytest.approx(0.5), pytest.approx(0.2)]


def test_given_scalar_conflicting_with_its_matrix_is_refused():
    lam = np.array([[0.5, 0.5], [0.2, 0.8]])  # V_i = 0.5, 0.68; AFO gives V=0.4
    with pytest.raises(InputError, match=r"V=0.4 conflicts with Lambda, which give "
                                         r"V=\[0.5, 0.68\].*give V or Lambda, not both"):
        evaluate(get(THM2), "explicit", matrices={"Lambda": lam}, eta=0.1, **AFO)


def test_given_scalar_agreeing_with_its_matrix_is_accepted():
    lam = np.array([[0.5, 0.5], [0.5, 0.5]])  # V_i = 0.5 for both agents
    ev = evaluate(get(THM2), "explicit", matrices={"Lambda": lam}, eta=0.1,
                  **dict(AFO, V=0.5))
    assert ev.inputs["V"] == 0.5 and ev.derived == {}


@pytest.mark.parametrize(
    "lam, piece",
    [
        (np.array([[0.5, 0.5], [0.3, 0.6]]), "row 1 sums to 0.9"),
        (np.array([[1.2, -0.2], [0.0, 1.0]]), "non-negative"),
        (np.ones((2, 3)) / 3, "square"),
    ],
)
def test_bad_weight_matrices(lam, piece):
    with pytest.raises(ValueError, match=piece):
        evaluate(get(THM2), "explicit", matrices={"Lambda": lam}, eta=0.1,
                 **{k: v for k, v in AFO.items() if k != "V"})


@pytest.mark.parametrize(
    "b, piece",
    [
        (np.array([[0.0, -1.0], [1.0, 0.0]]), "non-negative"),
        (np.array([[0.1, 1.0], [1.0, 0.0]]), "zero diagonal"),
        (np.array([[0.0, np.nan], [1.0, 0.0]]), "finite"),
    ],
)
def test_bad_bias_matrices(b, piece):
    with pytest.raises(ValueError, match=piece):
        evaluate(get("even2022.theorem4"), "corrected", matrices={"b": b}, F0=1.0, K=10,
                 L=2.0, mu=1.0, sigma2=1.0, C=5, S=100, nu2=0.01, d_eff=2.0, D_star=1.0,
                 u=0.01, Delta2=0.5, c_N=3.0)


def test_mismatched_matrix_shapes():
    with pytest.raises(ValueError, match=r"b has shape \(3, 3\) but Lambda has shape \(2, 2\)"):
        evaluate(get(THM2), "explicit", matrices={"Lambda": np.eye(2), "b": np.zeros((3, 3))},
                 eta=0.1, **{k: v for k, v in AFO.items() if k not in ("B", "V")})


# ----------------------------------------------------------------------------- solve
def test_solve_argument_errors():
    r = get(THM2)
    with pytest.raises(InputError, match="T is not an input of even2022.theorem2 \\[explicit\\]"):
        solve(r, "T", 0.1, "explicit", eta=0.1, **AFO)
    with pytest.raises(InputError, match="K is the unknown"):
        solve(r, "K", 0.1, "explicit", eta=0.1, **AFO)
    with pytest.raises(InputError, match="has no part 'S'"):
        solve(r, "K", 0.1, "explicit", part="S", eta=0.1,
              **{k: v for k, v in AFO.items() if k != "K"})
    with pytest.raises(InputError, match="needs: eta"):
        solve(r, "K", 0.1, "explicit", **{k: v for k, v in AFO.items() if k != "K"})


def test_solve_real_variable_eta_is_smallest():
    # Lemma 6 decreases then increases in eta; the smallest eta reaching the target is found
    vals = dict(mu=1.0, L=2.0, sigma2=1.0, T=100, Delta0=1.0)
    target = 0.2
    ev = solve(get("even2022.lemma6"), "eta", target, **vals)

    def f(eta):
        return math.exp(-eta * 100) + eta * 2.0

    assert f(ev.value) <= target * (1 + 1e-12)
    assert f(ev.value * (1 - 1e-9)) > target
    assert ev.value < 0.05  # the left crossing, not the right one near eta = 0.1


def test_solve_respects_conditions_on_real_variable():
    # Lemma 6 with eta <= 1/(2L): a target only reachable beyond the cap is infeasible; the
    # floor is min over eta of e^{-10 eta} + 2 eta, at eta = ln(5)/10 (inside the cap)
    with pytest.raises(TargetUnreachable, match="target 0.001 is below the floor") as info:
        solve(get("even2022.lemma6"), "eta", 1e-3, mu=1.0, L=2.0, sigma2=1.0, T=10,
              Delta0=1.0)
    eta = math.log(5) / 10
    assert info.value.floor == pytest.approx(math.exp(-10 * eta) + 2 * eta, rel=1e-4)


def test_solve_unreachable_target_with_no_feasible_point():
    # eta <= 1/(2L) with L = 1e16 caps eta at 5e-17, below the searched range [1e-15, 1e15]
    with pytest.raises(TargetUnreachable, match=r"no eta in \[1e-15, 1e\+15\] satisfies "
                                                r"the conditions.*eta <= 1/\(2\*L\)"):
        solve(get("even2022.lemma6"), "eta", 1.0, mu=1.0, L=1e16, sigma2=1.0, T=10,
              Delta0=1.0)


def test_solve_unreachable_per_agent_names_the_agent():
    # per-agent V: agent 1's floor eta*L*sigma2*V/(2 mu) + B/(2 mu) = 0.5 is above 0.3
    with pytest.raises(TargetUnreachable, match=r"\(agent 1; 1 of 2 agents\)") as info:
        solve(get(THM2), "K", 0.3, "explicit", eta=0.1, mu=1.0, L=2.0, sigma2=0.1, Delta0=1.0,
              V=np.array([0.3, 0.3]), B=np.array([0.01, 1.0]))
    floor = 0.1 * 2 * 0.1 * 0.3 / 2 + np.array([0.01, 1.0]) / 2
    assert info.value.floor == pytest.approx(floor, rel=1e-9)


def test_solve_large_answer_beyond_the_scan():
    # K ~ 2e7 is found by the geometric bracket and bisection
    vals = dict(eta=1e-7, mu=1.0, L=2.0, sigma2=1e-9, Delta0=1.0, V=1.0, B=0.0)
    ev = solve(get(THM2), "K", 0.1, "explicit", **vals)
    k = int(ev.value)
    assert k > 10**7
    assert thm2_explicit(K=k, **vals) <= 0.1 < thm2_explicit(K=k - 1, **vals)


def test_solve_json_has_solved_for_and_target():
    ev = solve(get(THM2), "K", 0.2, "explicit", eta=0.1,
               **{k: v for k, v in AFO.items() if k != "K"})
    doc = ev.to_json()
    assert doc["solved_for"] == "K" and doc["target"] == 0.2
    assert "K" not in doc["inputs"]


# ----------------------------------------------------------------------------- elasticities
def _fd_elasticity(f, vals, name, h=1e-6):
    up = dict(vals)
    dn = dict(vals)
    up[name] = vals[name] * math.exp(h)
    dn[name] = vals[name] * math.exp(-h)
    return (math.log(f(**up)) - math.log(f(**dn))) / (2 * h)


def test_elasticities_match_finite_differences_theorem2():
    vals = dict(AFO, eta=0.1)
    el = elasticities(get(THM2), "explicit", **vals)
    assert set(el) == set(vals)
    for name in vals:
        assert el[name] == pytest.approx(_fd_elasticity(thm2_explicit, vals, name), abs=1e-7)
    # B/(2mu) share of the bound: elasticity in B is exactly that share
    share = (AFO["B"] / 2) / thm2_explicit(**vals)
    assert el["B"] == pytest.approx(share, rel=1e-12)


def test_elasticities_match_finite_differences_theorem3():
    vals = dict(eta=0.1, mu=0.5, L=2.0, sigma2=1.0, K=30, F0=3.0, SumLam2=2.5, BiasSum=0.3,
                N=5)
    el = elasticities(get(THM3), "corrected", rho_W=1.0, **vals)
    for name in vals:
        assert el[name] == pytest.approx(_fd_elasticity(thm3_corrected, vals, name), abs=1e-7)
    # rho_W only appears in the conditions
    assert "rho_W" not in el


def test_elasticities_hidden_form_and_arrays():
    el = elasticities(get("even2022.theorem2_part2"), "printed", mu=1.0, L=2.0, sigma2=1.0,
                      eps=np.array([0.1, 0.01]), Neps=3)
    assert el["L"] == pytest.approx(1.0) and el["mu"] == pytest.approx(-2.0)
    np.testing.assert_allclose(el["eps"], [-1.0, -1.0])
    assert el["Neps"] == pytest.approx(-1.0)


def test_elasticities_check_conditions():
    with pytest.raises(HypothesisError):
        elasticities(get("even2022.lemma6"), eta=1.0, mu=1.0, L=2.0, sigma2=1.0, T=10,
                     Delta0=1.0)


# ----------------------------------------------------------------------------- constants
def test_constant_redeclaration():
    mu = constant("mu", "strong-convexity constant", "f/x^2")
    assert mu is get_constant("mu").symbol
    with pytest.raises(ValueError, match="declared twice in the core with different unit"):
        constant("mu", "strong-convexity constant", "f/x")
    with pytest.raises(ValueError, match="declared twice"):
        constant("K", "iterations", "1", "positive")


def test_constant_lookup_and_domain_names():
    with pytest.raises(KeyError, match="unknown constant 'nope' for the core"):
        get_constant("nope")
    with pytest.raises(KeyError, match="unknown constant 'V' for the core"):
        get_constant("V")  # even2022's own constant is not in the core
    from pflbounds.symbolic.constants import Constant

    with pytest.raises(ValueError, match="unknown domain"):
        Constant("zz_test", "test", get_constant("mu").unit, "weird")
    c = Constant("zz_unit", "a probability", get_constant("K").unit, "unit_interval")
    c.check_value(np.array([0.0, 0.5, 1.0]))
    with pytest.raises(ValueError, match="expected a number in \\[0, 1\\]"):
        c.check_value(1.5)
    sym = get_constant("K").symbol
    assert sym.is_integer and sym.is_positive
    assert get_constant("B", "even2022").symbol.is_nonnegative


# ----------------------------------------------------------------------------- hidden
def test_hidden_markers():
    mu = get_constant("mu").symbol
    eps = get_constant("eps").symbol
    e = 3 + Otilde(1 / mu) + Omega(eps / mu)
    terms = hidden_terms(e)
    assert {type(t).__name__ for t in terms} == {"Otilde", "Omega"}
    assert strip_hidden(e) == 3 + 1 / mu + eps / mu
    lines = describe_hidden(e)
    assert len(lines) == 2
    assert any(line.startswith("Otilde(1/mu) (up to constant and logarithmic factors)")
               for line in lines)
    assert sp.sstr(Otilde(mu)) == "Otilde(mu)"
    assert r"\tilde{\mathcal{O}}\left(\mu\right)" in sp.latex(Otilde(mu))
    assert describe_hidden(mu + 1) == []


def test_solve_raises_on_a_condition_independent_of_the_unknown():
    with pytest.raises(HypothesisError, match=r"eta <= 1/\(2\*L\)"):
        solve(get("even2022.lemma6"), "T", 1.0, eta=0.3, mu=1.0, L=2.0, sigma2=1.0,
              Delta0=1.0)


def test_solve_one_part_of_a_multipart_form():
    vals = dict(nu2=1.0, d_eff=2.0, eps=0.1, mu=1.0, N=10, b_max=1.0, C=4, L=2.0, sigma2=1.0,
                F0=1.0)
    ev = solve(get("even2022.corollary2"), "Delta2", 50.0, "corrected", part="S", **vals)
    # S = max(16 nu2 d_eff, 16 nu2 ln(N b_max^2/(mu eps)), 32 nu2 ln(2 C^2)) / Delta2
    m = max(16 * 2.0, 16 * math.log(10 / 0.1), 32 * math.log(2 * 16))
    assert m == 32 * math.log(32)
    assert ev.value == pytest.approx(m / 50.0, rel=1e-12)
    assert ev.hidden_constants  # the K and KC parts of the form hide constants


def test_solve_one_part_needs_only_that_parts_inputs():
    vals = dict(nu2=1.0, d_eff=2.0, Delta2=5.0, eps=0.1, mu=1.0, N=10, b_max=1.0)
    ev = solve(get("even2022.corollary2"), "C", 60.0, "corrected", part="S", **vals)
    # S(C) = max(6.4, 16/5 ln(100), 32/5 ln(2 C^2)) <= 60 already at C = 1
    assert ev.value == 1.0
    ev = solve(get("even2022.corollary2"), "C", 30.0, "corrected", part="S", **vals)
    # 32/5 ln(2 C^2) <= 30  <=>  C <= sqrt(exp(30 * 5/32)/2): the smallest C is 1 as well,
    # while a target below 16/5 ln(100) = 14.74 cannot be met by any C
    assert ev.value == 1.0
    with pytest.raises(TargetUnreachable, match=r"corollary2 \[corrected:S\]") as info:
        solve(get("even2022.corollary2"), "C", 14.0, "corrected", part="S", **vals)
    assert info.value.floor == pytest.approx(16 / 5 * math.log(100), rel=1e-12)
