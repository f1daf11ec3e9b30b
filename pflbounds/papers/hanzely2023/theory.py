"""hanzely2023 theory: every assumption and result, importable by id.

Hanzely, Zhao, Kolar, "Personalized Federated Learning: A Unified Framework and Universal
Optimization Techniques" (TMLR 2023). Results are registered in the catalog on import, in the
paper's order (objectives, LSGD-PFL, lower bounds, ACD-PFL, ASVRCD-PFL, appendix facts, Table
3); look them up with ``pflbounds.symbolic.get("hanzely2023.theorem7")``.
"""

from __future__ import annotations

import importlib

from pflbounds.papers.hanzely2023.errata import ERRATA
from pflbounds.symbolic.result import Result

ORDER = ("assumptions", "objectives", "lsgd", "nonconvex", "lower", "acd", "asvrcd", "facts",
         "table3")
MODULES = [importlib.import_module(f"pflbounds.papers.hanzely2023.{m}") for m in ORDER]

RESULTS = {
    r.id: r
    for mod in MODULES
    for r in [*vars(mod).values(), *getattr(mod, "TABLE2", {}).values(),
              *getattr(mod, "TABLE3", {}).values()]
    if isinstance(r, Result) and r.paper == "hanzely2023"
}

__all__ = ["ERRATA", "MODULES", "RESULTS"]
