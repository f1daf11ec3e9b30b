"""philippenko2025 theory: results, forms, conditions, derivations from b and c, errata."""

from __future__ import annotations

import math

import numpy as np
import pytest

from pflbounds.papers.philippenko2025.errata import ERRATA
from pflbounds.papers.philippenko2025.theory import RESULTS
from pflbounds.symbolic.catalog import assumptions, get, results
from pflbounds.symbolic.evaluate import HypothesisError, InputError, evaluate, numeric
from pflbounds.symbolic.units import DimensionError

P = "philippenko2025."


def ev(rid, form=None, matrices=None, **v):
    return evaluate(get(P + rid), form, matrices=matrices, **v).value


def test_every_result_is_registered_and_has_a_source():
    ids = {r.id for r in results("philippenko2025")}
    assert ids == set(RESULTS)
    for key in ("lemma1", "s2", "theorem1", "lemma2", "theorem2_constant", "theorem2_horizon",
                "theorem2_decreasing", "corollary1", "theorem3", "definition1",
                "definition2_binary", "definition2_continuous", "definition3_binary",
                "property1", "remark3_binary", "remark3_continuous"):
        assert P + key in ids
        assert get(P + key).source
    assert {a.id for a in assumptions("philippenko2025")} >= {
        P + "A1", P + "A2", P + "A3", P + "A4", P + "A5"}


def test_exactly_the_three_printed_forms_with_unit_errata_fail_the_dimension_check():
    failing = set()
    for r in results("philippenko2025"):
        for name in r.forms:
            try:
                r.dimension_check(name)
            except DimensionError:
                failing.add((r.id.removeprefix(P), name))
    assert failing == {("lemma1", "printed"), ("definition2_ratio", "printed"),
                       ("theorem2_horizon", "printed")}


def test_every_corrected_form_has_an_erratum_and_errata_link_checks():
    for r in results("philippenko2025"):
        if "corrected" in r.forms:
            assert r.errata, r.id
    for key, e in ERRATA.items():
        assert e.id == P + key
        assert e.check_id is None or e.check_id.startswith(P)
        assert e.digest_ref.startswith("§")
    linked = {e.check_id for e in ERRATA.values() if e.check_id}
    assert {P + "E1", P + "E4", P + "E7", P + "E8", P + "E10", P + "E14", P + "E18"} <= linked


def test_lemma1_corrected_against_the_hand_formula_and_its_step_condition():
    v = dict(eta=0.1, beta=2.0, Asum=1.5, ADsum=0.3, G=1.0, Valpha=0.7)
    want = 0.1 / 2 * (0.3 - 1.5 * 1.0) + 2.0 * 0.01 / 2 * 0.7
    assert ev("lemma1", "corrected", **v) == pytest.approx(want, rel=1e-14)
    with pytest.raises(HypothesisError, match="eta < \\(beta sum_k alpha_ik\\)"):
        ev("lemma1", "corrected", **{**v, "eta": 0.4})


def test_theorem2_rows_against_hand_formulas():
    base = dict(mu=0.5, beta=2.0, eps0=3.0, sigma_suf2=0.4, kappa_w=0.5)
    T = 50
    assert ev("theorem2_constant", eta=0.2, T=T, **base) == pytest.approx(
        (1 - 0.1) ** T * 3.0 + 0.2 * 2.0 * 0.4 / (2 * 0.5), rel=1e-14)
    assert ev("theorem2_floor", eta=0.2, **{k: base[k] for k in ("mu", "beta", "sigma_suf2",
                                                                  "kappa_w")}) == \
        pytest.approx(0.2 * 2.0 * 0.4 / 1.0)
    T = 400
    A = 2 * T * 0.25 * 3.0 / (2.0 * 0.4)
    assert ev("theorem2_horizon", "corrected", T=T, **base) == pytest.approx(
        2.0 * 0.4 / (2 * 0.25 * T) * (math.log(A) + 1), rel=1e-13)
    assert ev("theorem2_horizon", "printed", T=T, **base) == pytest.approx(
        2.0 * 0.4 / (2 * 0.25 * T) * (math.log(A * 2.0) + 1), rel=1e-13)
    assert ev("theorem2_horizon_step", T=T, **base) == pytest.approx(math.log(A) / (0.5 * T))
    C, g = 2.0, 15.0
    assert ev("theorem2_decreasing", "corrected", T=T, C=C, gamma0=g, **base) == \
        pytest.approx(max(2.0 * 0.4 * 4 / (2 * 0.25 * 1), 16 * 3.0) / (T + 16))


def test_decreasing_printed_has_no_admissible_input_and_the_shift_condition():
    base = dict(mu=1.0, beta=1.0, eps0=1.0, sigma_suf2=1.0, kappa_w=1.0, T=10, C=1.01)
    with pytest.raises(HypothesisError, match="C/mu <= kappa/beta"):
        ev("theorem2_decreasing", "printed", **base)
    with pytest.raises(HypothesisError, match="gamma0"):
        ev("theorem2_decreasing", "corrected", gamma0=0.0, **{**base, "C": 3.0})
    assert ev("theorem2_decreasing", "corrected", gamma0=2.0, **{**base, "C": 3.0}) > 0
    with pytest.raises(HypothesisError, match="C > 1"):
        ev("corollary1", "printed", mu=1, beta=1, sigma_suf2=1, eps=0.1, C=1.0)


def test_horizon_step_conditions():
    base = dict(mu=1.0, beta=1.0, eps0=1.0, sigma_suf2=10.0, kappa_w=1.0)
    with pytest.raises(HypothesisError, match="positive"):
        ev("theorem2_horizon", "corrected", T=2, **base)


def test_corollary1_forms():
    v = dict(mu=1.0, beta=2.0, sigma_suf2=0.5, eps=0.01, C=2.0)
    CC = 4.0
    assert ev("corollary1", "printed", **v) == pytest.approx(CC * 2 * 0.5 / (2 * 0.01))
    assert ev("corollary1", "general", eps0=10.0, **v) == pytest.approx(10.0 / 0.01)
    assert ev("corollary1", "corrected", eps0=1.0, gamma0=3.0, kappa_w=1.0, **v) == \
        pytest.approx(max(2.0, 4.0) / 0.01 - 4)


def test_theorem3_forms_and_step():
    v = dict(eps0=2.0, beta=4.0, sigma_suf2=0.5, T=1000)
    assert ev("theorem3", "printed", **v) == pytest.approx(2 * math.sqrt(2 * 2 * 4 * 0.5 / 1000))
    step = ev("theorem3_step", kappa_w=1.0, **v)
    assert step == pytest.approx(math.sqrt(2 * 2 / (1000 * 4 * 0.5)))
    # where the min picks its first term the explicit form equals the printed one
    assert ev("theorem3", "explicit", kappa_w=1.0, **v) == pytest.approx(
        ev("theorem3", "printed", **v), rel=1e-12)
    # where it picks kappa/beta the printed value is below the proof's bound (erratum 16)
    small = dict(v, T=2)
    assert ev("theorem3", "explicit", kappa_w=0.1, **small) > ev("theorem3", "printed", **small)
    assert ev("theorem3", "corrected", eta=0.1, sigma_eff2_avg=0.3, kappa_w=0.5, T=10,
              eps0=2.0, beta=4.0) == pytest.approx(2 * 2.0 / (10 * 0.1) + 0.1 * 4 * 0.3)


def _two_clusters(N=6, gap=2.0):
    b = np.zeros((N, N))
    odd = np.arange(N) % 2 == 1
    b[np.ix_(odd, ~odd)] = gap
    b[np.ix_(~odd, odd)] = gap
    return b


def test_definition2_from_matrices_against_an_independent_computation():
    b = _two_clusters(6, 2.0)
    c = np.full((6, 6), 0.1) - 0.1 * np.eye(6)
    s2 = np.array([1.0, 2.0, 1.0, 0.5, 1.0, 1.0])
    mu, eps, lam = 1.0, 4.0, 0.3
    out = ev("definition2_binary", "corrected", {"b": b, "c": c}, mu=mu, eps=eps, lam=lam,
             sigma2=s2)
    # by hand: x = 1 - b^2/(2 mu eps) - c = 1 - 4/8 - 0.1 = 0.4 across, 0.9 within, 1 on i
    x = np.where(b > 0, 0.4, 0.9)
    np.fill_diagonal(x, 1.0)
    psi = np.where(x >= lam, lam * x, 0.0)
    assert np.array_equal(out["Nstar"], np.full(6, 6.0))
    assert np.allclose(out["sigma_suf2"], 1 / (psi / s2).sum(1), rtol=1e-14)
    cont = ev("definition2_continuous", "corrected", {"b": b}, mu=mu, eps=eps, sigma2=1.0)
    x0 = np.where(b > 0, 0.5, 1.0)
    assert np.allclose(cont["sigma_suf2"], 1 / (x0**2).sum(1))
    # printed reading b/(2 mu eps) = 2/8: a larger cluster value x = 0.75 across
    pr = ev("definition2_continuous", "printed", {"b": b}, mu=mu, eps=eps, sigma2=1.0)
    x1 = np.where(b > 0, 0.75, 1.0)
    assert np.allclose(pr["sigma_suf2"], 1 / (x1**2).sum(1))
    small = ev("definition2_binary", "corrected", {"b": b}, mu=mu, eps=0.5, lam=lam, sigma2=1.0)
    assert np.array_equal(small["Nstar"], np.full(6, 3.0))
    assert np.allclose(small["sigma_suf2"], 1 / (3 * lam))


def test_definition2_bad_matrices_and_missing_inputs():
    b = _two_clusters(4)
    bad = b.copy()
    bad[0, 0] = 1
    with pytest.raises(ValueError, match="zero diagonal"):
        ev("definition2_continuous", "corrected", {"b": bad}, mu=1, eps=1, sigma2=1.0)
    with pytest.raises(ValueError, match="one per client"):
        ev("definition2_continuous", "corrected", {"b": b}, mu=1, eps=1, sigma2=np.ones(3))
    with pytest.raises(InputError, match="lam"):
        ev("definition2_binary", "corrected", {"b": b}, mu=1, eps=1, sigma2=1.0)


def test_definition2_ratio_per_pair_and_corollary1_binary_count():
    b = _two_clusters(4, 3.0)
    x = ev("definition2_ratio", "corrected", {"b": b}, mu=1.0, eps=9.0, c=0.0)
    assert np.allclose(x, np.where(b > 0, 0.5, 1.0))
    n = evaluate(get(P + "corollary1_binary"), "corrected", matrices={"b": b}, mu=1.0,
                 eps=9.0, lam=0.5, beta=1.0, sigma2=1.0, C=2.0)
    assert np.allclose(n.value, 4.0 * 1.0 / (2 * 9.0 * 0.25 * 4))


def test_property1_and_remark3_and_weights():
    p = ev("property1", "corrected", Axi=1.0, IAA=0.5)
    assert p["b"] == pytest.approx(2 * math.sqrt(2)) and p["c"] == pytest.approx(0.5)
    assert ev("property1", "printed", Axi=1.0, IAA=0.5)["b"] == pytest.approx(math.sqrt(2))
    assert ev("remark3_continuous", "corrected", SinvSum=20.0) == pytest.approx(0.05)
    assert ev("definition3_binary", r=0.4, lam=0.5) == {"phi": 0.0, "psi": 0.0}
    assert ev("definition3_binary", r=0.5, lam=0.5) == {"phi": 0.5, "psi": 0.25}
    assert ev("definition1_ratio", D=1.0, G=4.0) == pytest.approx(0.75)
    assert ev("definition1", phi_r=0.5, sigma_eff2=0.2, sigma_k2=0.1) == pytest.approx(1.0)


def test_limits_of_the_sufficient_variance_printed_and_corrected():
    from pflbounds.algorithms.similarity_weights import Criterion
    from pflbounds.papers.philippenko2025.definitions import (
        suf_limit_large_eps,
        suf_limit_small_eps,
    )

    b = _two_clusters(4, 1.0)
    s2 = np.array([0.5, 1.0, 2.0, 4.0])
    crit = Criterion.continuous()
    tiny = ev("definition2_continuous", "corrected", {"b": b}, mu=1.0, eps=1e-9, sigma2=s2)
    assert np.allclose(tiny["sigma_suf2"], suf_limit_small_eps(b, None, s2, crit), rtol=1e-12)
    assert not np.allclose(tiny["sigma_suf2"], suf_limit_small_eps(b, None, s2, crit, True))
    huge = ev("definition2_continuous", "corrected", {"b": b}, mu=1.0, eps=1e12, sigma2=s2)
    assert np.allclose(huge["sigma_suf2"], suf_limit_large_eps(None, s2, crit, 4), rtol=1e-9)


def test_vectorised_evaluation_of_a_bound_over_T():
    Ts = np.array([1.0, 10.0, 100.0])
    out = numeric(get(P + "theorem2_constant").form("printed").expr,
                  dict(eta=0.1, mu=1.0, beta=1.0, T=Ts, eps0=1.0, sigma_suf2=1.0))
    assert out.shape == (3,) and np.all(np.diff(out) < 0)
