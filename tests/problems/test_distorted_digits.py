"""The digits split among writers with affine distortions."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.datasets import load_digits

from pflbounds.problems.distorted_digits import distorted_writers


def test_writers_partition_the_digits_into_train_and_test():
    w = distorted_writers(30, np.random.default_rng(0))
    assert w.X.shape == (30, 60, 64)
    assert not np.any(w.train & w.test)
    total = (w.train | w.test).sum()
    assert total == 1797
    assert np.all(w.test.sum(-1) >= 14) and np.all(w.counts >= 44)
    assert w.X.min() >= 0.0 and w.X.max() <= 1.0
    assert w.samples(2).shape == (w.counts[2], 74)
    np.testing.assert_array_equal(w.samples(2)[:, 64:].sum(-1), 1.0)


def test_zero_distortion_keeps_the_images_and_seeds_reproduce():
    rng = np.random.default_rng(1)
    w = distorted_writers(5, rng, rotate=0.0, shear=0.0, zoom=0.0, shift=0.0)
    digits = load_digits()
    order = np.random.default_rng(1).permutation(1797)
    first = np.array_split(order, 5)[0]
    np.testing.assert_allclose(w.X[0, :len(first)], digits.data[first] / 16.0, atol=1e-12)
    np.testing.assert_array_equal(w.y[0, :len(first)], digits.target[first])
    a = distorted_writers(4, np.random.default_rng(3))
    b = distorted_writers(4, np.random.default_rng(3))
    np.testing.assert_array_equal(a.X, b.X)
    assert not np.allclose(a.maps[0], a.maps[1])


@pytest.mark.parametrize("kw, msg", [(dict(n=1), "n must lie"),
                                     (dict(n=4, test_fraction=1.0), "test_fraction")])
def test_bad_arguments(kw, msg):
    n = kw.pop("n")
    with pytest.raises(ValueError, match=msg):
        distorted_writers(n, np.random.default_rng(0), **kw)
