"""scott2024's populations (instances.py): Theorem 3.1 read on population D's exact runs,
the batch-descriptor constants of population A against JAX Jacobians of the paper's
networks over every batch, population C's label sets and unlabelled descriptors."""

from __future__ import annotations

from itertools import combinations

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from jax.flatten_util import ravel_pytree

from pflbounds.checking.registry import get as get_check
from pflbounds.checking.registry import load_papers
from pflbounds.papers.scott2024.instances import (
    POINT_C,
    linear_factors,
    point_a,
    present_labels,
    setting,
    setup_a,
    theorem_run,
)
from pflbounds.problems.populations import LabelShift


def test_theorem_run_numbers():
    run = theorem_run(9.0, 2_000_000)
    a = 2 / np.sqrt(2e6) * 9
    assert run["avg"] == pytest.approx(9 * a / (2 - a), rel=1e-4)  # stationary level
    assert run["T_min"] == 12544 * 81 and run["exit"] < -20
    load_papers()
    c = get_check("scott2024.E_C5_theorem3_1")
    ev = c.simulate(c.grid[0], 1, np.random.SeedSequence(0))
    assert float(ev["ratio_corrected"]) == pytest.approx(0.08396, rel=1e-3)
    assert float(ev["step_conditions_hold"]) == 1.0


@pytest.fixture(scope="module")
def small():
    p = point_a(n=3, m=6, T=10, c=2, k=1, init=0)
    inst, arch, data = setup_a(p)
    eta = arch.init(jax.random.key(5), inst.n)
    return inst, arch, data, eta


def _J(arch, data, eta, i, idx):
    flat, unravel = ravel_pytree(eta)
    z = jnp.asarray(data.z[i][np.asarray(idx)])
    return np.asarray(jax.jacfwd(lambda e: arch.theta(unravel(e), z, i))(flat))


def test_batch_variances_of_the_paper_s_networks_equal_the_expectations_over_every_batch(small):
    inst, arch, data, eta = small
    b = 2
    full = list(range(inst.m))
    subsets = list(combinations(full, b))
    jac, out = np.zeros(inst.n), np.zeros(inst.n)
    for i in range(inst.n):
        JS = _J(arch, data, eta, i, full)
        thS = np.asarray(arch.theta(eta, jnp.asarray(data.z[i]), i))
        for B in subsets:
            D = _J(arch, data, eta, i, B) - JS
            jac[i] += np.linalg.norm(D, 2) ** 2 / len(subsets)
            thB = np.asarray(arch.theta(eta, jnp.asarray(data.z[i][list(B)]), i))
            out[i] += np.sum((thB - thS) ** 2) / len(subsets)
    flat = np.asarray(ravel_pytree(eta)[0])[None]
    H, A = linear_factors(arch, eta, flat)
    s2, s3 = inst.batch_variances(b, H, A)
    assert s2 == pytest.approx(b * jac.max(), rel=1e-10)
    assert s3 == pytest.approx(b * out.max(), rel=1e-10)
    assert inst.batch_variances(inst.m, H, A) == (0.0, 0.0)  # b = m: the full data


def test_b2_over_batches_is_at_least_the_full_data_norm(small):
    inst, arch, data, eta = small
    flat = np.asarray(ravel_pytree(eta)[0])[None]
    H, A = linear_factors(arch, eta, flat)
    full = max(np.linalg.norm(_J(arch, data, eta, i, range(inst.m)), 2) for i in range(inst.n))
    b2 = inst.batch_jacobian_norm(2, H, A, np.random.default_rng(0))
    assert b2 >= full * (1 - 1e-12)
    assert inst.batch_jacobian_norm(inst.m, H, A, np.random.default_rng(0)) == pytest.approx(full)


TINY = dict(POINT_C, n=18, T=10, seeds=2, local_steps=20, m_total=900, width=8)


def test_present_labels():
    Y = np.array([[0, 0, 2], [1, 1, 1]])
    assert present_labels(Y, 3).tolist() == [[True, False, True], [False, True, False]]


def test_unlabelled_setting_zeroes_the_one_hot_labels():
    p = dict(TINY, n=9)
    st = setting(p, np.random.SeedSequence(3).spawn(1))
    un = st.unlabelled()
    pop = LabelShift(p=10, classes=5, sep=3.0)
    rng = np.random.default_rng(np.random.SeedSequence(3).spawn(1)[0])
    mu = pop.means(rng)
    seen = pop.clients(mu, 9, 100, 0.3, rng)
    assert np.array_equal(np.asarray(un.seen.z[0]), seen.embedding_inputs(5, labels=False))
    assert np.array_equal(np.asarray(st.seen.z[0]), seen.embedding_inputs(5, labels=True))
    assert np.array_equal(np.asarray(un.seen.x), np.asarray(st.seen.x))
