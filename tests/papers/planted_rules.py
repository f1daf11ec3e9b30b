"""The planted-formula rule every paper's checks obey (a helper of the per-paper tests): plant
wrong formulas in each result a check evaluates (:mod:`pflbounds.audit.planted`) and require
that the check's verdict changes, or that the paper declares the check blind with the reason
(``audit.BLIND_CHECKS``). A check declared blind that does see a planted formula is reported
too (its declaration is out of date), and so is a check whose baseline verdict is not the one
it expects (it is a regression, and a planted formula says nothing about it then)."""

from __future__ import annotations

from collections.abc import Sequence

from pflbounds.audit.declarations import declared
from pflbounds.audit.planted import Planted, plant_in_paper, unexplained


def planted_failures(paper: str, *, seed: int = 0, grid: str = "quick",
                     checks: Sequence[str] | None = None) -> tuple[list[str], dict[str, Planted]]:
    """The rule's failures for ``paper`` (empty when it holds), and what each check showed."""
    blind = declared(paper, "BLIND_CHECKS", {})
    found = plant_in_paper(paper, checks=checks, grid=grid, seed=seed)
    out = [f"{c}: baseline {p.baseline}, expected {p.expected}" for c, p in found.items()
           if p.baseline != p.expected]
    unseen, stale = unexplained(found, blind)
    out += [f"{c}: no planted formula changes its verdict ({found[c].why_blind()}); declare "
            "it in audit.BLIND_CHECKS with the reason, or make it read the formula"
            for c in unseen]
    out += [f"{c}: declared blind, but {found[c].seen_by} changes its verdict to "
            f"{found[c].changed_to}" for c in stale]
    out += [f"{c}: declared blind without a reason" for c in blind
            if c in found and not str(blind[c]).strip()]
    return out, found
