"""Recorded output of a run: excess errors at chosen iteration counts."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

__all__ = ["Trace", "LiftedTrace", "record_points"]


def record_points(record: Iterable[int] | None, K: int) -> np.ndarray:
    """Validate the iteration counts to record: sorted, unique, within [0, K].

    ``None`` records every k = 0..K.
    """
    if K < 0 or int(K) != K:
        raise ValueError(f"K must be a non-negative integer, got {K}")
    if record is None:
        return np.arange(K + 1)
    ks = np.asarray(list(record), dtype=np.int64)
    if ks.ndim != 1 or ks.size == 0:
        raise ValueError("record must be a non-empty iterable of iteration counts")
    if np.any(np.diff(ks) <= 0):
        raise ValueError(f"record must be strictly increasing, got {ks.tolist()}")
    if ks[0] < 0 or ks[-1] > K:
        raise ValueError(f"record must lie in [0, K={K}], got {ks[0]}..{ks[-1]}")
    return ks


@dataclass
class Trace:
    """Excess errors of a collaborative run.

    Attributes
    ----------
    ks
        Recorded iteration counts, shape (n_rec,).
    excess
        f_i(x_i^k) - f_i^*, shape (R, n_rec, N).
    X_final
        Last iterate x^K, shape (R, N, d) (None if not kept).
    iterates
        Iterates at the recorded k, shape (R, n_rec, N, d), when requested.
    info
        Method-specific extras (step sizes, estimated weights, ...).
    costs
        Per-replica cost counters at the recorded k, name -> (R, n_rec) (see
        :mod:`pflbounds.algorithms.driver`).
    """

    ks: np.ndarray
    excess: np.ndarray
    X_final: np.ndarray | None = None
    iterates: np.ndarray | None = None
    info: dict[str, Any] = field(default_factory=dict)
    costs: dict[str, np.ndarray] = field(default_factory=dict)

    @property
    def R(self) -> int:
        """Number of replicas."""
        return int(self.excess.shape[0])

    @property
    def F(self) -> np.ndarray:
        """Averaged excess F^k = (1/N) sum_i (f_i(x_i^k) - f_i^*) per replica, (R, n_rec)."""
        return self.excess.mean(axis=-1)

    def mean_excess(self) -> np.ndarray:
        """Monte Carlo estimate of E[f_i(x_i^k) - f_i^*], shape (n_rec, N)."""
        return self.excess.mean(axis=0)

    def sem_excess(self) -> np.ndarray:
        """Standard error of :meth:`mean_excess`, shape (n_rec, N)."""
        return self.excess.std(axis=0, ddof=1) / np.sqrt(self.R)

    def F_mean(self) -> np.ndarray:
        """Monte Carlo estimate of E[F^k], shape (n_rec,)."""
        return self.F.mean(axis=0)

    def F_sem(self) -> np.ndarray:
        """Standard error of :meth:`F_mean`, shape (n_rec,)."""
        return self.F.std(axis=0, ddof=1) / np.sqrt(self.R)


@dataclass
class LiftedTrace(Trace):
    """Trace of the lifted AFA recursion, with the lifted iterates y (R, n_rec, N, d);
    ``iterates`` holds x^k = Lam y^k."""

    y_iterates: np.ndarray | None = None
