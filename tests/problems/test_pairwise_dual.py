"""The dual (FISTA) projection: the incidence products it uses, agreement with Dykstra
within the certificates, determinism, per-replica stopping and edge sizes."""

from __future__ import annotations

import numpy as np
import pytest

from pflbounds.problems.dykstra import assemble_increments, dykstra_project
from pflbounds.problems.pairwise_constraints import PairwiseConstraintSet, pair_index
from pflbounds.problems.pairwise_dual import dual_project


def _dense_incidence(n):
    i, j = pair_index(n)
    E = np.zeros((i.size, n))
    E[np.arange(i.size), i], E[np.arange(i.size), j] = 1.0, -1.0
    return E


@pytest.mark.parametrize("n", [1, 2, 3, 6, 30])
@pytest.mark.parametrize("batch", [(), (1,), (4,), (2, 3)])
def test_assemble_increments_is_the_dense_incidence_transpose(n, batch):
    E = _dense_incidence(n)
    rng = np.random.default_rng(n + len(batch))
    p = rng.standard_normal((*batch, E.shape[0], 5))
    got = assemble_increments(p, n)
    assert got.shape == (*batch, n, 5)
    np.testing.assert_allclose(got, np.einsum("mn,...md->...nd", E, p), rtol=0, atol=1e-13)
    ints = rng.integers(-1000, 1000, p.shape).astype(float)  # exact in any order
    assert np.array_equal(assemble_increments(ints, n), np.einsum("mn,...md->...nd", E, ints))
    assert np.array_equal(assemble_increments(p, n), got)  # repeatable


def _instance(seed, n, d, R, scale=2.0):
    rng = np.random.default_rng(seed)
    r = rng.uniform(0.3, 1.0, n * (n - 1) // 2)
    return PairwiseConstraintSet(n, d, r), scale * rng.standard_normal((R, n, d))


@pytest.mark.parametrize(("n", "d", "R"), [(2, 3, 2), (3, 2, 3), (7, 4, 5)])
def test_dual_projection_agrees_with_dykstra_within_the_certificates(n, d, R):
    cset, Z = _instance(n, n, d, R)
    A = dual_project(Z, cset.r, gap_tol=1e-14)
    B = dykstra_project(Z, cset.r, tol=1e-12)
    assert np.all(cset.violation(A.theta) <= 1e-12)
    assert np.all(A.gap <= 1e-14 * (1 + 0.5 * (Z * Z).sum(axis=(1, 2))))
    dist = np.sqrt(((A.theta - B.theta) ** 2).sum(axis=(1, 2)))
    assert np.all(dist <= A.distance_bound + B.distance_bound + 1e-12)
    # the raw iterate is Z - E^T p of the returned increments
    np.testing.assert_allclose(A.raw, Z - np.einsum("mn,rmd->rnd", _dense_incidence(n), A.p),
                               rtol=0, atol=1e-12)


def test_dual_projection_is_bitwise_repeatable_and_warm_starts():
    cset, Z = _instance(11, 8, 6, 6)
    A1 = dual_project(Z, cset.r, gap_tol=1e-10, check_every=5)
    A2 = dual_project(Z, cset.r, gap_tol=1e-10, check_every=5)
    for f in ("theta", "raw", "gap", "violation", "p"):
        assert np.array_equal(getattr(A1, f), getattr(A2, f)), f
    assert A1.sweeps == A2.sweeps
    Z2 = Z + 1e-3 * np.random.default_rng(0).standard_normal(Z.shape)
    p_before = A1.p.copy()
    W1 = dual_project(Z2, cset.r, gap_tol=1e-10, warm=A1, check_every=5)
    W2 = dual_project(Z2, cset.r, gap_tol=1e-10, warm=A1, check_every=5)
    assert np.array_equal(A1.p, p_before)  # the warm start is not modified
    assert np.array_equal(W1.theta, W2.theta) and np.array_equal(W1.p, W2.p)
    C = dual_project(Z2, cset.r, gap_tol=1e-10, check_every=5)
    bound = W1.distance_bound + C.distance_bound
    assert np.all(np.sqrt(((W1.theta - C.theta) ** 2).sum(axis=(1, 2))) <= bound + 1e-12)
    assert W1.sweeps < C.sweeps


def test_converged_replicas_stop_and_each_replica_is_its_own_projection():
    cset, Z = _instance(5, 6, 3, 4)
    Z[1] = 0.3  # a feasible replica converges at the first check
    both = dual_project(Z, cset.r, gap_tol=1e-12, check_every=5)
    for k in range(Z.shape[0]):
        alone = dual_project(Z[k], cset.r, gap_tol=1e-12, check_every=5)
        assert alone.theta.shape == Z[k].shape
        bound = both.distance_bound[k] + alone.distance_bound
        assert np.sqrt(((both.theta[k] - alone.theta) ** 2).sum()) <= bound + 1e-12
    np.testing.assert_array_equal(both.theta[1], Z[1])
    # a replica that has left the active set keeps the increments of its last check
    one = dual_project(Z[1:2], cset.r, gap_tol=1e-12, check_every=5)
    np.testing.assert_array_equal(both.p[1], one.p[0])


def test_max_iter_bounds_the_iterations():
    cset, Z = _instance(3, 6, 3, 3, scale=5.0)
    res = dual_project(Z, cset.r, gap_tol=1e-30, max_iter=7, check_every=25)
    assert res.sweeps == 7
    assert np.all(res.gap > 0)
    assert np.all(cset.violation(res.theta) <= 1e-12)
