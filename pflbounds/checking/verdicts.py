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
  printed bound HOLDS, INCONCLUSIVE otherwise. Margin: that of the printed bound. The two
  family verdicts are the claim verdicts of the printed side and of the corrected form
  (``Evaluation.claims``); CONFIRMED is only what the check expects.

* per-replica bounds (``bound_mode`` paired or per_replica) and ``holds_with_probability``:
  see :mod:`pflbounds.checking.replica_verdicts`.
* ``comparison``: paired differences over draws, see :mod:`pflbounds.checking.comparison`.

Combining several points or fits: VIOLATED if any is violated, HOLDS if all hold, else
INCONCLUSIVE. NaN in measured values or bounds is an evidence error (verdict ERROR).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from pflbounds.checking.bound_verdicts import Family, bound_family
from pflbounds.checking.check import Check
from pflbounds.checking.comparison import comparison_points
from pflbounds.checking.details import claim_reference, claim_text, entry_text, excess, g
from pflbounds.checking.evidence import EvidenceError
from pflbounds.checking.fits import fits_evaluation, rate_fits, scaling_fits
from pflbounds.checking.kinds import CheckKind, Verdict
from pflbounds.checking.measures import (
    Measure,
    Tally,
    combine_verdicts,
    evidence_vector,
    level_text,
    measure,
)
from pflbounds.checking.replica_verdicts import probability_points, replica_bound_points
from pflbounds.checking.statistics import bonferroni, one_sided_limits
from pflbounds.checking.vocabulary import claims_of

__all__ = [
    "Evaluation", "Family", "Measure", "Tally", "bound_family", "claim_reference",
    "claim_text", "combine_verdicts", "entry_text", "evaluate", "excess", "g",
    "identity_verdict", "level_text", "measure", "rate_fits", "scaling_fits",
]


@dataclass
class Evaluation:
    """Verdict, margin and detail, with the per-point derived arrays and the fits."""

    verdict: Verdict
    margin: float | None
    detail: str
    points: list[dict[str, Any]]
    fits: list[dict[str, Any]] = field(default_factory=list)
    comparisons: int = 0
    """Monte Carlo comparisons made (0 for deterministic engines): the check's share of its
    paper's family-wise level is split among them (:mod:`pflbounds.running.multiplicity`)."""
    rejections: int = 0
    """Of those, the comparisons whose whole interval lies on the violating side."""
    claims: dict[str, Verdict] = field(default_factory=dict)
    """The verdict of each claim (form) the check tests
    (:func:`pflbounds.checking.vocabulary.claims_of`): one for most kinds, the printed side and
    the corrected form for an erratum check."""


# ---------------------------------------------------------------------------------------
# Identity


def identity_verdict(
    check: Check, ms: Sequence[Measure | None], evs: Sequence[Mapping],
    tally: Tally | None = None,
) -> tuple[Verdict, float | None, str]:
    """Residuals within the tolerance (or equivalence of a Monte Carlo mean and its target),
    each Monte Carlo comparison at the check's Bonferroni share of ``1 - confidence``;
    ``tally`` as for :func:`bound_family`."""
    tol = float(check.tolerance)
    n_cmp = sum(
        np.size(ev["target"]) for ev in evs if "residual" not in ev and "target" in ev
    )
    alpha = bonferroni(check.confidence, max(n_cmp, 1))
    verdicts: list[Verdict] = []
    worst_r, worst_i, worst_txt = -1.0, 0, ""
    for i, (mz, ev) in enumerate(zip(ms, evs, strict=True)):
        if "residual" in ev:
            r_arr = np.abs(np.asarray(ev["residual"], dtype=np.float64))
            lim_txt = ""
            v = None
        elif "target" in ev and mz is not None:
            target = evidence_vector(ev, "target", mz.shape, i)
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
) -> Evaluation:
    """Verdict of ``check`` from the combined evidence of each grid point.

    Each check corrects its own Monte Carlo comparisons (Bonferroni at ``1 - confidence``;
    a paper's error family sets the check's confidence to its share of the family's level).
    The Evaluation counts the Monte Carlo comparisons and rejections.
    Raises :class:`EvidenceError` when the evidence does not follow the conventions.
    """
    if len(evidence) != len(params):
        raise EvidenceError("one evidence dict per grid point is needed")
    tally = Tally()
    ev_ = _evaluate(check, evidence, params, tally)
    ev_.comparisons, ev_.rejections = tally.comparisons, tally.rejections
    if not ev_.claims:
        ev_.claims = claims_of(check.kind, check.form, ev_.verdict)
    return ev_


def _evaluate(
    check: Check, evidence: Sequence[Mapping[str, np.ndarray]], params: Sequence[Mapping],
    tally: Tally,
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
        verdict, margin, detail = identity_verdict(check, ms, evidence, tally)
        for i, mz in enumerate(ms):
            d = base(i)
            if mz is not None:
                d.update(ks=mz.ks_raw, mean=mz.unflat(mz.mean))
            points.append(d)
        return Evaluation(verdict, margin, detail, points)

    if kind is CheckKind.COMPARISON:
        verdict, margin, detail, points = comparison_points(check, evidence, params,
                                                            tally=tally)
        return Evaluation(verdict, margin, detail, points)
    if kind is CheckKind.HOLDS_WITH_PROBABILITY:
        verdict, margin, detail, points = probability_points(check, evidence, params,
                                                             tally=tally)
        return Evaluation(verdict, margin, detail, points)
    if kind is CheckKind.BOUND_HOLDS and check.bound_mode != "expectation":
        verdict, margin, detail, points = replica_bound_points(check, evidence, params,
                                                               tally=tally)
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
        bounds = [evidence_vector(ev, "bound", mz.shape, i)
                  for i, (mz, ev) in enumerate(zip(ms, evidence, strict=True))]
        fam = bound_family(check, ms, bounds, upper=kind is CheckKind.BOUND_HOLDS, name="bound",
                           tally=tally)
        add_points(fam.lo, fam.hi)
        for d, b, mz in zip(points, bounds, ms, strict=True):
            d["bound"] = mz.unflat(b)
        return Evaluation(fam.verdict, fam.margin, fam.detail, points)

    if kind is CheckKind.ERRATUM:
        fams: dict[str, Family] = {}
        all_bounds: dict[str, list[np.ndarray]] = {}
        for key in ("bound_printed", "bound_corrected"):
            all_bounds[key] = [evidence_vector(ev, key, mz.shape, i)
                               for i, (mz, ev) in enumerate(zip(ms, evidence, strict=True))]
            fams[key] = bound_family(
                check, ms, all_bounds[key], upper=True, name=key.replace("bound_", "") + " bound",
                tally=tally,
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
        claims = claims_of(kind, check.form, verdict, printed.verdict, corrected.verdict)
        return Evaluation(verdict, printed.margin, detail, points, claims=claims)

    if kind is CheckKind.RATE:
        fits = rate_fits(check, ms, evidence)
        _tally_fits(check, fits, tally)
        what = "contraction factor" if check.rate_axis == "semilog" else "slope"
        verdict, margin, detail = fits_evaluation(check, fits, what, "point")
        lims = _plain_limits(check, ms)
        add_points(*lims)
        return Evaluation(verdict, margin, detail, points, fits)

    if kind is CheckKind.SCALING:
        fits = scaling_fits(check, ms, evidence, params)
        _tally_fits(check, fits, tally)
        verdict, margin, detail = fits_evaluation(check, fits, "slope", "group")
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
