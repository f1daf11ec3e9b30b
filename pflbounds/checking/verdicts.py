"""From combined evidence to a verdict, a margin and a one-sentence detail.

Semantics (see also :mod:`pflbounds.checking.statistics` for the intervals):

* ``bound_holds``: deterministic engines: HOLDS iff ``measured - bound <= rel_tol*|bound| +
  abs_tol`` at every point and K, else VIOLATED. Monte Carlo: one-sided limits at level
  ``1 - (1 - confidence)/m`` with ``m`` = number of (point, K) comparisons: HOLDS if every
  upper limit is <= the bound, VIOLATED if some lower limit is > the bound, else INCONCLUSIVE.
  Margin: the smallest ``bound / measured`` (measured > 0).
* ``lower_bound_respected``: the mirror image (measured >= bound); margin: the smallest
  ``measured / bound`` (bound > 0).
* ``rate``: one least-squares slope per grid point over the fit window, of ``log mean`` on
  ``log K`` (``loglog``: estimate = slope, compared with the predicted exponent) or on ``K``
  (``semilog``: estimate = ``exp(slope)``, the contraction factor per unit of K, compared with
  the predicted factor). Deterministic: HOLDS iff ``|estimate - predicted| <= tolerance``.
  Monte Carlo: one-sided limits of the estimate (Bonferroni over fits): HOLDS if both lie in
  the band, VIOLATED if the interval misses the band, else INCONCLUSIVE. Margin: the largest
  ``|estimate - predicted|``. A one-sided claim (``side``: ``at_most`` or ``at_least``) has a
  half-line for its band, and its margin is the largest excess of the estimate beyond the
  boundary (negative: inside).
* ``scaling``: as rate, on ``log cost`` against ``log x_param`` across grid points; grid points
  that differ in other parameters form separate fits.
* ``identity``: HOLDS iff the largest ``|residual|`` is <= tolerance (for Monte Carlo with a
  ``target``: an equivalence test of the mean against the target, INCONCLUSIVE when the
  interval straddles the band). Margin: ``tolerance / max residual``.
* ``erratum``: the bound_holds test applied to ``bound_printed`` and ``bound_corrected``:
  CONFIRMED if the printed bound is VIOLATED and the corrected one HOLDS, NOT_CONFIRMED if the
  printed bound HOLDS, INCONCLUSIVE otherwise. Margin: that of the printed bound.

* per-replica bounds (``bound_mode`` paired or per_replica) and ``holds_with_probability``:
  see :mod:`pflbounds.checking.replica_verdicts`.

Combining several points or fits: VIOLATED if any is violated, HOLDS if all hold, else
INCONCLUSIVE. NaN in measured values or bounds is an evidence error (verdict ERROR).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from pflbounds.checking.check import Check
from pflbounds.checking.evidence import EvidenceError
from pflbounds.checking.jsonsafe import canonical_json
from pflbounds.checking.kinds import CheckKind, Verdict
from pflbounds.checking.statistics import (
    Moments,
    bonferroni,
    covariance,
    fit_line,
    log_mean_covariance,
    moments,
    one_sided_limits,
    t_quantile,
)


@dataclass
class Evaluation:
    """Verdict, margin and detail, with the per-point derived arrays and the fits."""

    verdict: Verdict
    margin: float | None
    detail: str
    points: list[dict[str, Any]]
    fits: list[dict[str, Any]] = field(default_factory=list)
    comparisons: int = 0
    """Monte Carlo comparisons made (0 for deterministic engines): the family size that a
    suite-level correction counts (see :mod:`pflbounds.running.multiplicity`)."""
    rejections: int = 0
    """Of those, the comparisons whose whole interval lies on the violating side."""


@dataclass
class Tally:
    """Counts of Monte Carlo comparisons and of their rejections (the interval wholly on the
    violating side), filled in by the verdict functions for suite-level corrections."""

    comparisons: int = 0
    rejections: int = 0

    def add(self, comparisons: int, rejections: int) -> None:
        self.comparisons += int(comparisons)
        self.rejections += int(rejections)


def level_text(check: Check, m: int, alpha: float | None) -> str:
    """How the per-comparison level was set: Bonferroni inside the check, or a given level
    (a suite-level Holm correction)."""
    if alpha is None:
        return f"{100 * check.confidence:g}% (Bonferroni over {m})"
    return f"{100 * (1 - alpha):.6g}% per comparison (suite-level Holm)"


def g(x: float) -> str:
    """Short number format for details."""
    return f"{x:.4g}"


def combine_verdicts(verdicts: Sequence[Verdict]) -> Verdict:
    """VIOLATED if any is VIOLATED, HOLDS if all HOLD, else INCONCLUSIVE."""
    if any(v is Verdict.VIOLATED for v in verdicts):
        return Verdict.VIOLATED
    if verdicts and all(v is Verdict.HOLDS for v in verdicts):
        return Verdict.HOLDS
    return Verdict.INCONCLUSIVE


# ---------------------------------------------------------------------------------------
# Measured values


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


def entry_text(index: tuple[int, ...]) -> str:
    """An entry of a per-agent (or per-row) value, as prose: ``entry 2`` for one axis,
    ``entry (2, 0)`` for several; never a Python tuple such as ``(2,)``."""
    parts = [str(int(i)) for i in index]
    return "entry " + (parts[0] if len(parts) == 1 else "(" + ", ".join(parts) + ")")


def _where(point: int, k: float, scalar: bool, entry: str = "") -> str:
    return (f"point {point}" if scalar else f"K={g(k)}, point {point}") + entry


# ---------------------------------------------------------------------------------------
# Bounds


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
    alpha: float | None = None, tally: Tally | None = None,
) -> Family:
    """Compare measured values with a bound at every point and K (see module docstring).

    ``alpha``: the one-sided per-comparison level of Monte Carlo limits (default: Bonferroni
    inside the check); ``tally`` receives the comparisons and rejections made."""
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
        return _where(int(pt[j]), kk[j], scalar, entry)

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
        level = level_text(check, m.size, alpha)
        alpha = bonferroni(check.confidence, m.size) if alpha is None else alpha
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


# ---------------------------------------------------------------------------------------
# Fits


def _band_verdict(
    est: float, lo: float, hi: float, predicted: float, tol: float, deterministic: bool,
    side: str = "both",
) -> Verdict:
    a = -math.inf if side == "at_most" else predicted - tol
    b = math.inf if side == "at_least" else predicted + tol
    slack = 1e-12 * max(1.0, abs(predicted))
    if deterministic:
        if side == "both":
            return Verdict.HOLDS if abs(est - predicted) <= tol + slack else Verdict.VIOLATED
        return Verdict.HOLDS if a - slack <= est <= b + slack else Verdict.VIOLATED
    if lo >= a - slack and hi <= b + slack:
        return Verdict.HOLDS
    if hi < a or lo > b:
        return Verdict.VIOLATED
    return Verdict.INCONCLUSIVE


def claim_text(f: Mapping[str, Any], fmt: Callable[[float], str] = g) -> str:
    """What a fit's claim says of its estimate: ``predicted X ± T``, or ``claimed <= B``
    (``>= B``) for a one-sided claim."""
    side = f.get("side", "both")
    if side == "both":
        return f"predicted {fmt(f['predicted'])} ± {fmt(f['tolerance'])}"
    return f"claimed {'<=' if side == 'at_most' else '>='} {fmt(claim_reference(f))}"


def claim_reference(f: Mapping[str, Any]) -> float:
    """The value a fit's figure draws: the predicted one, or a one-sided claim's boundary."""
    side = f.get("side", "both")
    if side == "at_most":
        return f["predicted"] + f["tolerance"]
    if side == "at_least":
        return f["predicted"] - f["tolerance"]
    return f["predicted"]


def excess(f: Mapping[str, Any]) -> float:
    """How far a fit's estimate is from its claim: |estimate - predicted| (two-sided), or
    how far it lies beyond the claim's boundary, negative inside (one-sided)."""
    side = f.get("side", "both")
    if side == "both":
        return abs(f["estimate"] - f["predicted"])
    d = f["estimate"] - claim_reference(f)
    return d if side == "at_most" else -d


def _fit_text(f: Mapping[str, Any], what: str, deterministic: bool) -> str:
    ci = "" if deterministic else f" [{g(f['lo'])}, {g(f['hi'])}]"
    return f"{what} {g(f['estimate'])}{ci} vs {claim_text(f)}"


def rate_fits(check: Check, ms: Sequence[Measure], evs: Sequence[Mapping],
              alpha: float | None = None) -> list[dict]:
    """One slope fit per grid point (see module docstring); ``alpha``: per-fit level of
    Monte Carlo limits (default: Bonferroni over the fits)."""
    semilog = check.rate_axis == "semilog"
    n_fits = len(ms)
    alpha = bonferroni(check.confidence, n_fits) if alpha is None else alpha
    fits = []
    for i, (mz, ev) in enumerate(zip(ms, evs, strict=True)):
        if len(mz.shape) != 1:
            raise EvidenceError(f"point {i}: a rate curve must be 1-d, got shape {mz.shape}")
        mask = np.ones(mz.mean.size, dtype=bool)
        if "fit_mask" in ev:
            mask &= np.broadcast_to(np.asarray(ev["fit_mask"], dtype=bool), mask.shape)
        if not semilog:
            mask &= mz.ks > 0
        mask &= np.isfinite(mz.ks)
        fit: dict[str, Any] = {
            "point": i, "axis": check.rate_axis, "predicted": float(check.predicted),
            "tolerance": float(check.tolerance), "side": check.side, "ks": mz.ks[mask],
        }
        mean = mz.mean[mask]
        if np.isnan(mean).any():
            raise EvidenceError(f"point {i}: NaN in the measured curve")
        if mask.sum() < 2:
            raise EvidenceError(f"point {i}: fewer than 2 points in the fit window")
        if np.any(mean <= 0) or not np.all(np.isfinite(mean)):
            if check.deterministic:
                raise EvidenceError(f"point {i}: non-positive or infinite metric in the fit window")
            fit.update(estimate=math.nan, lo=-math.inf, hi=math.inf, slope=math.nan,
                       intercept=math.nan, se=math.inf, verdict=Verdict.INCONCLUSIVE,
                       note="non-positive mean in the fit window")
            fits.append(fit)
            continue
        x = mz.ks[mask] if semilog else np.log(mz.ks[mask])
        y = np.log(mean)
        cov = None
        q = 0.0
        if not check.deterministic:
            sub = mz.cov[np.ix_(mask, mask)] if mz.cov is not None else None
            cov = log_mean_covariance(mean, mz.mom.count, mz.mom.sd[mask], sub)
            q = t_quantile(alpha, mz.mom.count - 1.0)
        lf = fit_line(x, y, cov)
        half = q * lf.se if lf.se > 0 else 0.0
        s_lo, s_hi = lf.slope - half, lf.slope + half
        if semilog:
            est, lo, hi = math.exp(lf.slope), math.exp(s_lo), math.exp(s_hi)
        else:
            est, lo, hi = lf.slope, s_lo, s_hi
        verdict = _band_verdict(
            est, lo, hi, float(check.predicted), float(check.tolerance), check.deterministic,
            check.side,
        )
        fit.update(estimate=est, lo=lo, hi=hi, slope=lf.slope, intercept=lf.intercept,
                   se=lf.se, verdict=verdict)
        fits.append(fit)
    return fits


def scaling_fits(
    check: Check, ms: Sequence[Measure], evs: Sequence[Mapping], params: Sequence[Mapping],
    alpha: float | None = None,
) -> list[dict]:
    """Fits of log cost against log x_param, one per group of otherwise equal grid points;
    ``alpha``: per-fit level of Monte Carlo limits (default: Bonferroni over the groups)."""
    groups: dict[str, list[int]] = {}
    for i, p in enumerate(params):
        rest = {k: v for k, v in p.items() if k != check.x_param}
        groups.setdefault(canonical_json(rest), []).append(i)
    alpha = bonferroni(check.confidence, len(groups)) if alpha is None else alpha
    fits = []
    for gkey, idx in groups.items():
        use = []
        for i in idx:
            if ms[i].mean.size != 1:
                raise EvidenceError(f"point {i}: a scaling cost must be a scalar")
            keep = bool(np.all(evs[i]["fit_mask"])) if "fit_mask" in evs[i] else True
            if keep:
                use.append(i)
        xs = np.array([float(params[i][check.x_param]) for i in use])
        cost = np.array([float(ms[i].mean[0]) for i in use])
        fit: dict[str, Any] = {
            "group": gkey, "points": use, "x_param": check.x_param, "x": xs, "cost": cost,
            "predicted": float(check.predicted), "tolerance": float(check.tolerance),
            "side": check.side, "axis": "loglog",
        }
        if np.isnan(cost).any():
            raise EvidenceError(f"NaN cost in scaling group {gkey}")
        if len(use) < 2 or len(set(xs.tolist())) < 2:
            raise EvidenceError(f"scaling group {gkey} has fewer than 2 distinct x values")
        if np.any(xs <= 0):
            raise EvidenceError(f"scaling group {gkey}: x_param values must be > 0")
        if np.any(cost <= 0) or not np.all(np.isfinite(cost)):
            if check.deterministic:
                raise EvidenceError(f"scaling group {gkey}: costs must be finite and > 0")
            fit.update(estimate=math.nan, lo=-math.inf, hi=math.inf, slope=math.nan,
                       intercept=math.nan, se=math.inf, verdict=Verdict.INCONCLUSIVE,
                       note="non-positive or infinite mean cost")
            fits.append(fit)
            continue
        cov = None
        q = 0.0
        if not check.deterministic:
            sd = np.array([float(ms[i].mom.sd[0]) for i in use])
            counts = np.array([ms[i].mom.count for i in use])
            cov = (sd / cost) ** 2 / counts
            q = t_quantile(alpha, float(counts.min()) - 1.0)
        lf = fit_line(np.log(xs), np.log(cost), cov)
        half = q * lf.se if lf.se > 0 else 0.0
        lo, hi = lf.slope - half, lf.slope + half
        verdict = _band_verdict(
            lf.slope, lo, hi, float(check.predicted), float(check.tolerance), check.deterministic,
            check.side,
        )
        fit.update(estimate=lf.slope, lo=lo, hi=hi, slope=lf.slope, intercept=lf.intercept,
                   se=lf.se, verdict=verdict)
        fits.append(fit)
    return fits


def _fits_evaluation(check: Check, fits: list[dict], what: str, where_key: str) -> tuple:
    verdict = combine_verdicts([f["verdict"] for f in fits])
    errs = [excess(f) for f in fits if np.isfinite(f["estimate"])]
    margin = max(errs) if errs else None
    worst = max(fits, key=lambda f: excess(f) if np.isfinite(f["estimate"]) else math.inf)
    text = _fit_text(worst, what, check.deterministic)
    loc = f"{where_key} {worst[where_key]}"
    n_ok = sum(f["verdict"] is Verdict.HOLDS for f in fits)
    detail = f"{text} at {loc} (worst of {len(fits)}; {n_ok} within tolerance)"
    if "note" in worst:
        detail += f"; {worst['note']}"
    return verdict, margin, detail


# ---------------------------------------------------------------------------------------
# Identity


def identity_verdict(
    check: Check, ms: Sequence[Measure | None], evs: Sequence[Mapping],
    alpha: float | None = None, tally: Tally | None = None,
) -> tuple[Verdict, float | None, str]:
    """Residuals within the tolerance (or equivalence of a Monte Carlo mean and its target);
    ``alpha`` and ``tally`` as for :func:`bound_family`."""
    tol = float(check.tolerance)
    n_cmp = sum(
        np.size(ev["target"]) for ev in evs if "residual" not in ev and "target" in ev
    )
    alpha = bonferroni(check.confidence, max(n_cmp, 1)) if alpha is None else alpha
    verdicts: list[Verdict] = []
    worst_r, worst_i, worst_txt = -1.0, 0, ""
    for i, (mz, ev) in enumerate(zip(ms, evs, strict=True)):
        if "residual" in ev:
            r_arr = np.abs(np.asarray(ev["residual"], dtype=np.float64))
            lim_txt = ""
            v = None
        elif "target" in ev and mz is not None:
            target = _vector(ev, "target", mz.shape, i)
            r_arr = np.abs(mz.mean - target)
            lim_txt = ""
            v = None
            if mz.mom is not None:
                lo, hi = one_sided_limits(mz.mom, alpha, mz.support)
                d_lo, d_hi = lo - target, hi - target
                if tally is not None:
                    tally.add(d_lo.size, int(np.sum((d_lo > tol) | (d_hi < -tol))))
                if np.all(d_lo >= -tol) and np.all(d_hi <= tol):
                    v = Verdict.HOLDS
                elif np.any(d_lo > tol) or np.any(d_hi < -tol):
                    v = Verdict.VIOLATED
                else:
                    v = Verdict.INCONCLUSIVE
                lim_txt = f", interval of mean - target [{g(d_lo.min())}, {g(d_hi.max())}]"
        else:
            raise EvidenceError(f"point {i}: identity evidence needs 'residual' or 'target'")
        if np.isnan(r_arr).any():
            raise EvidenceError(f"point {i}: NaN residual")
        r = float(r_arr.max()) if r_arr.size else 0.0
        if v is None:
            v = Verdict.HOLDS if r <= tol else Verdict.VIOLATED
        verdicts.append(v)
        if r > worst_r:
            worst_r, worst_i, worst_txt = r, i, lim_txt
    verdict = combine_verdicts(verdicts)
    margin = tol / worst_r if worst_r > 0 else math.inf
    detail = (
        f"max |residual| = {g(worst_r)} at point {worst_i}{worst_txt} vs tolerance {g(tol)}"
        f" ({sum(v is Verdict.HOLDS for v in verdicts)} of {len(verdicts)} points within)"
    )
    return verdict, margin, detail


# ---------------------------------------------------------------------------------------
# Entry point


def evaluate(
    check: Check, evidence: Sequence[Mapping[str, np.ndarray]], params: Sequence[Mapping],
    alpha: float | None = None,
) -> Evaluation:
    """Verdict of ``check`` from the combined evidence of each grid point.

    ``alpha``: the one-sided level of every Monte Carlo comparison, set by a suite-level
    correction; by default each check corrects its own comparisons (Bonferroni at
    ``1 - confidence``). The Evaluation counts the Monte Carlo comparisons and rejections.
    Raises :class:`EvidenceError` when the evidence does not follow the conventions.
    """
    if len(evidence) != len(params):
        raise EvidenceError("one evidence dict per grid point is needed")
    tally = Tally()
    ev_ = _evaluate(check, evidence, params, alpha, tally)
    ev_.comparisons, ev_.rejections = tally.comparisons, tally.rejections
    return ev_


def _evaluate(
    check: Check, evidence: Sequence[Mapping[str, np.ndarray]], params: Sequence[Mapping],
    alpha: float | None, tally: Tally,
) -> Evaluation:
    kind = check.kind
    points: list[dict[str, Any]] = []
    fits: list[dict[str, Any]] = []

    def base(i: int) -> dict[str, Any]:
        ev = {k: v for k, v in evidence[i].items() if k != "sumcross"}
        return {"point": i, "params": dict(params[i]), **ev}

    if kind is CheckKind.IDENTITY:
        ms = [
            measure(check, ev, i)
            if ("residual" not in ev and ("mean" in ev or "sum" in ev)) else None
            for i, ev in enumerate(evidence)
        ]
        verdict, margin, detail = identity_verdict(check, ms, evidence, alpha, tally)
        for i, mz in enumerate(ms):
            d = base(i)
            if mz is not None:
                d.update(ks=mz.ks_raw, mean=mz.unflat(mz.mean))
            points.append(d)
        return Evaluation(verdict, margin, detail, points)

    if kind is CheckKind.HOLDS_WITH_PROBABILITY:
        from pflbounds.checking.replica_verdicts import probability_points

        verdict, margin, detail, points = probability_points(check, evidence, params,
                                                             alpha=alpha, tally=tally)
        return Evaluation(verdict, margin, detail, points)
    if kind is CheckKind.BOUND_HOLDS and check.bound_mode != "expectation":
        from pflbounds.checking.replica_verdicts import replica_bound_points

        verdict, margin, detail, points = replica_bound_points(check, evidence, params,
                                                               alpha=alpha, tally=tally)
        return Evaluation(verdict, margin, detail, points)

    ms = [measure(check, ev, i) for i, ev in enumerate(evidence)]

    def add_points(lo: Sequence[np.ndarray] | None = None, hi=None) -> None:
        for i, mz in enumerate(ms):
            d = base(i)
            d.update(ks=mz.ks_raw, mean=mz.unflat(mz.mean))
            if mz.mom is not None:
                d.update(sd=mz.unflat(mz.mom.sd), count=np.asarray(mz.mom.count))
            d["lo"] = mz.unflat(lo[i] if lo is not None else mz.mean)
            d["hi"] = mz.unflat(hi[i] if hi is not None else mz.mean)
            points.append(d)

    if kind in (CheckKind.BOUND_HOLDS, CheckKind.LOWER_BOUND):
        bounds = [_vector(ev, "bound", mz.shape, i)
                  for i, (mz, ev) in enumerate(zip(ms, evidence, strict=True))]
        fam = bound_family(check, ms, bounds, upper=kind is CheckKind.BOUND_HOLDS, name="bound",
                           alpha=alpha, tally=tally)
        add_points(fam.lo, fam.hi)
        for d, b, mz in zip(points, bounds, ms, strict=True):
            d["bound"] = mz.unflat(b)
        return Evaluation(fam.verdict, fam.margin, fam.detail, points)

    if kind is CheckKind.ERRATUM:
        fams: dict[str, Family] = {}
        all_bounds: dict[str, list[np.ndarray]] = {}
        for key in ("bound_printed", "bound_corrected"):
            all_bounds[key] = [_vector(ev, key, mz.shape, i)
                               for i, (mz, ev) in enumerate(zip(ms, evidence, strict=True))]
            fams[key] = bound_family(
                check, ms, all_bounds[key], upper=True, name=key.replace("bound_", "") + " bound",
                alpha=alpha, tally=tally,
            )
        printed, corrected = fams["bound_printed"], fams["bound_corrected"]
        if printed.verdict is Verdict.VIOLATED and corrected.verdict is Verdict.HOLDS:
            verdict = Verdict.CONFIRMED
        elif printed.verdict is Verdict.HOLDS:
            verdict = Verdict.NOT_CONFIRMED
        else:
            verdict = Verdict.INCONCLUSIVE
        detail = (
            f"printed bound {printed.verdict.value}: {printed.detail}; corrected bound "
            f"{corrected.verdict.value}: {corrected.detail}"
        )
        add_points(printed.lo, printed.hi)
        for i, d in enumerate(points):
            d["bound_printed"] = ms[i].unflat(all_bounds["bound_printed"][i])
            d["bound_corrected"] = ms[i].unflat(all_bounds["bound_corrected"][i])
        return Evaluation(verdict, printed.margin, detail, points)

    if kind is CheckKind.RATE:
        fits = rate_fits(check, ms, evidence, alpha)
        _tally_fits(check, fits, tally)
        what = "contraction factor" if check.rate_axis == "semilog" else "slope"
        verdict, margin, detail = _fits_evaluation(check, fits, what, "point")
        lims = _plain_limits(check, ms)
        add_points(*lims)
        return Evaluation(verdict, margin, detail, points, fits)

    if kind is CheckKind.SCALING:
        fits = scaling_fits(check, ms, evidence, params, alpha)
        _tally_fits(check, fits, tally)
        verdict, margin, detail = _fits_evaluation(check, fits, "slope", "group")
        lims = _plain_limits(check, ms)
        add_points(*lims)
        for d in points:
            d["x"] = np.asarray(float(params[d["point"]][check.x_param]))
        return Evaluation(verdict, margin, detail, points, fits)

    raise EvidenceError(f"unknown check kind {kind!r}")  # pragma: no cover


def _tally_fits(check: Check, fits: Sequence[Mapping[str, Any]], tally: Tally) -> None:
    """Monte Carlo fits are comparisons; a VIOLATED fit is a rejection."""
    if not check.deterministic:
        tally.add(len(fits), sum(f["verdict"] is Verdict.VIOLATED for f in fits))


def _plain_limits(check: Check, ms: Sequence[Measure]):
    """Bonferroni two-sided bands for figures (each side at level 1 - alpha/2)."""
    if check.deterministic:
        return None, None
    m = sum(x.mean.size for x in ms)
    alpha = bonferroni(check.confidence, 2 * m)
    lims = [one_sided_limits(x.mom, alpha, x.support) for x in ms]
    return [a for a, _ in lims], [b for _, b in lims]
