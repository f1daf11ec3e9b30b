"""The clustered linear-regression generator and its ridge quadratics."""

from __future__ import annotations

import numpy as np
import pytest

from pflbounds.problems.clustered_regression import ClusteredRegression, r2_scores


def _draw(seed=0, **kw):
    return ClusteredRegression(**{"n": 9, "d": 4, "n_min": 5, "n_max": 12, **kw}).draw(
        np.random.default_rng(seed))


def test_draw_has_the_stated_shapes_clusters_and_counts():
    g = ClusteredRegression(n=30, d=5)
    data = g.draw(np.random.default_rng(0))
    assert data.X.shape == (30, 100, 5) and data.X_test.shape == (30, 100, 5)
    np.testing.assert_array_equal(data.cluster, np.repeat([0, 1, 2], 10))
    assert data.counts.min() >= 10 and data.counts.max() <= 100
    assert np.all(data.X[~data.mask] == 0) and np.all(data.y[~data.mask] == 0)
    np.testing.assert_allclose(data.alpha.mean(), 1.0)
    np.testing.assert_allclose(data.alpha, 30 * data.counts / data.counts.sum())
    # cluster means 1, 1.5, 2 of the true parameters
    means = [data.theta_true[data.cluster == c].mean() for c in range(3)]
    np.testing.assert_allclose(means, [1.0, 1.5, 2.0], atol=0.2)
    assert data.samples(3).shape == (data.counts[3], 6)


def test_same_seed_same_draw():
    a, b = _draw(4), _draw(4)
    np.testing.assert_array_equal(a.X, b.X)
    np.testing.assert_array_equal(a.y_test, b.y_test)


def test_ridge_matches_the_sample_objective_and_its_gradient():
    data = _draw(1, lam=0.3)
    q = data.ridge()
    rng = np.random.default_rng(2)
    theta = rng.standard_normal((data.n, data.d))
    for i in range(data.n):
        Xi, yi = data.X[i, data.mask[i]], data.y[i, data.mask[i]]
        f = 0.5 * np.mean((Xi @ theta[i] - yi) ** 2) + 0.15 * theta[i] @ theta[i]
        g = Xi.T @ (Xi @ theta[i] - yi) / len(yi) + 0.3 * theta[i]
        np.testing.assert_allclose(q.loss(theta)[i], f, rtol=1e-12)
        np.testing.assert_allclose(q.grad_f(theta)[i], g, rtol=1e-11, atol=1e-12)
    np.testing.assert_allclose(q.grad_f(q.local_optima), 0.0, atol=1e-10)
    np.testing.assert_allclose(q.excess(q.local_optima), 0.0, atol=1e-12)
    assert np.all(q.excess(theta) > 0)
    np.testing.assert_allclose(q.L, np.max(q.alpha * np.linalg.eigvalsh(q.H)[:, -1]))
    # the consensus optimum zeroes the weighted sum of gradients
    c = np.broadcast_to(q.consensus_optimum, theta.shape)
    np.testing.assert_allclose(q.weighted_grad(c).sum(0), 0.0, atol=1e-10)


def test_fold_selections_give_the_quadratics_of_the_selected_samples():
    data = _draw(3)
    rng = np.random.default_rng(0)
    w = (rng.random((2, *data.mask.shape)) < 0.7) | (np.arange(data.mask.shape[1]) == 0)
    q = data.ridge(w)
    assert q.H.shape == (2, data.n, data.d, data.d)
    for f in range(2):
        sel = data.mask & w[f]
        for i in (0, 5):
            Xi, yi = data.X[i, sel[i]], data.y[i, sel[i]]
            np.testing.assert_allclose(q.b[f, i], Xi.T @ yi / len(yi), rtol=1e-12)
    with pytest.raises(ValueError, match="at least one selected sample"):
        data.ridge(np.zeros_like(data.mask))


def test_metrics_on_the_true_parameters_without_noise():
    data = _draw(5, sd_eps=0.0)
    np.testing.assert_allclose(data.estimation_error(data.theta_true), 0.0)
    np.testing.assert_allclose(data.test_r2(data.theta_true), 1.0)
    y = np.array([1.0, 2.0, 3.0])
    np.testing.assert_allclose(r2_scores(np.full(3, 2.0), y), 0.0)


@pytest.mark.parametrize("kw, msg", [(dict(n=2), "n >= 3"), (dict(n_min=20, n_max=10), "n_min"),
                                     (dict(sd_eps=-1.0), "must be >= 0")])
def test_bad_options_are_refused(kw, msg):
    with pytest.raises(ValueError, match=msg):
        ClusteredRegression(**kw)
