"""scott2024 theory: every assumption and result, importable by id.

Scott, Zakerinia & Lampert, "PeFLL: Personalized Federated Learning by Learning to Learn".
Results are registered in the catalog on import; look them up with
``pflbounds.symbolic.get("scott2024.theorem3_1")``.
"""

from __future__ import annotations

from pflbounds.papers.scott2024 import assumptions, convergence, experiments, generalization
from pflbounds.papers.scott2024.errata import ERRATA

RESULTS = {
    r.id: r
    for mod in (convergence, generalization, experiments)
    for r in vars(mod).values()
    if getattr(r, "paper", None) == "scott2024"
}

__all__ = ["ERRATA", "RESULTS", "assumptions"]
