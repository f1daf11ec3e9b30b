"""even2022 results of Appendix E, Section 5's baselines and the speedup statements: numbers
from independent computations, conditions, units, errata, and the engine-side formulas."""

from __future__ import annotations

import math

import numpy as np
import pytest

from pflbounds.checking import registry
from pflbounds.locate import locate
from pflbounds.papers.even2022.errata import ERRATA
from pflbounds.papers.even2022.instances import (
    instance_a_lower_bound,
    misclassification_bound,
)
from pflbounds.problems import GaussianMeans, HardInstanceA
from pflbounds.problems.clusters import global_weights, interpolated_weights
from pflbounds.symbolic import HypothesisError, Kind, evaluate, get
from pflbounds.symbolic.units import DimensionError


def value(rid, form="printed", **kw):
    return evaluate(get(rid), form, **kw).value


# ----------------------------------------------------------------------------- Appendix E
def test_hkz_corrected_is_the_chi_square_tail_of_laurent_massart():
    # Sigma = I_p: Tr = p, Tr(Sigma^2) = p, ||Sigma||_op = 1: p + 2 sqrt(p t) + 2t
    p, t = 7.0, 1.3
    got = value("even2022.hkz_tail", "corrected", nu2=1.0, d_eff=p, Sigma_F=math.sqrt(p), t=t)
    assert got == pytest.approx(p + 2 * math.sqrt(p * t) + 2 * t, rel=1e-14)


def test_hkz_printed_threshold_does_not_scale_with_sigma():
    r = get("even2022.hkz_tail")
    with pytest.raises(DimensionError):
        r.dimension_check("printed")
    r.dimension_check("corrected")
    base = dict(nu2=2.0, d_eff=5.0, Sigma_F=3.0, t=2.0)
    scaled = {k: (v * 100 if k in ("nu2", "Sigma_F") else v) for k, v in base.items()}
    c0, c1 = (value(r.id, "corrected", **v) for v in (base, scaled))
    p0, p1 = (value(r.id, "printed", **v) for v in (base, scaled))
    assert c1 == pytest.approx(100 * c0, rel=1e-13)
    assert p1 < 100 * p0 * 0.99  # the sqrt(||Sigma|| t) term grows only 10-fold
    assert ERRATA["erratum20_hkz"] in r.errata


def test_norm_tail_follows_from_the_corrected_threshold():
    """At t = u/(2 nu^2) and u >= Tr(Sigma) the corrected HKZ level is below 4u, so the
    consequence P(||xi||^2 >= 4u) <= e^{-u/(2 nu^2)} holds (the paper's derivation)."""
    rng = np.random.default_rng(0)
    for _ in range(200):
        eigs = rng.uniform(0.0, 1.0, rng.integers(1, 30)) ** 3
        eigs[0] = eigs.max() + 1e-3
        nu2, tr = eigs.max(), eigs.sum()
        u = tr * rng.uniform(1.0, 10.0)
        level = value("even2022.hkz_tail", "corrected", nu2=nu2, d_eff=tr / nu2,
                      Sigma_F=math.sqrt((eigs**2).sum()), t=u / (2 * nu2))
        assert level <= 4 * u
        assert value("even2022.hkz_norm_tail", u=u, nu2=nu2, d_eff=tr / nu2) == pytest.approx(
            math.exp(-u / (2 * nu2)), rel=1e-14)
    with pytest.raises(HypothesisError, match="u >= d_eff\\*nu2"):
        value("even2022.hkz_norm_tail", u=0.9, nu2=1.0, d_eff=1.0)


def test_recovery_probability_is_a_lower_bound_with_its_condition():
    r = get("even2022.theorem4_recovery")
    assert r.kind is Kind.LOWER_BOUND and r.relation == ">=" and str(r.quantity_unit) == "1"
    got = value(r.id, u=2.0, S=10.0, C=4.0, nu2=1.0, d_eff=5.0)
    assert got == pytest.approx(1 - 8 * math.exp(-20 / 8), rel=1e-14)
    with pytest.raises(HypothesisError, match="u >= 4\\*d_eff\\*nu2/S"):
        value(r.id, u=1.0, S=10.0, C=4.0, nu2=1.0, d_eff=5.0)


def test_bias_bound_corrected_is_theorem4s_corrected_bias_term():
    """Theorem 4 corrected = F0 e^{-K/(2 kappa)} + O~(...) + bias/(2 mu) with c_N = N - C:
    its bias part equals theorem4_bias (corrected) / (2 mu N)."""
    kw = dict(u=0.5, S=40.0, nu2=1.0, d_eff=3.0, Delta2=1.5, b_max=2.0, D_star=1.3)
    N, C, mu = 12.0, 4.0, 0.7
    bias = value("even2022.theorem4_bias", "corrected", N=N, C=C, **kw)
    common = dict(F0=1.0, K=50.0, L=2.0, mu=mu, sigma2=0.3, C=C, c_N=N - C, **kw)
    thm4 = value("even2022.theorem4", "corrected", **common)
    kappa = 2.0 / mu
    rest = (math.exp(-50 / (2 * kappa))
            + kappa * 0.3 / (50 * mu) * (1 / C + 2 * C * math.exp(-40 * 0.5 / 8)))
    assert thm4 - rest == pytest.approx(bias / (2 * mu * N), rel=1e-12)
    with pytest.raises(DimensionError):
        get("even2022.theorem4_bias").dimension_check("printed")
    assert ERRATA["erratum18"] in get("even2022.theorem4_bias").errata


# ----------------------------------------------------------------------------- baselines
def _bias_matrix(N=6, seed=1):
    x = np.random.default_rng(seed).standard_normal((N, 2)) * 3
    return np.linalg.norm(x[:, None] - x[None], axis=-1)


def test_baseline_corrected_forms_are_lemma5_with_the_baseline_weights():
    b = _bias_matrix()
    N = b.shape[0]
    g = value("even2022.baseline_global", "corrected", mu=0.5, matrices={"b": b})
    assert g == pytest.approx(value("even2022.lemma5", "explicit", mu=0.5,
                                    matrices={"b": b, "Lambda": global_weights(N)}), rel=1e-13)
    assert g == pytest.approx((b**2).sum() / (2 * 0.5 * N**2), rel=1e-13)
    p = value("even2022.baseline_personalised", "corrected", mu=0.5, alpha=0.3,
              matrices={"b": b})
    lam = interpolated_weights(N, 0.3)
    assert p == pytest.approx(value("even2022.lemma5", "explicit", mu=0.5,
                                    matrices={"b": b, "Lambda": lam}), rel=1e-13)
    printed = value("even2022.baseline_personalised", "printed", alpha=0.3,
                    matrices={"b": b})
    assert printed == pytest.approx(np.mean((lam * b).sum(axis=1)), rel=1e-13)
    for rid in ("even2022.baseline_global", "even2022.baseline_personalised"):
        with pytest.raises(DimensionError):
            get(rid).dimension_check("printed")
        get(rid).dimension_check("corrected")
        assert ERRATA["erratum24"] in get(rid).errata


def test_baseline_local_is_theorem3_with_the_identity():
    kw = dict(F0=2.0, eta=0.1, mu=0.5, K=30.0, L=2.0, sigma2=0.4)
    local = value("even2022.baseline_local", "explicit", **kw)
    thm3 = value("even2022.theorem3", "corrected", N=5.0, SumLam2=5.0, BiasSum=0.0,
                 rho_W=1.0, **kw)
    assert local == pytest.approx(thm3, rel=1e-14)
    with pytest.raises(HypothesisError, match="eta <= 1/\\(2\\*L\\)"):
        value("even2022.baseline_local", "explicit", **dict(kw, eta=0.3))


# ----------------------------------------------------------------------------- speedups
def test_corollary1_remark_counts_theorem2_neighbours_and_is_tested_by_p14_theory():
    b = _bias_matrix(8, seed=3)
    mu, eps = 1.0, 4.0
    n_i = (b**2 <= mu * eps / 2).sum(axis=1)
    ev = evaluate(get("even2022.corollary1_remark"), mu=mu, L=3.0, sigma2=2.0, eps=eps,
                  matrices={"b": b})
    assert ev.value == pytest.approx(3.0 * 2.0 / (mu * eps) * np.mean(1 / n_i), rel=1e-13)
    assert ev.hidden_constants
    assert registry.get("even2022.P14_theory").result_id == "even2022.corollary1_remark"
    assert "even2022.P14_theory" in {c["id"] for c in locate("even2022.corollary1_remark")
                                     ["checks"]}


def test_corollary2_agents_printed_fails_units_and_corrected_is_m_times_c():
    r = get("even2022.corollary2_agents")
    with pytest.raises(DimensionError):
        r.dimension_check("printed")
    r.dimension_check("corrected")
    kw = dict(mu=0.5, L=2.0, sigma2=0.3, eps=0.01)
    kc = evaluate(get("even2022.corollary2"), "printed", nu2=1.0, d_eff=1.0, Delta2=1.0,
                  **kw).value["KC"]
    assert value(r.id, "corrected", M=7.0, K=20.0, **kw) == pytest.approx(7 * kc / 20,
                                                                           rel=1e-13)
    assert value(r.id, "printed", M=7.0, eps=0.01) == pytest.approx(700.0)
    assert ERRATA["erratum23_agents"].check_id == "even2022.C2"


# ----------------------------------------------------------------------------- instances
def test_instance_a_lower_bound_from_the_catalog():
    inst = HardInstanceA.two_level(64, 0.2, n0=1, n1=4, beta=0.1,
                                   rng=np.random.default_rng(0))
    want = ((64 / 3 * (math.log(2) - 0.5) - math.log(2))
            / (8.79 * 36 * 64 * inst.eps_target * inst.N_eff))
    assert instance_a_lower_bound(inst) == pytest.approx(want, rel=1e-12)
    assert instance_a_lower_bound(inst) * inst.eps_target == pytest.approx(1.6926e-4,
                                                                           rel=1e-3)
    assert inst.N_eff == 1
    small = HardInstanceA.two_level(11, 0.25, n0=2, n1=1, beta=1.0,
                                    rng=np.random.default_rng(1))
    assert instance_a_lower_bound(small) > 0


def test_misclassification_bound_from_the_catalog():
    g = GaussianMeans(mus=np.array([[0.0] * 5, [2.0] + [0.0] * 4]), C=1, Sigma=np.eye(5))
    assert misclassification_bound(g, 20, 1.0) == pytest.approx(2 * math.exp(-5.0), rel=1e-14)
    with pytest.raises(HypothesisError, match="u >= 4"):
        misclassification_bound(g, 2, 1.0)
