"""philippenko2025's testbeds (digest §6.0) on the shared problem families: their constants
and what each draws from its generator."""

from __future__ import annotations

import numpy as np

from pflbounds.papers.philippenko2025.instances import (
    appendix_a_stream,
    tb_a,
    tb_nc,
    tb_q,
    tb_qv,
    two_clusters,
)


def test_tb_q_constants():
    fam = tb_q(np.array([0, 1, 0, 1]), np.array([[0.0, 0], [3, 0]]), 2.0, 1.0)
    assert fam.mu == fam.L == 2.0 and np.allclose(fam.sigma2_agents, 1.0)
    assert np.allclose(fam.bias_matrix()[0, 1], 6.0)
    fam = tb_q(np.array([0, 1]), np.array([[0.0, 0], [3, 0]]), 1.0, np.array([0.5, 2.0]))
    assert np.allclose(fam.sigma2_agents, [0.5, 2.0])


def test_two_clusters_on_one_axis():
    fam, labels = two_clusters(6, 2, 4.0, a=1.0, sigma2=1.0, K=3)
    assert labels.tolist() == [0, 1, 2, 0, 1, 2]
    assert np.allclose(fam.m[:3], [[0, 0], [4, 0], [8, 0]])
    b = fam.bias_matrix()
    assert b[0, 3] == 0 and np.isclose(b[0, 2], 8.0)


def test_tb_qv_draws_only_when_jittered():
    rng = np.random.default_rng(1)
    fam, b, labels = tb_qv(6, 3, 3.0, 1.0, 1.0, 0.0, rng)
    assert rng.random() == np.random.default_rng(1).random()  # v = 0 drew nothing
    ref, _ = two_clusters(6, 3, 3.0, 1.0, 1.0)
    assert np.array_equal(fam.m, ref.m) and np.allclose(b, ref.bias_matrix())
    jit, bj, _ = tb_qv(6, 3, 3.0, 1.0, 1.0, 0.5, np.random.default_rng(1))
    moved = jit.m - ref.m
    assert np.allclose(moved, 0.5 * np.random.default_rng(1).standard_normal((6, 3)))
    assert np.allclose(bj, jit.bias_matrix()) and labels.tolist() == [0, 1] * 3


def test_tb_a_scale_and_draws():
    p = tb_a(5, 3, 0.5, 2.0, 1.0, 0.5, np.random.default_rng(2))
    q = tb_a(5, 3, 0.5, 2.0, 1.0, 1.0, np.random.default_rng(2))
    assert np.array_equal(p.A, q.A) and np.array_equal(p.m, q.m)
    assert p.scale == 0.5 and q.scale == 1.0
    eig = np.linalg.eigvalsh(p.A)
    assert eig.min() >= 0.5 - 1e-12 and eig.max() <= 2.0 + 1e-12
    assert np.all((p.sigma2_agents >= 0.2) & (p.sigma2_agents <= 2.0))


def test_tb_nc_two_clusters():
    prob = tb_nc(3, 2, 4.0, 2.0, 1.0)
    assert prob.N == 6 and prob.d == 2


def test_appendix_a_stream():
    prob, labels = appendix_a_stream(4, np.random.default_rng(3), N=6, batch=2)
    assert labels.tolist() == [0, 1] * 3
    c = np.unique(prob.optima, axis=0)
    assert c.shape == (2, 4) and np.all(np.abs(c) <= 5)
