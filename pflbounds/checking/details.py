"""The words of verdict details: short numbers, where a comparison was made, and what a
fit's claim says (used by the verdicts and by the ratios and figures that show them)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any


def g(x: float) -> str:
    """Short number format for details."""
    return f"{x:.4g}"


def entry_text(index: tuple[int, ...]) -> str:
    """An entry of a per-agent (or per-row) value, as prose: ``entry 2`` for one axis,
    ``entry (2, 0)`` for several; never a Python tuple such as ``(2,)``."""
    parts = [str(int(i)) for i in index]
    return "entry " + (parts[0] if len(parts) == 1 else "(" + ", ".join(parts) + ")")


def where_at(point: int, k: float, scalar: bool, entry: str = "") -> str:
    """Where a comparison was made: ``point 3`` (one value per point) or ``K=10, point 3``,
    followed by ``entry`` (``, entry 2``)."""
    return (f"point {point}" if scalar else f"K={g(k)}, point {point}") + entry


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
