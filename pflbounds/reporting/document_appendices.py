"""The appendices of the report (:mod:`pflbounds.reporting.document`): results without a
check, provenance, and the detail appendix of a full report."""

from __future__ import annotations

from pflbounds.reporting.claims import default_unchecked
from pflbounds.reporting.document_base import WriterBase
from pflbounds.reporting.document_text import (
    HIDDEN_SENTENCE,
    count_text,
    escaped,
    header_row,
    ident_markup,
    lit,
    prose,
    short_id,
)
from pflbounds.reporting.model import ResultBlock
from pflbounds.reporting.plainmath import notation_of


class Appendices(WriterBase):
    """Results without a check, provenance and the detail appendix."""

    # -- appendices ------------------------------------------------------------------------
    def unchecked_appendix(self) -> None:
        self.add("= Results without a check <unchecked>", "")
        rows = [r for s in self.report.sections for r in s.results if not r.checks]
        if not rows:
            self.add("Every encoded result has a check.", "")
            return
        self.add(
            f"{count_text(len(rows), 'result')} of "
            f"{sum(len(s.results) for s in self.report.sections)} have no check of their own. "
            "Why, in the encoding's words where it says (else the default for its kind: _no "
            "check yet_), and the checks of other results that exercise it, through an erratum "
            "they share or their claim (ids without the paper prefix; the paper heads its "
            "rows).",
            "",
            "#table(",
            "  columns: (4.8cm, 1fr, 1fr),",
            "  " + header_row("Result", "Why no check", "Exercised through") + ",",
        )
        paper = None
        for r in rows:
            if r.id.split(".", 1)[0] != paper:
                paper = r.id.split(".", 1)[0]
                self.add(f"  table.cell(colspan: 3, fill: luma(240))[*{escaped(paper)}*],")
            with notation_of(paper):
                self._unchecked_row(r)
        self.add(")", "")

    def _unchecked_row(self, r: ResultBlock) -> None:
        why = r.unchecked or default_unchecked(r.kind)
        through = "; ".join(
            " ".join(ident_markup(short_id(c)) for c in ids[:3])
            + (f" +{len(ids) - 3}" if len(ids) > 3 else "") + f" #muted[({prose(how)})]"
            for ids, how in r.exercised_by) or "—"
        self.add(f"  [{prose(r.label)} \\ #muted[{ident_markup(short_id(r.id))}]], [{prose(why)}], "
                 f"[{through}],")

    def provenance_appendix(self) -> None:
        prov = self.report.provenance
        self.add("= Provenance <provenance>", "")
        if prov is None:
            self.add("No provenance was recorded for this report.", "")
            return
        packages = ", ".join(f"{n} {v}" for n, v in prov.packages) or "—"
        facts = [
            ("pflbounds", f"{escaped(prov.version)}, "
                          f"commit #raw({lit(prov.commit or 'not recorded')})"),
            ("Data made by", f"#raw({lit(prov.data_command)})" if prov.data_command else
             "— (not recorded)"),
            ("Report made by", f"#raw({lit(prov.command)})"),
            ("Created", escaped(prov.created)),
            ("Seed", escaped(prov.seed or "—") + " (every check's random streams are spawned from "
                                            "it, so a rerun is bitwise identical)"),
            ("Runtime", escaped(prov.runtime or "—")),
            ("Python, platform", escaped(f"{prov.python or '—'}, {prov.platform or '—'}")),
            ("Libraries", escaped(packages)),
        ]
        self.add("#table(columns: (auto, 1fr), stroke: none, inset: 2pt,")
        for k, v in facts:
            self.add(f"  [*{k}*], [{v}],")
        self.add(")", "")
        refs = [s for s in self.report.sections if s.citation]
        if refs:
            self.add("*Papers.*", "")
            for s in refs:
                self.add(f"- {ident_markup(s.paper_id)}: {escaped(s.title)}. {escaped(s.citation)}")
            self.add("")
        if self.report.error_control:
            self.add(prose(self.report.error_control), "")
        self.add(
            "The numbers behind each figure are in the report's folder (figures/NAME.csv, "
            "NAME as the figure's file), with the results table; "
            + ("each check's seed and configuration hash are listed in the detail appendix."
               if self.full else "`pflbounds report ... --detail full` lists each check's "
               "seed and configuration hash."),
            "",
        )

    def detail_appendix(self) -> None:
        self.add("= Detail: every other claim <detail>", "")
        for s in self.report.sections:
            fs = [f for f in self.findings[s.paper_id] if f.anchor not in self.quick_blocks]
            if not fs:
                continue
            self.add(f"== {escaped(s.paper_id)}: {escaped(s.title)}", "")
            hidden = list(dict.fromkeys(h for r in s.results for f in r.forms
                                        for h in f.hidden_constants))
            if hidden:
                self.add(f"#muted[Hidden constants ({'; '.join(prose(h) for h in hidden)}): "
                         f"pflbounds evaluates such a form {HIDDEN_SENTENCE}.]", "")
            with notation_of(s.paper_id):
                for f in fs:
                    self.claim_block(s, f, quick=False)
        prov = self.report.provenance
        if prov and prov.rows:
            self.add(
                "== Seeds and configuration hashes",
                "",
                "#table(",
                "  columns: (auto, auto, 1fr),",
                "  align: (left, right, left),",
                "  " + header_row("Check", "Seed", "Configuration hash (SHA-256)") + ",",
            )
            for r in prov.rows:
                seed = "—" if r.seed is None else str(r.seed)
                self.add(f"  [{ident_markup(r.check_id)}], [{seed}], "
                         f'[#text(font: "DejaVu Sans Mono", size: 5.8pt, {lit(r.config_hash)})],')
            self.add(")", "")
