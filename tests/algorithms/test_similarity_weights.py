"""Collaboration weights from gradient similarity (Definitions 1 and 3, Remark 1, Eq. (1))."""

from __future__ import annotations

import numpy as np
import pytest

from pflbounds.algorithms.driver import Costs
from pflbounds.algorithms.similarity_weights import (
    Criterion,
    aggregated_variance,
    collaboration_weights,
    cross_gradients,
    estimated_ratios,
    estimated_rule,
    fixed_rule,
    gradient_gaps,
    remark1_weights,
    similarity_ratios,
    true_gradient_rule,
    true_ratios,
)
from pflbounds.problems.quadratic import QuadraticFamily


def _family(N=6, d=3, seed=0, h=None):
    rng = np.random.default_rng(seed)
    return QuadraticFamily(h=np.ones(d) if h is None else np.asarray(h, float),
                           m=rng.standard_normal((N, d)), s=np.full(d, 0.5 / d))


def test_criteria_phi_psi_and_bad_inputs():
    x = np.array([0.0, 0.2, 0.5, 0.7, 1.0])
    b = Criterion.binary(0.5)
    assert b.phi(x).tolist() == [0, 0, 0.5, 0.5, 0.5]
    assert np.allclose(b.psi(x), [0, 0, 0.25, 0.35, 0.5])
    c = Criterion.continuous()
    assert np.allclose(c.psi(x), x**2)
    assert (b.phi(x) <= x).all() and (c.phi(x) <= x).all()
    assert b.selects(x).tolist() == [False, False, True, True, True]
    assert c.selects(x).tolist() == [False, True, True, True, True]
    with pytest.raises(ValueError, match="lam in"):
        Criterion.binary(0.0)
    with pytest.raises(ValueError, match="no threshold"):
        Criterion("continuous", 0.3)
    with pytest.raises(ValueError, match="'binary' or 'continuous'"):
        Criterion("soft")
    assert np.allclose(c.kappa(np.array([1.0, 1.0, 1.0, 1.0])), 0.25)
    assert np.allclose(b.kappa(np.ones(3)), 0.5)


def test_similarity_ratio_and_the_stationary_point_convention():
    D = np.array([[0.0, 1.0, 3.0], [0.5, 0.0, 0.0], [2.0, 2.0, 0.0]])
    r = similarity_ratios(D, np.array([2.0, 0.0, 1.0]))
    assert r.tolist() == [[1, 0.5, 0], [0, 1, 1], [0, 0, 1]]


def test_weights_identities_I1_to_I5():
    rng = np.random.default_rng(3)
    fam = _family(N=8, d=4, h=[0.5, 1, 2, 3])
    X = rng.standard_normal((5, 8, 4)) * 2
    r, D, G = true_ratios(fam, X)
    s2 = rng.uniform(0.2, 2.0, 8)
    for crit in (Criterion.binary(0.3), Criterion.continuous()):
        w = collaboration_weights(r, s2, crit)
        lhs = np.einsum("rik,rik->ri", w.alpha, D - G[..., None])
        assert np.allclose(lhs, -G, rtol=1e-12)                             # (I1)
        var = aggregated_variance(w.alpha, s2)
        assert np.all(var <= w.sigma_eff2 * (1 + 1e-12))                    # (I2)
        tot = w.alpha.sum(-1)
        assert np.allclose(tot, w.sigma_eff2 / w.sigma_phi2, rtol=1e-12)    # (I3)
        assert np.all(tot >= 1 - 1e-12)
        upper = 1 / crit.lam if crit.name == "binary" else s2 * np.sum(1 / s2)
        assert np.all(tot <= upper * (1 + 1e-12))                           # (I4), (I5)
    wc = collaboration_weights(r, s2, Criterion.continuous())
    assert np.allclose(aggregated_variance(wc.alpha, s2), wc.sigma_eff2)   # equality, cont.


def test_local_special_case_and_identical_peers():
    r = np.eye(4)[None]
    w = collaboration_weights(r, np.ones(4), Criterion.binary(0.5))
    assert np.array_equal(w.alpha[0], np.eye(4))
    r = np.ones((1, 4, 4))
    wb = collaboration_weights(r, np.ones(4), Criterion.binary(0.5))
    assert np.allclose(wb.alpha, 0.25) and np.allclose(wb.sigma_eff2, 1 / (4 * 0.5))


def test_remark1_weights_are_definition1_with_sigma_over_sqrt_n():
    rng = np.random.default_rng(1)
    r = rng.uniform(0, 1, (3, 5, 5))
    r[:, np.arange(5), np.arange(5)] = 1
    n = np.array([1.0, 2, 4, 8, 16])
    crit = Criterion.continuous()
    a = remark1_weights(r, n, crit)
    expected = n * crit.phi(r) / np.sum(n * crit.psi(r), axis=-1, keepdims=True)
    assert np.allclose(a, expected, rtol=1e-13)
    sigma2 = 3.0 / n
    assert np.allclose(a, collaboration_weights(r, sigma2, crit).alpha, rtol=1e-13)


def test_gradient_gaps_fast_path_equals_cross_gradients():
    fam = _family(N=5, d=3, h=[1, 2, 5])
    X = np.random.default_rng(2).standard_normal((4, 5, 3))
    D, G = gradient_gaps(fam, X)
    CG = cross_gradients(fam, X)
    own = CG[:, np.arange(5), np.arange(5)]
    assert np.allclose(D, ((CG - own[:, :, None]) ** 2).sum(-1), atol=1e-12)
    assert np.allclose(G, (own**2).sum(-1))


def test_estimated_ratios_converge_to_the_true_ones_and_charge_costs():
    fam = _family(N=4, d=2)
    X = np.random.default_rng(0).standard_normal((2, 4, 2)) * 3
    r_true, _, _ = true_ratios(fam, X)
    r_hat, Zik, Zi = estimated_ratios(fam, X, 20000, np.random.default_rng(1))
    assert np.allclose(r_hat, r_true, atol=0.02)
    assert Zik.shape == (2, 4, 4) and Zi.shape == (2, 4)
    costs = Costs(2)
    out = estimated_rule(fam, Criterion.binary(0.5), 3)({"X": X}, 0,
                                                           np.random.default_rng(2), costs)
    assert costs.counts["samples"].tolist() == [48.0, 48.0]
    assert out["alpha"].shape == (2, 4, 4)
    with pytest.raises(ValueError, match="m \\(b_alpha\\)"):
        estimated_ratios(fam, X, 0, np.random.default_rng(1))


def test_estimator_bias_matches_its_expectation():
    """E Z_ik = ||grad R_i - grad R_k||^2 + (s_i^2 + s_k^2)/m (digest §3.6)."""
    fam = _family(N=3, d=2)
    X = np.zeros((4000, 3, 2))
    _, Zik, Zi = estimated_ratios(fam, X, 2, np.random.default_rng(5))
    D, G = gradient_gaps(fam, X[:1])
    s2 = fam.sigma2_agents
    want = D[0] + (s2[:, None] + s2[None, :]) / 2 * (1 - np.eye(3))
    assert np.allclose(Zik.mean(0), want, atol=0.05)
    assert np.allclose(Zi.mean(0), G[0] + s2 / 2, atol=0.05)


def test_code_variant_renormalises_to_one():
    fam = _family(N=4, d=2)
    X = np.random.default_rng(0).standard_normal((3, 4, 2))
    for crit in (Criterion.binary(0.5), Criterion.continuous()):
        out = estimated_rule(fam, crit, 2, variant="code")({"X": X}, 0,
                                                            np.random.default_rng(3), Costs(3))
        assert np.allclose(out["alpha"].sum(-1), 1.0)
        assert "sigma_eff2" not in out
    with pytest.raises(ValueError, match="variant"):
        estimated_rule(fam, Criterion.continuous(), 2, variant="other")


def test_true_rule_and_fixed_rule_outputs():
    fam = _family(N=4, d=2)
    X = np.random.default_rng(0).standard_normal((3, 4, 2))
    out = true_gradient_rule(fam, Criterion.continuous(), 1.0)({"X": X}, 0, None, Costs(3))
    assert set(out) >= {"alpha", "sigma_eff2", "sigma_phi2", "variance", "ratios"}
    assert np.allclose(out["variance"], out["sigma_eff2"])
    L = np.full((4, 4), 0.25)
    assert fixed_rule(L)({"X": X}, 0, None, Costs(3))["alpha"].shape == (3, 4, 4)
    with pytest.raises(ValueError, match="shape"):
        fixed_rule(np.ones(3))
    with pytest.raises(ValueError, match="sigma2 or batch_sizes"):
        estimated_rule(fam, Criterion.continuous(), 1, sigma2=1.0, batch_sizes=np.ones(4))
