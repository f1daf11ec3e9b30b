"""The noisy-halfspace population: the angle formula against sampled 0-1 losses."""

import numpy as np
import pytest

from pflbounds.problems.noisy_halfspaces import NoisyHalfspaces, angle_risk


def test_angle_risk_matches_the_empirical_error_of_fresh_samples():
    rng = np.random.default_rng(3)
    pop = NoisyHalfspaces.random(5, 2, 0.1, rng)
    w = pop.clients(rng, (4,))
    theta = w + 0.8 * rng.standard_normal(w.shape)
    x, y = pop.samples(rng, w, 200_000)
    err = (np.sign(np.einsum("cmp,cp->cm", x, theta)) != y).mean(axis=1)
    exact = pop.risk(theta, w)
    assert np.all(np.abs(err - exact) < 5 * np.sqrt(exact * (1 - exact) / 200_000))
    assert np.all((exact > 0.1) & (exact < 0.5))


def test_angle_risk_extremes_and_bad_inputs():
    w = np.array([1.0, 0.0])
    assert angle_risk(w, w, 0.2) == pytest.approx(0.2)
    assert angle_risk(-w, w, 0.2) == pytest.approx(0.8)
    assert angle_risk(np.zeros(2), w, 0.2) == pytest.approx(0.5)
    with pytest.raises(ValueError, match="rho"):
        NoisyHalfspaces(np.eye(2), 0.6)
    with pytest.raises(ValueError, match="W must be"):
        NoisyHalfspaces(np.ones((2, 3)), 0.1)
