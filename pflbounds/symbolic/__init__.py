"""Symbolic layer: constants, results, evaluation, inversion, printers, dimension analysis."""

from pflbounds.symbolic.catalog import get, load_papers, papers, results
from pflbounds.symbolic.evaluate import (
    Evaluation,
    HypothesisError,
    InputError,
    elasticities,
    evaluate,
    solve,
)
from pflbounds.symbolic.hidden import BigO, Omega, Omegatilde, Otilde
from pflbounds.symbolic.result import Assumption, Condition, Derivation, Erratum, Form, Kind, Result
from pflbounds.symbolic.units import DimensionError, Unit, dimension

__all__ = [
    "Assumption", "BigO", "Condition", "Derivation", "DimensionError", "Erratum", "Evaluation",
    "Form", "HypothesisError", "InputError", "Kind", "Omega", "Omegatilde", "Otilde", "Result",
    "Unit", "dimension", "elasticities", "evaluate", "get", "load_papers", "papers", "results",
    "solve",
]
