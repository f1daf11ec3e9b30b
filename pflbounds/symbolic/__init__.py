"""Symbolic layer: constants, results, evaluation, inversion, printers, dimension analysis.

Names load lazily (:mod:`pflbounds.lazy`): the paper loader (``pflbounds.symbolic.loader``)
and the manifest import without sympy, so that a command that reads the papers' indexes and
cached tasks only (a rerun of a suite) never builds a formula.
"""

from pflbounds.lazy import lazy_exports

EXPORTS = {
    "Assumption": "result",
    "BigO": "hidden",
    "Condition": "result",
    "Derivation": "result",
    "DimensionError": "units",
    "Erratum": "result",
    "Evaluation": "evaluate",
    "Form": "result",
    "HypothesisError": "evaluate",
    "InputError": "evaluate",
    "Kind": "result",
    "Omega": "hidden",
    "Omegatilde": "hidden",
    "Otilde": "hidden",
    "Result": "result",
    "Unit": "units",
    "dimension": "units",
    "elasticities": "evaluate",
    "evaluate": "evaluate",
    "get": "catalog",
    "load_papers": "catalog",
    "papers": "catalog",
    "results": "catalog",
    "solve": "evaluate",
}
"""Each exported name and the submodule that defines it."""

__getattr__ = lazy_exports(__name__, EXPORTS)

__all__ = sorted(EXPORTS)
