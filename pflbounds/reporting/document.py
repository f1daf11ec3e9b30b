"""Build the Typst source of a report from a :class:`~pflbounds.reporting.model.Report`.

Layout:

1. title page: title, date, version, suite, the verdict summary and the contents;
2. overview: every verdict of every paper in one table;
3. one chapter per paper: assumptions, results (each form as display math; the meaning of
   hidden-constant markers said once), the verdict table with each check's details, figures
   and value tables, and the errata, each with its finding and a reference to the figures of
   the check that demonstrates it;
4. appendix: provenance (the ``validate`` command that made the data, the ``report`` command,
   version, platform, seeds and config hashes).

Prose is typeset with :func:`~pflbounds.reporting.plainmath.to_typst` (notation as math, the
rest escaped); identifiers and verdicts are passed to Typst helper functions as string
literals, so they appear verbatim in the ``.typ`` source and copy cleanly from the PDF; math
fields are inserted as Typst math. Every verdict is shown with the verdict its check expects.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping

from pflbounds.reporting.escape import escape_markup, label_name, typst_string
from pflbounds.reporting.model import (
    VERDICTS,
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

__all__ = ["build_document", "format_margin", "format_replicas"]

_MAX_LISTED = 12  # unexpected verdicts listed by name on the title page

_FORM_LABELS = {"printed": "Printed", "explicit": "Explicit", "corrected": "Corrected",
                "proof": "Proof"}

HIDDEN_SENTENCE = (
    "with the hidden constant set to 1 and no hidden logarithm, and says so beside the value"
)

# Page setup and helper functions used by the generated body.
_PREAMBLE = r"""
#let verdict-colors = (
  HOLDS: rgb("#1b7f3a"),
  VIOLATED: rgb("#c62828"),
  INCONCLUSIVE: rgb("#a15c00"),
  CONFIRMED: rgb("#1f5fbf"),
  DEMONSTRATED: rgb("#1f5fbf"),
  "NOT DEMONSTRATED": rgb("#c62828"),
)
#let badge(v) = {
  let c = verdict-colors.at(v, default: rgb("#616161"))
  box(
    fill: c.lighten(88%), stroke: 0.6pt + c, radius: 2pt,
    inset: (x: 3pt, y: 1.6pt), outset: (y: 0.6pt),
    text(font: "DejaVu Sans", size: 6.8pt, weight: "bold", fill: c.darken(15%), v),
  )
}
#let verdict(v, expected) = if v == expected {
  box[#badge(v)#h(0.25em)#text(size: 6.8pt, fill: luma(95))[(expected)]]
} else {
  box[#badge(v)#h(0.25em)#text(size: 6.8pt, fill: rgb("#c62828"), weight: "bold")[
    #sym.arrow.r.double expected #expected]]
}
#let ident(s) = text(font: "DejaVu Sans Mono", size: 0.8em, hyphenate: false, s)
#let muted(body) = text(size: 8.5pt, fill: luma(90), body)
// A display equation that fits the text width: shrunk a little if slightly too wide,
// otherwise set as a display-style inline equation, which Typst breaks at + and relations.
#let fitmath(eq) = layout(size => {
  let w = measure(eq).width
  if w <= size.width { eq }
  else if w <= size.width * 1.25 {
    let r = size.width / w * 100%
    scale(x: r, y: r, reflow: true, eq)
  } else {
    set par(justify: false, leading: 0.9em)
    set text(top-edge: "bounds", bottom-edge: "bounds")
    set align(left)
    math.equation(block: false, math.display(eq.body))
  }
})
#let form(label, eq, note: none) = block(breakable: false, above: 0.9em, below: 0.9em)[
  #grid(
    columns: (6.2em, 1fr), column-gutter: 0.6em, align: (left + horizon, center + horizon),
    text(size: 8.5pt, weight: "bold", fill: luma(70), upper(label)),
    fitmath(eq),
  )
  #if note != none { pad(left: 6.8em, muted(note)) }
]
#let erratum-box(body) = block(
  width: 100%, inset: (left: 8pt, y: 6pt, right: 6pt), stroke: (left: 2pt + rgb("#1f5fbf")),
  fill: rgb("#1f5fbf").lighten(95%), breakable: true, body,
)
""".strip()


def format_margin(margin: float | None) -> str:
    """A margin (bound / measured) for tables: 4 significant digits, ``—`` when absent."""
    if margin is None:
        return "—"
    if margin != margin:  # NaN
        return "n/a"
    if margin in (float("inf"), float("-inf")):
        return "∞" if margin > 0 else "−∞"
    return f"{margin:.4g}"


def format_replicas(replicas: int | None) -> str:
    """``exact`` for a closed-form engine, otherwise the replica count."""
    return "exact" if replicas is None else f"{replicas:,}".replace(",", "\u2009")


def _count(n: int, singular: str, plural: str | None = None) -> str:
    """``1 check``, ``3 checks``."""
    return f"{n} {singular if n == 1 else (plural or singular + 's')}"


def _header(*cols: str) -> str:
    """A repeated, bold table header row (cells in plain notation)."""
    return "table.header(" + ", ".join(f"[*{to_typst(c)}*]" for c in cols) + ")"


def _s(text: str) -> str:
    """A Typst string literal."""
    return typst_string(str(text))


def _t(text: str) -> str:
    """Prose in plain notation as Typst markup, numbers to 4 significant digits."""
    return to_typst(tidy_prose(str(text)))


def _ident(text: str) -> str:
    return f"#ident({_s(text)})"


def _badge(verdict: str) -> str:
    return f"#badge({_s(verdict)})"


def _verdict(verdict: str, expected: str) -> str:
    return f"#verdict({_s(verdict)}, {_s(expected)})"


def _sentence(markup: str) -> str:
    """``markup`` ended as a sentence: a full stop unless it ends with one (or ?, !, math, or
    a parenthesis closing a sentence); "... (3 draws)" gets one, so that a title and the
    caption after it do not run together."""
    markup = markup.rstrip()
    if not markup or markup[-1] in ".!?$" or markup[-2:] in (".)", "!)", "?)"):
        return markup
    return markup + "."


def _item_title(title: str, check_id: str) -> str:
    """A figure's or table's title as Typst: a leading ``CHECK_ID: `` is set as an identifier
    (plain text would typeset ``E_dimension`` as E with a subscript), the rest as text."""
    if not title:
        return ""
    prefix = f"{check_id}: "
    if check_id and title.startswith(prefix):
        return f"{_ident(check_id)}: {_sentence(_t(title[len(prefix):]))}"
    return _sentence(_t(title))


class _Writer:
    """Accumulates the Typst source; knows the figure file stems."""

    def __init__(self, report: Report, figure_stems: Mapping[int, str], figures_dir: str) -> None:
        self.report = report
        self.stems = figure_stems
        self.figures_dir = figures_dir.rstrip("/")
        self.lines: list[str] = []
        self.labels: set[str] = set()
        self.rows = {v.check_id: v for _, v in report.all_verdicts()}
        # Checks with a details block get a label; the overview links to it.
        self.check_targets = {v.check_id for v in self.rows.values()
                              if v.detail or v.plots or v.tables}

    def _label(self, kind: str, ident: str) -> str:
        """`` <label>`` the first time a label is used, else nothing (labels must be unique)."""
        name = label_name(kind, ident)
        if name in self.labels:
            return ""
        self.labels.add(name)
        return f" <{name}>"

    def add(self, *lines: str) -> None:
        self.lines.extend(lines)

    # -- page setup and title --------------------------------------------------------------
    def setup(self) -> None:
        r = self.report
        prov = r.provenance
        version = prov.version if prov else ""
        self.add(
            f'#set document(title: {_s(r.title)}, author: "pflbounds")',
            '#set text(font: "Libertinus Serif", size: 10pt, lang: "en")',
            "#set par(justify: true)",
            '#set heading(numbering: "1.1")',
            "#show heading.where(level: 1): it => { pagebreak(weak: true); it; v(0.3em) }",
            "#show heading: set block(above: 1.3em, below: 0.7em)",
            "#show heading: set text(hyphenate: false)",
            "#set table(stroke: 0.4pt + luma(175), inset: (x: 4pt, y: 3.5pt))",
            "#show table: set text(size: 8.5pt)",
            "#show table: set par(justify: false)",
            "#set table.cell(breakable: false)",
            "#show figure.caption: set text(size: 8.5pt)",
            "#show figure.caption: set par(justify: false)",
            "#show figure: set block(breakable: false)",
            "#show figure.where(kind: table): set figure.caption(position: top)",
            '#set page(paper: "a4", margin: (x: 2cm, top: 2.2cm, bottom: 2.2cm),',
            "  header: context { if counter(page).get().first() > 1 {",
            "    set text(size: 8pt, fill: luma(110))",
            f"    [{escape_markup(r.title)}] ; h(1fr) ; [pflbounds {escape_markup(version)}]",
            "  } },",
            "  footer: context { set text(size: 8pt, fill: luma(110)); h(1fr);"
            ' counter(page).display("1 / 1", both: true); h(1fr) },',
            ")",
            _PREAMBLE,
            "",
        )

    def title_page(self) -> None:
        r = self.report
        prov = r.provenance
        self.add(
            "#v(2.5cm)",
            f'#align(center, text(size: 22pt, weight: "bold")[{escape_markup(r.title)}])',
            "#v(0.4cm)",
            "#align(center, text(size: 11pt, fill: luma(80))"
            "[Personalized federated learning: statements, checks and errata])",
            "#v(0.8cm)",
        )
        if prov:
            facts = [("Created", prov.created), ("pflbounds", prov.version)]
            if prov.suite:
                facts.append(("Suite", prov.suite))
            cells = ", ".join(f"[*{escape_markup(k)}*], [{escape_markup(v)}]" for k, v in facts)
            self.add(
                "#align(center, table(columns: 2, stroke: none, align: (right, left), "
                f"inset: 2pt, {cells}))"
            )
        self.add("#v(0.8cm)", "#align(center, block(width: 85%)[", "#set align(left)")
        self.summary()
        self.add(
            "])",
            "#v(0.6cm)",
            "#align(center, block(width: 85%)[",
            "#heading(level: 2, numbering: none, outlined: false)[Contents]",
            "#outline(depth: 2, indent: auto, title: none)",
            "])",
            "",
        )

    def summary(self) -> None:
        rows = self.report.all_verdicts()
        counts = Counter((v.verdict, v.as_expected) for _, v in rows)
        unexpected = [(s, v) for s, v in rows if not v.as_expected]
        n_results = sum(len(s.results) for s in self.report.sections)
        n_errata = sum(len(s.errata) for s in self.report.sections)
        rank = {v: k for k, v in enumerate(VERDICTS)}
        order = sorted(counts, key=lambda vk: (rank.get(vk[0], len(VERDICTS)), vk[0], not vk[1]))
        parts = []
        for verdict, ok in order:
            parts.append(f"{_badge(verdict)} {counts[(verdict, ok)]}"
                         + ("" if ok else ' #text(fill: rgb("#c62828"))[unexpected]'))
        badges = " #h(0.8em) ".join(parts) or "no checks"
        self.add(
            "#heading(level: 2, numbering: none, outlined: false)[Summary]",
            f"{_count(len(self.report.sections), 'paper')}, {_count(n_results, 'result')}, "
            f"{_count(len(rows), 'check')}, {_count(n_errata, 'erratum', 'errata')}.",
            "",
            f"#align(center)[{badges}]",
            "",
        )
        if unexpected:
            self.add(
                f'#text(fill: rgb("#c62828"), weight: "bold")'
                f"[{_count(len(unexpected), 'verdict')} "
                f"{'differs' if len(unexpected) == 1 else 'differ'} from the expected verdict:]",
                "",
            )
            shown = unexpected[:_MAX_LISTED]
            self.add("#table(columns: (1fr, auto), stroke: none, inset: 2pt,")
            for _, v in shown:
                self.add(f"  [{_ident(v.check_id)}], [{_verdict(v.verdict, v.expected)}],")
            self.add(")", "")
            if len(unexpected) > len(shown):
                self.add(
                    f"… and {len(unexpected) - len(shown)} more: see the "
                    "#link(<overview>)[overview of verdicts].",
                    "",
                )
        elif rows:
            notable = [v for _, v in rows if v.expected not in ("HOLDS", "CONFIRMED")]
            line = "Every verdict matches the verdict its check expects"
            if notable:
                line += (": " + ", ".join(f"{_ident(v.check_id)} is expected to be "
                                          f"{escape_markup(v.expected)}" for v in notable))
            self.add(line + ".", "")
        for s in self.report.sections:
            c = Counter(v.verdict for v in s.verdicts)
            parts = ", ".join(f"{c[k]} {k.lower()}" for k in sorted(c)) or "no checks"
            self.add(
                f"- *{escape_markup(s.title)}* ({_ident(s.paper_id)}): "
                f"{_count(len(s.results), 'result')}; {_count(len(s.verdicts), 'check')} "
                f"({escape_markup(parts)}); {_count(len(s.errata), 'erratum', 'errata')}."
            )
        self.add("")

    # -- overview ------------------------------------------------------------------------
    def overview(self) -> None:
        self.add("#heading(numbering: none)[Overview of verdicts] <overview>", "")
        rows = self.report.all_verdicts()
        if not rows:
            self.add("No checks were run.", "")
            return
        self.add(
            "Each verdict is shown with the verdict its check expects: _(expected)_ when they"
            " agree, an arrow and the expected verdict when they differ. An erratum check"
            " CONFIRMED demonstrates its erratum; a check expected to be VIOLATED shows where a"
            " claim stops holding. Margin says how close a check came to the other verdict: the"
            " smallest bound/measured ratio for bounds (measured/bound for lower bounds), the"
            " distance |slope - predicted| for rates and scalings (for a one-sided claim, how"
            " far the slope lies beyond the claimed bound: negative inside), tolerance/residual for"
            " identities (∞: residual exactly 0), and the smallest printed bound/measured"
            " ratio for errata (below 1: the printed form fails). Replicas is the Monte Carlo"
            " sample size, or _exact_ for closed-form expectations.",
            "",
        )
        if self.report.error_control:
            self.add(_t(self.report.error_control), "")
        self.add(
            "#table(",
            "  columns: (auto, 1fr, auto, auto, auto),",
            "  align: (left, left, left, right, right),",
            "  " + _header("Check", "Result (form), kind", "Verdict", "Margin", "Replicas")
            + ",",
        )
        for section in self.report.sections:
            self.add(
                f"  table.cell(colspan: 5, fill: luma(240))[*{escape_markup(section.title)}*],"
            )
            with notation_of(section.paper_id):
                for v in section.verdicts:
                    self.add("  " + self._verdict_cells(v) + ",")
        self.add(")", "")

    def _verdict_cells(self, v: VerdictRow) -> str:
        check = _ident(v.check_id)
        if v.check_id in self.check_targets:
            check = f"#link(<{label_name('check', v.check_id)}>)[{check}]"
        return ", ".join(
            [
                f"[{check}]",
                f"[{_ident(v.result_id)} ({escape_markup(v.form)}) \\ "
                f"#muted[{escape_markup(v.kind.replace('_', ' '))}]]",
                f"[{_verdict(v.verdict, v.expected)}]",
                f"[{format_margin(v.margin)}]",
                f"[{format_replicas(v.replicas)}]",
            ]
        )

    # -- paper chapters ----------------------------------------------------------------------
    def paper(self, s: PaperSection) -> None:
        self.add(
            f"= {escape_markup(s.title)}{self._label('paper', s.paper_id)}",
            f"#muted[Paper id {_ident(s.paper_id)}"
            + (f". {escape_markup(s.citation)}" if s.citation else "")
            + "]",
            "",
        )
        if s.assumptions:
            self.add("== Assumptions", "", "#table(", "  columns: (auto, auto, 1fr),")
            self.add("  " + _header("ID", "Name", "Statement") + ",")
            for a in s.assumptions:
                self.add(f"  [{_ident(a.id)}], [{_t(a.name)}], [{_t(a.statement)}],")
            self.add(")", "")
        if s.results:
            self.add("== Results", "")
            hidden = list(dict.fromkeys(h for r in s.results for f in r.forms
                                        for h in f.hidden_constants))
            if hidden:
                markers = "; ".join(_t(h) for h in hidden)
                self.add(
                    f"Some printed forms hide constants ({markers}). pflbounds evaluates such a "
                    f"form {HIDDEN_SENTENCE}.",
                    "",
                )
            names = {a.id: a.name for a in s.assumptions}
            for res in s.results:
                self.result(s, res, names)
        self.add("== Checks and verdicts", "")
        if s.verdicts:
            self.verdict_table(s)
            for v in s.verdicts:
                self.check_details(v)
        else:
            self.add("No checks were run for this paper.", "")
        if s.errata:
            self.add("== Errata", "")
            for e in s.errata:
                self.erratum(s, e)

    def result(self, s: PaperSection, res: ResultBlock, names: Mapping[str, str]) -> None:
        quantity = f"${res.quantity_typst}$" if res.quantity_typst else _t(res.quantity)
        self.add(
            f"=== {_t(res.label)}{self._label('result', res.id)}",
            f"#muted[{_ident(res.id)} #h(0.6em) {escape_markup(res.kind)}"
            + (f" #h(0.6em) bounds: {quantity}" if res.quantity else "")
            + "]",
            "",
        )
        if res.statement:
            self.add(_t(res.statement), "")
        if res.hypotheses or res.conditions:
            parts = []
            if res.hypotheses:
                hyps = "; ".join(
                    f"{_ident(h)} ({_t(names[h])})" if h in names else _t(h)
                    for h in res.hypotheses
                )
                parts.append("*Hypotheses:* " + hyps)
            if res.conditions:
                conds = ", #h(0.3em)".join(f"${c}$" for c in res.conditions)
                parts.append("*Conditions:* " + conds)
            self.add(" \\\n".join(parts), "")
        for f in res.forms:
            self.form(f)
        if res.errata_ids:
            refs = ", ".join(self._erratum_ref(eid) for eid in res.errata_ids)
            self.add(f"*Errata:* {refs}", "")

    def _erratum_ref(self, eid: str) -> str:
        if sum(e.id == eid for sec in self.report.sections for e in sec.errata) == 1:
            return f"#link(<{label_name('erratum', eid)}>)[{_ident(eid)}]"
        return _ident(eid)

    def form(self, f: FormBlock) -> None:
        label = _FORM_LABELS.get(f.name, f.name)
        args = [_s(label), f"$ {f.typst} $"]
        note = _sentence(_t(f.note)) if f.note else ""
        if f.conditions:
            conds = ", ".join(f"${c}$" for c in f.conditions)
            note = (note + " " if note else "") + f"Conditions: {conds}."
        if note:
            args.append(f"note: [{note}]")
        self.add(f"#form({', '.join(args)})", "")

    def verdict_table(self, s: PaperSection) -> None:
        self.add(
            "#table(",
            "  columns: (1fr, auto, auto, auto, auto),",
            "  align: (left, left, left, right, right),",
            "  " + _header("Check", "Kind", "Verdict", "Margin", "Replicas") + ",",
        )
        for v in s.verdicts:
            check = (
                f"[{_ident(v.check_id)} \\ {_t(v.title)}"
                f" #muted[({_ident(v.result_id)}, {escape_markup(v.form)})]]"
            )
            self.add(
                f"  {check}, [{escape_markup(v.kind.replace('_', ' '))}], "
                f"[{_verdict(v.verdict, v.expected)}], [{format_margin(v.margin)}], "
                f"[{format_replicas(v.replicas)}],"
            )
        self.add(")", "")

    def check_details(self, v: VerdictRow) -> None:
        if not (v.detail or v.plots or v.tables):
            return
        self.add(
            f"#block(breakable: true, above: 1em)[{_verdict(v.verdict, v.expected)} #h(0.3em) "
            f"*{_ident(v.check_id)}*"
            + (f" #h(0.3em) {_sentence(_t(v.detail))}" if v.detail else "")
            + "]"
            + self._label("check", v.check_id),
            "",
        )
        state = "expected" if v.as_expected else f"expected {v.expected}"
        context = f"Check {v.check_id}: {v.verdict} ({state})."
        for plot in v.plots:
            self.figure(plot, context, v.check_id)
        for k, table in enumerate(v.tables, 1):
            self.value_table(table, f"{v.check_id}-{k}", context, v.check_id)

    def figure(self, plot: PlotSpec, context: str, check_id: str = "") -> None:
        stem = self.stems[id(plot)]
        title = _item_title(plot.title, check_id)
        caption = _sentence(_t(plot.caption)) if plot.caption and plot.caption != plot.title \
            else ""
        self.add(
            "#figure(",
            f"  image({_s(f'{self.figures_dir}/{stem}.svg')}, width: 100%),",
            f"  caption: [{title} {caption} #muted[{escape_markup(context)} Data: "
            f"#raw({_s(f'{self.figures_dir}/{stem}.csv')}).]],",
            ")" + self._label("fig", stem),
            "",
        )

    def value_table(self, table: ValueTable, key: str, context: str,
                    check_id: str = "") -> None:
        title = _item_title(table.title, check_id)
        caption = _sentence(_t(table.caption)) if table.caption else ""
        cells = ", ".join(f"[{_t(c)}]" for row in table.rows for c in row)
        n = len(table.columns)
        self.add(
            "#figure(kind: table,",
            f"  table(columns: {n}, align: (left,) + (right,) * {n - 1}, "
            f"{_header(*table.columns)}, {cells}),",
            f"  caption: [{title} {caption} #muted[{escape_markup(context)}]],",
            ")" + self._label("tab", key),
            "",
        )

    def _evidence_refs(self, check_id: str) -> str:
        """References to the figures and tables of a check shown in the report."""
        row = self.rows.get(check_id)
        if row is None:
            return ""
        refs = [f"#ref(<{label_name('fig', self.stems[id(p)])}>)" for p in row.plots
                if id(p) in self.stems]
        refs += [f"#ref(<{label_name('tab', f'{check_id}-{k}')}>)"
                 for k in range(1, len(row.tables) + 1)]
        return ", ".join(refs)

    def erratum(self, s: PaperSection, e: ErratumBlock) -> None:
        body = [f"*{_t(e.where)}* #h(0.4em) {_ident(e.id)} #h(1fr) {_badge(e.finding)}"]
        body.append(f"*What is wrong.* {_sentence(_t(e.what))}")
        body.append(f"*Fix.* {_sentence(_t(e.fix))}")
        if e.finding == "NO CHECK":
            ev = "A reading or notational fix: no computation demonstrates it."
        elif e.finding == "NOT RUN":
            ev = f"Its check {_ident(e.check_id)} is not in these results."
        else:
            ev = (f"Check {_ident(e.check_id)} gave {_verdict(e.verdict, e.expected or e.verdict)}"
                  + (f": {_sentence(_t(e.evidence))}" if e.evidence else "."))
            refs = self._evidence_refs(e.check_id)
            if refs:
                ev += f" See {refs}."
            elif e.check_id in self.check_targets:
                ev += f" See the #link(<{label_name('check', e.check_id)}>)[check's details]."
        body.append(f"*Evidence.* {ev}")
        joined = " \\\n".join(body)
        self.add(f"#erratum-box[{joined}]{self._label('erratum', e.id)}", "")
        if e.check_id not in self.rows:  # the check's figures are not in the report
            for plot in e.plots:
                self.figure(plot, f"Erratum {e.id}"
                            + (f", check {e.check_id}." if e.check_id else "."),
                            e.check_id or "")

    # -- appendix ------------------------------------------------------------------------
    def appendix(self) -> None:
        prov = self.report.provenance
        self.add(
            "#counter(heading).update(0)",
            '#set heading(numbering: "A.1")',
            "= Provenance <provenance>",
            "",
        )
        if prov is None:
            self.add("No provenance was recorded for this report.", "")
            return
        self.add(
            "Every number in this report can be regenerated with the same pflbounds version:"
            " the first command below makes the data (the same seed gives bitwise identical"
            " results, for any number of jobs) and the second writes this report from it. Each"
            " check is identified by its id, its root seed and the hash of its canonical"
            " configuration (the cache key). The data behind each figure is in the CSV file"
            " named in its caption, beside this PDF.",
            "",
        )
        facts = [
            ("Data made by", f"#raw({_s(prov.data_command)})" if prov.data_command else
             "— (not recorded)"),
            ("Report made by", f"#raw({_s(prov.command)})"),
            ("pflbounds version", f"#raw({_s(prov.version)})"),
            ("Created", escape_markup(prov.created)),
            ("Suite", escape_markup(prov.suite) or "—"),
            ("Python", escape_markup(prov.python) or "—"),
            ("Platform", escape_markup(prov.platform) or "—"),
        ]
        self.add("#table(columns: (auto, 1fr), stroke: none,")
        for k, v in facts:
            self.add(f"  [*{k}*], [{v}],")
        self.add(")", "")
        if prov.rows:
            self.add(
                "== Seeds and configuration hashes",
                "",
                "#table(",
                "  columns: (auto, auto, 1fr),",
                "  align: (left, right, left),",
                "  " + _header("Check", "Seed", "Config hash (SHA-256)") + ",",
            )
            for r in prov.rows:
                seed = "—" if r.seed is None else str(r.seed)
                self.add(
                    f"  [{_ident(r.check_id)}], [{seed}], "
                    f'[#text(font: "DejaVu Sans Mono", size: 6.2pt, {_s(r.config_hash)})],'
                )
            self.add(")", "")

    def build(self) -> str:
        self.setup()
        self.title_page()
        self.overview()
        for s in self.report.sections:
            with notation_of(s.paper_id):  # the paper's constant names: scott2024's L1 is L_1
                self.paper(s)
        if self.report.audit:
            from pflbounds.reporting.audit_page import audit_typst

            self.add(*audit_typst(self.report.audit, self.stems, self.figures_dir))
        self.appendix()
        return "\n".join(self.lines) + "\n"


def build_document(
    report: Report, figure_stems: Mapping[int, str], figures_dir: str = "figures"
) -> str:
    """The Typst source of ``report``.

    ``figure_stems`` maps ``id(plot)`` to the file stem of each plot's SVG and CSV, as
    returned by :func:`pflbounds.reporting.figures.plan_figures`; ``figures_dir`` is their
    directory relative to the ``.typ`` file.
    """
    return _Writer(report, figure_stems, figures_dir).build()
