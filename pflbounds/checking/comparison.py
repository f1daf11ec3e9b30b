"""Comparison claims: one method's metric below another's, or a table row in the order the
paper prints, decided on paired differences over independent draws.

Claim
    ``Check.methods`` lists the methods in the claimed order; ``Check.order`` says which way:
    ``increasing``, metric(methods[0]) < metric(methods[1]) < ... (errors: the first is the
    best), or ``decreasing`` (accuracies). A grid point makes M - 1 comparisons, one per
    consecutive pair; the claimed difference of pair j in draw r is
    ``d_rj = s (x_r,j+1 - x_rj)`` with ``s = +1`` (increasing) or ``-1`` (decreasing), and the
    claim says E[d_j] > 0.

Evidence
    ``draws`` (R, M): the metric of every method in each of R independent draws (a draw runs
    every method on the same data and seed: the differences are paired). Replica blocks are
    concatenated, so every draw is kept (:func:`pflbounds.checking.evidence.combine_blocks`).

Interval and verdict
    Student's t on the paired differences: with mean d, standard deviation s_d and n draws,
    ``d -/+ t_{1-alpha}(n-1) s_d / sqrt(n)``, each limit one-sided at level ``1 - alpha``
    (so the interval is two-sided at ``1 - 2 alpha``), ``alpha`` = the check's level (its
    share of its paper's family-wise level, or ``1 - confidence``) split over its m
    comparisons (Bonferroni). A pair HOLDS if its interval lies above 0 (on the claimed side),
    is VIOLATED if it lies below 0, else INCONCLUSIVE; the check is VIOLATED if some pair is,
    HOLDS if all are, else INCONCLUSIVE. The t interval is exact for normal differences and
    its coverage is close to nominal for the moderate skew of errors and accuracies over a few
    to a few tens of draws, where a percentile bootstrap under-covers (it cannot be wider than
    the draws' range, and with 3 to 10 draws it is close to it).

Draws chosen before the run (:class:`~pflbounds.checking.draws.DrawPlan`, declared on the
check, never read from the run's data): the number of draws, the effect to detect (the paper's
smallest difference among the claimed pairs, or a pilot's), a standard deviation of a paired
difference (from a pilot or from the paper's spread) and the compute budget (the most draws it
allows). Their power for that effect at the check's level
(:func:`~pflbounds.checking.draws.t_power`) is stated with the verdict.

Power before verdict
    A plan whose draws (the fewest any point ran) do not reach its target power decides the
    difference at some seeds and not at others, so a decided interval is not a finding another
    seed would repeat: such a comparison's verdict is INCONCLUSIVE whatever its intervals, and
    its detail says what the intervals alone would say. A powered plan's verdict is the
    intervals'. The expected verdict of a comparison thus follows from its declaration: the
    predicted side when powered, INCONCLUSIVE when not.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from pflbounds.checking.draws import DrawPlan, t_power
from pflbounds.checking.evidence import EvidenceError
from pflbounds.checking.kinds import ORDERS, Verdict
from pflbounds.checking.measures import Tally, combine_verdicts
from pflbounds.checking.statistics import bonferroni, t_quantile

__all__ = ["ORDERS", "DrawPlan", "check_alpha", "comparison_points", "comparisons_of",
           "pair_names", "t_power"]

if TYPE_CHECKING:  # pragma: no cover
    from pflbounds.checking.check import Check

_OWN = ("point", "params", "draws", "differences", "mean", "lo", "hi", "sd", "count",
        "method_means")
"""The keys a comparison point sets itself; a simulation's other evidence (curves for a
figure, the instance's constants) is kept beside them."""


def _g(x: float) -> str:
    return f"{x:.4g}"


def comparisons_of(check: Check, n_points: int) -> int:
    """The comparisons a comparison check makes over ``n_points`` grid points: one per
    consecutive pair of methods and point (known before the run)."""
    return max(len(check.methods) - 1, 0) * int(n_points)


def check_alpha(check: Check, n_points: int) -> float:
    """The one-sided per-comparison level of a comparison check: its ``1 - confidence`` (its
    share of its paper's family-wise level when the family sets it) over its comparisons."""
    return bonferroni(check.confidence, comparisons_of(check, n_points))


def pair_names(methods: Sequence[str], order: str) -> list[str]:
    """The claimed difference of each consecutive pair, as a reader writes it (the larger
    side first, so that the claim is ``> 0``)."""
    return [f"{b} - {a}" if order == "increasing" else f"{a} - {b}"
            for a, b in zip(methods[:-1], methods[1:], strict=True)]


def comparison_points(
    check: Check, evidence: Sequence[Mapping[str, np.ndarray]], params: Sequence[Mapping],
    *, tally: Tally | None = None,
) -> tuple[Verdict, float | None, str, list[dict[str, Any]]]:
    """Verdict, margin, detail and per-point evidence of a comparison check (module
    docstring). The margin is the smallest lower limit of a claimed difference (> 0: every
    pair on the claimed side), in the metric's units; each limit at :func:`check_alpha`."""
    methods = list(check.methods)
    m = len(methods)
    sign = 1.0 if check.order == "increasing" else -1.0
    alpha = check_alpha(check, len(evidence))
    names = pair_names(methods, check.order)
    verdicts: list[Verdict] = []
    points: list[dict[str, Any]] = []
    worst: tuple[float, str] | None = None
    for i, ev in enumerate(evidence):
        if "draws" not in ev:
            raise EvidenceError(f"point {i}: a comparison needs 'draws' (draws x methods)")
        x = np.asarray(ev["draws"], dtype=np.float64)
        if x.ndim != 2 or x.shape[1] != m:
            raise EvidenceError(f"point {i}: draws must have shape (draws, {m}) for the "
                                f"methods {methods}, got {x.shape}")
        if not np.isfinite(x).all():
            raise EvidenceError(f"point {i}: a draw's metric is not finite")
        n = x.shape[0]
        d = sign * np.diff(x, axis=1)  # (n, m - 1): claimed > 0
        mean = d.mean(axis=0)
        sd = d.std(axis=0, ddof=1) if n > 1 else np.full(m - 1, np.inf)
        q = t_quantile(alpha, n - 1.0)
        with np.errstate(invalid="ignore"):
            half = np.where(np.isfinite(sd), q * sd / math.sqrt(n), np.inf)
        lo, hi = mean - half, mean + half
        if tally is not None:
            tally.add(m - 1, int(np.sum(hi < 0)))
        pv = [Verdict.HOLDS if a > 0 else Verdict.VIOLATED if b < 0 else Verdict.INCONCLUSIVE
              for a, b in zip(lo, hi, strict=True)]
        verdicts.extend(pv)
        for j in range(m - 1):
            txt = (f"{names[j]} at point {i}: mean {_g(mean[j])}, interval "
                   f"[{_g(lo[j])}, {_g(hi[j])}] over {n} draws ({pv[j].value})")
            if worst is None or lo[j] < worst[0]:
                worst = (float(lo[j]), txt)
        points.append({
            **{k: v for k, v in ev.items() if k not in _OWN},  # the point's other evidence
            "point": i, "params": dict(params[i]), "draws": x, "differences": d,
            "mean": mean, "lo": lo, "hi": hi, "sd": sd, "count": np.asarray(float(n)),
            "method_means": x.mean(axis=0),
        })
    verdict = combine_verdicts(verdicts)
    level = f"t interval of one-sided {100 * (1 - alpha):.6g}% limits"
    detail = (f"paired differences, claimed > 0; worst: {worst[1] if worst else '-'}; "
              f"{level} (Bonferroni over {len(verdicts)})")
    if check.plan is not None:
        detail += f"; {check.plan.text(alpha)}"
        fewest = min((int(p["count"]) for p in points), default=check.plan.draws)
        if not check.plan.powered(alpha, fewest) and verdict is not Verdict.INCONCLUSIVE:
            detail = f"the intervals alone say {verdict.value}; {detail}"
            verdict = Verdict.INCONCLUSIVE
    return verdict, (worst[0] if worst else None), detail, points
