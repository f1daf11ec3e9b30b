"""``pflbounds.checking.bound``: a catalog form on a grid, on the fixture paper ``toypaper``
(Theorem 1: (1 - eta mu)^K Delta0 + eta L sigma2/(2 mu B), eta <= 1/L, mu <= L)."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from pflbounds.checking import bound
from pflbounds.symbolic import HypothesisError, InputError, catalog

POINT = dict(eta=0.1, mu=1.0, L=2.0, Delta0=1.0, sigma2=1.0, B=4)


def _printed(K, eta=0.1, mu=1.0, L=2.0, Delta0=1.0, sigma2=1.0, B=4):
    return (1 - eta * mu) ** K * Delta0 + eta * L * sigma2 / (2 * mu * B)


@pytest.fixture
def toy(extra_paper):
    extra_paper("toypaper")
    return catalog.get("toypaper.theorem1")


def test_arrays_broadcast_to_a_grid_of_float_values(toy):
    ks = np.arange(1, 30, 5)
    etas = np.array([0.05, 0.1, 0.5])
    got = bound("toypaper.theorem1", "printed", **{**POINT, "eta": etas}, K=ks[:, None])
    assert got.shape == (ks.size, etas.size) and got.dtype == np.float64
    want = _printed(ks[:, None], eta=etas)
    assert np.array_equal(got, want)
    scalar = bound(toy, "explicit", **POINT, K=3)
    assert scalar.shape == () and float(scalar) == pytest.approx(0.9**6 + 0.025)


def test_a_form_with_parts_gives_one_array_per_part(toy):
    got = bound(toy, "proof", **POINT, K=np.array([1, 2]))
    assert sorted(got) == ["contraction", "noise"]
    assert np.allclose(got["contraction"], [0.9, 0.81]) and np.allclose(got["noise"], 0.025)


def test_hypotheses_are_enforced_as_evaluate_does(toy):
    with pytest.raises(HypothesisError, match=r"eta <= 1/L"):
        bound(toy, "printed", **{**POINT, "eta": np.array([0.1, 0.6])}, K=1)
    with pytest.raises(InputError, match=r"B=2\.5 is outside its domain"):
        bound(toy, "printed", **{**POINT, "B": 2.5}, K=1)
    with pytest.raises(InputError, match=r"mu=3 > L=2"):
        bound(toy, "printed", **{**POINT, "mu": 3.0}, K=1)
    with pytest.raises(InputError, match=r"needs: K "):
        bound(toy, "printed", **POINT)


def test_inputs_the_form_does_not_take_are_ignored(toy):
    assert bound(toy, "printed", **POINT, K=2, b=5, delta=0.1) == _printed(2)


def test_the_catalog_entry_is_evaluated_so_a_replaced_result_is_seen(toy):
    f = toy.forms["printed"]
    doubled = dataclasses.replace(f, expr=2 * f.expr)
    mutant = dataclasses.replace(toy, forms={**toy.forms, "printed": doubled})
    with catalog.replaced(mutant):
        assert bound(toy, "printed", **POINT, K=2) == pytest.approx(2 * _printed(2))
    assert bound(toy, "printed", **POINT, K=2) == pytest.approx(_printed(2))
