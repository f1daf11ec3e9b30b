"""The writer of the report's Typst source (:mod:`pflbounds.reporting.document`): its state,
labels and links, and the page setup. Each part of the document adds its methods to it."""

from __future__ import annotations

from collections.abc import Mapping

from pflbounds.reporting.claims import paper_findings
from pflbounds.reporting.document_text import PREAMBLE, escaped, lit
from pflbounds.reporting.escape import label_name
from pflbounds.reporting.model import ErratumBlock, Report


class WriterBase:
    """Accumulates the Typst source; knows the figure file stems and the findings."""

    def __init__(self, report: Report, figure_stems: Mapping[int, str], figures_dir: str) -> None:
        self.report = report
        self.stems = figure_stems
        self.figures_dir = figures_dir.rstrip("/")
        self.lines: list[str] = []
        self.labels: set[str] = set()
        self.findings = {s.paper_id: paper_findings(s) for s in report.sections}
        self.full = report.detail == "full"
        blocks = [f for fs in self.findings.values() for f in fs]
        self.blocked = {f.anchor for f in blocks if f.in_quick or self.full}
        self.quick_blocks = {f.anchor for f in blocks if f.in_quick}
        # blocks that print every erratum of their claim in full (the detail appendix's)
        self.quick_blocks_full = self.blocked - self.quick_blocks
        self.in_block: set[str] = set()
        """The errata printed in full in a claim's block (the others in the errata chapter):
        each erratum is printed in full exactly once."""
        for f in blocks:
            for e in f.home:
                if self.full or (f.anchor in self.quick_blocks and self._erratum_in_full(e)):
                    self.in_block.add(e.id)
        self.in_block_checks: set[str] = set()
        """Checks whose row the block being written shows (an erratum box there need not
        repeat their verdicts)."""

    def _label(self, kind: str, *ident: str) -> str:
        """`` <label>`` the first time a label is used, else nothing (labels must be unique)."""
        name = label_name(kind, *ident)
        if name in self.labels:
            return ""
        self.labels.add(name)
        return f" <{name}>"

    def add(self, *lines: str) -> None:
        self.lines.extend(lines)

    def _link(self, anchor: str, body: str) -> str:
        return f"#link(<{anchor}>)[{body}]" if anchor in self.blocked else body

    # -- page setup and first page ----------------------------------------------------------
    def setup(self) -> None:
        r = self.report
        version = r.provenance.version if r.provenance else ""
        self.add(
            f'#set document(title: {lit(r.title)}, author: "pflbounds")',
            '#set text(font: "Libertinus Serif", size: 9.2pt, lang: "en")',
            "#set par(justify: true, leading: 0.55em, spacing: 0.8em)",
            '#set heading(numbering: "1.1")',
            "#show heading: set block(above: 1.0em, below: 0.55em)",
            "#show heading: set text(hyphenate: false)",
            "#show heading.where(level: 1): set text(size: 12.5pt)",
            "#show heading.where(level: 2): set text(size: 10.5pt)",
            "#show heading.where(level: 3): set text(size: 9.5pt)",
            "#show link: set text(fill: rgb(\"#1f4f99\"))",
            "#set table(stroke: 0.4pt + luma(185), inset: (x: 3pt, y: 2.4pt))",
            "#show table: set text(size: 7.4pt)",
            "#show table: set par(justify: false, leading: 0.42em)",
            "#show figure.caption: set text(size: 8pt)",
            "#show figure.caption: set par(justify: false)",
            "#show figure: set block(breakable: false)",
            "#show figure.where(kind: table): set figure.caption(position: top)",
            '#set page(paper: "a4", margin: (x: 1.7cm, top: 1.8cm, bottom: 1.8cm),',
            "  header: context { if counter(page).get().first() > 1 {",
            "    set text(size: 7.5pt, fill: luma(110))",
            f"    [{escaped(r.title)}] ; h(1fr) ; [pflbounds {escaped(version)}]",
            "  } },",
            "  footer: context { set text(size: 7.5pt, fill: luma(110)); h(1fr);"
            ' counter(page).display("1 / 1", both: true); h(1fr) },',
            ")",
            PREAMBLE,
            "",
        )

    @staticmethod
    def _erratum_in_full(e: ErratumBlock) -> bool:
        """Errata a quick block prints in full: substantive ones that a check shows, or whose
        check disagrees."""
        return e.severity == "substantive" and (e.status.startswith("shown")
                                                or e.status == "check disagrees")
