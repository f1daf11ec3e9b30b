"""scott2024 experiments on population C beyond Table 1: label masking, unlabelled
descriptors, the Theorem 3.2 bound of a trained PeFLL, and (slow) every ablation pipeline at a
tiny size."""

import jax.numpy as jnp
import numpy as np
import pytest

from pflbounds.algorithms import pefll
from pflbounds.algorithms.client_models import Softmax
from pflbounds.papers.scott2024.checks import experiments as ex
from pflbounds.papers.scott2024.checks import experiments_ablations as ab
from pflbounds.problems.populations import LabelShift

TINY = dict(ex._C, n=18, T=10, seeds=2, local_steps=20, m_total=900, width=8)


def test_present_labels():
    Y = np.array([[0, 0, 2], [1, 1, 1]])
    assert ex.present_labels(Y, 3).tolist() == [[True, False, True], [False, True, False]]


def test_class_errors_plain_and_masked():
    model = Softmax(2, 3)
    W = np.array([[1.0, 0.0], [0.0, 1.0], [-1.0, -1.0]])
    theta = jnp.asarray(np.concatenate([W.ravel(), np.zeros(3)]))
    rng = np.random.default_rng(0)
    tests = rng.standard_normal((3, 50, 2)) + 3 * np.array([[1, 0], [0, 1], [-1, -1]])[:, None]
    thetas = jnp.broadcast_to(theta, (1, 2, 9))
    plain = np.asarray(ex._class_errors(model, thetas, jnp.asarray(tests[None]),
                                        jnp.ones((1, 2, 3), bool)))
    want = [float(model.error(theta, jnp.asarray(tests[c]), jnp.full(50, c)).mean())
            for c in range(3)]
    assert plain[0, 0].tolist() == want
    mask = jnp.asarray([[[True, True, True], [True, False, True]]])
    masked = np.asarray(ex._class_errors(model, thetas, jnp.asarray(tests[None]), mask))
    assert masked[0, 1, 1] == 1.0  # a masked class is never predicted
    assert masked[0, 1, 0] <= plain[0, 1, 0] and masked[0, 1, 2] <= plain[0, 1, 2]
    assert masked[0, 0].tolist() == plain[0, 0].tolist()


def test_unlabelled_setting_zeroes_the_one_hot_labels():
    p = dict(TINY, n=9)
    st = ex.setting(p, np.random.SeedSequence(3).spawn(1))
    un = st.unlabelled()
    pop = LabelShift(p=10, classes=5, sep=3.0)
    rng = np.random.default_rng(np.random.SeedSequence(3).spawn(1)[0])
    mu = pop.means(rng)
    seen = pop.clients(mu, 9, 100, 0.3, rng)
    assert np.array_equal(np.asarray(un.seen.z[0]), seen.embedding_inputs(5, labels=False))
    assert np.array_equal(np.asarray(st.seen.z[0]), seen.embedding_inputs(5, labels=True))
    assert np.array_equal(np.asarray(un.seen.x), np.asarray(st.seen.x))


@pytest.mark.slow
def test_stochastic_emp_at_zero_variance_is_the_training_error():
    st = ex.setting(dict(TINY, n=9), np.random.SeedSequence(4).spawn(1))
    arch = ex.pefll_architecture(st, TINY)
    import jax

    eta = arch.init(jax.random.key(0), st.n)
    d0 = pefll.ClientData(*(np.asarray(a[0]) for a in st.seen))
    emp, th2 = ab._stochastic_emp(arch, eta, pefll._jnp(d0), jnp.zeros((1, 2)), 2,
                                  jax.random.key(1))
    th = pefll.predict_thetas(arch, eta, d0)
    det = pefll.errors(arch.model, th, jnp.asarray(d0.x), jnp.asarray(d0.y)).mean()
    assert float(emp[0]) == pytest.approx(float(det), abs=1e-12)
    assert float(th2[0]) == pytest.approx(float(jnp.mean(jnp.sum(th * th, 1))), rel=1e-12)
    emp2, _ = ab._stochastic_emp(arch, eta, pefll._jnp(d0), jnp.array([[1.0, 100.0]]), 2,
                                 jax.random.key(1))
    assert abs(float(emp2[0]) - 0.8) < 0.2  # heavy noise: about chance level (4/5 wrong)


SIMS = {"table2": (ab.simulate_table2, {}), "table6": (ab.simulate_table6, {}),
        "table7": (ab.simulate_table7, {}), "table9": (ab.simulate_table9, {}),
        "fig4": (ab.simulate_fig4, {"alpha": 0.1, "alphas": [0.1, 1.0], "new_per_alpha": 3}),
        "floats": (ab.simulate_floats, {"checkpoints": 2}),
        "table8": (ab.simulate_table8, {"lam_thetas": [0.0, 0.5], "lams": [0.0],
                                        "alpha_net": [1e-2], "alpha_theta": [0.1, 1.0],
                                        "draws": 2, "delta": 0.05})}


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(SIMS))
def test_ablation_pipelines_small(name):
    sim, extra = SIMS[name]
    p = dict(TINY, **extra)
    out = sim(p, 1, np.random.SeedSequence(7))
    assert out["mean"].shape == out["bound"].shape == out["ks"].shape
    r = np.asarray(out["risk"])
    assert r.shape[0] == 2 and np.all((r >= 0) & (r <= 1))
    assert np.all(np.isfinite(out["mean"])) and np.all(np.isfinite(out["bound"]))
    if name == "table8":
        assert np.all(out["theorem3_2"] > out["emp_stochastic"])  # the complexity terms > 0
    if name == "floats":
        assert out["floats_per_round"][0] > out["floats_per_round"][1]
    again = sim(p, 1, np.random.SeedSequence(7))
    assert np.array_equal(np.asarray(again["risk"]), r)


def test_largest_trained_skips_diverged_rows():
    nan = np.nan
    risk = np.array([[[0.1, 0.2], [0.3, 0.1], [nan, 0.5]],
                     [[0.3, 0.2], [0.5, 0.3], [nan, nan]]])  # (seeds, rows, cols)
    measured, lower = ab.largest_trained(risk)
    assert measured.tolist() == pytest.approx([0.4, 0.5])  # col 0: row 1; col 1: row 2, seed 0
    assert lower.tolist() == pytest.approx([0.2, 0.2])
    m1, l1 = ab.largest_trained(np.full((2, 2, 1), nan))
    assert np.isnan(m1[0]) and np.isnan(l1[0])
