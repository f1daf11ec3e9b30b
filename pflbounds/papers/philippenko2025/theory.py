"""philippenko2025 theory: every assumption and result, importable by id.

Philippenko, Le Bars, Scaman, Massoulie, "Adaptive collaboration for online personalized
distributed learning with heterogeneous clients" (2025). Results are registered in the catalog
on import; look them up with ``pflbounds.symbolic.get("philippenko2025.theorem2_constant")``.
"""

from __future__ import annotations

from pflbounds.papers.philippenko2025 import assumptions, definitions, descent, rates
from pflbounds.papers.philippenko2025.errata import ERRATA

RESULTS = {
    r.id: r
    for mod in (definitions, descent, rates)
    for r in vars(mod).values()
    if getattr(r, "paper", None) == "philippenko2025"
}

__all__ = ["ERRATA", "RESULTS", "assumptions"]
