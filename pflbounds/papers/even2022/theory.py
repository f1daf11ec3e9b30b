"""even2022 theory: every assumption and result, importable by id.

Even, Massoulie, Scaman, "On Sample Optimality in Personalized Collaborative and Federated
Learning", NeurIPS 2022. Results are registered in the catalog on import; look them up with
``pflbounds.symbolic.get("even2022.theorem3")``.
"""

from __future__ import annotations

from pflbounds.papers.even2022 import (
    afa,
    afo,
    assumptions,
    baselines,
    concentration,
    estimated,
    lower_bound,
    speedup,
)
from pflbounds.papers.even2022.errata import ERRATA
from pflbounds.symbolic.result import Result

RESULTS = {
    r.id: r
    for mod in (lower_bound, afo, afa, estimated, concentration, baselines, speedup)
    for r in vars(mod).values()
    if isinstance(r, Result) and r.paper == "even2022"
}

__all__ = ["ERRATA", "RESULTS", "assumptions"]
