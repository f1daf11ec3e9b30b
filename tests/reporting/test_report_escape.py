"""Prose with Typst-special characters must print literally and never run as code."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import typst

from pflbounds.reporting import escape_markup, write_report
from pflbounds.reporting.escape import label_name
from pflbounds.reporting.pdf import report_source

# A Typst function that turns content back into plain text, so we can compare what Typst
# actually parsed with what we meant to print.
_PLAIN = r"""
#let plain(c) = {
  if type(c) == str { c }
  else if c.func() == [ ].func() { " " }
  else if c.has("text") { plain(c.text) }
  else if c.has("children") { c.children.map(plain).join() }
  else if c.has("body") { plain(c.body) }
  else if c.func() == smartquote { if c.double { "\"" } else { "'" } }
  else { "<" + repr(c.func()) + ">" }
}
"""

HOSTILE = [
    'a #panic("boom") b',
    "$x^2$ and $$",
    "*bold* _emph_ __x__ snake_case_name",
    "<x> @ref <label> a<b>c",
    "[a] ] [ unbalanced",
    "// not a comment /* nor this */",
    "`raw` ```block```",
    "back\\slash \\ and \\n",
    "~ tilde -- dash --- em -? soft",
    "= heading",
    "- list item",
    "+ enum item",
    "/ term: description",
    "1. numbered",
    "12. numbered too",
    "quotes \"double\" and 'single'",
    "http://example.org/a_b?c=d#frag",
    "#let x = 1 #x",
    "unicode μ σ² ≤ ∑ λ_ij",
]


def _roundtrip(tmp_path: Path, text: str) -> str:
    src = _PLAIN + f"#let body = [{escape_markup(text)}]\n#metadata(plain(body)) <out>\n#body\n"
    path = tmp_path / "q.typ"
    path.write_text(src, encoding="utf-8")
    return json.loads(typst.query(str(path), "<out>", field="value", one=True))


@pytest.mark.parametrize("text", HOSTILE)
def test_escape_markup_roundtrips(tmp_path: Path, text: str) -> None:
    assert _roundtrip(tmp_path, text) == text


def test_escape_collapses_whitespace_and_keeps_paragraphs() -> None:
    assert escape_markup("a \n  b\t c") == "a b c"
    assert escape_markup("p1 line\n\n  p2 #x", paragraphs=True) == "p1 line\n\np2 \\#x"
    assert escape_markup("x\x00y\x07z") == "xyz"


def test_label_name_is_valid() -> None:
    assert label_name("erratum", "even2022.E1") == "erratum-even2022-E1"
    assert label_name("check", "a b/c") == "check-a-b-c"


def test_hostile_prose_in_every_field(sample_report, tmp_path: Path) -> None:
    evil = '#panic("escaped badly") $ _ * @x <y> [z] // w'
    r = sample_report
    r.title = "Report " + evil
    sec = r.sections[0]
    sec.title += " " + evil
    sec.citation = evil
    sec.assumptions[0].statement = evil
    sec.assumptions[0].name = evil
    res = sec.results[0]
    res.statement = evil + "\n\n" + evil
    res.quantity = evil
    res.hypotheses.append(evil)
    res.forms[0].note = evil
    res.forms[0].hidden_constants.append(evil)
    v = sec.verdicts[1]
    v.title = evil
    v.detail = evil
    v.kind = evil
    v.form = evil
    v.plots[0].title = evil
    v.plots[0].series[0].label = evil
    err = sec.errata[0]
    err.what = err.fix = err.evidence = err.where = evil
    r.provenance.command = 'pflbounds report "a b" --out $HOME/x#y'
    r.provenance.platform = evil
    pdf = write_report(r, tmp_path / "evil.pdf")
    assert pdf.read_bytes().startswith(b"%PDF")
    typ = report_source(pdf).read_text(encoding="utf-8")
    assert "\\#panic" in typ
    assert '#panic("escaped badly")' not in typ.replace("\\#panic", "")


def test_a_detail_and_the_description_are_two_sentences():
    """'at point 0' followed by 'n = 3' must not run into one formula (0n = 3)."""
    from types import SimpleNamespace

    from pflbounds.reporting.assemble import _verdict_row

    v = SimpleNamespace(value="HOLDS")
    o = SimpleNamespace(check_id="x.P2", kind="bound_holds", verdict=v, expected=v,
                        as_expected=True, margin=1.0, replicas=1, claims={}, config={},
                        evidence=[], fits=[], detail="ratio 1.067 at point 0",
                        config_hash="", seed=0)
    check = SimpleNamespace(title="t", result_id="", form="", deterministic=True, role="claim",
                            description="n = 3, d = 1.", plot=None, xlabel="", ylabel="")
    assert _verdict_row(o, check, []).detail == "ratio 1.067 at point 0. n = 3, d = 1."
    o.detail = "ends here;"
    assert _verdict_row(o, check, []).detail == "ends here; n = 3, d = 1."


def test_a_title_ending_in_a_parenthesis_still_ends_its_sentence():
    """A figure's or table's title and its caption do not run together: "(3 draws)" takes a
    full stop, a parenthesis that closes a sentence and math do not."""
    from pflbounds.reporting.document import _sentence

    assert _sentence("Table 1 (n = 30, 3 draws)") == "Table 1 (n = 30, 3 draws)."
    assert _sentence("Done (as printed.)") == "Done (as printed.)"
    assert _sentence("slope $1/2$") == "slope $1/2$"
    assert _sentence("ends. ") == "ends."
