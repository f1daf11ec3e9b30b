"""What a paper declares for the worst-case search: ``WORST_CASES`` in its ``audit.py``.

A paper's optional ``audit`` module (found like its ``checks`` module, never imported by
name: :func:`pflbounds.audit.declarations.declared`) may hold ``WORST_CASES``, a list of
:class:`~pflbounds.tightness.case.SearchCase`. :func:`paper_cases` reads and checks it,
:func:`run_paper` runs every case, and :func:`format_table` prints the records.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from pflbounds.tightness.case import CaseError, SearchCase
from pflbounds.tightness.engine import run_case
from pflbounds.tightness.record import RecordCache, SearchRecord

__all__ = ["NAME", "format_table", "paper_cases", "run_paper"]

NAME = "WORST_CASES"
"""The name a paper's ``audit.py`` declares its cases under."""


def paper_cases(paper: str) -> list[SearchCase]:
    """The cases ``paper`` declares (empty when it declares none); :class:`CaseError` naming
    an entry that is not a case, or a case about another paper's result."""
    from pflbounds.audit.declarations import declared

    cases = declared(paper, NAME, [])
    if not isinstance(cases, (list, tuple)):
        raise CaseError(f"{paper}: audit.{NAME} must be a list of SearchCase, got "
                        f"{type(cases).__name__}")
    for i, c in enumerate(cases):
        if not isinstance(c, SearchCase):
            raise CaseError(f"{paper}: audit.{NAME}[{i}] is a {type(c).__name__}, not a "
                            "SearchCase")
        if c.result.split(".", 1)[0] != paper:
            raise CaseError(f"{paper}: audit.{NAME}[{i}] is about {c.result}, a result of "
                            "another paper")
    return list(cases)


def run_paper(paper: str, *, cache: RecordCache | str | Path | None = None,
              mode: str | None = None) -> list[SearchRecord]:
    """Run every case ``paper`` declares (cached records come back as stored)."""
    store = RecordCache(cache) if isinstance(cache, (str, Path)) else cache
    return [run_case(c, cache=store, mode=mode) for c in paper_cases(paper)]


def format_table(records: Sequence[SearchRecord]) -> str:
    """One line per point: result [form], model, the constants that vary, the ratio, what it
    says of the worst case, the ratio on the default instance, the verdict and the cost."""
    lines = [f"{'result [form]':<34} {'model':<18} {'point':<14} {'ratio':>10} "
             f"{'worst is':<9} {'default':>8} {'verdict':<12} {'evals':>6} {'s':>6}"]
    for rec in records:
        case = rec.case
        swept = list(case.get("sweep", {}))
        for p in rec.points:
            point = ", ".join(f"{k}={p.constants[k]:g}" for k in swept) or "-"
            default = "-" if not p.default or "ratio" not in p.default else \
                f"{float(p.default['ratio']):.3g}"
            lines.append(f"{case['result'] + ' [' + case['form'] + ']':<34} "
                         f"{case['model']:<18} {point:<14} {p.ratio:>10.4g} "
                         f"{p.worst_is:<9} {default:>8} {p.verdict:<12} "
                         f"{p.evaluations:>6} {p.seconds:>6.1f}")
    return "\n".join(lines)
