"""The admissible sets: every raw point maps into its set, the maps reach the whole set where
the searches need it, and a set that cannot be built says why."""

from __future__ import annotations

import numpy as np
import pytest

from pflbounds.tightness.spaces import (
    Box,
    Rotation,
    Simplex,
    SpaceError,
    Sphere,
    space_from_json,
    spectrum,
)

C = {"mu": 0.01, "L": 2.0, "d": 3, "R0": 4.0, "sigma2": 0.5}


def _draws(r, n=200, seed=1):
    rng = np.random.default_rng(seed)
    return [r.map(rng.uniform(r.lower, r.upper)) for _ in range(n)]


def test_box_and_spectrum_stay_inside_and_reach_both_ends():
    r = spectrum().resolve(C)
    assert r.shape == (3,) and r.dim == 3
    for v in _draws(r):
        assert np.all(v >= 0.01) and np.all(v <= 2.0)
    assert r.map(np.zeros(3)).tolist() == [0.01] * 3
    assert r.map(np.ones(3)).tolist() == [2.0] * 3
    lin = Box("d", "mu", "L").resolve(C)
    assert lin.map(np.full(3, 0.5)) == pytest.approx(np.full(3, (0.01 + 2.0) / 2), rel=1e-15)


def test_attained_spectrum_pins_its_extremes():
    r = spectrum(attain=True).resolve(C)
    assert r.dim == 1
    v = r.map(np.array([0.3]))
    assert v[0] == 0.01 and v[-1] == 2.0 and 0.01 < v[1] < 2.0


def test_sphere_simplex_rotation_land_in_their_sets():
    sph = Sphere("d", "sqrt(R0)").resolve(C)
    for v in _draws(sph):
        assert np.linalg.norm(v) == pytest.approx(2.0, rel=1e-14)
    assert sph.map(np.zeros(3)).tolist() == [2.0, 0.0, 0.0]  # the raw origin
    simp = Simplex("d", "sigma2", count=2).resolve(C)
    assert simp.shape == (2, 3)
    for v in _draws(simp):
        assert np.all(v >= 0) and v.sum(axis=1) == pytest.approx([0.5, 0.5], rel=1e-14)
    rot = Rotation("d").resolve(C)
    assert rot.dim == 3
    for Q in _draws(rot, 50):
        assert np.abs(Q.T @ Q - np.eye(3)).max() < 1e-13
        assert np.linalg.det(Q) == pytest.approx(1.0, rel=1e-12)


def test_a_rotation_reaches_a_quarter_turn():
    # the search needs the alignment of eigenvectors with the noise's axes to be free
    Q = Rotation(2).resolve(C).map(np.array([np.pi / 2]))
    assert np.abs(np.abs(Q) - np.array([[0, 1], [1, 0]])).max() < 1e-15


def test_sets_round_trip_through_json():
    for s in (spectrum(attain=True), Sphere("d", "sqrt(R0)", 2), Simplex(2, 1.5), Rotation(4),
              Box(1, 0, "1/L", "linear")):
        assert space_from_json(s.to_json()) == s


@pytest.mark.parametrize(("space", "match"), [
    (Box("d", "mu", "nope"), "unknown name"),
    (Box(2, 3, 1), "is empty"),
    (Box(2, 0, 1, "log"), "log-scaled box needs lo > 0"),
    (Box(1, "mu", "L", attain=True), "cannot attain both ends"),
    (Sphere(2.5, 1), "integer >= 1"),
    (Simplex(2, -1), "negative"),
])
def test_sets_that_cannot_be_built_say_why(space, match):
    with pytest.raises(SpaceError, match=match):
        space.resolve(C)
