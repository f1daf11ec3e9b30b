"""erickson2025 theory: every assumption and result, importable by id.

Erickson & Johansson, "Personalized Federated Learning under Model Dissimilarity
Constraints" (Karula). Results are registered in the catalog on import; look them up with
``pflbounds.symbolic.get("erickson2025.theorem4_3")``.
"""

from __future__ import annotations

from pflbounds.papers.erickson2025 import assumptions, results
from pflbounds.papers.erickson2025.errata import ERRATA

RESULTS = {
    r.id: r
    for r in vars(results).values()
    if getattr(r, "paper", None) == "erickson2025"
}

__all__ = ["ERRATA", "RESULTS", "assumptions"]
