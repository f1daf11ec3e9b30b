"""Bound verdicts: measured values against a bound at every point and K
(:mod:`pflbounds.checking.verdicts`, ``bound_holds``, ``lower_bound_respected`` and the two
sides of ``erratum``)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from pflbounds.checking.check import Check
from pflbounds.checking.details import entry_text, g, where_at
from pflbounds.checking.evidence import EvidenceError
from pflbounds.checking.kinds import Verdict
from pflbounds.checking.measures import Measure, Tally, level_text
from pflbounds.checking.statistics import bonferroni, one_sided_limits


@dataclass
class Family:
    """The outcome of one bound family (all points x K) for one bound key."""

    verdict: Verdict
    margin: float | None
    detail: str
    lo: list[np.ndarray]
    hi: list[np.ndarray]


def bound_family(
    check: Check, ms: Sequence[Measure], bounds: Sequence[np.ndarray], *, upper: bool, name: str,
    tally: Tally | None = None,
) -> Family:
    """Compare measured values with a bound at every point and K (see module docstring).

    Monte Carlo limits are one-sided at the check's Bonferroni share of ``1 - confidence``;
    ``tally`` receives the comparisons and rejections made."""
    m = np.concatenate([x.mean for x in ms])
    b = np.concatenate(bounds)
    pt = np.concatenate([np.full(x.mean.size, i) for i, x in enumerate(ms)])
    kk = np.concatenate([x.ks for x in ms])
    scalar = all(x.mean.size == 1 for x in ms)
    local = np.concatenate([np.arange(x.mean.size) for x in ms])

    def where(j: int) -> str:
        shape = ms[int(pt[j])].shape
        entry = ""
        if len(shape) > 1:
            idx = np.unravel_index(int(local[j]), shape)[:-1]
            entry = ", " + entry_text(idx)
        return where_at(int(pt[j]), kk[j], scalar, entry)

    for arr, what in ((m, "measured value"), (b, name)):
        if np.isnan(arr).any():
            j = int(np.flatnonzero(np.isnan(arr))[0])
            raise EvidenceError(f"NaN {what} at {where(j)}")
    # Margin: smallest bound/measured (upper) or measured/bound (lower).
    with np.errstate(divide="ignore", invalid="ignore"):
        num, den = (b, m) if upper else (m, b)
        sel = den > 0
        ratios = num[sel] / den[sel]
    margin = float(np.min(ratios)) if ratios.size else None
    sign = 1.0 if upper else -1.0
    # excess > 0 means "on the wrong side"
    with np.errstate(invalid="ignore"):
        if check.deterministic:
            lo_list = [x.mean for x in ms]
            hi_list = [x.mean for x in ms]
            excess = sign * (m - b)
            allowed = check.rel_tol * np.abs(b) + check.abs_tol
            safe = np.where(np.isinf(b) & (sign * b > 0), True, excess <= allowed)
            bad = ~safe
            verdict = Verdict.HOLDS if not bad.any() else Verdict.VIOLATED
            j = _worst(m, b, upper)
            rel = _ratio_text(m[j], b[j], "measured", name)
            loc = where(j)
            if verdict is Verdict.HOLDS:
                detail = f"{'max' if upper else 'min'} {rel} at {loc}"
            else:
                side = "above" if upper else "below"
                detail = (
                    f"measured is {side} the {name} at {int(bad.sum())} of {bad.size}"
                    f" comparisons; {rel} at {loc}"
                )
            return Family(verdict, margin, detail, lo_list, hi_list)
        level = level_text(check, m.size)
        alpha = bonferroni(check.confidence, m.size)
        lims = [one_sided_limits(x.mom, alpha, x.support) for x in ms]
        lo_list = [lo for lo, _ in lims]
        hi_list = [hi for _, hi in lims]
        lo = np.concatenate(lo_list)
        hi = np.concatenate(hi_list)
        near, far = (hi, lo) if upper else (lo, hi)
        unsafe = sign * (near - b) > 0  # the interval reaches the wrong side
        proven = sign * (far - b) > 0  # the whole interval is on the wrong side
        if tally is not None:
            tally.add(m.size, int(proven.sum()))
        n_rep = int(min(x.mom.count for x in ms))
        if proven.any():
            verdict = Verdict.VIOLATED
            j = int(np.argmax(np.where(proven, sign * (far - b), -np.inf)))
            lim = "lower" if upper else "upper"
            detail = (
                f"the {lim} {level} limit is on the wrong side of the {name} at "
                f"{int(proven.sum())} of {m.size} comparisons; "
                f"{_ratio_text(far[j], b[j], lim + ' limit', name)} at "
                f"{where(j)} (n={n_rep})"
            )
        elif not unsafe.any():
            verdict = Verdict.HOLDS
            j = _worst(near, b, upper)
            lim = "upper" if upper else "lower"
            detail = (
                f"the {lim} {level} limit respects the {name} everywhere; "
                f"{'max' if upper else 'min'} {_ratio_text(near[j], b[j], lim + ' limit', name)}"
                f" at {where(j)} (n={n_rep})"
            )
        else:
            verdict = Verdict.INCONCLUSIVE
            j = _worst(m, b, upper)
            detail = (
                f"the {level} interval straddles the {name} at {int(unsafe.sum())} of "
                f"{m.size} comparisons; {_ratio_text(m[j], b[j], 'mean', name)} at "
                f"{where(j)} (n={n_rep}): more replicas may decide"
            )
        return Family(verdict, margin, detail, lo_list, hi_list)


def _worst(m: np.ndarray, b: np.ndarray, upper: bool) -> int:
    """Index of the point closest to (or furthest past) the bound."""
    with np.errstate(divide="ignore", invalid="ignore"):
        score = np.where(
            np.abs(b) > 0, (m - b) / np.abs(b), np.sign(m - b) * np.inf
        )
    if not upper:
        score = -score
    score = np.where(np.isnan(score), -np.inf, score)
    return int(np.argmax(score))


def _ratio_text(m: float, b: float, mname: str, bname: str) -> str:
    if b > 0 and np.isfinite(b):
        return f"{mname}/{bname} = {g(m / b)}"
    return f"{mname} - {bname} = {g(m - b)}"
