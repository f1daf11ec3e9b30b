"""The findings, controls and errata chapters of the report
(:mod:`pflbounds.reporting.document`)."""

from __future__ import annotations

import re
from collections import Counter

from pflbounds.reporting.claims import ClaimFinding, controls, one_line
from pflbounds.reporting.document_base import WriterBase
from pflbounds.reporting.document_text import (
    SEVERITY_ORDER,
    count_text,
    escaped,
    header_row,
    ident_markup,
    lit,
    prose,
    sentence,
    short_id,
    status_markup,
)
from pflbounds.reporting.escape import label_name
from pflbounds.reporting.model import ErratumBlock, PaperSection
from pflbounds.reporting.plainmath import notation_of
from pflbounds.reporting.tightness_text import NOT_SEARCHED, tight_within


class Chapters(WriterBase):
    """The findings (one table per paper), the controls and the errata."""

    # -- findings -------------------------------------------------------------------------
    def findings_chapter(self) -> None:
        self.add("= Findings <findings>", "")
        for s in self.report.sections:
            with notation_of(s.paper_id):  # the paper's constant names: scott2024's L1 is L_1
                self.paper_findings(s)

    def paper_findings(self, s: PaperSection) -> None:
        fs = self.findings[s.paper_id]
        self.add(
            f"#block(above: 0.9em, below: 0.35em, breakable: false)[*{escaped(s.paper_id)}* "
            f"#h(0.3em) {escaped(s.title)}. #muted[{escaped(s.citation)}]]"
            f"{self._label('paper', s.paper_id)}",
        )
        rows = sorted([f for f in fs if f.tabled], key=lambda f: f.rank)
        # the column "tight to within" for a paper with tightness records; a paper without
        # any says so once, below its table
        searched = any(r.tightness for r in s.results)
        if rows:
            self.add(
                "#table(",
                "  columns: (2.2cm, 3.7cm, 2.5cm, 2.2cm, 1fr)," if searched else
                "  columns: (2.4cm, 4.3cm, 2.8cm, 1fr),",
                "  " + header_row("Claim", "As printed", "Corrected",
                                  *(("Tight to within",) if searched else ()), "Why") + ",",
            )
            for f in rows:
                name = self._link(f.anchor, f"*{escaped(f.name)}*")
                flags = ""
                if f.unexpected:
                    flags = " #unexpected[verdict]"
                cells = [f"[{name}{flags}]", f"[{status_markup(f.printed.word, f.printed.text)}]",
                         f"[{status_markup(f.corrected.word, f.corrected.text)}]"]
                if searched:
                    tight = tight_within([e for r in f.results for e in r.tightness],
                                         {r.id: _part_name(r.label, f.name) for r in f.results})
                    cells.append("[#text(size: 7pt)[" + (
                        f"#muted[{escaped(tight)}]" if tight == NOT_SEARCHED
                        else escaped(tight)) + "]]")
                cells.append(f"[{prose(one_line(f.reason, 100 if searched else 125))}]")
                self.add("  " + ", ".join(cells) + ",")
            self.add(")")
        lines = []
        for word, lead in (("holds", "Hold as printed"),
                           ("holds post hoc", "Hold only post hoc (not confirmed predictions)"),
                           ("not checked", "Not checked"),
                           ("not run", "Checks not in this run"),
                           ("inconclusive", "Inconclusive"), ("error", "Error")):
            names = [f for f in fs if not f.tabled and f.printed.word == word]
            if not names:
                continue
            if word == "not checked":  # grouped by why, in a few words (in full: Appendix A)
                why: dict[str, list[ClaimFinding]] = {}
                for f in names:
                    why.setdefault(f.printed.text.partition(": ")[2] or "no check yet",
                                   []).append(f)
                text = "; ".join(", ".join(self._link(f.anchor, escaped(f.name)) for f in group)
                                 + f" #muted[({escaped(reason)})]" for reason, group in why.items())
                lines.append(f"*{lead}* (#link(<unchecked>)[Appendix A]): {text}.")
            elif word == "not run":  # grouped by why: skipped for a missing extra, or not listed
                why = {}
                for f in names:
                    why.setdefault(f.printed.text.partition(": ")[2], []).append(f)
                text = "; ".join(", ".join(self._link(f.anchor, escaped(f.name)) for f in group)
                                 + (f" #muted[(skipped: {escaped(reason)})]" if reason else "")
                                 for reason, group in why.items())
                lines.append(f"*{lead}*: {text}.")
            else:
                text = ", ".join(self._link(f.anchor, escaped(f.name)) for f in names)
                lines.append(f"*{lead}*: {text}.")
        if s.skipped:  # checks of the run that need an extra that is not installed
            by_why: dict[str, list[str]] = {}
            for cid, reason in s.skipped.items():
                by_why.setdefault(re.sub(r"^check \S+ ", "", reason), []).append(
                    cid.split(".", 1)[-1])
            lines.append("*Skipped, not run*: " + "; ".join(
                f"{escaped(', '.join(ids))} #muted[({escaped(why)})]"
                for why, ids in by_why.items())
                + ".")
        sev = Counter(e.severity for e in s.errata)
        status = Counter(e.status for e in s.errata if e.severity == "substantive")
        if s.errata:
            lines.append(
                f"*Errata*: {sev.get('substantive', 0)} substantive ("
                + ", ".join(f"{n} {k}" for k, n in status.most_common()) + "); "
                + ", ".join(f"{sev.get(k, 0)} {k}" for k in SEVERITY_ORDER[1:])
                + f" (#link(<{label_name('errata', s.paper_id)}>)[list])."
            )
        if not searched:
            lines.append(f"*Tight to within*: {NOT_SEARCHED} (no tightness records: "
                         "`pflbounds audit tightness`).")
        if lines:
            self.add(f"#text(size: 7.8pt)[{' #h(0.5em) '.join(lines)}]")
        self.add("")

    # -- controls --------------------------------------------------------------------------
    def controls_chapter(self) -> None:
        self.add("= Controls <controls>", "")
        rows = controls(self.report)
        if not rows:
            self.add("No control (planted claim or power check) was run.", "")
            return
        self.add(
            "Planted claims and power checks: their verdicts say whether the checker can tell "
            "a false claim from a true one, not whether a paper is right. A control is "
            "marked only when its verdict differs from what it expects.",
            "",
            "#table(",
            "  columns: (auto, 1fr, auto, auto),",
            "  " + header_row("Control", "What it plants", "Claim verdicts", "Ratio or statistic")
            + ",",
        )
        for sec, v in rows:
            with notation_of(sec.paper_id):
                self.add(f"  [{ident_markup(v.check_id)}], [{prose(v.title)}], "
                         f"[{self._claims_inline(v)}], [{self._measure(v)}],")
        self.add(")", "")

    # -- errata --------------------------------------------------------------------------
    def errata_chapter(self) -> None:
        self.add("= Errata <errata>", "")
        self.add(
            "Every erratum recorded for the papers, substantive first. Each is named "
            "_erratum_ and its id (erratum scott2024.erratum17; the ids of checks are separate). "
            "An erratum a check shows is printed in the block of its claim; the others follow "
            "the table.",
            "",
        )
        for s in self.report.sections:
            if not s.errata:
                continue
            with notation_of(s.paper_id):
                self.paper_errata(s)

    def paper_errata(self, s: PaperSection) -> None:
        self.add(f"== {escaped(s.paper_id)}{self._label('errata', s.paper_id)}", "")
        order = sorted(s.errata, key=lambda e: (SEVERITY_ORDER.index(e.severity)
                                                if e.severity in SEVERITY_ORDER else 9,
                                                not e.status.startswith("shown")))
        self.add(
            "#table(",
            "  columns: (auto, 1fr, auto, auto, auto),",
            "  " + header_row("Erratum", "Where", "Severity", "Status", "Claim") + ",",
        )
        loose = [e for e in order if e.id not in self.in_block]
        for e in order:
            claim = self._claim_of(s, e)
            target = claim.anchor if claim is not None else ""
            claim_cell = self._link(target, escaped(claim.name)) if claim is not None else "—"
            check = f" #muted[check {ident_markup(short_id(e.check_id))}]" if e.check_id else ""
            name = f"erratum {ident_markup(short_id(e.id))}"
            if e.id in self.in_block:
                name = f"#link(<{label_name('erratum', e.id)}>)[{name}]"
            self.add(
                f"  [{name}], [{prose(one_line(e.where, 90))}], "
                f"[{escaped(e.severity)}], "
                f"[#status({lit(e.status)}, [{escaped(e.status)}]){check}], "
                f"[{claim_cell}],"
            )
        self.add(")", "")
        # the quick report prints in full the substantive errata that no claim block shows;
        # the proof, notation and typo errata stay in the table (all of them: --detail full)
        shown = [e for e in loose if self._printed_in_full(e)]
        for e in shown:
            self.erratum(e)
        rest = len(loose) - len(shown)
        if rest:
            what = count_text(rest, "proof, notation or typo erratum",
                          "proof, notation or typo errata")
            self.add(f"#muted[{what} of this paper are listed in the table only; "
                     "`pflbounds report ... --detail full` prints them in full.]", "")

    def _claim_of(self, s: PaperSection, e: ErratumBlock) -> ClaimFinding | None:
        for f in self.findings[s.paper_id]:
            if e in f.home:
                return f
        return None

    def erratum(self, e: ErratumBlock) -> None:
        accent = {"check disagrees": 'rgb("#c62828")'}.get(
            e.status, 'rgb("#1f5fbf")' if e.status.startswith("shown") else "luma(120)")
        head = (f"*erratum {ident_markup(e.id)}* #h(0.4em) {prose(e.where)} #h(1fr) "
                f"#muted[{escaped(e.severity)}] #h(0.4em) "
                f"#status({lit(e.status)}, [{escaped(e.status)}])")
        body = [head, f"*What is wrong.* {sentence(prose(e.what))}",
                f"*Fix.* {sentence(prose(e.fix))}"]
        if e.check_id and e.check_id not in self.in_block_checks:
            if e.status == "not run":
                body.append(f"*Check* {ident_markup(e.check_id)} is not in this run.")
            else:
                got = " ".join(f"#claimv({lit(c.form)}, {lit(c.verdict)})" for c in e.claims)
                body.append(f"*Check* {ident_markup(e.check_id)}: {got}"
                            + (" (the verdicts it expects)." if e.status.startswith("shown")
                               else "."))
        joined = " \\\n".join(body)
        self.add(f"#erratum-box({accent})[{joined}]{self._label('erratum', e.id)}", "")


def _part_name(label: str, claim: str) -> str:
    """A result's name within its claim, in words: its label without the claim's name
    (``Theorem 4.3: admissible s`` in claim ``Theorem 4.3`` is ``admissible s``)."""
    rest = label.removeprefix(claim).lstrip(" :,;-–").strip()
    if rest.startswith("(") and rest.endswith(")") and rest.count("(") == 1:
        rest = rest[1:-1]
    return rest or label
