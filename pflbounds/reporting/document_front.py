"""The first page of the report (:mod:`pflbounds.reporting.document`): what was run, the
summary, the regressions, the contents and the vocabulary."""

from __future__ import annotations

from collections import Counter

from pflbounds.checking.vocabulary import (
    CLAIM_STATUS,
    CLAIM_VERDICTS,
    ERRATUM_STATUS,
    RATIO,
    form_names,
)
from pflbounds.reporting.claims import regressions
from pflbounds.reporting.document_base import WriterBase
from pflbounds.reporting.document_text import (
    SEVERITY_ORDER,
    badge,
    count_text,
    escaped,
    ident_markup,
    lit,
    prose,
)


class FirstPage(WriterBase):
    """The first page: title, facts, summary, regressions, contents, vocabulary."""

    def first_page(self) -> None:
        r = self.report
        prov = r.provenance
        self.add(f'#text(size: 15pt, weight: "bold")[{escaped(r.title)}]', "")
        facts = []
        if prov:
            commit = prov.commit or "not recorded"
            facts.append(f"Created {prov.created} by pflbounds {prov.version} "
                         f"(commit {commit[:12] + commit[40:] if len(commit) > 40 else commit})")
            if prov.suite:
                facts.append(f"suite {prov.suite}")
        n_checks = len(r.all_verdicts())
        facts.append(f"{count_text(n_checks, 'check')} run")
        self.add(
            "#text(size: 8.5pt, fill: luma(70))[Five papers on personalized federated learning: "
            "each claim checked on instances that meet its hypotheses, by exact expectations or "
            "Monte Carlo runs. " + escaped("; ".join(facts)) + ".]",
            "",
        )
        self.summary()
        self.regressions()
        self.contents()
        self.vocabulary()

    def summary(self) -> None:
        fs = [f for s in self.report.sections for f in self.findings[s.paper_id]]
        if not fs:
            self.add("No results were encoded and no checks run.", "")
            return
        fail = [f for f in fs if f.printed.word == "fails"]
        units = [f for f in fs if f.printed.word == "not unit-consistent"]
        corr_fail = [f for f in fs if f.corrected.word in ("fails", "not unit-consistent")]
        hold = [f for f in fs if f.printed.word == "holds"]
        post_hoc = [f for f in fs if f.printed.word == "holds post hoc"]
        undecided = [f for f in fs if f.printed.word in ("inconclusive", "error")]
        unchecked = [f for f in fs if f.printed.word in ("not checked", "not run")]
        errata = [e for s in self.report.sections for e in s.errata]
        sev = Counter(e.severity for e in errata)
        shown = sum(e.status.startswith("shown") for e in errata)
        parts = [f"*{count_text(len(fs), 'claim')}* of "
                 f"{count_text(len(self.report.sections), 'paper')}:",
                 f"#status(\"fails\", [{len(fail)} fail as printed])"
                 + (f" and {len(units)} more are not unit-consistent" if units else "")
                 + (f" ({len(corr_fail)} still fail corrected)" if corr_fail else "") + ";",
                 f"{len(hold)} hold as printed;"
                 + (f" #status(\"holds post hoc\", [{len(post_hoc)} hold only post hoc]) "
                    "(narrowed after a run: not counted as confirmed);" if post_hoc else "")
                 + (f" {len(undecided)} undecided;" if undecided else ""),
                 f"{len(unchecked)} are not checked or not run here.",
                 f"*{count_text(len(errata), 'erratum', 'errata')}*: "
                 f"{sev.get('substantive', 0)} substantive, "
                 + ", ".join(f"{sev.get(k, 0)} {k}" for k in SEVERITY_ORDER[1:])
                 + f"; {shown} shown by a run or a counterexample."]
        self.add(" ".join(parts), "")

    def regressions(self) -> None:
        bad = regressions(self.report)
        disagree = [(s, e) for s in self.report.sections for e in s.errata
                    if e.status == "check disagrees"]
        n = len(self.report.all_verdicts())
        if not bad and not disagree:
            if n:
                self.add(f"#text(fill: rgb(\"#1b7f3a\"))[*No regression:* all {n} verdicts are "
                         "the verdicts their checks expect (a statement about pflbounds, not "
                         "about the papers).]", "")
            return
        items = [f"- {ident_markup(v.check_id)}: {self._claims_inline(v)} — expected "
                 f"{escaped(self._expected_text(v))}" for _, v in bad]
        items += [f"- erratum {ident_markup(e.id)}: its check {ident_markup(e.check_id)} does "
                  "not show it"
                  for _, e in disagree]
        verb = "differs from what its check expects" if len(bad) == 1 else \
            "differ from what their checks expect"
        also = f" and {count_text(len(disagree), 'erratum check')} disagree" if disagree else ""
        self.add(
            "#block(width: 100%, fill: rgb(\"#c62828\").lighten(88%), stroke: 1.2pt + "
            "rgb(\"#c62828\"), inset: 6pt, radius: 2pt)[",
            f"#text(fill: rgb(\"#c62828\"), weight: \"bold\", size: 11pt)[REGRESSION: "
            f"{count_text(len(bad), 'verdict')} of {n} {verb}{also}.] "
            "This is about pflbounds, not the papers: the code or the data changed since the "
            "expectations were set. Marked *REGRESSION* wherever it appears.",
            "",
            *items,
            "]",
            "",
        )

    def contents(self) -> None:
        entries = [("Findings", "findings"), ("Controls", "controls"), ("Errata", "errata"),
                   ("Claims that fail or have an erratum shown", "claims"),
                   ("Results without a check", "unchecked")]
        if self.report.audit:
            entries.append(("Audits", "audits"))
        entries.append(("Provenance", "provenance"))
        if self.full:
            entries.append(("Detail: every other claim", "detail"))
        cells = " #h(0.6em)·#h(0.6em) ".join(
            f"#link(<{a}>)[{escaped(t)}] #muted[p.~#pageof(<{a}>)]" for t, a in entries)
        self.add(f"#text(size: 8pt)[*Contents:* {cells}]", "")

    def vocabulary(self) -> None:
        forms = form_names()
        used = {f.name for s in self.report.sections for r in s.results for f in r.forms}
        form_text = "; ".join(f"_{escaped(k)}_ {prose(v)}" for k, v in forms.items() if k in used)
        verdicts = "; ".join(f"{badge(k)} {prose(v)}" for k, v in CLAIM_VERDICTS.items())
        words = {w for fs in self.findings.values() for f in fs
                 for w in (f.printed.word, f.corrected.word)}
        status = "; ".join(f"#status({lit(k)}, [{escaped(k if k != 'no corrected form' else '—')}])"
                           f" {prose(v)}" for k, v in CLAIM_STATUS.items()
                           if k != "holds post hoc" or k in words)  # said where it occurs
        errata = "; ".join(f"#status({lit(k)}, [{escaped(k)}]) {prose(v)}"
                           for k, v in ERRATUM_STATUS.items())
        self.add(
            "#block(width: 100%, inset: 5pt, fill: luma(246), stroke: 0.4pt + luma(200), "
            "radius: 2pt)[",
            "#set text(size: 7.3pt)",
            "#set par(leading: 0.42em, spacing: 0.45em, justify: false)",
            "*How to read this report.* A _claim_ is a result of a paper in one of its forms: "
            f"{form_text}. "
            "Each check gives a *claim verdict* to each claim it tests (an erratum check tests "
            f"two, its printed side and the corrected form): {verdicts}. "
            "A verdict is marked #unexpected[...] only when it differs from what its check "
            "expects: a regression of pflbounds. In a claim's block the corrected form (green "
            "bar) highlights what it changes #added($x$), and the paper's form it is compared "
            "with (red bar) strikes what is replaced #removed($x$).",
            "",
            f"*Status* of a paper's claim in the findings, as printed and corrected: {status}. "
            f"*Ratio*: {escaped(RATIO)}. Rate, scaling, identity and probability checks give their "
            "own statistic instead (slope against the prediction, residual against the "
            "tolerance, failure rate against delta).",
            "",
            f"*Errata* are substantive (a statement is wrong), proof, notation or typo; each "
            f"has a status: {errata}. Checks and errata are named with their kind "
            "(check scott2024.P3, erratum scott2024.erratum17): the two lists of ids are "
            "separate.",
            "]",
            "",
        )
