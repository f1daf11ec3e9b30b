"""Verdicts for bounds computed per replica: paired and per-replica comparisons, and
``holds_with_probability``.

Evidence conventions are in :mod:`pflbounds.checking.evidence` (``bound_samples`` reduced to
``sum_gap``, ``min_bound``, ``count_violations``, ... in the worker).

* ``bound_holds`` with ``bound_mode="paired"``: the claim E[metric] <= E[bound] where the
  bound is data-dependent, judged on the per-replica gap G = bound - metric: HOLDS if every
  lower one-sided limit of E[G] is >= 0, VIOLATED if some upper limit is < 0, else
  INCONCLUSIVE (Bonferroni over all comparisons). Margin: the smallest E[bound]/E[metric].
* ``bound_holds`` with ``bound_mode="per_replica"``: metric <= bound in every replica (an
  almost-sure claim): HOLDS iff no replica violates at any entry. Margin: the smallest
  bound/metric over replicas and entries.
* ``holds_with_probability``: x of n independent draws violate; HOLDS if the one-sided
  Clopper-Pearson upper limit of the violation rate is <= delta, VIOLATED if the lower limit
  is > delta, else INCONCLUSIVE (Bonferroni over grid points). Margin: delta / (largest
  upper limit), >= 1 when the claim holds.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from pflbounds.checking.binomial import clopper_pearson
from pflbounds.checking.check import Check
from pflbounds.checking.evidence import EvidenceError
from pflbounds.checking.kinds import Verdict
from pflbounds.checking.measures import Tally, combine_verdicts
from pflbounds.checking.statistics import Moments, bonferroni, moments, one_sided_limits


def _g(x: float) -> str:
    return f"{x:.4g}"


def _need(ev: Mapping[str, np.ndarray], keys: Sequence[str], point: int, what: str) -> None:
    missing = [k for k in keys if k not in ev]
    if missing:
        raise EvidenceError(f"point {point}: {what} evidence lacks {missing} (give "
                            "'bound_samples' with 'samples')")


def _count(ev: Mapping[str, np.ndarray]) -> float:
    return float(np.asarray(ev.get("count_draws", ev.get("count"))))


def replica_bound_points(
    check: Check, evidence: Sequence[Mapping[str, np.ndarray]], params: Sequence[Mapping],
    *, tally: Tally | None = None,
) -> tuple[Verdict, float | None, str, list[dict[str, Any]]]:
    """Verdict of a bound_holds check with per-replica bounds (paired or per_replica).

    The paired limits are one-sided at the check's Bonferroni share of ``1 - confidence``;
    ``tally`` receives the paired comparisons and rejections (per-replica checks make
    no statistical comparison)."""
    paired = check.bound_mode == "paired"
    keys = ("sum", "sumsq", "sum_gap", "sumsq_gap", "sum_bound", "min_bound", "max_bound",
            "min_ratio", "count_violations")
    n_cmp = 0
    for i, ev in enumerate(evidence):
        _need(ev, keys, i, check.bound_mode)
        n_cmp += int(np.size(ev["sum"]))
    alpha = bonferroni(check.confidence, n_cmp)
    points: list[dict[str, Any]] = []
    verdicts: list[Verdict] = []
    margin = np.inf
    worst_txt, worst_score = "", -np.inf
    for i, ev in enumerate(evidence):
        n = _count(ev)
        m: Moments = moments(np.atleast_1d(ev["sum"]), np.atleast_1d(ev["sumsq"]), n)
        gap = moments(np.atleast_1d(ev["sum_gap"]), np.atleast_1d(ev["sumsq_gap"]), n)
        mean_bound = np.atleast_1d(ev["sum_bound"]) / n
        ks = np.broadcast_to(np.atleast_1d(ev.get("ks", np.arange(m.mean.shape[-1]))),
                             m.mean.shape)
        if np.isnan(m.mean).any() or np.isnan(mean_bound).any():
            raise EvidenceError(f"point {i}: NaN in the measured values or the bound")
        viol = np.atleast_1d(ev["count_violations"])
        ratio = float(np.min(ev["min_ratio"]))
        margin = min(margin, ratio)
        if paired:
            glo, ghi = one_sided_limits(gap, alpha)
            if tally is not None:
                tally.add(ghi.size, int(np.sum(ghi < 0)))
            if np.any(ghi < 0):
                v = Verdict.VIOLATED
            elif np.all(glo >= 0):
                v = Verdict.HOLDS
            else:
                v = Verdict.INCONCLUSIVE
            j = int(np.argmin(glo))
            score = -float(glo.flat[j])
            txt = (f"lower limit of E[bound - metric] = {_g(float(glo.flat[j]))} at "
                   f"K={_g(float(ks.flat[j]))}, point {i} (n={int(n)})")
        else:
            v = Verdict.VIOLATED if np.any(viol > 0) else Verdict.HOLDS
            j = int(np.argmax(viol))
            score = float(viol.flat[j]) - ratio
            txt = (f"{int(viol.sum())} replica-entries above their bound at point {i}; "
                   f"smallest bound/metric = {_g(ratio)} (n={int(n)})")
        verdicts.append(v)
        if score > worst_score:
            worst_score, worst_txt = score, txt
        lo, hi = one_sided_limits(m, alpha)
        points.append({
            "point": i, "params": dict(params[i]), "ks": np.asarray(ev.get("ks", ks)),
            "mean": m.mean, "sd": m.sd, "count": np.asarray(n), "lo": lo, "hi": hi,
            "bound": mean_bound, "bound_lo": np.atleast_1d(ev["min_bound"]),
            "bound_hi": np.atleast_1d(ev["max_bound"]), "gap_mean": gap.mean,
            "violations": viol,
        })
    verdict = combine_verdicts(verdicts)
    mode = "paired gap" if paired else "every replica"
    detail = f"{mode}: {worst_txt}"
    return verdict, (float(margin) if np.isfinite(margin) else None), detail, points


def probability_points(
    check: Check, evidence: Sequence[Mapping[str, np.ndarray]], params: Sequence[Mapping],
    *, tally: Tally | None = None,
) -> tuple[Verdict, float | None, str, list[dict[str, Any]]]:
    """Verdict of a holds_with_probability check (see the module docstring); the level and
    ``tally`` as for :func:`replica_bound_points`."""
    delta = float(check.delta)
    alpha = bonferroni(check.confidence, len(evidence))
    verdicts: list[Verdict] = []
    points: list[dict[str, Any]] = []
    worst_hi, worst = -1.0, ""
    for i, ev in enumerate(evidence):
        if "count_any_violation" not in ev or "count_draws" not in ev:
            raise EvidenceError(f"point {i}: holds_with_probability needs 'violations' or "
                                "'samples' with 'bound_samples'")
        x, n = float(ev["count_any_violation"]), float(ev["count_draws"])
        lo, hi = clopper_pearson(x, n, alpha)
        if tally is not None:
            tally.add(1, int(lo > delta))
        v = (Verdict.HOLDS if hi <= delta else
             Verdict.VIOLATED if lo > delta else Verdict.INCONCLUSIVE)
        verdicts.append(v)
        level = f"{100 * check.confidence:g}% (Bonferroni over {len(evidence)})"
        if hi > worst_hi:
            worst_hi = hi
            worst = (f"{int(x)} of {int(n)} draws violate the bound at point {i}: rate "
                     f"{_g(x / n)}, Clopper-Pearson {level} interval [{_g(lo)}, {_g(hi)}] "
                     f"vs delta = {_g(delta)}")
        d: dict[str, Any] = {
            "point": i, "params": dict(params[i]), "violations": np.asarray(x),
            "count": np.asarray(n), "rate": np.asarray(x / n), "rate_lo": np.asarray(lo),
            "rate_hi": np.asarray(hi), "delta": np.asarray(delta),
        }
        if "sum" in ev and "sum_bound" in ev:
            d.update(mean=np.atleast_1d(ev["sum"]) / n,
                     bound=np.atleast_1d(ev["sum_bound"]) / n,
                     bound_lo=np.atleast_1d(ev["min_bound"]),
                     bound_hi=np.atleast_1d(ev["max_bound"]))
            if "ks" in ev:
                d["ks"] = np.asarray(ev["ks"])
        points.append(d)
    margin = delta / worst_hi if worst_hi > 0 else None
    return combine_verdicts(verdicts), margin, worst, points
