"""The measured value of a grid point and the counts of Monte Carlo comparisons, shared by
every verdict function (:mod:`pflbounds.checking.verdicts`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from pflbounds.checking.check import Check
from pflbounds.checking.evidence import EvidenceError
from pflbounds.checking.kinds import CheckKind, Verdict
from pflbounds.checking.statistics import Moments, covariance, moments


@dataclass
class Tally:
    """Counts of Monte Carlo comparisons and of their rejections (the interval wholly on the
    violating side), filled in by the verdict functions."""

    comparisons: int = 0
    rejections: int = 0

    def add(self, comparisons: int, rejections: int) -> None:
        self.comparisons += int(comparisons)
        self.rejections += int(rejections)


def level_text(check: Check, m: int) -> str:
    """How the per-comparison level is set: Bonferroni over the check's ``m`` comparisons at
    its ``confidence`` (which a paper's error family sets to the check's share)."""
    return f"{100 * check.confidence:g}% (Bonferroni over {m})"


def combine_verdicts(verdicts: Sequence[Verdict]) -> Verdict:
    """VIOLATED if any is VIOLATED, HOLDS if all HOLD, else INCONCLUSIVE."""
    if any(v is Verdict.VIOLATED for v in verdicts):
        return Verdict.VIOLATED
    if verdicts and all(v is Verdict.HOLDS for v in verdicts):
        return Verdict.HOLDS
    return Verdict.INCONCLUSIVE


@dataclass
class Measure:
    """The measured value at one grid point, flattened: mean (exact or estimated), its
    moments and the x-axis value of every entry. ``shape`` is the evidence's own shape
    (e.g. (agents, K)) and ``ks_raw`` the x-axis as given."""

    ks: np.ndarray
    mean: np.ndarray
    mom: Moments | None
    shape: tuple[int, ...]
    ks_raw: np.ndarray
    cov: np.ndarray | None = None
    support: tuple[float, float] | None = None

    def unflat(self, arr: np.ndarray) -> np.ndarray:
        """A flattened per-entry array back in the evidence's shape."""
        return np.asarray(arr).reshape(self.shape)


def measure(check: Check, ev: Mapping[str, np.ndarray], point: int) -> Measure:
    """Read the measured value of one grid point according to the check's engine.

    Measured arrays may have several axes (e.g. agents x K): ``ks`` then broadcasts against
    them (a vector of K matching the last axis), and every entry is one comparison.
    """
    support = None
    if "support" in ev:
        s = np.asarray(ev["support"], dtype=np.float64).reshape(-1)
        if s.size != 2:
            raise EvidenceError(f"point {point}: support must hold two numbers")
        support = (float(s[0]), float(s[1]))
    cov = None
    if check.deterministic:
        key = "cost" if check.kind is CheckKind.SCALING and "cost" in ev else "mean"
        if key not in ev:
            raise EvidenceError(f"point {point}: the {check.engine} engine needs {key!r}")
        mean = np.atleast_1d(np.asarray(ev[key], dtype=np.float64))
        mom = None
    else:
        missing = [k for k in ("sum", "sumsq", "count") if k not in ev]
        if missing:
            raise EvidenceError(f"point {point}: Monte Carlo evidence lacks {missing}")
        mom = moments(np.atleast_1d(ev["sum"]), np.atleast_1d(ev["sumsq"]), ev["count"])
        mean = mom.mean
        if "sumcross" in ev and mom.count >= 2 and mean.ndim == 1:
            cov = covariance(mean * mom.count, ev["sumcross"], mom.count)
    shape = mean.shape
    if "ks" in ev:
        ks_raw = np.atleast_1d(np.asarray(ev["ks"], dtype=np.float64))
    else:
        ks_raw = np.arange(shape[-1], dtype=np.float64)
    try:
        ks = np.broadcast_to(ks_raw, shape).ravel()
    except ValueError:
        raise EvidenceError(
            f"point {point}: ks has shape {ks_raw.shape}, measured {shape}"
        ) from None
    if mom is not None and mean.ndim > 1:
        mom = Moments(mean=mom.mean.ravel(), sd=mom.sd.ravel(), se=mom.se.ravel(),
                      count=mom.count)
    return Measure(ks=ks, mean=mean.ravel(), mom=mom, shape=shape, ks_raw=ks_raw, cov=cov,
                   support=support)


def _vector(ev: Mapping[str, np.ndarray], key: str, shape: tuple[int, ...], point: int):
    """Evidence ``key`` broadcast to the measured shape, flattened."""
    if key not in ev:
        raise EvidenceError(f"point {point}: evidence lacks {key!r}")
    arr = np.asarray(ev[key], dtype=np.float64)
    try:
        return np.broadcast_to(arr, shape).astype(np.float64).ravel()
    except ValueError:
        raise EvidenceError(
            f"point {point}: {key!r} has shape {arr.shape}, measured {shape}"
        ) from None


def evidence_vector(ev: Mapping[str, np.ndarray], key: str, shape: tuple[int, ...], point: int):
    """Evidence ``key`` broadcast to the measured shape, flattened."""
    if key not in ev:
        raise EvidenceError(f"point {point}: evidence lacks {key!r}")
    arr = np.asarray(ev[key], dtype=np.float64)
    try:
        return np.broadcast_to(arr, shape).astype(np.float64).ravel()
    except ValueError:
        raise EvidenceError(
            f"point {point}: {key!r} has shape {arr.shape}, measured {shape}"
        ) from None
