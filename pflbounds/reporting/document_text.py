"""The words and Typst snippets of the report's document (:mod:`pflbounds.reporting.document`):
its preamble, the sentence it says of hidden constants, and the helpers that turn text, ids,
verdicts and ratios into Typst markup."""

from __future__ import annotations

import re

from pflbounds.reporting.escape import escape_markup, typst_string
from pflbounds.reporting.numbers import tidy_prose
from pflbounds.reporting.plainmath import to_typst

HIDDEN_SENTENCE = (
    "with the hidden constant set to 1 and no hidden logarithm, and says so beside the value"
)
SEVERITY_ORDER = ("substantive", "proof", "notation", "typo")
QUICK_FIGURES_PER_BLOCK = 1
"""Figures a claim's block shows in a quick report (the figure of its worst failing check)."""

PREAMBLE = r"""
#let verdict-colors = (
  HOLDS: rgb("#1b7f3a"), VIOLATED: rgb("#c62828"), INCONCLUSIVE: rgb("#a15c00"),
  ERROR: rgb("#616161"),
)
#let status-colors = (
  "holds": rgb("#1b7f3a"), "holds post hoc": rgb("#a15c00"), "fails": rgb("#c62828"),
  "not unit-consistent": rgb("#c62828"),
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


def count_text(n: int, singular: str, plural: str | None = None) -> str:
    """``1 check``, ``3 checks``."""
    return f"{n} {singular if n == 1 else (plural or singular + 's')}"


def lit(text: str) -> str:
    """A Typst string literal."""
    return typst_string(str(text))


def prose(text: str) -> str:
    """Prose in plain notation as Typst markup, numbers to 4 significant digits."""
    return to_typst(tidy_prose(str(text)))


def escaped(text: str) -> str:
    """Plain text, escaped (no notation)."""
    return escape_markup(str(text))


def ident_markup(text: str) -> str:
    return f"#ident({lit(text)})"


def badge(verdict: str) -> str:
    return f"#badge({lit(verdict)})"


def sentence(markup: str) -> str:
    """``markup`` ended as a sentence: a full stop unless it ends with one (or ?, !, math, or
    a parenthesis closing a sentence)."""
    markup = markup.rstrip()
    if not markup or markup[-1] in ".!?$" or markup[-2:] in (".)", "!)", "?)"):
        return markup
    return markup + "."


def header_row(*cols: str) -> str:
    return "table.header(" + ", ".join(f"[*{escaped(c)}*]" for c in cols) + ")"


RATIO_TOKEN = re.compile(r"(?<![\w.])([<>]?\d+(?:\.\d+)?e-?\d+|[<>]\d+(?:\.\d+)?)(?![\w.])")


def with_ratios(text: str) -> str:
    """Prose in which ratios (``>1e6``, ``1.45e5``) are kept as printed, not typeset as
    powers of ten."""
    out = []
    for k, p in enumerate(RATIO_TOKEN.split(text)):
        if not p:
            continue
        if k % 2:
            out.append(escaped(p))
        elif p.strip():
            out.append((" " if p[0].isspace() else "") + prose(p)
                       + (" " if p[-1].isspace() else ""))
        else:
            out.append(" ")
    return "".join(out)


def status_markup(word: str, text: str) -> str:
    return f"#status({lit(word)}, [{with_ratios(text)}])"


def short_id(check_id: str) -> str:
    return check_id.split(".", 1)[-1]
