"""Checks of theoretical claims: the model, statistics, verdicts and the registry.

A :class:`Check` pairs a claim with a simulation that returns evidence arrays (conventions in
:mod:`pflbounds.checking.evidence`); :func:`evaluate` turns combined evidence into a
:class:`Verdict`; :mod:`pflbounds.running` plans, runs and aggregates checks into
:class:`Outcome` records.
"""

from pflbounds.checking.bounds import bound
from pflbounds.checking.evidence import (
    EvidenceError,
    combine_blocks,
    mc_block,
    normalize_block,
)
from pflbounds.checking.family import ErrorFamily
from pflbounds.checking.model import Check, CheckKind, Outcome, Simulate, Verdict, requiring
from pflbounds.checking.registry import (
    UnknownCheckError,
    all_checks,
    get,
    load_papers,
    match,
    module_of,
    register,
    unregister,
)
from pflbounds.checking.verdicts import Evaluation, evaluate

__all__ = [
    "Check",
    "CheckKind",
    "ErrorFamily",
    "Evaluation",
    "EvidenceError",
    "Outcome",
    "Simulate",
    "UnknownCheckError",
    "Verdict",
    "all_checks",
    "bound",
    "combine_blocks",
    "evaluate",
    "get",
    "load_papers",
    "match",
    "mc_block",
    "module_of",
    "normalize_block",
    "register",
    "requiring",
    "unregister",
]
