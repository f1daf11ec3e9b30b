"""erickson2025 theory: every assumption and result, importable by id.

Erickson & Johansson, "Personalized Federated Learning under Model Dissimilarity
Constraints" (Karula). Results are registered in the catalog on import; look them up with
``pflbounds.symbolic.get("erickson2025.theorem4_3")``.
"""

from __future__ import annotations

from pflbounds.papers.erickson2025 import assumptions, experiments_claims, results
from pflbounds.papers.erickson2025.errata import ERRATA
from pflbounds.symbolic.result import Result

RESULTS = {
    r.id: r
    for mod in (results, experiments_claims)
    for r in vars(mod).values()
    if isinstance(r, Result) and r.paper == "erickson2025"
}

__all__ = ["ERRATA", "RESULTS", "assumptions"]
