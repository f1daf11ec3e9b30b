import numpy as np
import pytest
import scipy.sparse as sp

from pflbounds.problems import (
    closeness_counts,
    cluster_weights,
    clustered,
    global_weights,
    interpolated_operator,
    interpolated_weights,
    is_doubly_stochastic,
    is_row_stochastic,
    regular_graph_weights,
    sinkhorn,
    spectral_radius,
    star_bias_matrix,
    threshold_weights,
)
from pflbounds.problems.hard_instance import check_bias_matrix


def test_threshold_weights_rows_and_counts():
    c = np.array([[0.0, 0.5, 2.0], [0.5, 0.0, 1.0], [2.0, 1.0, 0.0]])
    Lam = threshold_weights(c, 1.0)
    assert np.allclose(Lam, [[0.5, 0.5, 0], [1 / 3, 1 / 3, 1 / 3], [0, 0.5, 0.5]])
    assert is_row_stochastic(Lam) and not is_doubly_stochastic(Lam)
    assert closeness_counts(c, 1.0).tolist() == [2, 3, 2]
    assert closeness_counts(c, 1.0, strict=True).tolist() == [2, 2, 1]
    Ls = threshold_weights(c, 1.0, strict=True)
    assert np.allclose(Ls[1], [0.5, 0.5, 0])
    with pytest.raises(ValueError, match="excludes agent"):
        threshold_weights(c, 0.0, strict=True)
    with pytest.raises(ValueError, match="excludes agent"):
        threshold_weights(c + np.eye(3), 0.5)
    # batched stacks
    assert threshold_weights(np.stack([c, c]), 1.0).shape == (2, 3, 3)


def test_star_graph_spectral_radius_matches_digest():
    b = star_bias_matrix(20, near=1.0, far=2.0)
    check_bias_matrix(b)  # triangle inequality holds at far = 2 near
    Lam = threshold_weights(b**2, 1.5)  # centre close to all, leaves mutually far
    W = Lam @ Lam.T
    assert spectral_radius(W) == pytest.approx(5.0096, abs=1e-4)  # digest Appendix C #1
    assert spectral_radius(W) == pytest.approx(np.linalg.norm(Lam, 2) ** 2, rel=1e-12)
    with pytest.raises(ValueError, match="triangle inequality"):
        star_bias_matrix(5, near=1.0, far=2.5)


def test_sinkhorn_doubly_stochastic_and_unit_radius():
    P = np.random.default_rng(0).random((7, 7)) + 0.01
    Lam = sinkhorn(P)
    assert is_doubly_stochastic(Lam, tol=1e-12)
    assert spectral_radius(Lam @ Lam.T) == pytest.approx(1.0, abs=1e-12)
    # it is a diagonal scaling of P: rank-one ratio structure
    ratio = Lam / P
    assert np.allclose(ratio / ratio[0], (ratio[:, :1] / ratio[0, 0]) * np.ones(7), rtol=1e-10)
    with pytest.raises(ValueError):
        sinkhorn(-P)


def test_regular_graph_and_cluster_weights():
    Ld = regular_graph_weights(10, 2)
    Ls = regular_graph_weights(10, 2, sparse=True)
    assert sp.issparse(Ls) and np.array_equal(Ls.toarray(), Ld)
    assert is_doubly_stochastic(Ld) and np.allclose(Ld, Ld.T)
    assert (Ld > 0).sum(1).tolist() == [5] * 10
    assert spectral_radius(Ld @ Ld.T) == pytest.approx(1.0, abs=1e-12)
    with pytest.raises(ValueError):
        regular_graph_weights(4, 2)
    labels = np.array([0, 1, 0, 2, 1, 0])
    Cd = cluster_weights(labels)
    Cs = cluster_weights(labels, sparse=True)
    assert np.allclose(Cs.toarray(), Cd)
    assert np.allclose(Cd @ Cd, Cd)  # projection: W = Lam Lam^T = Lam
    assert is_doubly_stochastic(Cd)
    assert Cd[0, 2] == pytest.approx(1 / 3) and Cd[3, 3] == 1.0


def test_interpolated_and_global():
    alpha = np.array([0.0, 0.2, 0.5, 1.0])
    Lam = interpolated_weights(4, alpha)
    assert np.allclose(np.diag(Lam), 1 - alpha)
    assert Lam[1, 0] == pytest.approx(0.2 / 3)
    assert is_row_stochastic(Lam)
    op = interpolated_operator(4, alpha)
    X = np.random.default_rng(1).standard_normal((4, 6))
    assert np.allclose(op.matmat(X), Lam @ X, atol=1e-15)
    assert np.allclose(op.T.matmat(X), Lam.T @ X, atol=1e-15)
    G = global_weights(4)
    assert np.allclose(G @ G.T, G) and spectral_radius(G) == pytest.approx(1.0)
    with pytest.raises(ValueError):
        interpolated_weights(4, 1.5)


def test_clustered_population():
    P, labels = clustered(M=3, C=4, d=5, centre_separation=2.0, h=np.array([1, 2, 3, 4, 5.0]),
                          s=0.1, rng=np.random.default_rng(2))
    assert P.N == 12 and labels.tolist() == [0] * 4 + [1] * 4 + [2] * 4
    D = np.linalg.norm(P.m[:, None] - P.m[None], axis=-1)
    same = labels[:, None] == labels[None]
    assert np.all(D[same] == 0)
    assert np.allclose(D[~same], 2.0, rtol=1e-12)  # M <= d: every cross distance exact
    b = P.bias_matrix()
    assert np.all(b[same] == 0) and np.all(b[~same] > 0)
    P2, _ = clustered(M=6, C=2, d=2, centre_separation=1.5, h=1.0, s=0.0,
                      rng=np.random.default_rng(3))
    D2 = np.linalg.norm(P2.m[::2][:, None] - P2.m[::2][None], axis=-1)
    assert D2[~np.eye(6, dtype=bool)].min() == pytest.approx(1.5, rel=1e-12)


def test_spectral_radius_sparse_matches_dense():
    Lam = regular_graph_weights(300, 3, sparse=True)
    rng = np.random.default_rng(4)
    D = sp.diags(rng.random(300) + 0.5)
    W = (D @ Lam @ D).tocsr()
    assert spectral_radius(W) == pytest.approx(spectral_radius(W.toarray()), rel=1e-9)
    stack = np.stack([np.eye(3), 2 * np.eye(3)])
    assert np.allclose(spectral_radius(stack), [1.0, 2.0])
