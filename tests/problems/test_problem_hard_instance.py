import numpy as np
import pytest

from pflbounds.problems import HardInstanceA


def _inst(d: int = 16, delta: float = 0.2, seed: int = 0) -> HardInstanceA:
    return HardInstanceA.two_level(d, delta, n0=3, n1=4, beta=0.1, rng=np.random.default_rng(seed))


def test_construction_and_constants():
    A = _inst()
    d = 16
    assert A.N == 7
    # delta_j = (delta - sqrt(d) b_1j)^+: sqrt(16)*0.1 = 0.4 > 0.2 so far agents carry nothing
    assert np.allclose(A.delta_j, [0.2] * 3 + [0.0] * 4)
    assert A.N_eff == 3
    assert np.allclose(A.m[0], (0.5 + 0.2 * A.alpha) / d)
    assert np.allclose(A.m[4], np.full(d, 0.5 / d))
    assert A.sigma2 <= 0.5 + A.delta
    assert A.sigma2_agents[0] == pytest.approx(A.m[0].sum() - (A.m[0] ** 2).sum())
    assert A.class_violation() <= 1e-15
    assert A.eps_target == pytest.approx(0.04 / (36 * 16))
    assert A.eps_target <= 1 / (576 * d)


def test_engine_holds_no_paper_formula():
    import pflbounds.problems as problems
    import pflbounds.problems.hard_instance as hi

    assert not hasattr(problems, "K_LB_formula") and not hasattr(hi, "K_LB_formula")
    assert not hasattr(HardInstanceA, "K_LB")


def test_sample_moments():
    A = _inst(d=12, delta=0.25)
    xi = A.sample(60_000, np.random.default_rng(1))
    assert set(np.unique(xi)) <= {0.0, 1.0} and np.all(xi.sum(-1) <= 1)
    assert np.allclose(xi.mean(0), A.m, atol=4.5 * np.sqrt(0.1 / 60_000))
    dev = xi[:, 0] - A.m[0]
    cov = dev.T @ dev / 60_000
    assert np.allclose(cov, A.noise_covariance()[0], atol=4e-3)
    tot = ((xi - A.m) ** 2).sum(-1).mean(0)
    assert np.allclose(tot, A.sigma2_agents, rtol=0.02)


@pytest.mark.parametrize(
    "kwargs, msg",
    [
        ({"d": 10}, "d >= 11"),
        ({"delta": 0.3}, "delta <= 1/4"),
        ({"b": np.array([[0, 1, 3.0], [1, 0, 1], [3, 1, 0]])}, "triangle inequality"),
        ({"b": np.array([[0, 1.0], [2.0, 0]])}, "symmetric"),
        ({"alpha": np.zeros(12)}, "alpha"),
    ],
)
def test_validation(kwargs, msg):
    base = {"d": 12, "delta": 0.2, "b": np.zeros((3, 3)), "alpha": np.ones(12)}
    base.update(kwargs)
    if "d" in kwargs:
        base["alpha"] = np.ones(kwargs["d"])
    with pytest.raises(ValueError, match=msg):
        HardInstanceA(**base)
