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

import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence

from pflbounds.checking.ratio import format_ratio
from pflbounds.checking.vocabulary import (
    CLAIM_STATUS,
    CLAIM_VERDICTS,
    ERRATUM_STATUS,
    RATIO,
    claims_text,
    form_names,
)
from pflbounds.reporting.claims import (
    LONG_QUANTITY,
    ClaimFinding,
    controls,
    default_unchecked,
    one_line,
    paper_findings,
    regressions,
)
from pflbounds.reporting.escape import escape_markup, label_name, typst_string
from pflbounds.reporting.model import (
    ErratumBlock,
    FormBlock,
    PaperSection,
    PlotSpec,
    Report,
    ResultBlock,
    ValueTable,
    VerdictRow,
)
from pflbounds.reporting.numbers import tidy_prose
from pflbounds.reporting.plainmath import notation_of, to_typst

__all__ = ["build_document", "format_replicas", "shown_figures"]

HIDDEN_SENTENCE = (
    "with the hidden constant set to 1 and no hidden logarithm, and says so beside the value"
)
SEVERITY_ORDER = ("substantive", "proof", "notation", "typo")
QUICK_FIGURES_PER_BLOCK = 1
"""Figures a claim's block shows in a quick report (the figure of its worst failing check)."""

_PREAMBLE = r"""
#let verdict-colors = (
  HOLDS: rgb("#1b7f3a"), VIOLATED: rgb("#c62828"), INCONCLUSIVE: rgb("#a15c00"),
  ERROR: rgb("#616161"),
)
#let status-colors = (
  "holds": rgb("#1b7f3a"), "fails": rgb("#c62828"), "not unit-consistent": rgb("#c62828"),
  "inconclusive": rgb("#a15c00"), "error": rgb("#a15c00"),
  "shown by a run": rgb("#1f5fbf"), "shown by a counterexample": rgb("#1f5fbf"),
  "check disagrees": rgb("#c62828"),
)
#let badge(v) = {
  let c = verdict-colors.at(v, default: rgb("#616161"))
  box(
    fill: c.lighten(88%), stroke: 0.5pt + c, radius: 2pt,
    inset: (x: 2.5pt, y: 1.2pt), outset: (y: 0.5pt),
    text(font: "DejaVu Sans", size: 6.3pt, weight: "bold", fill: c.darken(15%), v),
  )
}
#let claimv(form, v) = box[#text(size: 0.92em, fill: luma(70), form)#h(0.2em)#badge(v)]
#let status(word, body) = {
  let c = status-colors.at(word, default: luma(95))
  text(fill: c, weight: if c == luma(95) { "regular" } else { "bold" }, body)
}
#let unexpected(body) = box(
  fill: rgb("#c62828"), inset: (x: 2.5pt, y: 1.2pt), radius: 2pt,
  text(font: "DejaVu Sans", size: 6.3pt, weight: "bold", fill: white)[REGRESSION: #body],
)
#let ident(s) = text(font: "DejaVu Sans Mono", size: 0.78em, hyphenate: false, s)
#let muted(body) = text(size: 0.92em, fill: luma(95), body)
#let added(eq) = box(fill: rgb("#1b7f3a").lighten(80%), inset: (x: 1.5pt, y: 2pt),
  outset: (y: 1pt), radius: 2pt, math.equation(block: false, math.display(eq.body)))
#let removed(eq) = box(text(fill: rgb("#c62828"), math.equation(block: false,
  math.cancel(math.display(eq.body), stroke: rgb("#c62828") + 0.7pt))))
#let pageof(l) = context {
  let found = query(l)
  if found.len() > 0 { str(counter(page).at(found.first().location()).first()) } else { "—" }
}
// A display equation that fits the text width: shrunk a little if slightly too wide,
// otherwise set as a display-style inline equation, which Typst breaks at + and relations.
#let fitmath(eq) = layout(size => {
  let w = measure(eq).width
  let room = size.width - 8pt  // marks (#added, #removed) draw a little beyond their math
  if w <= room { eq }
  else if w <= room * 1.3 {
    let r = room / w * 100%
    scale(x: r, y: r, reflow: true, eq)
  } else {
    set par(justify: false, leading: 0.9em)
    set text(top-edge: "bounds", bottom-edge: "bounds")
    set align(left)
    math.equation(block: false, math.display(eq.body))
  }
})
#let form(label, eq, note: none, accent: none) = block(breakable: false, above: 0.6em,
  below: 0.6em, inset: (left: 4pt),
  stroke: if accent == none { none } else { (left: 1.5pt + accent) })[
  #grid(
    columns: (5.6em, 1fr), column-gutter: 0.5em, align: (left + horizon, center + horizon),
    text(size: 7.5pt, weight: "bold", fill: luma(70), upper(label)),
    fitmath(eq),
  )
  #if note != none { pad(left: 6.1em, muted(note)) }
]
#let erratum-box(accent, body) = block(
  width: 100%, inset: (left: 7pt, y: 5pt, right: 5pt), stroke: (left: 2pt + accent),
  fill: accent.lighten(95%), breakable: true, above: 0.7em, below: 0.7em, body,
)
#let vocab(term, body) = [#text(weight: "bold", term): #body]
""".strip()


def format_replicas(replicas: int | None) -> str:
    """``exact`` for a closed-form engine, otherwise the replica count."""
    return "exact" if replicas is None else f"{replicas:,}".replace(",", "\u2009")


def _count(n: int, singular: str, plural: str | None = None) -> str:
    """``1 check``, ``3 checks``."""
    return f"{n} {singular if n == 1 else (plural or singular + 's')}"


def _s(text: str) -> str:
    """A Typst string literal."""
    return typst_string(str(text))


def _t(text: str) -> str:
    """Prose in plain notation as Typst markup, numbers to 4 significant digits."""
    return to_typst(tidy_prose(str(text)))


def _e(text: str) -> str:
    """Plain text, escaped (no notation)."""
    return escape_markup(str(text))


def _ident(text: str) -> str:
    return f"#ident({_s(text)})"


def _badge(verdict: str) -> str:
    return f"#badge({_s(verdict)})"


def _sentence(markup: str) -> str:
    """``markup`` ended as a sentence: a full stop unless it ends with one (or ?, !, math, or
    a parenthesis closing a sentence)."""
    markup = markup.rstrip()
    if not markup or markup[-1] in ".!?$" or markup[-2:] in (".)", "!)", "?)"):
        return markup
    return markup + "."


def _header(*cols: str) -> str:
    return "table.header(" + ", ".join(f"[*{_e(c)}*]" for c in cols) + ")"


_RATIO_TOKEN = re.compile(r"(?<![\w.])([<>]?\d+(?:\.\d+)?e-?\d+|[<>]\d+(?:\.\d+)?)(?![\w.])")


def _with_ratios(text: str) -> str:
    """Prose in which ratios (``>1e6``, ``1.45e5``) are kept as printed, not typeset as
    powers of ten."""
    out = []
    for k, p in enumerate(_RATIO_TOKEN.split(text)):
        if not p:
            continue
        if k % 2:
            out.append(_e(p))
        elif p.strip():
            out.append((" " if p[0].isspace() else "") + _t(p)
                       + (" " if p[-1].isspace() else ""))
        else:
            out.append(" ")
    return "".join(out)


def _status(word: str, text: str) -> str:
    return f"#status({_s(word)}, [{_with_ratios(text)}])"


def _short_id(check_id: str) -> str:
    return check_id.split(".", 1)[-1]


class _Writer:
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
            f'#set document(title: {_s(r.title)}, author: "pflbounds")',
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
            f"    [{_e(r.title)}] ; h(1fr) ; [pflbounds {_e(version)}]",
            "  } },",
            "  footer: context { set text(size: 7.5pt, fill: luma(110)); h(1fr);"
            ' counter(page).display("1 / 1", both: true); h(1fr) },',
            ")",
            _PREAMBLE,
            "",
        )

    def first_page(self) -> None:
        r = self.report
        prov = r.provenance
        self.add(f'#text(size: 15pt, weight: "bold")[{_e(r.title)}]', "")
        facts = []
        if prov:
            commit = prov.commit or "not recorded"
            facts.append(f"Created {prov.created} by pflbounds {prov.version} "
                         f"(commit {commit[:12] + commit[40:] if len(commit) > 40 else commit})")
            if prov.suite:
                facts.append(f"suite {prov.suite}")
        n_checks = len(r.all_verdicts())
        facts.append(f"{_count(n_checks, 'check')} run")
        self.add(
            "#text(size: 8.5pt, fill: luma(70))[Five papers on personalized federated learning: "
            "each claim checked on instances that meet its hypotheses, by exact expectations or "
            "Monte Carlo runs. " + _e("; ".join(facts)) + ".]",
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
        undecided = [f for f in fs if f.printed.word in ("inconclusive", "error")]
        unchecked = [f for f in fs if f.printed.word in ("not checked", "not run")]
        errata = [e for s in self.report.sections for e in s.errata]
        sev = Counter(e.severity for e in errata)
        shown = sum(e.status.startswith("shown") for e in errata)
        parts = [f"*{_count(len(fs), 'claim')}* of {_count(len(self.report.sections), 'paper')}:",
                 f"#status(\"fails\", [{len(fail)} fail as printed])"
                 + (f" and {len(units)} more are not unit-consistent" if units else "")
                 + (f" ({len(corr_fail)} still fail corrected)" if corr_fail else "") + ";",
                 f"{len(hold)} hold as printed;"
                 + (f" {len(undecided)} undecided;" if undecided else ""),
                 f"{len(unchecked)} are not checked or not run here.",
                 f"*{_count(len(errata), 'erratum', 'errata')}*: "
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
        items = [f"- {_ident(v.check_id)}: {self._claims_inline(v)} — expected "
                 f"{_e(self._expected_text(v))}" for _, v in bad]
        items += [f"- erratum {_ident(e.id)}: its check {_ident(e.check_id)} does not show it"
                  for _, e in disagree]
        verb = "differs from what its check expects" if len(bad) == 1 else \
            "differ from what their checks expect"
        also = f" and {_count(len(disagree), 'erratum check')} disagree" if disagree else ""
        self.add(
            "#block(width: 100%, fill: rgb(\"#c62828\").lighten(88%), stroke: 1.2pt + "
            "rgb(\"#c62828\"), inset: 6pt, radius: 2pt)[",
            f"#text(fill: rgb(\"#c62828\"), weight: \"bold\", size: 11pt)[REGRESSION: "
            f"{_count(len(bad), 'verdict')} of {n} {verb}{also}.] "
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
            f"#link(<{a}>)[{_e(t)}] #muted[p.~#pageof(<{a}>)]" for t, a in entries)
        self.add(f"#text(size: 8pt)[*Contents:* {cells}]", "")

    def vocabulary(self) -> None:
        forms = form_names()
        used = {f.name for s in self.report.sections for r in s.results for f in r.forms}
        form_text = "; ".join(f"_{_e(k)}_ {_t(v)}" for k, v in forms.items() if k in used)
        verdicts = "; ".join(f"{_badge(k)} {_t(v)}" for k, v in CLAIM_VERDICTS.items())
        status = "; ".join(f"#status({_s(k)}, [{_e(k if k != 'no corrected form' else '—')}])"
                           f" {_t(v)}" for k, v in CLAIM_STATUS.items())
        errata = "; ".join(f"#status({_s(k)}, [{_e(k)}]) {_t(v)}"
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
            f"*Ratio*: {_e(RATIO)}. Rate, scaling, identity and probability checks give their "
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

    # -- findings -------------------------------------------------------------------------
    def findings_chapter(self) -> None:
        self.add("= Findings <findings>", "")
        for s in self.report.sections:
            with notation_of(s.paper_id):  # the paper's constant names: scott2024's L1 is L_1
                self.paper_findings(s)

    def paper_findings(self, s: PaperSection) -> None:
        fs = self.findings[s.paper_id]
        self.add(
            f"#block(above: 0.9em, below: 0.35em, breakable: false)[*{_e(s.paper_id)}* "
            f"#h(0.3em) {_e(s.title)}. #muted[{_e(s.citation)}]]{self._label('paper', s.paper_id)}",
        )
        rows = sorted([f for f in fs if f.tabled], key=lambda f: f.rank)
        if rows:
            self.add(
                "#table(",
                "  columns: (2.4cm, 4.3cm, 2.8cm, 1fr),",
                "  " + _header("Claim", "As printed", "Corrected", "Why") + ",",
            )
            for f in rows:
                name = self._link(f.anchor, f"*{_e(f.name)}*")
                flags = ""
                if f.unexpected:
                    flags = " #unexpected[verdict]"
                self.add(
                    f"  [{name}{flags}], [{_status(f.printed.word, f.printed.text)}], "
                    f"[{_status(f.corrected.word, f.corrected.text)}], "
                    f"[{_t(one_line(f.reason, 125))}],"
                )
            self.add(")")
        lines = []
        for word, lead in (("holds", "Hold as printed"), ("not checked", "Not checked"),
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
                text = "; ".join(", ".join(self._link(f.anchor, _e(f.name)) for f in group)
                                 + f" #muted[({_e(reason)})]" for reason, group in why.items())
                lines.append(f"*{lead}* (#link(<unchecked>)[Appendix A]): {text}.")
            elif word == "not run":  # grouped by why: skipped for a missing extra, or not listed
                why = {}
                for f in names:
                    why.setdefault(f.printed.text.partition(": ")[2], []).append(f)
                text = "; ".join(", ".join(self._link(f.anchor, _e(f.name)) for f in group)
                                 + (f" #muted[(skipped: {_e(reason)})]" if reason else "")
                                 for reason, group in why.items())
                lines.append(f"*{lead}*: {text}.")
            else:
                text = ", ".join(self._link(f.anchor, _e(f.name)) for f in names)
                lines.append(f"*{lead}*: {text}.")
        if s.skipped:  # checks of the run that need an extra that is not installed
            by_why: dict[str, list[str]] = {}
            for cid, reason in s.skipped.items():
                by_why.setdefault(re.sub(r"^check \S+ ", "", reason), []).append(
                    cid.split(".", 1)[-1])
            lines.append("*Skipped, not run*: " + "; ".join(
                f"{_e(', '.join(ids))} #muted[({_e(why)})]" for why, ids in by_why.items())
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
            "  " + _header("Control", "What it plants", "Claim verdicts", "Ratio or statistic")
            + ",",
        )
        for sec, v in rows:
            with notation_of(sec.paper_id):
                self.add(f"  [{_ident(v.check_id)}], [{_t(v.title)}], "
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
        self.add(f"== {_e(s.paper_id)}{self._label('errata', s.paper_id)}", "")
        order = sorted(s.errata, key=lambda e: (SEVERITY_ORDER.index(e.severity)
                                                if e.severity in SEVERITY_ORDER else 9,
                                                not e.status.startswith("shown")))
        self.add(
            "#table(",
            "  columns: (auto, 1fr, auto, auto, auto),",
            "  " + _header("Erratum", "Where", "Severity", "Status", "Claim") + ",",
        )
        loose = [e for e in order if e.id not in self.in_block]
        for e in order:
            claim = self._claim_of(s, e)
            target = claim.anchor if claim is not None else ""
            claim_cell = self._link(target, _e(claim.name)) if claim is not None else "—"
            check = f" #muted[check {_ident(_short_id(e.check_id))}]" if e.check_id else ""
            name = f"erratum {_ident(_short_id(e.id))}"
            if e.id in self.in_block:
                name = f"#link(<{label_name('erratum', e.id)}>)[{name}]"
            self.add(
                f"  [{name}], [{_t(one_line(e.where, 90))}], "
                f"[{_e(e.severity)}], [#status({_s(e.status)}, [{_e(e.status)}]){check}], "
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
            what = _count(rest, "proof, notation or typo erratum",
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
        head = (f"*erratum {_ident(e.id)}* #h(0.4em) {_t(e.where)} #h(1fr) "
                f"#muted[{_e(e.severity)}] #h(0.4em) "
                f"#status({_s(e.status)}, [{_e(e.status)}])")
        body = [head, f"*What is wrong.* {_sentence(_t(e.what))}", f"*Fix.* {_sentence(_t(e.fix))}"]
        if e.check_id and e.check_id not in self.in_block_checks:
            if e.status == "not run":
                body.append(f"*Check* {_ident(e.check_id)} is not in this run.")
            else:
                got = " ".join(f"#claimv({_s(c.form)}, {_s(c.verdict)})" for c in e.claims)
                body.append(f"*Check* {_ident(e.check_id)}: {got}"
                            + (" (the verdicts it expects)." if e.status.startswith("shown")
                               else "."))
        joined = " \\\n".join(body)
        self.add(f"#erratum-box({accent})[{joined}]{self._label('erratum', e.id)}", "")

    # -- claim blocks ------------------------------------------------------------------
    def claims_chapter(self) -> None:
        self.add("= Claims that fail or have an erratum shown <claims>", "")
        any_block = False
        for s in self.report.sections:
            fs = [f for f in self.findings[s.paper_id] if f.anchor in self.quick_blocks]
            if not fs:
                continue
            any_block = True
            self.add(f"== {_e(s.paper_id)}: {_e(s.title)}", "")
            with notation_of(s.paper_id):
                for f in sorted(fs, key=lambda f: f.rank):
                    self.claim_block(s, f, quick=not self.full)
        if not any_block:
            self.add("No claim fails, is undecided or has an erratum shown.", "")

    def claim_block(self, s: PaperSection, f: ClaimFinding, quick: bool) -> None:
        """A claim's block: its results (in a quick report, the main one in full and the
        other notable ones by their checks), the claim verdicts of its checks, a figure and its
        errata."""
        self.add(
            f"=== {_e(s.paper_id)} · {_e(f.name)}{self._label(*f.anchor.split('-', 1))}",
            f"#text(size: 8.5pt)[As printed: {_status(f.printed.word, f.printed.text)} "
            f"#h(0.8em) Corrected: {_status(f.corrected.word, f.corrected.text)} #h(1fr) "
            f"#link(<{label_name('paper', s.paper_id)}>)[↑ findings]]",
            "",
        )
        notable = [v for v in f.rows if self._notable(v)]
        self.in_block_checks = {v.check_id for v in (notable if quick else f.rows)}
        pick = self._figure_pick(notable if quick else f.rows, quick)
        if quick:
            main = self._main_result(f, notable)
            busy = {v.result_id for v in notable} | {r.id for r in f.results
                                                    if any(fb.dimension for fb in r.forms)}
            brief = [r for r in f.results if r.id in busy and r is not main]
            shown = [r for r in f.results if r is main or r in brief]
        else:
            main, brief, shown = None, [], list(f.results)
        for res in shown:
            rows = [v for v in f.rows if v.result_id == res.id]
            if res in brief:
                self.result_brief(res, rows)
            else:
                self.result(s, res, rows, quick)
            if not quick:
                for v in rows:
                    for plot in pick.get(v.check_id, []):
                        self.figure(plot, v)
                    for k, table in enumerate(v.tables, 1):
                        self.value_table(table, f"{v.check_id}-{k}", v)
        if not f.results:
            self.verdict_table(f.rows, quick)
        others = [r for r in f.results if r not in shown]
        if others:
            names = "; ".join(f"{_t(r.label)} ({self._one_status(f, r)})" for r in others)
            self.add(f"#muted[Also part of {_e(f.name)}: {names}.]", "")
        full_errata = [e for e in f.home if e.id in self.in_block]
        brief_errata = [e for e in f.errata if e not in full_errata]
        plots = [(p, v) for v in f.rows for p in pick.get(v.check_id, [])] if quick else []
        if plots and full_errata:
            self.add("#grid(columns: (1fr, 43%), column-gutter: 0.8em, [")
            for e in full_errata:
                self.erratum(e)
            self.add("], [")
            for p, v in plots:
                self.figure(p, v, width="100%")
            self.add("])", "")
        else:
            for p, v in plots:
                self.figure(p, v, side=True)
            for e in full_errata:
                self.erratum(e)
        if brief_errata:
            self.add("#text(size: 8pt)[*Also:* " + "; ".join(
                f"#link(<{self._erratum_target(e)}>)[erratum {_ident(_short_id(e.id))}] "
                f"({_t(one_line(e.where, 60))}: #status({_s(e.status)}, [{_e(e.status)}]))"
                for e in brief_errata) + ".]", "")

    def _printed_in_full(self, e: ErratumBlock) -> bool:
        """Whether ``e`` is printed in full somewhere: in a claim's block, or in the errata
        chapter (every one in a full report; the substantive ones in a quick report)."""
        return self.full or e.id in self.in_block or e.severity == "substantive"

    def _erratum_target(self, e: ErratumBlock) -> str:
        """The label a link to ``e`` points to: its box, or its paper's errata table."""
        if self._printed_in_full(e):
            return label_name("erratum", e.id)
        return label_name("errata", e.id.split(".", 1)[0])

    @staticmethod
    def _erratum_in_full(e: ErratumBlock) -> bool:
        """Errata a quick block prints in full: substantive ones that a check shows, or whose
        check disagrees."""
        return e.severity == "substantive" and (e.status.startswith("shown")
                                                or e.status == "check disagrees")

    def _main_result(self, f: ClaimFinding, notable: Sequence[VerdictRow]
                     ) -> ResultBlock | None:
        """The result a quick block shows in full: that of its worst check, else the first
        that is not unit-consistent, else the first an erratum names."""
        ids = {r.id: r for r in f.results}
        if notable:
            worst = max(notable, key=self._worst_key)
            if worst.result_id in ids:
                return ids[worst.result_id]
        for r in f.results:
            if any(fb.dimension for fb in r.forms):
                return r
        for e in f.errata:
            for rid in e.result_ids:
                if rid in ids:
                    return ids[rid]
        return f.results[0] if f.results else None

    def result_brief(self, res: ResultBlock, rows: Sequence[VerdictRow]) -> None:
        """A result of the claim other than the main one: its name and its notable checks."""
        dims = "; ".join(_t(fb.dimension) for fb in res.forms if fb.dimension)
        self.add(
            f"#block(above: 0.7em, below: 0.3em, breakable: false)[*{_t(res.label)}* #h(0.4em) "
            f"#muted[{_ident(res.id)} · {_e(res.kind)}]"
            + (f" #h(0.4em) #text(size: 8.3pt)[#status(\"not unit-consistent\", "
               f"[not unit-consistent:]) {dims}]" if dims else "")
            + f"]{self._label('result', res.id)}",
        )
        if rows:
            self.verdict_table(rows, quick=True)

    @staticmethod
    def _notable(v: VerdictRow) -> bool:
        """A check worth a row in a quick block: a claim verdict other than HOLDS, a verdict
        its check does not expect, or an erratum it shows."""
        return v.unexpected or bool(v.errata_ids) or any(c.verdict != "HOLDS"
                                                         for c in v.claims)

    def _figure_pick(self, rows: Sequence[VerdictRow], quick: bool) -> dict[str, list]:
        """The figures each check shows in the block: every figure in a full block; in a
        quick one, the first figure of the worst check (a failing one first)."""
        if not quick:
            return {v.check_id: list(v.plots) for v in rows}
        with_plots = [v for v in rows if v.plots]
        if not with_plots:
            return {}
        worst = max(with_plots, key=self._worst_key)
        return {worst.check_id: worst.plots[:QUICK_FIGURES_PER_BLOCK]}

    def _one_status(self, f: ClaimFinding, r: ResultBlock) -> str:
        rows = [v for v in f.rows if v.result_id == r.id]
        if rows:
            words = Counter(c.verdict for v in rows for c in v.claims)
            return ", ".join(f"{n} {w}" for w, n in words.most_common())
        return "not checked" if not r.checks else "not run"

    @staticmethod
    def _worst_key(v: VerdictRow) -> tuple:
        bad = any(c.verdict == "VIOLATED" for c in v.claims)
        ratio = max((c.ratio for c in v.claims if c.ratio is not None), default=0.0)
        return (v.unexpected, bad, ratio)

    def result(self, s: PaperSection, res: ResultBlock, rows: Sequence[VerdictRow],
               quick: bool = False) -> None:
        if res.quantity_typst:
            quantity = f" · bounds ${res.quantity_typst}$" if res.kind != "identity" else ""
        elif len(res.quantity) > LONG_QUANTITY:
            quantity = f" · $Q$: {_t(res.quantity)}"
        else:
            quantity = f" · bounds {_t(res.quantity)}" if res.kind != "identity" else ""
        self.add(
            f"#block(above: 0.8em, below: 0.35em, breakable: false)[*{_t(res.label)}* "
            f"#h(0.4em) #muted[{_ident(res.id)} · {_e(res.kind)}{quantity}]]"
            f"{self._label('result', res.id)}",
        )
        if res.statement:
            self.add(f"#text(size: 8.6pt)[{_t(res.statement)}]", "")
        if not quick and (res.hypotheses or res.conditions):
            names = {a.id: a.name for a in s.assumptions}
            parts = []
            if res.hypotheses:
                parts.append("Hypotheses: " + "; ".join(
                    f"{_ident(h)} ({_t(names[h])})" if h in names else _t(h)
                    for h in res.hypotheses))
            if res.conditions:
                parts.append("Conditions: " + ", #h(0.3em)".join(f"${c}$"
                                                                for c in res.conditions))
            self.add(f"#muted[{' #h(0.6em) '.join(parts)}]", "")
        forms = self._forms_in_order(res)
        if quick:
            failing = {c.form for v in rows for c in v.claims if c.verdict != "HOLDS"}
            keep = [fb for fb in forms if fb.marked or fb.dimension or fb.name in failing]
            forms = keep or forms[:1]
        for fb in forms:
            self.form(fb, quick)
        left = [fb.name for fb in self._forms_in_order(res) if fb not in forms]
        if left:
            self.add(f"#muted[Other forms ({', '.join(left)}): in the report made with "
                     "`--detail full`.]", "")
        dims = [fb for fb in res.forms if fb.dimension]
        if dims:
            self.add("#text(size: 8.3pt)[#status(\"not unit-consistent\", [Not unit-consistent:])"
                     f" {'; '.join(_t(fb.dimension) for fb in dims)}.]", "")
        if rows:
            self.verdict_table(rows, quick)

    @staticmethod
    def _forms_in_order(res: ResultBlock) -> list[FormBlock]:
        """The paper's form the correction is compared with first, then the corrected form,
        then the others in their order."""
        marked = [f for f in res.forms if f.marked]
        marked.sort(key=lambda f: f.name == "corrected")
        return marked + [f for f in res.forms if not f.marked]

    def form(self, f: FormBlock, quick: bool = False) -> None:
        """A form as display math; the compared pair with the change marked (the legend is on
        the first page). A quick report leaves out the form's note (the detail appendix has
        it) but keeps its conditions."""
        eq = f.marked or f.typst
        accent = None
        note = _sentence(_t(f.note)) if f.note and not quick else ""
        if quick and f.marked_changed:
            eq = f.marked_changed
            note = "#muted[Parts the correction leaves unchanged are omitted.]"
        if f.marked:
            accent = 'rgb("#1b7f3a")' if f.name == "corrected" else 'rgb("#c62828")'
        if f.conditions:
            conds = ", ".join(f"${c}$" for c in f.conditions)
            note = (note + " " if note else "") + f"Conditions: {conds}."
        args = [_s(f.name), f"$ {eq} $"]
        if note:
            args.append(f"note: [{note}]")
        if accent:
            args.append(f"accent: {accent}")
        self.add(f"#form({', '.join(args)})", "")

    def _claims_inline(self, v: VerdictRow) -> str:
        return " ".join(f"#claimv({_s(c.form)}, {_s(c.verdict)})" for c in v.claims)

    @staticmethod
    def _expected_text(v: VerdictRow) -> str:
        want = {c.form: c.expected for c in v.claims if c.expected}
        return claims_text(want) if want else v.expected

    def _measure(self, v: VerdictRow) -> str:
        parts = []
        for c in v.claims:
            if c.ratio is not None:
                text = _e(format_ratio(c.ratio))
                if len(v.claims) > 1:
                    text = f"#muted[{_e(c.form)}] {text}"
                if c.where:
                    text += f" #muted[at {_t(c.where)}]"
                parts.append(text)
        if parts:
            return " \\ ".join(parts)
        return _t(v.statistic) if v.statistic else "—"

    def verdict_table(self, rows: Iterable[VerdictRow], quick: bool = False) -> None:
        rows = list(rows)
        rest: list[VerdictRow] = []
        if quick:
            rest = [v for v in rows if not self._notable(v)]
            rows = [v for v in rows if self._notable(v)]
        if not rows:
            if rest:
                self.add(f"#muted[{_count(len(rest), 'check')} of it "
                         f"{'holds' if len(rest) == 1 else 'hold'}: "
                         + ", ".join(_ident(v.check_id) for v in rest) + ".]", "")
            return
        self.add(
            "#table(",
            "  columns: (1fr, auto, 3.6cm, auto),",
            "  align: (left, left, left, right),",
            "  " + _header("Check", "Claim verdicts", "Ratio (where) or statistic",
                           "Replicas") + ",",
        )
        for v in rows:
            mark = ""
            if v.unexpected:
                mark = f" #unexpected[expected {_e(self._expected_text(v))}]"
            errata = ""
            if v.errata_ids:
                errata = " #muted[shows " + ", ".join(
                    f"erratum {_ident(_short_id(e))}" for e in v.errata_ids) + "]"
            self.add(
                f"  [{_ident(v.check_id)} #muted[{_e(v.kind.replace('_', ' '))}] \\ "
                f"{_t(one_line(v.title, 140))}{errata}], "
                f"[{self._claims_inline(v)}{mark}], [{self._measure(v)}], "
                f"[{format_replicas(v.replicas)}],"
            )
        self.add(")")
        if rest:
            self.add(f"#muted[Also {_count(len(rest), 'check')} with every claim verdict "
                     "HOLDS: " + ", ".join(_ident(v.check_id) for v in rest) + ".]")
        self.add("")
        if not quick:
            for v in rows:
                if v.detail:
                    self.add(f"#text(size: 7.8pt)[{_ident(v.check_id)}: "
                             f"{_sentence(_t(v.detail))}]", "")

    def figure(self, plot: PlotSpec, v: VerdictRow, width: str = "62%",
               side: bool = False) -> None:
        """A figure of check ``v`` captioned with what it shows; ``side``: the caption beside
        the image (a quick block saves the height of the caption)."""
        stem = self.stems.get(id(plot))
        if stem is None:
            return
        what = _t(plot.title.split(": ", 1)[-1] if plot.title.startswith(v.check_id)
                  else plot.title)
        caption = _sentence(_t(plot.caption)) if plot.caption and plot.caption != plot.title \
            else ""
        verdicts = ", ".join(f"{c.form} {c.verdict}" for c in v.claims)
        text = (f"Check {_ident(v.check_id)} ({_e(verdicts)}): {_sentence(what)} {caption}")
        image = f"image({_s(f'{self.figures_dir}/{stem}.svg')}, width: 100%)"
        if side:
            self.add(
                "#block(breakable: false, above: 0.8em, below: 0.8em)[#grid(columns: (58%, 1fr),"
                " column-gutter: 0.9em, align: (center, left + horizon),",
                f"  {image}, text(size: 8pt)[*Figure.* {text}])]" + self._label("fig", stem),
                "",
            )
            return
        self.add(
            "#figure(",
            f"  image({_s(f'{self.figures_dir}/{stem}.svg')}, width: {width}),",
            f"  caption: [{text}],",
            ")" + self._label("fig", stem),
            "",
        )

    def value_table(self, table: ValueTable, key: str, v: VerdictRow) -> None:
        caption = _sentence(_t(table.caption)) if table.caption else ""
        cells = ", ".join(f"[{_t(c)}]" for row in table.rows for c in row)
        n = len(table.columns)
        what = _t(table.title.split(": ", 1)[-1] if table.title.startswith(v.check_id)
                  else table.title)
        self.add(
            "#figure(kind: table,",
            f"  table(columns: {n}, align: (left,) + (right,) * {n - 1}, "
            f"{_header(*table.columns)}, {cells}),",
            f"  caption: [Check {_ident(v.check_id)}: {_sentence(what)} {caption}],",
            ")" + self._label("tab", key),
            "",
        )

    # -- appendices ------------------------------------------------------------------------
    def unchecked_appendix(self) -> None:
        self.add("= Results without a check <unchecked>", "")
        rows = [r for s in self.report.sections for r in s.results if not r.checks]
        if not rows:
            self.add("Every encoded result has a check.", "")
            return
        self.add(
            f"{_count(len(rows), 'result')} of "
            f"{sum(len(s.results) for s in self.report.sections)} have no check of their own. "
            "Why, in the encoding's words where it says (else the default for its kind: _no "
            "check yet_), and the checks of other results that exercise it, through an erratum "
            "they share or their claim (ids without the paper prefix).",
            "",
            "#table(",
            "  columns: (4.2cm, 1fr, 1fr),",
            "  " + _header("Result", "Why no check", "Exercised through") + ",",
        )
        for r in rows:
            with notation_of(r.id.split(".", 1)[0]):
                self._unchecked_row(r)
        self.add(")", "")

    def _unchecked_row(self, r: ResultBlock) -> None:
        why = r.unchecked or default_unchecked(r.kind)
        through = "; ".join(
            " ".join(_ident(_short_id(c)) for c in ids[:3])
            + (f" +{len(ids) - 3}" if len(ids) > 3 else "") + f" #muted[({_t(how)})]"
            for ids, how in r.exercised_by) or "—"
        self.add(f"  [{_t(r.label)} \\ #muted[{_ident(r.id)}]], [{_t(why)}], "
                 f"[{through}],")

    def provenance_appendix(self) -> None:
        prov = self.report.provenance
        self.add("= Provenance <provenance>", "")
        if prov is None:
            self.add("No provenance was recorded for this report.", "")
            return
        packages = ", ".join(f"{n} {v}" for n, v in prov.packages) or "—"
        facts = [
            ("pflbounds", f"{_e(prov.version)}, commit #raw({_s(prov.commit or 'not recorded')})"),
            ("Data made by", f"#raw({_s(prov.data_command)})" if prov.data_command else
             "— (not recorded)"),
            ("Report made by", f"#raw({_s(prov.command)})"),
            ("Created", _e(prov.created)),
            ("Seed", _e(prov.seed or "—") + " (every check's random streams are spawned from "
                                            "it, so a rerun is bitwise identical)"),
            ("Runtime", _e(prov.runtime or "—")),
            ("Python, platform", _e(f"{prov.python or '—'}, {prov.platform or '—'}")),
            ("Libraries", _e(packages)),
        ]
        self.add("#table(columns: (auto, 1fr), stroke: none, inset: 2pt,")
        for k, v in facts:
            self.add(f"  [*{k}*], [{v}],")
        self.add(")", "")
        refs = [s for s in self.report.sections if s.citation]
        if refs:
            self.add("*Papers.*", "")
            for s in refs:
                self.add(f"- {_ident(s.paper_id)}: {_e(s.title)}. {_e(s.citation)}")
            self.add("")
        if self.report.error_control:
            self.add(_t(self.report.error_control), "")
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
            self.add(f"== {_e(s.paper_id)}: {_e(s.title)}", "")
            hidden = list(dict.fromkeys(h for r in s.results for f in r.forms
                                        for h in f.hidden_constants))
            if hidden:
                self.add(f"#muted[Hidden constants ({'; '.join(_t(h) for h in hidden)}): "
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
                "  " + _header("Check", "Seed", "Configuration hash (SHA-256)") + ",",
            )
            for r in prov.rows:
                seed = "—" if r.seed is None else str(r.seed)
                self.add(f"  [{_ident(r.check_id)}], [{seed}], "
                         f'[#text(font: "DejaVu Sans Mono", size: 5.8pt, {_s(r.config_hash)})],')
            self.add(")", "")

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

