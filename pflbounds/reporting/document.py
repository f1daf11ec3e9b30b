"""Build the Typst source of a report from a :class:`~pflbounds.reporting.model.Report`.

The reader is a reviewer who attaches the PDF to a review. Layout:

1. first page: title, what was run, the regressions of the tool (only when a verdict differs
   from what its check expects), and the vocabulary (:mod:`pflbounds.checking.vocabulary`),
   explained once;
2. **findings** (first pages): one table per paper, one row per claim that fails, has an
   erratum or is undecided, named as the paper names it, failures first; the claims that
   hold, are not checked or not run share a line; errata counted by severity;
3. **controls**: planted claims and power checks, apart from the findings;
4. **errata**: per paper, substantive first, with how each is known;
5. **one block per claim** that fails or has an erratum shown: its results (statement,
   forms with the correction marked, dimension problems), the claim verdicts of its checks
   with ratios, a figure, its errata; each block links back to the findings;
6. appendices: results without a check and why; the audits; provenance; with ``--detail
   full``, a block for every other claim and each check's seed and configuration hash.

Prose is typeset with :func:`~pflbounds.reporting.plainmath.to_typst` (notation as math, the
rest escaped); identifiers are passed to Typst helpers as string literals, so they copy
cleanly from the PDF; math fields are inserted as Typst math.
"""

from __future__ import annotations

from collections.abc import Mapping

from pflbounds.reporting.document_appendices import Appendices
from pflbounds.reporting.document_chapters import Chapters
from pflbounds.reporting.document_claims import ClaimBlocks
from pflbounds.reporting.document_front import FirstPage
from pflbounds.reporting.document_text import format_replicas, sentence
from pflbounds.reporting.model import Report

__all__ = ["build_document", "format_replicas", "shown_figures"]

_sentence = sentence
"""A Typst sentence ending (:func:`pflbounds.reporting.document_text.sentence`)."""


class _Writer(FirstPage, Chapters, ClaimBlocks, Appendices):
    """The whole document, in reading order."""

    def build(self) -> str:
        self.setup()
        self.first_page()
        self.findings_chapter()
        self.controls_chapter()
        self.errata_chapter()
        self.claims_chapter()
        self.add("#counter(heading).update(0)", '#set heading(numbering: "A.1")', "")
        self.unchecked_appendix()
        if self.report.audit:
            from pflbounds.reporting.audit_page import audit_typst

            self.add(*audit_typst(self.report.audit, self.stems, self.figures_dir))
        self.provenance_appendix()
        if self.full:
            self.detail_appendix()
        return "\n".join(self.lines) + "\n"


def shown_figures(report: Report) -> set[int]:
    """``id(plot)`` of every figure the document of ``report`` shows: in a quick report, the
    figure of the worst check of each claim's block; with ``detail == "full"``, also every
    figure of the checks in the detail appendix."""
    w = _Writer(report, {}, "figures")
    out: set[int] = set()
    for fs in w.findings.values():
        for f in fs:
            if f.anchor in w.quick_blocks and not w.full:
                notable = [v for v in f.rows if w._notable(v)]
                picks = w._figure_pick(notable, quick=True)
            elif f.anchor in w.blocked:
                picks = w._figure_pick(f.rows, quick=False)
            else:
                continue
            out |= {id(p) for plots in picks.values() for p in plots}
    return out


def build_document(
    report: Report, figure_stems: Mapping[int, str], figures_dir: str = "figures"
) -> str:
    """The Typst source of ``report``.

    ``figure_stems`` maps ``id(plot)`` to the file stem of each plot's SVG and CSV, as
    returned by :func:`pflbounds.reporting.figures.plan_figures`; ``figures_dir`` is their
    directory relative to the ``.typ`` file.
    """
    return _Writer(report, figure_stems, figures_dir).build()

