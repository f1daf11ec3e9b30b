"""The draw set of one iteration of the exact propagator: {(A_j, c_j, Sigma_j)} with
probabilities p_j, checked on construction (see :mod:`pflbounds.exact.propagator`)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

__all__ = ["LinearDraws", "Schedule", "check_psd", "finite_array"]

_PROB_TOL = 1e-12


def finite_array(name: str, value: object) -> np.ndarray:
    arr = np.array(value, dtype=np.float64)
    if not np.all(np.isfinite(arr)):
        raise ValueError(f"{name} must be finite (no nan or inf)")
    return arr


def check_psd(name: str, S: np.ndarray) -> None:
    """Raise ValueError (naming ``name`` and the index of the first bad matrix) unless every
    (..., n, n) matrix of S is symmetric positive semidefinite up to rounding."""
    lead = S.shape[:-2]
    S3 = S.reshape(-1, *S.shape[-2:])
    scale = np.maximum(np.abs(S3).max(axis=(-2, -1)), np.finfo(np.float64).tiny)

    def where(i: int) -> str:
        return f"{name}{[int(t) for t in np.unravel_index(i, lead)]}" if lead else name

    asym = np.abs(S3 - np.swapaxes(S3, -1, -2)).max(axis=(-2, -1)) / scale
    bad = np.flatnonzero(asym > 1e-10)
    if bad.size:
        raise ValueError(f"{where(bad[0])} must be symmetric (relative asymmetry "
                         f"{asym[bad[0]]:.3g})")
    lam = np.linalg.eigvalsh(0.5 * (S3 + np.swapaxes(S3, -1, -2)))[:, 0]
    bad = np.flatnonzero(lam < -64 * S.shape[-1] * np.finfo(np.float64).eps * scale)
    if bad.size:
        raise ValueError(f"{where(bad[0])} must be positive semidefinite (smallest "
                         f"eigenvalue {lam[bad[0]]:.3g})")


@dataclass(frozen=True, eq=False)
class LinearDraws:
    """The finite set {(A_j, c_j, Sigma_j)} with probabilities p_j of one iteration.

    Parameters
    ----------
    p
        Probabilities, shape (J,), >= 0, summing to 1.
    A
        Matrices, shape (J, n, n) (one block) or (J, B, n, n); B = 1 shares A across blocks
        (Kronecker structure A = I_B (x) A_c).
    c
        Offsets, shape (J, n) or (J, B, n); None means 0.
    Sigma
        Noise covariances given the draw, shape (J, n, n) or (J, B, n, n), symmetric PSD;
        None means no noise.
    check
        Test Sigma for symmetry and PSD (an O(J B n^3) eigenvalue computation). A schedule
        that rescales an already checked set may pass False.
    """

    p: np.ndarray
    A: np.ndarray
    c: np.ndarray | None = None
    Sigma: np.ndarray | None = None
    check: bool = field(default=True, repr=False)

    def __post_init__(self) -> None:
        p = finite_array("p", self.p)
        if p.ndim != 1 or p.size == 0:
            raise ValueError(f"p must be a non-empty vector of probabilities, got shape "
                             f"{p.shape}")
        if np.any(p < 0):
            j = int(np.argmin(p))
            raise ValueError(f"probabilities p must be >= 0, got p[{j}] = {p[j]:.6g}")
        if abs(p.sum() - 1.0) > _PROB_TOL * max(1, p.size):
            raise ValueError(f"probabilities p must sum to 1, got sum {p.sum():.15g}")
        J = p.size
        A = finite_array("A", self.A)
        if A.ndim == 3:
            A = A[:, None]
        if A.ndim != 4 or A.shape[0] != J or A.shape[2] != A.shape[3]:
            raise ValueError(f"A must have shape (J={J}, n, n) or (J={J}, B, n, n), got "
                             f"{np.shape(self.A)}")
        n = A.shape[-1]
        c = np.zeros((J, 1, n)) if self.c is None else finite_array("c", self.c)
        if c.ndim == 2:
            c = c[:, None]
        if c.ndim != 3 or c.shape[0] != J or c.shape[2] != n:
            raise ValueError(f"c must have shape (J={J}, n={n}) or (J={J}, B, n={n}), got "
                             f"{np.shape(self.c)}")
        if self.Sigma is None:
            S = np.zeros((J, 1, n, n))
        else:
            S = finite_array("Sigma", self.Sigma)
            if S.ndim == 3:
                S = S[:, None]
            if S.ndim != 4 or S.shape[0] != J or S.shape[2:] != (n, n):
                raise ValueError(f"Sigma must have shape (J={J}, n={n}, n={n}) or "
                                 f"(J={J}, B, n={n}, n={n}), got {np.shape(self.Sigma)}")
            if self.check:
                check_psd("Sigma", S)
        sizes = {A.shape[1], c.shape[1], S.shape[1]} - {1}
        if len(sizes) > 1:
            raise ValueError(f"A, c and Sigma disagree on the number of blocks B: "
                             f"{A.shape[1]}, {c.shape[1]}, {S.shape[1]} (each must be B or 1)")
        for name, arr in (("p", p), ("A", A), ("c", c), ("Sigma", S)):
            arr.setflags(write=False)
            object.__setattr__(self, name, arr)

    @property
    def J(self) -> int:
        """Number of draws."""
        return int(self.p.size)

    @property
    def n(self) -> int:
        """Block size."""
        return int(self.A.shape[-1])

    @property
    def B(self) -> int:
        """Number of blocks (1 when every part is shared by all blocks)."""
        return max(self.A.shape[1], self.c.shape[1], self.Sigma.shape[1])


Schedule = Callable[[int], LinearDraws]
"""A deterministic time-varying set: k -> the draws of iteration k (x_k -> x_{k+1})."""
