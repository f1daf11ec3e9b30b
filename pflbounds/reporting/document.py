"""Build the Typst source of a report from a :class:`~pflbounds.reporting.model.Report`.

Layout:

1. title page: title, date, version, suite, the verdict summary and the contents;
2. overview: every verdict of every paper in one table;
3. one chapter per paper: assumptions, results (each form as display math), the verdict
   table with its figures, and the errata with their evidence;
4. appendix: provenance (version, command, platform, seeds and config hashes, figure data).

Prose is escaped with :func:`~pflbounds.reporting.escape.escape_markup`; identifiers and
verdicts are passed to Typst helper functions as string literals, so they appear verbatim in
the ``.typ`` source; math fields are inserted as Typst math.
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
    VerdictRow,
)

__all__ = ["build_document", "format_margin", "format_replicas"]

_MAX_LISTED = 12  # unexpected verdicts listed by name on the title page

_FORM_LABELS = {"printed": "Printed", "explicit": "Explicit", "corrected": "Corrected"}

# Page setup and helper functions used by the generated body.
_PREAMBLE = r"""
#let verdict-colors = (
  HOLDS: rgb("#1b7f3a"),
  VIOLATED: rgb("#c62828"),
  INCONCLUSIVE: rgb("#a15c00"),
  CONFIRMED: rgb("#1f5fbf"),
)
#let badge(v) = {
  let c = verdict-colors.at(v, default: rgb("#616161"))
  box(
    fill: c.lighten(88%), stroke: 0.6pt + c, radius: 2pt,
    inset: (x: 3pt, y: 1.6pt), outset: (y: 0.6pt),
    text(font: "DejaVu Sans", size: 6.8pt, weight: "bold", fill: c.darken(15%), v),
  )
}
#let ident(s) = text(
  font: "DejaVu Sans Mono", size: 0.8em,
  s.replace(".", ".\u{200B}").replace("_", "_\u{200B}").replace("-", "-\u{200B}"),
)
#let unexpected(expected) = text(size: 7.5pt, fill: rgb("#c62828"), weight: "bold")[
  #sym.arrow.r.double expected #expected
]
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
#let form(label, eq, note: none, hidden: ()) = block(breakable: false, above: 0.9em, below: 0.9em)[
  #grid(
    columns: (6.2em, 1fr), column-gutter: 0.6em, align: (left + horizon, center + horizon),
    text(size: 8.5pt, weight: "bold", fill: luma(70), upper(label)),
    fitmath(eq),
  )
  #if note != none or hidden.len() > 0 {
    let lines = if note != none { (note,) } else { () }
    lines += hidden.map(h => [Hidden constant: #h])
    pad(left: 6.8em, muted(lines.join(linebreak())))
  }
]
#let erratum-box(body) = block(
  width: 100%, inset: (left: 8pt, y: 6pt, right: 6pt), stroke: (left: 2pt + rgb("#1f5fbf")),
  fill: rgb("#1f5fbf").lighten(95%), breakable: true, body,
)
""".strip()


def format_margin(margin: float | None) -> str:
    """A margin (bound / measured) for tables: 3 significant digits, ``—`` when absent."""
    if margin is None:
        return "—"
    if margin != margin:  # NaN
        return "n/a"
    if margin in (float("inf"), float("-inf")):
        return "∞" if margin > 0 else "−∞"
    return f"{margin:.3g}"


def format_replicas(replicas: int | None) -> str:
    """``exact`` for a closed-form engine, otherwise the replica count."""
    return "exact" if replicas is None else f"{replicas:,}".replace(",", "\u2009")


def _count(n: int, singular: str, plural: str | None = None) -> str:
    """``1 check``, ``3 checks``."""
    return f"{n} {singular if n == 1 else (plural or singular + 's')}"


def _header(*cols: str) -> str:
    """A repeated, bold table header row."""
    return "table.header(" + ", ".join(f"[*{escape_markup(c)}*]" for c in cols) + ")"


def _s(text: str) -> str:
    """A Typst string literal."""
    return typst_string(str(text))


def _m(text: str) -> str:
    """Content block of escaped prose."""
    return f"[{escape_markup(text)}]"


def _ident(text: str) -> str:
    return f"#ident({_s(text)})"


def _badge(verdict: str) -> str:
    return f"#badge({_s(verdict)})"


def _verdict_cell(row: VerdictRow) -> str:
    cell = _badge(row.verdict)
    if not row.as_expected:
        cell += f" #unexpected({_s(row.expected)})"
    return f"[{cell}]"


class _Writer:
    """Accumulates the Typst source; knows the figure file stems."""

    def __init__(self, report: Report, figure_stems: Mapping[int, str], figures_dir: str) -> None:
        self.report = report
        self.stems = figure_stems
        self.figures_dir = figures_dir.rstrip("/")
        self.lines: list[str] = []
        self.labels: set[str] = set()
        # Checks with a details block get a label; the overview links to it.
        self.check_targets = {v.check_id for _, v in report.all_verdicts() if v.detail or v.plots}

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
            "#show figure: set block(breakable: false)",
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
        counts = Counter(v.verdict for _, v in rows)
        unexpected = [(s, v) for s, v in rows if not v.as_expected]
        n_results = sum(len(s.results) for s in self.report.sections)
        n_errata = sum(len(s.errata) for s in self.report.sections)
        order = [v for v in VERDICTS if v in counts] + sorted(set(counts) - set(VERDICTS))
        badges = " #h(0.8em) ".join(f"{_badge(v)} {counts[v]}" for v in order) or "no checks"
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
            self.add("#table(columns: (1fr, auto, auto), stroke: none, inset: 2pt,")
            for _, v in shown:
                self.add(
                    f"  [{_ident(v.check_id)}], [{_badge(v.verdict)}], "
                    f"[expected {_badge(v.expected)}],"
                )
            self.add(")", "")
            if len(unexpected) > len(shown):
                self.add(
                    f"… and {len(unexpected) - len(shown)} more: see the "
                    "#link(<overview>)[overview of verdicts].",
                    "",
                )
        elif rows:
            self.add("Every verdict matches its expected verdict.", "")
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
            "Margin says how close a check came to the other verdict: the smallest"
            " bound/measured ratio for bounds (measured/bound for lower bounds), the distance"
            " |slope - predicted| for rates and scalings, tolerance/residual for identities, and"
            " the smallest printed bound/measured ratio for errata (below 1: the printed form"
            " fails). Replicas is the Monte Carlo sample size, or _exact_ for closed-form"
            " expectations."
            " An arrow marks a verdict that differs from the one the check expects.",
            "",
        )
        if self.report.error_control:
            self.add(escape_markup(self.report.error_control), "")
        self.add(
            "#table(",
            "  columns: (1.15fr, 1fr, auto, auto, auto, auto),",
            "  align: (left, left, left, left, right, right),",
            "  " + _header("Check", "Result (form)", "Kind", "Verdict", "Margin", "Replicas") + ",",
        )
        for section in self.report.sections:
            self.add(
                f"  table.cell(colspan: 6, fill: luma(240))[*{escape_markup(section.title)}*],"
            )
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
                f"[{_ident(v.result_id)} ({escape_markup(v.form)})]",
                _m(v.kind),
                _verdict_cell(v),
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
                self.add(f"  [{_ident(a.id)}], {_m(a.name)}, {_m(a.statement)},")
            self.add(")", "")
        if s.results:
            self.add("== Results", "")
            for res in s.results:
                self.result(s, res)
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

    def result(self, s: PaperSection, res: ResultBlock) -> None:
        self.add(
            f"=== {escape_markup(res.label)}{self._label('result', res.id)}",
            f"#muted[{_ident(res.id)} #h(0.6em) {escape_markup(res.kind)}"
            + (f" #h(0.6em) bounds: {escape_markup(res.quantity)}" if res.quantity else "")
            + "]",
            "",
        )
        if res.statement:
            self.add(escape_markup(res.statement, paragraphs=True), "")
        if res.hypotheses or res.conditions:
            parts = []
            if res.hypotheses:
                parts.append("*Hypotheses:* " + "; ".join(escape_markup(h) for h in res.hypotheses))
            if res.conditions:
                conds = ", #h(0.3em)".join(f"${c}$" for c in res.conditions)
                parts.append("*Conditions:* " + conds)
            self.add(" \\\n".join(parts), "")
        for f in res.forms:
            self.form(f)
        if res.errata_ids:
            refs = ", ".join(self._erratum_ref(s, eid) for eid in res.errata_ids)
            self.add(f"*Errata:* {refs}", "")

    def _erratum_ref(self, s: PaperSection, eid: str) -> str:
        if sum(e.id == eid for sec in self.report.sections for e in sec.errata) == 1:
            return f"#link(<{label_name('erratum', eid)}>)[{_ident(eid)}]"
        return _ident(eid)

    def form(self, f: FormBlock) -> None:
        label = _FORM_LABELS.get(f.name, f.name)
        args = [_s(label), f"$ {f.typst} $"]
        if f.note:
            args.append(f"note: {_m(f.note)}")
        if f.hidden_constants:
            hidden = ", ".join(_m(h) for h in f.hidden_constants)
            args.append(f"hidden: ({hidden},)")
        self.add(f"#form({', '.join(args)})", "")

    def verdict_table(self, s: PaperSection) -> None:
        self.add(
            "#table(",
            "  columns: (1.6fr, auto, auto, auto, auto),",
            "  align: (left, left, left, right, right),",
            "  " + _header("Check", "Kind", "Verdict", "Margin", "Replicas") + ",",
        )
        for v in s.verdicts:
            check = (
                f"[{_ident(v.check_id)} \\ {escape_markup(v.title)}"
                f" #muted[({_ident(v.result_id)}, {escape_markup(v.form)})]]"
            )
            self.add(
                f"  {check}, {_m(v.kind)}, {_verdict_cell(v)}, [{format_margin(v.margin)}], "
                f"[{format_replicas(v.replicas)}],"
            )
        self.add(")", "")

    def check_details(self, v: VerdictRow) -> None:
        if not (v.detail or v.plots):
            return
        self.add(
            f"#block(breakable: true, above: 1em)[{_badge(v.verdict)} #h(0.3em) "
            f"*{_ident(v.check_id)}*"
            + (f" #h(0.3em) {escape_markup(v.detail)}" if v.detail else "")
            + "]"
            + self._label("check", v.check_id),
            "",
        )
        for plot in v.plots:
            self.figure(plot, f"Check {v.check_id}: {v.verdict}.")

    def figure(self, plot: PlotSpec, context: str) -> None:
        stem = self.stems[id(plot)]
        caption = escape_markup(plot.caption or plot.title).rstrip()
        if caption and caption[-1] not in ".!?":
            caption += "."
        self.add(
            "#figure(",
            f"  image({_s(f'{self.figures_dir}/{stem}.svg')}, width: 100%),",
            f"  caption: [{caption} #muted[{escape_markup(context)} Data: "
            f"#raw({_s(f'{self.figures_dir}/{stem}.csv')}).]],",
            ")" + self._label("fig", stem),
            "",
        )

    def erratum(self, s: PaperSection, e: ErratumBlock) -> None:
        body = [f"*{escape_markup(e.where)}* #h(0.4em) {_ident(e.id)}"]
        if e.verdict:
            body[0] += f" #h(1fr) {_badge(e.verdict)}"
        body.append(f"*What is wrong.* {escape_markup(e.what)}")
        body.append(f"*Fix.* {escape_markup(e.fix)}")
        if e.evidence or e.check_id:
            ev = f"*Evidence.* {escape_markup(e.evidence)}"
            if e.check_id:
                ev += f" #muted[(check {_ident(e.check_id)})]"
            body.append(ev)
        joined = " \\\n".join(body)
        self.add(f"#erratum-box[{joined}]{self._label('erratum', e.id)}", "")
        for plot in e.plots:
            self.figure(plot, f"Erratum {e.id}" + (f", check {e.check_id}." if e.check_id else "."))

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
            "Every number in this report can be regenerated with the command below and the "
            "same pflbounds version: each check is identified by its id, its root seed and the "
            "hash of its canonical configuration (the cache key). The data behind each figure is "
            "in the CSV file named in its caption, beside this PDF.",
            "",
        )
        facts = [
            ("pflbounds version", f"#raw({_s(prov.version)})"),
            ("Command", f"#raw({_s(prov.command)})"),
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
                "  columns: (1.4fr, auto, 1fr),",
                "  align: (left, right, left),",
                "  " + _header("Check", "Seed", "Config hash") + ",",
            )
            for r in prov.rows:
                seed = "—" if r.seed is None else str(r.seed)
                self.add(
                    f"  [{_ident(r.check_id)}], [{seed}], "
                    f'[#text(font: "DejaVu Sans Mono", size: 0.8em, {_s(r.config_hash)})],'
                )
            self.add(")", "")

    def build(self) -> str:
        self.setup()
        self.title_page()
        self.overview()
        for s in self.report.sections:
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
