"""The block of each claim in the report (:mod:`pflbounds.reporting.document`): its results
and forms, the verdicts of its checks, its figure and its errata."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

from pflbounds.checking.ratio import format_ratio
from pflbounds.checking.vocabulary import claims_text
from pflbounds.reporting.claims import LONG_QUANTITY, ClaimFinding, one_line
from pflbounds.reporting.document_base import WriterBase
from pflbounds.reporting.document_text import (
    QUICK_FIGURES_PER_BLOCK,
    count_text,
    escaped,
    format_replicas,
    header_row,
    ident_markup,
    lit,
    prose,
    sentence,
    short_id,
    status_markup,
)
from pflbounds.reporting.escape import label_name
from pflbounds.reporting.model import (
    ErratumBlock,
    FormBlock,
    PaperSection,
    PlotSpec,
    ResultBlock,
    ValueTable,
    VerdictRow,
)
from pflbounds.reporting.plainmath import notation_of
from pflbounds.reporting.tightness_text import tightness_lines


class ClaimBlocks(WriterBase):
    """One block per claim that fails or has an erratum shown (every claim with --detail full)."""

    # -- claim blocks ------------------------------------------------------------------
    def claims_chapter(self) -> None:
        self.add("= Claims that fail or have an erratum shown <claims>", "")
        any_block = False
        for s in self.report.sections:
            fs = [f for f in self.findings[s.paper_id] if f.anchor in self.quick_blocks]
            if not fs:
                continue
            any_block = True
            self.add(f"== {escaped(s.paper_id)}: {escaped(s.title)}", "")
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
            f"=== {escaped(s.paper_id)} · {escaped(f.name)}{self._label(*f.anchor.split('-', 1))}",
            f"#text(size: 8.5pt)[As printed: {status_markup(f.printed.word, f.printed.text)} "
            f"#h(0.8em) Corrected: {status_markup(f.corrected.word, f.corrected.text)} #h(1fr) "
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
            names = "; ".join(f"{prose(r.label)} ({self._one_status(f, r)})" for r in others)
            self.add(f"#muted[Also part of {escaped(f.name)}: {names}.]", "")
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
                f"#link(<{self._erratum_target(e)}>)[erratum {ident_markup(short_id(e.id))}] "
                f"({prose(one_line(e.where, 60))}: #status({lit(e.status)}, [{escaped(e.status)}]))"
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
        dims = "; ".join(prose(fb.dimension) for fb in res.forms if fb.dimension)
        self.add(
            f"#block(above: 0.7em, below: 0.3em, breakable: false)[*{prose(res.label)}* #h(0.4em) "
            f"#muted[{ident_markup(res.id)} · {escaped(res.kind)}]"
            + (f" #h(0.4em) #text(size: 8.3pt)[#status(\"not unit-consistent\", "
               f"[not unit-consistent:]) {dims}]" if dims else "")
            + f"]{self._label('result', res.id)}",
        )
        if rows:
            self.verdict_table(rows, quick=True)

    @staticmethod
    def _notable(v: VerdictRow) -> bool:
        """A check worth a row in a quick block: a claim verdict other than HOLDS, a verdict
        its check does not expect, an erratum it shows, or a claim narrowed post hoc."""
        return v.unexpected or bool(v.errata_ids) or bool(v.post_hoc) or any(c.verdict != "HOLDS"
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
            quantity = f" · $Q$: {prose(res.quantity)}"
        else:
            quantity = f" · bounds {prose(res.quantity)}" if res.kind != "identity" else ""
        self.add(
            f"#block(above: 0.8em, below: 0.35em, breakable: false)[*{prose(res.label)}* "
            f"#h(0.4em) #muted[{ident_markup(res.id)} · {escaped(res.kind)}{quantity}]]"
            f"{self._label('result', res.id)}",
        )
        if res.statement:
            self.add(f"#text(size: 8.6pt)[{prose(res.statement)}]", "")
        if not quick and (res.hypotheses or res.conditions):
            names = {a.id: a.name for a in s.assumptions}
            parts = []
            if res.hypotheses:
                parts.append("Hypotheses: " + "; ".join(
                    f"{ident_markup(h)} ({prose(names[h])})" if h in names else prose(h)
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
                     f" {'; '.join(prose(fb.dimension) for fb in dims)}.]", "")
        self.tightness(res)
        if rows:
            self.verdict_table(rows, quick)

    def tightness(self, res: ResultBlock) -> None:
        """How tight the result's forms are, from the tightness audit (nothing when not
        searched): per form the worst ratio found, the instance in words and how."""
        if not res.tightness:
            return
        lines = tightness_lines(res.tightness)
        self.add("#text(size: 8.3pt)[*Tightness* (worst admissible instance found): "
                 + " \\ ".join(prose(line) for line in lines) + "]", "")

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
        note = sentence(prose(f.note)) if f.note and not quick else ""
        if quick and f.marked_changed:
            eq = f.marked_changed
            note = "#muted[Parts the correction leaves unchanged are omitted.]"
        if f.marked:
            accent = 'rgb("#1b7f3a")' if f.name == "corrected" else 'rgb("#c62828")'
        if f.conditions:
            conds = ", ".join(f"${c}$" for c in f.conditions)
            note = (note + " " if note else "") + f"Conditions: {conds}."
        args = [lit(f.name), f"$ {eq} $"]
        if note:
            args.append(f"note: [{note}]")
        if accent:
            args.append(f"accent: {accent}")
        self.add(f"#form({', '.join(args)})", "")

    def _claims_inline(self, v: VerdictRow) -> str:
        return " ".join(f"#claimv({lit(c.form)}, {lit(c.verdict)})" for c in v.claims)

    @staticmethod
    def _expected_text(v: VerdictRow) -> str:
        want = {c.form: c.expected for c in v.claims if c.expected}
        return claims_text(want) if want else v.expected

    def _measure(self, v: VerdictRow) -> str:
        parts = []
        for c in v.claims:
            if c.ratio is not None:
                text = escaped(format_ratio(c.ratio))
                if len(v.claims) > 1:
                    text = f"#muted[{escaped(c.form)}] {text}"
                if c.where:
                    text += f" #muted[at {prose(c.where)}]"
                parts.append(text)
        if parts:
            return " \\ ".join(parts)
        return prose(v.statistic) if v.statistic else "—"

    def verdict_table(self, rows: Iterable[VerdictRow], quick: bool = False) -> None:
        rows = list(rows)
        rest: list[VerdictRow] = []
        if quick:
            rest = [v for v in rows if not self._notable(v)]
            rows = [v for v in rows if self._notable(v)]
        if not rows:
            if rest:
                self.add(f"#muted[{count_text(len(rest), 'check')} of it "
                         f"{'holds' if len(rest) == 1 else 'hold'}: "
                         + ", ".join(ident_markup(v.check_id) for v in rest) + ".]", "")
            return
        self.add(
            "#table(",
            "  columns: (1fr, auto, 3.6cm, auto),",
            "  align: (left, left, left, right),",
            "  " + header_row("Check", "Claim verdicts", "Ratio (where) or statistic",
                           "Replicas") + ",",
        )
        for v in rows:
            mark = ""
            if v.unexpected:
                mark = f" #unexpected[expected {escaped(self._expected_text(v))}]"
            errata = ""
            if v.errata_ids:
                errata = " #muted[shows " + ", ".join(
                    f"erratum {ident_markup(short_id(e))}" for e in v.errata_ids) + "]"
            post_hoc = ""
            if v.post_hoc:  # narrowed after a run: said in the row, the reason in full below
                post_hoc = " #status(\"holds post hoc\", [post hoc])"
            self.add(
                f"  [{ident_markup(v.check_id)} #muted[{escaped(v.kind.replace('_', ' '))}]"
                f"{post_hoc} \\ {prose(one_line(v.title, 140))}{errata}], "
                f"[{self._claims_inline(v)}{mark}], [{self._measure(v)}], "
                f"[{format_replicas(v.replicas)}],"
            )
        self.add(")")
        if rest:
            self.add(f"#muted[Also {count_text(len(rest), 'check')} with every claim verdict "
                     "HOLDS: " + ", ".join(ident_markup(v.check_id) for v in rest) + ".]")
        self.add("")
        for v in rows:
            if v.post_hoc:
                self.add(f"#text(size: 7.8pt)[{ident_markup(v.check_id)} is *post hoc*, "
                         f"outside the predictions confirmed: {sentence(prose(v.post_hoc))}]",
                         "")
        if not quick:
            for v in rows:
                if v.detail:
                    self.add(f"#text(size: 7.8pt)[{ident_markup(v.check_id)}: "
                             f"{sentence(prose(v.detail))}]", "")

    def figure(self, plot: PlotSpec, v: VerdictRow, width: str = "62%",
               side: bool = False) -> None:
        """A figure of check ``v`` captioned with what it shows; ``side``: the caption beside
        the image (a quick block saves the height of the caption)."""
        stem = self.stems.get(id(plot))
        if stem is None:
            return
        what = prose(plot.title.split(": ", 1)[-1] if plot.title.startswith(v.check_id)
                  else plot.title)
        caption = sentence(prose(plot.caption)) if plot.caption and plot.caption != plot.title \
            else ""
        verdicts = ", ".join(f"{c.form} {c.verdict}" for c in v.claims)
        text = (f"Check {ident_markup(v.check_id)} ({escaped(verdicts)}): "
                f"{sentence(what)} {caption}")
        image = f"image({lit(f'{self.figures_dir}/{stem}.svg')}, width: 100%)"
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
            f"  image({lit(f'{self.figures_dir}/{stem}.svg')}, width: {width}),",
            f"  caption: [{text}],",
            ")" + self._label("fig", stem),
            "",
        )

    def value_table(self, table: ValueTable, key: str, v: VerdictRow) -> None:
        caption = sentence(prose(table.caption)) if table.caption else ""
        cells = ", ".join(f"[{prose(c)}]" for row in table.rows for c in row)
        n = len(table.columns)
        what = prose(table.title.split(": ", 1)[-1] if table.title.startswith(v.check_id)
                  else table.title)
        self.add(
            "#figure(kind: table,",
            f"  table(columns: {n}, align: (left,) + (right,) * {n - 1}, "
            f"{header_row(*table.columns)}, {cells}),",
            f"  caption: [Check {ident_markup(v.check_id)}: {sentence(what)} {caption}],",
            ")" + self._label("tab", key),
            "",
        )
