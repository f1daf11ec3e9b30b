"""Checks of theoretical claims: the model, statistics, verdicts and the registry.

A :class:`Check` pairs a claim with a simulation that returns evidence arrays (conventions in
:mod:`pflbounds.checking.evidence`); :func:`evaluate` turns combined evidence into a
:class:`Verdict`; :mod:`pflbounds.running` plans, runs and aggregates checks into
:class:`Outcome` records.

The registry loads with the package (it registers the ``CHECKS`` of every check module the
paper loader imports); the other names load lazily (:mod:`pflbounds.lazy`), so that listing
checks does not import the statistics (scipy) that only verdicts need.
"""

from pflbounds.checking import registry  # noqa: F401  (listens to the paper loader)
from pflbounds.lazy import lazy_exports

EXPORTS = {
    "Check": "check",
    "CheckKind": "kinds",
    "Evaluation": "verdicts",
    "ErrorFamily": "family",
    "EvidenceError": "evidence",
    "Outcome": "outcome",
    "Simulate": "check",
    "UnknownCheckError": "registry",
    "Verdict": "kinds",
    "all_checks": "registry",
    "bound": "bounds",
    "combine_blocks": "evidence",
    "evaluate": "verdicts",
    "get": "registry",
    "load_papers": "registry",
    "match": "registry",
    "mc_block": "evidence",
    "module_of": "registry",
    "normalize_block": "evidence",
    "register": "registry",
    "requiring": "check",
    "unregister": "registry",
}
"""Each exported name and the submodule that defines it."""

__getattr__ = lazy_exports(__name__, EXPORTS)

__all__ = sorted(EXPORTS)
