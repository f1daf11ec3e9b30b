"""The rules every figure of the report obeys, as one assertion shared by the tests."""

from __future__ import annotations

import re

import matplotlib

from pflbounds.reporting.figure_model import PlotSpec
from pflbounds.reporting.figures import _RC, build_figure, figure_texts, texts_outside
from pflbounds.reporting.outcome_figures import MIN_POINTS, n_points

#: Code spellings that must never reach a reader outside mathtext.
CODE_MATH = ("sqrt(", "<=", ">=", "||", "**", "_{", "^{")


def code_math(text: str) -> list[str]:
    """The code spellings of ``text`` outside its ``$...$`` segments, and function names
    set as upright words inside them (``\\mathrm{sqrt}``)."""
    outside = re.sub(r"(?<!\\)\$.*?(?<!\\)\$", "", text)
    found = [c for c in CODE_MATH if c in outside]
    found += re.findall(r"\\mathrm\{(sqrt|sum|exp|log)\}", text)
    return found


def assert_figure_rules(spec: dict, where: str = "") -> None:
    """A figure or table spec as :func:`pflbounds.reporting.outcome_figures.figures_for`
    returns it: a table has columns and rows; a figure has both axes labelled, a caption,
    at least :data:`MIN_POINTS` points, every text inside the figure and no code math in
    any text a reader sees."""
    assert spec.get("title"), where
    if spec["kind"] == "table":
        assert spec["columns"] and spec["rows"], where
        assert all(len(r) == len(spec["columns"]) for r in spec["rows"]), where
        return
    assert spec["xlabel"].strip() and spec["ylabel"].strip(), where
    assert spec.get("caption", "").strip(), where
    assert not re.search(r"\(\d+/\d+\)\s*$", spec["title"]), where  # no "(1/4)" parts
    assert n_points(spec) >= MIN_POINTS, where
    plot = PlotSpec.from_dict(spec)
    with matplotlib.rc_context(_RC):
        fig = build_figure(plot)
        assert texts_outside(fig) == [], where
        texts = figure_texts(fig)
    assert texts, where
    for text in texts:
        assert not code_math(text), (where, text)
    for ax in fig.axes:
        assert ax.get_ylabel().strip(), where
    assert fig.axes[-1].get_xlabel().strip(), where
