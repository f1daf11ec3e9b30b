"""Federated handwritten digits without a download: scikit-learn's 8x8 digits (1797 images)
split into n "writers", each writing with its own affine distortion.

Writer i gets a random share of the images (equal sizes up to one) and one affine map of the
image plane, applied to every image it holds: rotation by U(-rotate, rotate) degrees, shear
U(-shear, shear), scale U(1 - zoom, 1 + zoom) and a shift of U(-shift, shift) pixels, about the
image centre (bilinear interpolation, zero outside). Pixels are scaled to [0, 1] (divided by
16). Each writer's data is split into training and test parts (``test_fraction``). The
writers stand in for the writer-split FEMNIST digits of LEAF, which cannot be downloaded here.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.ndimage import affine_transform

__all__ = ["WriterDigits", "distorted_writers"]


@dataclass(frozen=True, eq=False)
class WriterDigits:
    """Padded per-writer data: ``X`` (n, M, 64) in [0, 1], labels ``y`` (n, M) in 0..9,
    ``train`` and ``test`` masks (n, M) (disjoint; padding is in neither) and the affine
    ``maps`` (n, 2, 3) that distorted each writer's images."""

    X: np.ndarray
    y: np.ndarray
    train: np.ndarray
    test: np.ndarray
    maps: np.ndarray

    @property
    def n(self) -> int:
        """Number of writers."""
        return self.X.shape[0]

    @property
    def counts(self) -> np.ndarray:
        """Training samples per writer, (n,)."""
        return self.train.sum(-1)

    def samples(self, i: int, label_scale: float = 1.0) -> np.ndarray:
        """Writer i's training samples as joint vectors (pixels, label_scale one-hot(label)),
        shape (N_i, 74)."""
        m = self.train[i]
        return np.column_stack([self.X[i, m], label_scale * np.eye(10)[self.y[i, m]]])


def _affine(rng: np.random.Generator, rotate: float, shear: float, zoom: float,
            shift: float) -> np.ndarray:
    a = np.deg2rad(rng.uniform(-rotate, rotate))
    rot = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
    A = rot @ np.array([[1.0, rng.uniform(-shear, shear)], [0.0, 1.0]]) * rng.uniform(
        1 - zoom, 1 + zoom)
    return np.column_stack([A, rng.uniform(-shift, shift, 2)])


def distorted_writers(n: int, rng: np.random.Generator, *, rotate: float = 20.0,
                      shear: float = 0.3, zoom: float = 0.15, shift: float = 1.0,
                      test_fraction: float = 0.25) -> WriterDigits:
    """Split the digits among ``n`` writers with one affine distortion each (module
    docstring)."""
    from sklearn.datasets import load_digits

    if not 2 <= int(n) <= 100:
        raise ValueError(f"n must lie in [2, 100] writers, got {n}")
    if not 0.0 < test_fraction < 1.0:
        raise ValueError(f"test_fraction must lie in (0, 1), got {test_fraction}")
    digits = load_digits()
    images, labels = digits.images / 16.0, digits.target
    parts = np.array_split(rng.permutation(len(labels)), int(n))
    M = max(len(p) for p in parts)
    X = np.zeros((n, M, 64))
    y = np.zeros((n, M), dtype=np.int64)
    train = np.zeros((n, M), dtype=bool)
    test = np.zeros((n, M), dtype=bool)
    maps = np.zeros((n, 2, 3))
    centre = np.array([3.5, 3.5])
    for i, idx in enumerate(parts):  # data preparation, once per writer
        T = _affine(rng, rotate, shear, zoom, shift)
        maps[i] = T
        # output pixel o samples the input at A (o - c) + c + b (inverse map of the distortion)
        offset = centre - T[:, :2] @ centre + T[:, 2]
        mat = np.eye(3)
        mat[1:, 1:] = T[:, :2]
        out = affine_transform(images[idx], mat, offset=np.r_[0.0, offset], order=1,
                               mode="constant", cval=0.0)
        X[i, :len(idx)] = np.clip(out, 0.0, 1.0).reshape(len(idx), 64)
        y[i, :len(idx)] = labels[idx]
        n_test = max(1, int(round(test_fraction * len(idx))))
        test[i, :n_test] = True
        train[i, n_test:len(idx)] = True
    return WriterDigits(X, y, train, test, maps)
