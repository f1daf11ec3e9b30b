"""Error control per paper: each Monte Carlo check's share of its paper's family-wise level.

Each Monte Carlo verdict rests on confidence limits, so a paper with m Monte Carlo checks of
true claims, each at ``1 - confidence`` on its own, can show a false verdict in up to about
m x (1 - confidence) of its runs. The paper's error family (declared by the paper,
:class:`pflbounds.checking.family.ErrorFamily`) fixes the family-wise level and each check's
share of it; the check then applies Bonferroni over its own comparisons at ``level x share``.
By the union bound, the probability that some Monte Carlo verdict of the paper is wrong by
chance is at most ``level``.

A check's share depends on its paper's declaration only, not on what else runs: one check
alone (``pflbounds check``), its paper's suite and a suite of several papers give the same
limits, hence the same verdict, for the same check, grid and seed. This gives up what Holm's
step-down procedure would gain after a rejection (its levels depend on the other checks'
data, so on what the suite holds): the shares are weighted Bonferroni levels, a little wider
when some check of the paper rejects, and fixed.

The checks of a paper that declares no family (a paper package outside the tree, or checks
no paper registers, built in a script or a test) are judged at their own ``1 - confidence``,
alone and in any suite alike: no check's limits depend on what else runs. Only a declared
family bounds a paper's family-wise rate.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from pflbounds.checking import registry
from pflbounds.checking.check import Check
from pflbounds.checking.family import ErrorFamily
from pflbounds.symbolic import loader

METHODS = ("paper", "per-check")
"""``paper``: each Monte Carlo check at its share of its paper's family-wise level (the
default; checks of papers that declare none at their own ``1 - confidence``); ``per-check``:
each at its own ``1 - confidence``, Bonferroni over its comparisons."""
DECLARATION = "ERROR_FAMILY"
"""The name of the declaration in a paper's ``checks`` package."""


@dataclass(frozen=True)
class PaperFamily:
    """A paper's resolved error family: its level, each member's share (summing to 1), and
    the Monte Carlo checks that make no comparison (with why)."""

    paper: str
    level: float
    shares: Mapping[str, float]
    without_comparisons: Mapping[str, str]

    def to_dict(self) -> dict[str, Any]:
        """The family as JSON (a paper's index stores it: :meth:`from_dict`)."""
        return {"paper": self.paper, "level": self.level, "shares": dict(self.shares),
                "without_comparisons": dict(self.without_comparisons)}

    @classmethod
    def from_dict(cls, doc: Mapping[str, Any]) -> PaperFamily:
        """The family of :meth:`to_dict`."""
        return cls(str(doc["paper"]), float(doc["level"]), dict(doc["shares"]),
                   dict(doc["without_comparisons"]))

    def record(self, check_id: str) -> dict[str, Any]:
        """The entry of a Monte Carlo outcome's config: its verdict depends on it."""
        share = float(self.shares.get(check_id, 0.0))
        out: dict[str, Any] = {
            "method": "paper", "family": self.paper, "family_level": self.level,
            "share": share, "check_level": self.level * share, "checks": len(self.shares),
        }
        if check_id in self.without_comparisons:
            out["without_comparisons"] = str(self.without_comparisons[check_id])
        return out


def declared_family(paper: str) -> ErrorFamily | None:
    """``ERROR_FAMILY`` of ``paper``'s ``checks`` package, or None when it declares none (or no
    paper package has that id). ``TypeError`` when it is not an ErrorFamily."""
    try:
        mod = loader.paper_module(paper, "checks")
    except ImportError:
        return None
    fam = getattr(mod, DECLARATION, None) if mod is not None else None
    if fam is not None and not isinstance(fam, ErrorFamily):
        raise TypeError(f"{paper}: {DECLARATION} must be an ErrorFamily, got "
                        f"{type(fam).__name__}")
    return fam


def _paper_checks(paper: str) -> list[Check]:
    loader.load_paper(paper, checks=True)
    return registry.loaded_checks(paper)


def paper_family(paper: str) -> PaperFamily | None:
    """The error family ``paper`` declares, resolved against the checks it registers (None
    when it declares none). ``ValueError`` names a Monte Carlo check the declaration leaves
    out, or a listed check that is not one of the paper's Monte Carlo checks."""
    fam = declared_family(paper)
    if fam is None:
        return None
    ids = [c.id for c in _paper_checks(paper) if not c.deterministic]
    members = list(fam.checks) if fam.checks is not None else \
        [c for c in ids if c not in fam.without_comparisons]
    stray = sorted(c for c in [*members, *fam.without_comparisons, *fam.weights]
                   if c not in ids)
    if stray:
        raise ValueError(f"{paper}: {DECLARATION} names {stray}, which are not Monte Carlo "
                         f"checks of {paper}")
    left = sorted(c for c in ids if c not in members and c not in fam.without_comparisons)
    if left:
        raise ValueError(f"{paper}: {DECLARATION} leaves out the Monte Carlo checks {left}: "
                         "list them, or declare them without comparisons (with the reason)")
    weight = {c: float(fam.weights.get(c, 1.0)) for c in members}
    total = sum(weight.values())
    shares = {c: w / total for c, w in weight.items()}
    return PaperFamily(paper, float(fam.level), shares, dict(fam.without_comparisons))


def family_records(checks: Iterable[Check],
                   known: Mapping[str, PaperFamily | None] | None = None
                   ) -> dict[str, dict[str, Any]]:
    """The error-family record of every Monte Carlo check of ``checks`` whose paper declares a
    family (by id), each paper's family resolved once (``known``: papers' families resolved
    already, by the papers' indexes); checks of papers that declare none, and checks no paper
    registers, have no record here (:data:`UNDECLARED`). A check read from a paper's index
    (:mod:`pflbounds.checking.indexed`) is one its paper registers."""
    from pflbounds.checking.indexed import is_indexed

    families: dict[str, PaperFamily | None] = dict(known or {})
    out: dict[str, dict[str, Any]] = {}
    for c in checks:
        if c.deterministic or (registry.find(c.id) is None and not is_indexed(c)):
            continue
        if c.paper not in families:
            families[c.paper] = paper_family(c.paper)
        fam = families[c.paper]
        if fam is not None and (c.id in fam.shares or c.id in fam.without_comparisons):
            out[c.id] = fam.record(c.id)
    return out


def family_text(record: Mapping[str, Any]) -> str:
    """One clause for a verdict's detail: the family, its level and the check's share."""
    share = float(record["share"])
    n = int(record.get("checks", 0))
    part = f"share 1/{n}" if n and abs(share * n - 1.0) < 1e-9 else f"share {share:.4g}"
    return (f"error family {record['family']}: family-wise level "
            f"{float(record['family_level']):g}, {part}")
