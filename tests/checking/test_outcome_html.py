"""An outcome renders in Jupyter: its claims' verdicts, the ratio or statistic, the detail."""

from __future__ import annotations

import dataclasses
import re

from pflbounds.checking.kinds import Verdict
from pflbounds.running.executor import run_check


def _cells(page: str) -> list[list[str]]:
    rows = re.findall(r"<tr><td>(.*?)</td><td>(.*?)</td><td>(.*?)</td></tr>", page)
    return [list(r) for r in rows]


def test_an_erratum_outcome_shows_both_claims_with_their_ratios(toys):
    o = run_check(toys["toy.erratum"], progress=False, cache=None)
    page = o._repr_html_()
    assert "<code>toy.erratum</code>" in page and "as expected" in page
    cells = _cells(page)
    assert [c[:2] for c in cells] == [["printed", "<b>VIOLATED</b>"],
                                      ["corrected", "<b>HOLDS</b>"]]
    assert all(re.fullmatch(r"[0-9.]+(e-?\d+)?", c[2]) for c in cells), cells
    assert o.detail and o.detail.split()[0] in page


def test_an_unexpected_verdict_is_said_and_text_is_escaped(toys):
    check = dataclasses.replace(toys["toy.exact_true"], expected=Verdict.VIOLATED,
                                title="a <b> & c")
    o = run_check(check, progress=False, cache=None)
    page = o._repr_html_()
    assert "differs from what it expects" in page
    assert "(expected VIOLATED)" in page and "a &lt;b&gt; &amp; c" in page
    assert _cells(page)[0][:2] == ["printed", "<b>HOLDS</b> (expected VIOLATED)"]
