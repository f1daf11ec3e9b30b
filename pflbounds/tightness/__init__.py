"""Worst-case search: how close can an admissible instance come to a bound?

A HOLDS from a check says that a bound was above the runs on the instances the check chose;
this engine asks how close *any* instance allowed by the hypotheses comes. A
:class:`SearchCase` names a bound (catalog result and form), a model (instance family,
method, measure), the constants held fixed and the free parameters with their admissible
sets; :func:`run_case` finds the admissible instance that maximises measured / bound (for a
lower bound: minimises it) exactly where the worst case decouples, by PEPit's SDP for
first-order methods on function classes, or by a seeded search (L-BFGS-B on exact
expectations, uniform draws elsewhere), and returns a JSON record (:class:`SearchRecord`)
with the worst instance, the ratio, how it was found and what it cost. A paper declares its
cases as ``WORST_CASES`` in its ``audit.py`` (:func:`paper_cases`, :func:`run_paper`);
:func:`run_tightness` runs them all, with the paper's PEPit cases, as ``pflbounds audit
tightness`` does. See docs/tightness.md.

This engine never imports a paper: papers declare their cases in their ``audit.py``.
"""

from pflbounds.tightness.case import MODES, CaseError, Search, SearchCase
from pflbounds.tightness.declared import format_table, paper_cases, run_paper
from pflbounds.tightness.engine import case_key, replay, run_case
from pflbounds.tightness.models import (
    InstanceError,
    Measurement,
    Model,
    NotDecoupled,
    Worst,
    register_model,
)
from pflbounds.tightness.paper_audit import PaperTightness, run_tightness
from pflbounds.tightness.record import (
    CacheError,
    PointRecord,
    RecordCache,
    SearchRecord,
)
from pflbounds.tightness.registry import get_model, models
from pflbounds.tightness.spaces import Box, Rotation, Simplex, Space, Sphere, Spread, spectrum

__all__ = [
    "MODES", "Box", "CacheError", "CaseError", "InstanceError", "Measurement", "Model",
    "NotDecoupled", "PaperTightness", "PointRecord", "RecordCache", "Rotation", "Search",
    "SearchCase", "SearchRecord", "Simplex", "Space", "Sphere", "Spread", "Worst",
    "case_key", "format_table", "get_model", "models", "paper_cases", "register_model",
    "replay", "run_case", "run_paper", "run_tightness", "spectrum",
]
