"""What a paper tells the audits: its optional ``audit`` module.

A paper package may hold an ``audit`` submodule (declared by ``audit=True`` in its manifest,
found through the paper loader, never imported by name) with

* ``TIGHTNESS``: a list of :class:`pflbounds.audit.tightness.TightnessCase`, the special cases
  of its results that PEPit can model;
* ``MUTANT_NOTES``: a dict of explanations of mutants that survive its checks, keyed by
  ``"result:form:change"``, ``"result:form"`` or ``"result"``;
* ``AUDIT_CHECKS``: the ids (or fnmatch patterns) of the checks the mutation audit runs, when
  not all of them (default: every registered check of the paper);
* ``BLIND_CHECKS``: the checks whose verdict no planted wrong formula changes, each with the
  reason (:mod:`pflbounds.audit.planted`).
"""

from __future__ import annotations

from types import ModuleType
from typing import Any

from pflbounds.symbolic import catalog, loader


def audit_module(paper: str) -> ModuleType | None:
    """The ``audit`` module of ``paper``'s package (when its manifest declares one; a package
    without a manifest: when it exists), or None; ``KeyError`` for an unknown paper."""
    papers = catalog.papers()
    if paper not in papers:
        raise KeyError(f"unknown paper {paper!r}; known: {', '.join(sorted(papers))}")
    return loader.paper_module(paper, "audit")


def declared(paper: str, name: str, default: Any) -> Any:
    """``paper``'s ``audit.<name>``, or ``default``."""
    mod = audit_module(paper)
    return getattr(mod, name, default) if mod is not None else default
