"""The one margin shown to a reader: measured/bound, and each kind's own statistic.

:data:`pflbounds.checking.vocabulary.RATIO` defines the ratio: measured/bound for an upper
bound (bound/measured for a lower bound), at the instance where it is largest, so that below 1
the bound holds and above 1 it fails. It is computed here from an outcome's evidence, for each
claim the outcome gives a verdict on (an erratum check has two: its printed side and the
corrected form). ``Outcome.margin`` keeps its own, kind-dependent, definition for the
programs that read it.

Checks that do not compare a value with a bound (rate, scaling, identity, holds with
probability, comparison) have a kind statistic instead (:func:`kind_statistic`).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from pflbounds.checking.details import claim_text, excess
from pflbounds.checking.kinds import CheckKind
from pflbounds.checking.vocabulary import printed_side

__all__ = ["ClaimRatio", "format_ratio", "kind_statistic", "outcome_ratios", "where_text"]

CLIP_HIGH = 1e6
CLIP_LOW = 1e-6


@dataclass(frozen=True)
class ClaimRatio:
    """The worst ratio of one claim of an outcome and where it was found."""

    form: str
    ratio: float | None
    where: str = ""


def format_ratio(ratio: float | None) -> str:
    """3 significant figures, ``>1e6`` and ``<1e-6`` beyond them, ``—`` when undefined."""
    if ratio is None or (isinstance(ratio, float) and math.isnan(ratio)):
        return "—"
    r = float(ratio)
    if r > CLIP_HIGH:
        return ">1e6"
    if r < CLIP_LOW:
        return "<1e-6"
    return _n(r)  # 3.2e-05 -> 3.2e-5: shorter, and reads as a number


def _short(v: Any) -> str:
    if isinstance(v, bool) or v is None:
        return str(v)
    if isinstance(v, (int, np.integer)):
        return str(int(v))
    if isinstance(v, (float, np.floating)):
        f = float(v)
        return str(int(f)) if f.is_integer() and abs(f) < 1e7 else f"{f:.3g}"
    if isinstance(v, (list, tuple)):
        return "(" + ", ".join(_short(u) for u in v[:4]) + (", …" if len(v) > 4 else "") + ")"
    return str(v)


def _varying(params: Sequence[Mapping[str, Any]]) -> list[str]:
    """The parameter names whose values differ between grid points, in first-seen order."""
    if len(params) < 2:
        return []
    names: dict[str, None] = {}
    for p in params:
        names.update(dict.fromkeys(p))
    out = []
    for n in names:
        values = {repr(p.get(n)) for p in params}
        if len(values) > 1:
            out.append(n)
    return out


def where_text(outcome: Any, point: int | None, k: float | None = None,
               n_ks: int = 1) -> str:
    """``K = 30, n = 3``: the recorded K (when the curve has several) and the grid parameters
    that vary across the check's points."""
    parts = []
    if k is not None and n_ks > 1 and math.isfinite(k):
        parts.append(f"K = {_short(k)}")
    ev = outcome.evidence or []
    if point is not None and 0 <= point < len(ev):
        params = [e.get("params") or {} for e in ev]
        for name in _varying(params)[:3]:
            parts.append(f"{name} = {_short(params[point].get(name))}")
    return ", ".join(parts)


def _ratios(m: np.ndarray, b: np.ndarray, upper: bool, rel_tol: float = 0.0,
            abs_tol: float = 0.0) -> np.ndarray:
    """measured/bound (upper) or bound/measured (lower), elementwise; +inf where the bound
    is crossed (beyond the check's tolerances) with a zero or negative denominator, NaN where
    the ratio says nothing."""
    num, den = (m, b) if upper else (b, m)
    with np.errstate(divide="ignore", invalid="ignore"):
        r = np.where(den > 0, np.maximum(num, 0.0) / den, np.nan)
        excess = (m - b) if upper else (b - m)
        crossed = excess > rel_tol * np.abs(b) + abs_tol
        r = np.where((den <= 0) & crossed, np.inf, r)
    return r


def _worst(outcome: Any, key: str, upper: bool) -> tuple[float | None, str]:
    config = outcome.config or {}
    tols = (0.0, 0.0) if config.get("engine") == "mc" else (
        float(config.get("rel_tol") or 0.0), float(config.get("abs_tol") or 0.0))
    best, where = None, ""
    for p in outcome.evidence or []:
        if "mean" not in p or key not in p:
            continue
        m = np.atleast_1d(np.asarray(p["mean"], dtype=np.float64))
        try:
            b = np.broadcast_to(np.asarray(p[key], dtype=np.float64), m.shape)
        except ValueError:
            continue
        r = _ratios(m.ravel(), b.ravel(), upper, *tols)
        if not np.isfinite(r).any() and not np.isinf(r).any():
            continue
        j = int(np.nanargmax(np.where(np.isnan(r), -np.inf, r)))
        if best is not None and not r[j] > best:
            continue
        best = float(r[j])
        ks = p.get("ks")
        k = None
        n_ks = 1
        if ks is not None:
            ks_arr = np.atleast_1d(np.asarray(ks, dtype=np.float64))
            n_ks = ks_arr.size
            try:
                k = float(np.broadcast_to(ks_arr, m.shape).ravel()[j])
            except ValueError:
                k = None
        where = where_text(outcome, p.get("point"), k, n_ks)
    return best, where


def outcome_ratios(outcome: Any) -> dict[str, ClaimRatio]:
    """The ratio of each claim of a bound-kind outcome (``{}`` for the other kinds and for an
    ERROR): upper bounds (bound_holds, the two sides of an erratum check) measured/bound,
    lower bounds bound/measured, worst over grid points and K. Monte Carlo outcomes use the
    estimated mean; a bound required of every replica uses the smallest bound/metric over
    replicas (its inverse)."""
    kind = CheckKind(outcome.kind)
    config = outcome.config or {}
    form = config.get("form") or "printed"
    if getattr(outcome.verdict, "value", outcome.verdict) == "ERROR":
        return {}
    if kind is CheckKind.ERRATUM:
        side = printed_side(config.get("form"))
        out = {}
        for f, key in ((side, "bound_printed"), ("corrected", "bound_corrected")):
            r, where = _worst(outcome, key, True)
            out[f] = ClaimRatio(f, r, where)
        return out
    if kind is CheckKind.BOUND_HOLDS and config.get("bound_mode") == "per_replica":
        m = outcome.margin
        r = None if m is None else (math.inf if m <= 0 else 1.0 / m)
        return {form: ClaimRatio(form, r, "over every replica")}
    if kind in (CheckKind.BOUND_HOLDS, CheckKind.LOWER_BOUND):
        r, where = _worst(outcome, "bound", kind is CheckKind.BOUND_HOLDS)
        return {form: ClaimRatio(form, r, where)}
    return {}


def _n(x: float) -> str:
    """3 significant figures, a short exponent (``3e-12``, ``1.2e5``)."""
    text = f"{float(x):.3g}"
    if "e" in text:
        mant, exp = text.split("e")
        text = f"{mant}e{int(exp)}"
    return text


def _num(x: Any) -> float:
    try:
        return float(np.asarray(x, dtype=np.float64).ravel()[0])
    except (TypeError, ValueError, IndexError):
        return math.nan


def _fit_statistic(outcome: Any) -> str:
    fits = [f for f in outcome.fits or [] if math.isfinite(_num(f.get("estimate")))]
    if not fits:
        return ""
    worst = max(fits, key=excess)
    noun = "contraction factor" if worst.get("axis") == "semilog" else "slope"
    est, lo, hi = (_num(worst.get(k)) for k in ("estimate", "lo", "hi"))
    ci = f" [{_n(lo)}, {_n(hi)}]" if math.isfinite(lo) and math.isfinite(hi) and lo != hi else ""
    claim = claim_text(worst, _n).replace("<=", "≤").replace(">=", "≥")
    where = ""
    if "point" in worst:
        where = where_text(outcome, int(worst["point"]))
    n = f" (worst of {len(fits)})" if len(fits) > 1 else ""
    return f"{noun} {_n(est)}{ci} vs {claim}" + (f" at {where}" if where else "") + n


def _identity_statistic(outcome: Any) -> str:
    tol = (outcome.config or {}).get("tolerance")
    worst, at = -1.0, None
    for p in outcome.evidence or []:
        if "residual" in p:
            r = np.abs(np.asarray(p["residual"], dtype=np.float64))
        elif "mean" in p and "target" in p:
            m = np.atleast_1d(np.asarray(p["mean"], dtype=np.float64))
            r = np.abs(m - np.broadcast_to(np.asarray(p["target"], dtype=np.float64), m.shape))
        else:
            continue
        if r.size and float(np.nanmax(r)) > worst:
            worst, at = float(np.nanmax(r)), p.get("point")
    if worst < 0:
        return ""
    where = where_text(outcome, at)
    tol_text = "" if tol is None else f" vs tolerance {_n(float(tol))}"
    return f"max |residual| {_n(worst)}{tol_text}" + (f" at {where}" if where else "")


def _probability_statistic(outcome: Any) -> str:
    worst = None
    for p in outcome.evidence or []:
        if "rate_hi" not in p:
            continue
        if worst is None or _num(p["rate_hi"]) > _num(worst["rate_hi"]):
            worst = p
    if worst is None:
        return ""
    x, n = _num(worst.get("violations")), _num(worst.get("count"))
    lo, hi, delta = (_num(worst.get(k)) for k in ("rate_lo", "rate_hi", "delta"))
    where = where_text(outcome, worst.get("point"))
    return (f"{int(x)} of {int(n)} draws fail (rate in [{_n(lo)}, {_n(hi)}]) vs delta "
            f"{_n(delta)}" + (f" at {where}" if where else ""))


def _comparison_statistic(outcome: Any) -> str:
    cfg = outcome.config or {}
    methods, order = list(cfg.get("methods") or []), cfg.get("order", "increasing")
    worst = None
    for p in outcome.evidence or []:
        if "lo" not in p or "differences" not in p:
            continue
        lo = np.atleast_1d(np.asarray(p["lo"], dtype=np.float64))
        if lo.size and (worst is None or float(lo.min()) < worst[0]):
            worst = (float(lo.min()), p, int(np.argmin(lo)))
    if worst is None:
        return ""
    _, p, j = worst
    mean = float(np.atleast_1d(p["mean"])[j])
    hi = float(np.atleast_1d(p["hi"])[j])
    name = f"pair {j + 1}"
    if len(methods) > j + 1:
        a, b = methods[j], methods[j + 1]
        name = f"{b} - {a}" if order == "increasing" else f"{a} - {b}"
    where = where_text(outcome, p.get("point"))
    n = int(_num(p.get("count")))
    plan = cfg.get("plan") if isinstance(cfg.get("plan"), dict) else {}
    weak = ""
    if plan.get("powered") is False:  # INCONCLUSIVE whatever the interval (checking.comparison)
        weak = (f"; not powered (power {_num(plan.get('power')):.2f} < "
                f"{_num(plan.get('target_power')):g})")
    return (f"{name} {_n(mean)} [{_n(worst[0])}, {_n(hi)}] over {n} draws vs 0"
            + (f" at {where}" if where else "") + weak)


def kind_statistic(outcome: Any) -> str:
    """The statistic a rate, scaling, identity or holds-with-probability outcome is judged on,
    in one line (``slope -0.98 [-1.02, -0.95] vs predicted -1 ± 0.1``); empty for the bound
    kinds and for an outcome without evidence."""
    kind = CheckKind(outcome.kind)
    if kind in (CheckKind.RATE, CheckKind.SCALING):
        return _fit_statistic(outcome)
    if kind is CheckKind.IDENTITY:
        return _identity_statistic(outcome)
    if kind is CheckKind.HOLDS_WITH_PROBABILITY:
        return _probability_statistic(outcome)
    if kind is CheckKind.COMPARISON:
        return _comparison_statistic(outcome)
    return ""
