"""What the figures of an outcome share: their limits, the names of grid points in legends
and captions, and the styles and labels of bounds."""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from pflbounds.checking.kinds import CheckKind
from pflbounds.reporting.numbers import fmt

if TYPE_CHECKING:  # pragma: no cover
    from pflbounds.checking.outcome import Outcome

MAX_GROUPS = 5
"""Curves (grid points, or rows of a grid point) drawn in one figure, the closest to their
bound first; one colour each."""
MIN_POINTS = 3
"""A figure needs this many points in a series; with fewer it is a table."""
SEEDS = ("instance", "inst", "seed")
MAX_NAME = 56
"""Longest legend name of a group built from grid parameters (else ``point k``)."""

BOUND_LABELS = {"bound": "bound", "bound_printed": "bound as printed",
                 "bound_corrected": "corrected bound"}


def _one(v: Any) -> str:
    if isinstance(v, (list, tuple)):
        return "(" + ", ".join(_one(u) for u in v) + ")"
    if isinstance(v, dict):
        return "{" + ", ".join(f"{k} = {_one(u)}" for k, u in v.items()) + "}"
    if isinstance(v, (int, float, np.floating, np.integer)) and not isinstance(v, bool):
        return fmt(float(v))
    return str(v)


def params_text(params: dict[str, Any]) -> str:
    """``name = value`` pairs of a grid point, numbers to 4 significant digits (never cut)."""
    return ", ".join(f"{k} = {_one(v)}" for k, v in params.items())


def param_key(v: Any) -> str:
    """A grid parameter's value as a key (equal values, equal keys)."""
    return json.dumps(v, sort_keys=True, default=str)


def point_names(points: Sequence[dict[str, Any]]) -> tuple[list[str], str]:
    """A legend name per grid point (the parameters that differ between ``points``) and a
    caption sentence for the parameters they share. Names longer than :data:`MAX_NAME` give
    way to ``point k``, and the caption then lists every point."""
    if not points:
        return [], ""
    keys = list(points[0]["params"])
    for p in points[1:]:
        keys += [k for k in p["params"] if k not in keys]
    varying = [k for k in keys if len({param_key(p["params"].get(k)) for p in points}) > 1]
    if len(varying) > 1:  # an instance seed says nothing next to the parameters that vary
        varying = [k for k in varying if k not in SEEDS] or varying
    fixed = {k: points[0]["params"][k] for k in keys
             if k not in varying and k in points[0]["params"]}
    names = [params_text({k: p["params"][k] for k in varying if k in p["params"]})
             for p in points]
    caption = f"Fixed: {params_text(fixed)}." if fixed else ""
    if len(points) > 1 and (not all(names) or max(map(len, names)) > MAX_NAME
                            or len(set(names)) < len(names)):
        names = [f"point {p['point']}" for p in points]
        caption = " ".join(f"Point {p['point']}: {params_text(p['params'])}." for p in points)
    if len(points) == 1:
        names = [""]
        caption = f"Grid point: {params_text(points[0]['params'])}." if points[0]["params"] \
            else ""
    return names, caption


def outcome_title(outcome: Outcome) -> str:
    """A figure's title: the check id and its title."""
    return f"{outcome.check_id}: {outcome.title}" if outcome.title else outcome.check_id


def bound_keys(outcome: Outcome, p: dict[str, Any]) -> list[str]:
    """The bounds a grid point records: the bound, or an erratum's two."""
    keys = ["bound_printed", "bound_corrected"] if outcome.kind is CheckKind.ERRATUM \
        else ["bound"]
    return [k for k in keys if k in p]


def bound_style(outcome: Outcome, key: str) -> str:
    """The series style of a bound (a lower bound is drawn as one)."""
    if key == "bound" and outcome.kind is CheckKind.LOWER_BOUND:
        return "lower_bound"
    return key


def bound_label(outcome: Outcome, key: str) -> str:
    """The legend label of a bound."""
    return "lower bound" if bound_style(outcome, key) == "lower_bound" else BOUND_LABELS[key]


def tightness(mean: np.ndarray, bound: np.ndarray | None, lower: bool) -> float:
    """The largest measured/bound (bound/measured for a lower bound): large = close."""
    if bound is None:
        return -math.inf
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        r = bound / mean if lower else mean / bound
    r = r[np.isfinite(r)]
    return float(r.max()) if r.size else -math.inf
