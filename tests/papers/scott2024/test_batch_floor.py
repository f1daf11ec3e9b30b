"""scott2024 P3: A4's sigma_2^2, sigma_3^2 and b_2 for batch descriptors on population A, in
closed form, against enumeration of every batch and JAX Jacobians; the P3 figure."""

from itertools import combinations

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from jax.flatten_util import ravel_pytree

from pflbounds.checking.outcome import Outcome
from pflbounds.papers.scott2024.checks import batch_floor as bf
from pflbounds.papers.scott2024.checks import training as tr


@pytest.fixture(scope="module")
def small():
    p = tr._pts(n=3, m=6, T=10, c=2, k=1, init=0)
    inst, arch, data = tr.setup(p)
    eta = arch.init(jax.random.key(5), inst.n)
    return inst, arch, data, eta


def _J(arch, data, eta, i, idx):
    flat, unravel = ravel_pytree(eta)
    z = jnp.asarray(data.z[i][np.asarray(idx)])
    return np.asarray(jax.jacfwd(lambda e: arch.theta(unravel(e), z, i))(flat))


def test_sigma23_equal_the_expectations_over_every_batch(small):
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
    H, A = bf.linear_factors(arch, eta, flat)
    s2, s3 = bf.sigma23(inst, b, H, A)
    assert s2 == pytest.approx(b * jac.max(), rel=1e-10)
    assert s3 == pytest.approx(b * out.max(), rel=1e-10)
    assert bf.sigma23(inst, inst.m, H, A) == (0.0, 0.0)  # b = m: the full data


def test_b2_over_batches_is_at_least_the_full_data_norm(small):
    inst, arch, data, eta = small
    flat = np.asarray(ravel_pytree(eta)[0])[None]
    H, A = bf.linear_factors(arch, eta, flat)
    full = max(np.linalg.norm(_J(arch, data, eta, i, range(inst.m)), 2) for i in range(inst.n))
    b2 = bf.b2_batches(inst, 2, H, A, np.random.default_rng(0))
    assert b2 >= full * (1 - 1e-12)
    assert bf.b2_batches(inst, inst.m, H, A, np.random.default_rng(0)) == pytest.approx(full)


def test_fall_fits_recover_the_exponents():
    bs = np.array([1.0, 2.0, 5.0, 10.0])
    assert bf.fall_fits(bs, 3 / bs**2, 20)["slope_b"] == pytest.approx(-2)
    assert bf.fall_fits(bs, 0.5 * (1 / bs - 1 / 20) ** 2, 20)["slope_fpc"] == pytest.approx(2)


def test_p3_figure_pairs_the_floor_with_the_plateau():
    evs = [{"params": {"b": b}, "mean": np.array([1 / b**2]), "lo": np.array([0.9 / b**2]),
            "hi": np.array([1.1 / b**2]), "bound": np.array([100 / b]), "m": np.asarray(20.0),
            "const_sigma2_2": np.asarray(3.0), "const_sigma3_2": np.asarray(1.0)}
           for b in (5.0, 1.0, 2.0)]
    o = Outcome("scott2024.P3", "bound_holds", "HOLDS", "HOLDS", evidence=evs)
    fig, table = bf.plot_p3(o)
    plateau, floor = fig["series"][:2]
    assert plateau["x"] == [1.0, 2.0, 5.0] and floor["group"] == plateau["group"]
    assert floor["y"] == pytest.approx([100, 50, 20])
    assert "-2.00" in fig["annotations"][0]  # exponent in b
    assert table["rows"][0][3] == "100"  # floor/plateau at b = 1
