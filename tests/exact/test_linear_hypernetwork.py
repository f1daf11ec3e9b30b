"""Linear hypernetwork SGD: the propagated moments against a direct simulation and the
closed-form average."""

import numpy as np
import pytest

from pflbounds.exact.linear_hypernetwork import LinearHypernetworkSGD


def _simulate(model, eta0, rounds, reps, rng):
    v = model.vec
    eta = np.tile(np.asarray(eta0, float), (reps, 1))
    out = []
    for _ in range(rounds):
        delta = np.zeros_like(eta)
        for _ in range(model.c):
            th0 = eta @ v
            th = th0.copy()
            for _ in range(model.k):
                g = (th - model.theta_star) + np.sqrt(model.s2) * rng.standard_normal(reps)
                th = th - model.beta * g
            delta += np.outer(th - th0, v) / model.c
        eta = eta + delta - model.beta * model.kappa * 2 * model.lam * eta
        g = (eta @ v - model.theta_star)[:, None] * v + 2 * model.lam * eta
        out.append((g * g).sum(1))
    return np.array(out)


@pytest.mark.parametrize("steps", ["proof", "alg2"])
def test_propagated_sq_grad_matches_simulation(steps):
    model = LinearHypernetworkSGD(v=(1.2, -0.5), beta=0.1, k=3, c=2, s2=0.7, lam=0.05,
                                  theta_star=0.4, server_steps=steps)
    eta0 = np.array([0.3, 0.9])
    sim = _simulate(model, eta0, 6, 40_000, np.random.default_rng(0))
    exact = model.expected_sq_grad(eta0, np.arange(1, 7))
    se = sim.std(1) / np.sqrt(sim.shape[1])
    assert np.all(np.abs(sim.mean(1) - exact) < 5 * se)


def test_closed_form_average_equals_the_propagated_curve():
    model = LinearHypernetworkSGD(v=(3.0,), beta=0.01, theta_star=0.0)
    ks = np.arange(0, 301)
    curve = model.expected_sq_grad(np.array([0.1]), ks)
    e0 = 0.1 * 3.0
    assert model.average_sq_grad(e0, 300, start=1) == pytest.approx(curve[1:].mean(), rel=1e-10)
    assert model.average_sq_grad(e0, 300, start=0) == pytest.approx(curve[:-1].mean(), rel=1e-10)


def test_one_round_from_the_optimum_and_bad_inputs():
    m = LinearHypernetworkSGD(v=(3.0,), beta=0.01)
    r = m.one_round(np.zeros(1))
    assert r["step_sq"] == pytest.approx(9 * 0.01**2)  # beta^2 |v|^2 s2
    assert r["inner"] == 0.0 and r["grad_sq"] == 0.0
    with pytest.raises(ValueError, match="server_steps"):
        LinearHypernetworkSGD(v=(1.0,), beta=0.1, server_steps="adam")
    with pytest.raises(ValueError, match="lam = 0"):
        LinearHypernetworkSGD(v=(1.0,), beta=0.1, lam=0.1).average_sq_grad(0.0, 10)
