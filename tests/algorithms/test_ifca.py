"""IFCA (Ghosh et al. 2020) and FedAvg as its one-cluster case: cluster recovery, the FedAvg
contraction with local steps, agreement with the single global model, reproducibility."""

from __future__ import annotations

import numpy as np
import pytest

from pflbounds.algorithms.collaborative import run_global_model
from pflbounds.algorithms.ifca import (
    assign_clusters,
    effective_clusters,
    personalised_models,
    run_fedavg,
    run_ifca,
)
from pflbounds.problems.clustered_regression import RidgeQuadratics


def _centres(m: np.ndarray) -> RidgeQuadratics:
    """f_i(w) = ||w - m_i||^2/2: H = I, b = m_i, c = ||m_i||^2/2."""
    n, d = m.shape
    return RidgeQuadratics(np.broadcast_to(np.eye(d), (n, d, d)).copy(), m,
                           0.5 * (m * m).sum(-1), np.ones(n))


def _clustered(seed=0, n=12, d=3, sep=10.0):
    rng = np.random.default_rng(seed)
    centres = sep * rng.standard_normal((3, d))
    c = np.arange(n) % 3
    m = centres[c] + 0.1 * rng.standard_normal((n, d))
    return _centres(m), c, m


def _theta(st):
    return st["theta"]


def test_ifca_recovers_separated_clusters_and_their_means():
    q, c, m = _clustered()
    rng = np.random.default_rng(1)
    R = 4
    # start each cluster model near a different client of a different cluster
    theta0 = m[[0, 1, 2]][None] + 0.5 * rng.standard_normal((R, 3, q.d))
    run = run_ifca(q.loss, q.grad_f, theta0, n=q.n, eta=0.5, K=60, rng=rng,
                   metrics={"theta": _theta}, record=[60])
    th = run.state["theta"]
    assign = assign_clusters(q.loss, th, q.n)
    for r in range(R):  # the partition is the true one (labels up to permutation)
        for j in range(3):
            assert len(set(assign[r, c == j])) == 1
        assert len(set(assign[r])) == 3
        for j in range(3):  # cluster model = mean of its members' optima
            members = assign[r] == j
            np.testing.assert_allclose(th[r, j], m[members].mean(0), atol=1e-10)
    np.testing.assert_allclose(effective_clusters(assign, 3), 3.0)
    models = personalised_models(th, assign)
    assert models.shape == (R, q.n, q.d)
    assert np.all(np.linalg.norm(models - m, axis=-1) < 0.5)


def test_effective_clusters_counts_used_clusters():
    assign = np.array([[0, 0, 0, 0], [0, 1, 0, 1], [0, 1, 2, 3]])
    np.testing.assert_allclose(effective_clusters(assign, 4), [1.0, 2.0, 4.0])


def test_fedavg_local_steps_contract_by_the_exact_factor_to_the_weighted_mean():
    rng = np.random.default_rng(2)
    n, d, eta, tau = 5, 3, 0.2, 5
    m = rng.standard_normal((n, d))
    q = _centres(m)
    alpha = rng.uniform(0.5, 2.0, n)
    target = (alpha[:, None] * m).sum(0) / alpha.sum()
    w0 = np.zeros((1, d))
    run = run_fedavg(q.loss, q.grad_f, w0, n=n, eta=eta, K=4, rng=rng, local_steps=tau,
                     alpha=alpha, metrics={"theta": _theta})
    err = np.linalg.norm(run.metrics["theta"][0, :, 0] - target, axis=-1)
    # w_i = m_i + (1 - eta)^tau (w - m_i), averaged: contraction (1 - eta)^tau per round
    np.testing.assert_allclose(err[1:] / err[:-1], (1 - eta) ** tau, rtol=1e-10)
    assert run.info["method"] == "fedavg"
    assert run.costs["grad_evals"][0, -1] == 4 * n * tau


def test_fedavg_with_one_step_and_every_client_is_the_global_model():
    rng = np.random.default_rng(3)
    n, d = 6, 4
    A = rng.standard_normal((n, 8, d))
    H = np.einsum("nsd,nse->nde", A, A) / 8 + 0.1 * np.eye(d)
    b = rng.standard_normal((n, d))
    q = RidgeQuadratics(H, b, np.zeros(n), np.ones(n))
    eta, K = 0.05, 30
    ref = run_global_model(q, eta, K, np.zeros(d), 1, np.random.default_rng(0), record=[K])
    run = run_fedavg(q.loss, q.grad_f, np.zeros((1, d)), n=n, eta=eta, K=K, rng=rng,
                     metrics={"theta": _theta}, record=[K])
    np.testing.assert_allclose(run.state["theta"][0, 0], ref.X_final[0, 0], rtol=1e-12,
                               atol=1e-14)


def test_partial_participation_is_reproducible_and_moves_the_chosen_models():
    q, c, m = _clustered(seed=4)
    theta0 = np.stack([m[[0, 1, 2]], m[[0, 1, 2]] + 100.0])  # replica 1: a model far away
    out = []
    for _ in range(2):
        run = run_ifca(q.loss, q.grad_f, theta0, n=q.n, eta=0.5, K=5, rng=np.random.default_rng(7),
                       s=4, metrics={"theta": _theta})
        out.append(run.metrics["theta"])
        assert np.all((run.state["assign"] >= 0).sum(-1) == 4)
    np.testing.assert_array_equal(out[0], out[1])
    # replica 1 starts 100 away from the optima: averaging the chosen models pulls them in
    assert np.linalg.norm(out[0][1, -1] - m[[0, 1, 2]]).max() < np.linalg.norm(
        out[0][1, 0] - m[[0, 1, 2]]).max()


def test_a_cluster_nobody_chooses_keeps_its_model():
    q, c, m = _clustered(seed=5)
    far = np.full(q.d, 1e3)
    theta0 = np.stack([m[0], m[1], m[2], far])[None]
    run = run_ifca(q.loss, q.grad_f, theta0, n=q.n, eta=0.5, K=3, rng=np.random.default_rng(0),
                   metrics={"theta": _theta})
    np.testing.assert_array_equal(run.state["theta"][0, 3], far)


@pytest.mark.parametrize("kw, msg", [
    (dict(theta0=np.zeros((2, 3))), "theta0 must have shape"),
    (dict(s=0), "s must lie in"),
    (dict(eta=0.0), "eta > 0"),
    (dict(alpha=-np.ones(12)), "alpha must be > 0"),
])
def test_bad_inputs_name_the_problem(kw, msg):
    q, _, m = _clustered()
    args = dict(theta0=m[None, :3], n=q.n, eta=0.5, K=2, rng=np.random.default_rng(0),
                metrics={"theta": _theta})
    args.update(kw)
    theta0 = args.pop("theta0")
    with pytest.raises(ValueError, match=msg):
        run_ifca(q.loss, q.grad_f, theta0, **args)
