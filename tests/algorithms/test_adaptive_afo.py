"""The adaptive All-for-one runner: fixed rules reproduce run_afo bitwise, recorded metrics,
schedules, costs and errors."""

from __future__ import annotations

import numpy as np
import pytest

from pflbounds.algorithms.adaptive_afo import run_afo_adaptive
from pflbounds.algorithms.collaborative import run_afo, run_local_sgd
from pflbounds.algorithms.similarity_weights import Criterion, fixed_rule, true_gradient_rule
from pflbounds.problems.quadratic import QuadraticFamily


def _clusters(N=8, d=3, gap=3.0, sigma2=1.0):
    m = np.zeros((N, d))
    m[1::2, 0] = gap
    return QuadraticFamily(h=np.ones(d), m=m, s=np.full(d, sigma2 / d))


def test_fixed_rule_reproduces_run_afo_bitwise():
    fam = _clusters()
    Lam = np.random.default_rng(0).dirichlet(np.ones(8), size=8)
    R = 6
    a = run_afo(fam, np.broadcast_to(Lam, (R, 8, 8)), 0.1, 25, np.full(3, 2.0), R,
                np.random.default_rng(4))
    b = run_afo_adaptive(fam, fixed_rule(Lam), 0.1, 25, np.full(3, 2.0), R,
                         np.random.default_rng(4))
    assert np.array_equal(a.excess, b.excess)
    assert np.array_equal(a.X_final, b.X_final)
    loc = run_local_sgd(fam, 0.1, 25, np.full(3, 2.0), R, np.random.default_rng(9))
    c = run_afo_adaptive(fam, fixed_rule(np.eye(8)), 0.1, 25, np.full(3, 2.0), R,
                         np.random.default_rng(9))
    assert np.array_equal(loc.excess, c.excess)


def test_same_seed_same_run_and_recorded_metrics():
    fam = _clusters()
    rule = true_gradient_rule(fam, Criterion.binary(0.5), 1.0)
    kw = dict(K=30, x0=np.full(3, 4.0), R=5, record=[0, 1, 5, 10, 15, 20, 30])
    a = run_afo_adaptive(fam, rule, 0.1, rng=np.random.default_rng(1), **kw)
    b = run_afo_adaptive(fam, rule, 0.1, rng=np.random.default_rng(1), **kw)
    assert np.array_equal(a.excess, b.excess) and np.array_equal(a.sigma_eff2, b.sigma_eff2,
                                                                   equal_nan=True)
    assert a.collaborators.shape == (5, 7, 8, 8)
    assert a.n_collaborators[:, 0].sum() == 0 and np.isnan(a.sigma_eff2[:, 0]).all()
    # far from both optima everyone is selected at the first step
    assert (a.n_collaborators[:, 1] == 8).all()
    assert np.array_equal(a.collaborators.sum(-1), a.n_collaborators)
    ws = a.weight_sum[:, 1:]
    assert np.all(ws >= 1 - 1e-12) and np.all(ws <= 2 + 1e-12)  # [1, 1/lam]
    assert np.all(a.variance[:, 1:] <= a.sigma_eff2[:, 1:] * (1 + 1e-12))
    assert a.costs["rounds"][0].tolist() == [0, 1, 5, 10, 15, 20, 30]
    assert np.array_equal(a.costs["grad_evals"][:, 1], a.n_collaborators[:, 1].sum(-1))


def test_plateau_equals_the_oracle_and_the_cluster_is_found():
    """TB-Q with well separated clusters: the adaptive plateau is the oracle's
    eta sigma^2/(2 n (2 - eta a)) (digest P4) and the other cluster is dropped."""
    fam = _clusters(N=8, d=3, gap=6.0)
    rule = true_gradient_rule(fam, Criterion.continuous(), 1.0)
    tr = run_afo_adaptive(fam, rule, 0.1, 300, np.full(3, 3.0), 400, np.random.default_rng(2),
                          record=[300], track_sets=False)
    plateau = 0.1 * 1.0 / (2 * 4 * (2 - 0.1))
    assert abs(tr.excess[:, -1].mean() / plateau - 1) < 0.1
    assert (tr.n_collaborators[:, -1] == 4).all()
    assert tr.collaborators is None


def test_schedule_refresh_and_extra_metrics():
    fam = _clusters()
    calls = []

    def rule(state, k, rng, costs):
        calls.append(k)
        return {"alpha": np.broadcast_to(np.eye(8), (state["X"].shape[0], 8, 8))}

    tr = run_afo_adaptive(fam, rule, lambda t: 1.0 / (t + 1), 10, np.zeros(3), 2,
                          np.random.default_rng(0), refresh=3,
                          metrics={"norm": lambda s: np.linalg.norm(s["X"], axis=-1)})
    assert calls == [0, 3, 6, 9]
    assert tr.metrics["norm"].shape == (2, 11, 8)
    assert tr.sigma_eff2 is None


@pytest.mark.parametrize("bad, match", [
    (dict(refresh=0), "refresh"),
    (dict(eta=-1.0), "step size"),
    (dict(eta=np.ones(3)), "shape"),
    (dict(metrics={"excess": lambda s: s["X"]}), "already recorded"),
])
def test_bad_inputs(bad, match):
    fam = _clusters()
    kw = dict(weights=fixed_rule(np.eye(8)), eta=0.1, K=3, x0=np.zeros(3), R=2,
              rng=np.random.default_rng(0))
    kw.update(bad)
    with pytest.raises(ValueError, match=match):
        run_afo_adaptive(fam, **kw)


def test_rule_errors():
    fam = _clusters()
    with pytest.raises(ValueError, match="must return 'alpha'"):
        run_afo_adaptive(fam, lambda s, k, r, c: {}, 0.1, 2, np.zeros(3), 2,
                         np.random.default_rng(0))
    with pytest.raises(ValueError, match=">= 0"):
        run_afo_adaptive(fam, fixed_rule(-np.eye(8)), 0.1, 2, np.zeros(3), 2,
                         np.random.default_rng(0))
    with pytest.raises(ValueError, match="shape"):
        run_afo_adaptive(fam, fixed_rule(np.eye(3)), 0.1, 2, np.zeros(3), 2,
                         np.random.default_rng(0))
