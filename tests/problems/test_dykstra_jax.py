"""The compiled (jax) Dykstra backend against the numpy loop (same sweeps, same iterates up to
rounding) and against the exact cvxpy projection (within the certified distance).

The tests share a few shapes (n, d, R, with or without ball): each new shape compiles."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

from pflbounds.problems.dykstra import dykstra_project, round_robin_matchings
from pflbounds.problems.inexact_projection import Projector
from pflbounds.problems.pairwise_constraints import PairwiseConstraintSet, pair_index


def _instance(seed: int, n: int, d: int, R: int, ball: float | None = None):
    """Radii well below the spread of Z: most pair constraints are active at the projection."""
    rng = np.random.default_rng(seed)
    r = rng.uniform(0.2, 0.8, n * (n - 1) // 2)
    return PairwiseConstraintSet(n, d, r, ball=ball), 2.0 * rng.standard_normal((R, n, d))


def _assert_same_iterates(A, B, tol):
    """Same sweeps (or one apart) and the same points, increments and certificate."""
    assert abs(A.sweeps - B.sweeps) <= 1
    close = 1e-12 if A.sweeps == B.sweeps else 10 * tol
    np.testing.assert_allclose(B.theta, A.theta, rtol=0, atol=close)
    np.testing.assert_allclose(B.raw, A.raw, rtol=0, atol=close)
    np.testing.assert_allclose(B.p, A.p, rtol=0, atol=close)
    if A.pb is None:
        assert B.pb is None
    else:
        np.testing.assert_allclose(B.pb, A.pb, rtol=0, atol=close)
    np.testing.assert_allclose(B.gap, A.gap, rtol=0, atol=1e-10)


@pytest.mark.parametrize(("n", "d", "R", "ball"), [
    (6, 4, 1, None), (7, 3, 3, None), (8, 2, 2, 1.2), (3, 2, 1, 0.8), (2, 2, 2, None),
])
def test_jax_backend_gives_the_numpy_iterates_cold_and_warm(n, d, R, ball):
    cset, Z = _instance(n * 10 + R, n, d, R, ball)
    tol = 1e-12
    A = dykstra_project(Z, cset.r, ball, tol=tol)
    B = dykstra_project(Z, cset.r, ball, tol=tol, backend="jax")
    if n > 2:  # many constraints are active, so the sweeps do real work
        i, j = pair_index(n)
        dist = np.linalg.norm(A.theta[:, i] - A.theta[:, j], axis=-1)
        assert np.mean(dist >= cset.r - 1e-9) > 0.2
        assert A.sweeps > 20
    _assert_same_iterates(A, B, tol)
    # warm start from each backend's own increments, at a nearby point
    Z2 = Z + 0.05 * np.random.default_rng(1).standard_normal(Z.shape)
    A2 = dykstra_project(Z2, cset.r, ball, tol=tol, warm=A)
    B2 = dykstra_project(Z2, cset.r, ball, tol=tol, warm=B, backend="jax")
    _assert_same_iterates(A2, B2, tol)
    assert A2.sweeps < A.sweeps + 50  # the warm start is used (not a cold restart)


def test_jax_backend_single_replica_input_and_max_sweeps():
    cset, Z = _instance(3, 6, 4, 1)
    A = dykstra_project(Z[0], cset.r, tol=0.0, max_sweeps=17)
    B = dykstra_project(Z[0], cset.r, tol=0.0, max_sweeps=17, backend="jax")
    assert A.sweeps == B.sweeps == 17
    assert B.theta.shape == (6, 4) and np.ndim(B.gap) == 0
    _assert_same_iterates(A, B, 0.0)


def test_jax_backend_stops_on_the_gap_like_numpy():
    """With gap_tol the loop also needs the certified gap below it, tested every check_every
    sweeps: both backends stop at the same sweep."""
    cset, Z = _instance(5, 7, 3, 3)
    kw = dict(tol=1e-4, gap_tol=1e-10, check_every=4)
    A = dykstra_project(Z, cset.r, **kw)
    B = dykstra_project(Z, cset.r, **kw, backend="jax")
    loose = dykstra_project(Z, cset.r, tol=1e-4, backend="jax")
    assert B.sweeps > loose.sweeps  # the gap test, not the change, stopped it
    assert B.sweeps % 4 == 0 and np.all(B.gap <= 1e-10)
    _assert_same_iterates(A, B, 1e-4)


@pytest.mark.parametrize(("n", "d", "R", "ball"), [(7, 3, 3, None), (8, 2, 2, 1.2)])
def test_jax_backend_matches_the_exact_projection_within_its_certificate(n, d, R, ball):
    cset, Z = _instance(0, n, d, R, ball)
    D = dykstra_project(Z, cset.r, ball, tol=1e-12, backend="jax")
    P = cset.project_exact(Z)
    assert np.all(cset.violation(D.theta) <= 1e-12)
    dist = np.sqrt(((D.theta - P.theta) ** 2).sum(axis=(1, 2)))
    assert np.all(dist <= D.distance_bound + 1e-5)  # cvxpy itself is ~1e-6
    assert np.all(D.distance_bound < 1e-4)


@pytest.mark.slow
def test_jax_backend_at_the_section5_size_warm_started_in_a_loop():
    """n = 30 clients, d = 50, 2 replicas: a few warm-started calls as a projected-gradient
    loop makes them, both backends in step."""
    rng = np.random.default_rng(7)
    n, d = 30, 50
    r = np.sqrt(0.05 * rng.uniform(0.5, 2.0, n * (n - 1) // 2))
    Z = rng.standard_normal((2, n, d))
    A = B = None
    for _ in range(3):
        A = dykstra_project(Z, r, tol=1e-10, warm=A)
        B = dykstra_project(Z, r, tol=1e-10, warm=B, backend="jax")
        _assert_same_iterates(A, B, 1e-10)
        Z = A.theta + 0.02 * rng.standard_normal(Z.shape)


def test_position_layout_is_the_round_robin_schedule():
    from pflbounds.problems.dykstra_jax import position_layout

    for n in (2, 3, 6, 7, 30):
        pair, sign, where = position_layout(n)
        rounds = round_robin_matchings(n)
        assert pair.shape[0] == len(rounds)
        i, j = pair_index(n)
        for t, g in enumerate(rounds):
            assert sorted(pair[t][sign[t] != 0]) == list(g)
        flat_pair, flat_sign = pair.reshape(-1), sign.reshape(-1)
        np.testing.assert_array_equal(flat_pair[where], np.arange(i.size))
        assert np.all(flat_sign[where] != 0)


def test_bad_backend_is_refused_with_the_choices():
    cset, Z = _instance(0, 4, 2, 1)
    with pytest.raises(ValueError, match=r"backend must be one of \('numpy', 'jax'\), "
                                         r"got 'torch'"):
        dykstra_project(Z, cset.r, backend="torch")
    with pytest.raises(ValueError, match="got 'cuda'"):
        Projector(cset, "dykstra", backend="cuda")


def test_projector_passes_the_backend_through():
    cset, Z = _instance(2, 8, 2, 2, ball=1.2)
    a, b = Projector(cset, "dykstra", 1e-9), Projector(cset, "dykstra", 1e-9, backend="jax")
    for k in range(2):
        np.testing.assert_allclose(b(Z + 0.01 * k), a(Z + 0.01 * k), rtol=0, atol=1e-11)
        np.testing.assert_allclose(b.gap, a.gap, rtol=0, atol=1e-12)
    assert b.backend == "jax" and b.calls == 2


def test_importing_dykstra_does_not_load_the_jax_backend():
    code = ("import sys, pflbounds.problems.dykstra, pflbounds.problems.inexact_projection; "
            "print('pflbounds.problems.dykstra_jax' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "False"


def test_an_xla_without_the_tuned_options_compiles_with_its_defaults(monkeypatch):
    import jax

    import pflbounds.problems.dykstra_jax as dj

    monkeypatch.setattr(dj, "COMPILER_OPTIONS", {"xla_cpu_no_such_option": False})
    dj._compiled.cache_clear()
    try:
        cset, Z = _instance(9, 4, 2, 2)
        A = dykstra_project(Z, cset.r, tol=1e-12)
        B = dykstra_project(Z, cset.r, tol=1e-12, backend="jax")
        _assert_same_iterates(A, B, 1e-12)
        tuned, _ = dj._compiled(4, False)  # the tuned build is the one refused
        with pytest.raises(jax.errors.JaxRuntimeError, match="compile option"):
            tuned(Z, B.p, np.zeros_like(Z), cset.r, 0.0, 1e-12, 5, 1, 0)
    finally:
        dj._compiled.cache_clear()


def test_jax_backend_is_bitwise_reproducible():
    cset, Z = _instance(11, 7, 3, 3)
    A = dykstra_project(Z, cset.r, tol=1e-11, backend="jax")
    B = dykstra_project(Z, cset.r, tol=1e-11, backend="jax")
    assert A.sweeps == B.sweeps
    assert np.array_equal(A.theta, B.theta) and np.array_equal(A.p, B.p)
