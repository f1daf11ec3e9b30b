"""Figures: SVG output, CSV data, styles, awkward data, and the model's validation."""

from __future__ import annotations

import csv
import math
from pathlib import Path

import numpy as np
import pytest

from pflbounds.reporting import (
    PaperSection,
    PlotSpec,
    Provenance,
    ProvenanceRow,
    RefLine,
    Report,
    Series,
    VerdictRow,
    plan_figures,
    render_plot,
    write_plot_csv,
)
from pflbounds.reporting.figures import (
    PALETTE,
    STYLES,
    _emptiest_corner,
    build_figure,
    texts_outside,
)


def _read_csv(path: Path) -> list[dict[str, str]]:
    with path.open(newline="", encoding="utf-8") as fh:
        return list(csv.DictReader(fh))


def _svg_ok(path: Path) -> str:
    text = path.read_text(encoding="utf-8")
    assert text.lstrip().startswith("<?xml")
    assert "<svg" in text and "</svg>" in text
    return text


def test_curves_with_band_and_bounds(tmp_path: Path) -> None:
    K = np.arange(1, 101)
    y = 1.0 / K
    spec = PlotSpec(
        "curves",
        "decay",
        "K",
        "error",
        logy=True,
        series=[
            Series("measured", K, y, 0.9 * y, 1.1 * y),
            Series("printed", K, 2 / K, style="bound_printed"),
            Series("corrected", K, 3 / K, style="bound_corrected"),
        ],
        hlines=[(0.01, "target")],
        vlines=[RefLine(50, "K*")],
        annotations=["margin 2.0"],
    )
    svg = render_plot(spec, tmp_path / "fig" / "a.svg")
    text = _svg_ok(svg)
    # One group (no parenthesised tails, distinct labels): three colours, the first three of
    # the palette; the styles differ by dash pattern.
    for color in PALETTE[:3]:
        assert color in text
    assert PALETTE[3] not in text
    # Metadata without a date: re-rendering gives identical bytes.
    again = render_plot(spec, tmp_path / "fig" / "b.svg")
    assert svg.read_bytes() == again.read_bytes()
    rows = _read_csv(svg.with_suffix(".csv"))
    assert len(rows) == 300
    assert float(rows[0]["y"]) == y[0] and float(rows[0]["lo"]) == 0.9 * y[0]


def test_scaling_and_bars(tmp_path: Path) -> None:
    C = [2, 4, 8, 16]
    scaling = PlotSpec(
        "scaling",
        "cost",
        "C",
        "K",
        logx=True,
        logy=True,
        series=[
            Series("measured", C, [400, 200, 100, 50]),
            Series("fit", C, [401, 199, 101, 49], style="fit"),
            Series("slope -1", C, [400, 200, 100, 50], style="reference"),
        ],
    )
    _svg_ok(render_plot(scaling, tmp_path / "s.svg"))
    bars = PlotSpec(
        "bars",
        "margins",
        series=[
            Series("measured", ["a", "b"], [1.2, 0.8], [1.1, 0.7], [1.3, 0.9]),
            Series("bound", ["a", "b"], [1.0, 1.0], style="bound"),
        ],
        hlines=[1.0],
    )
    svg = render_plot(bars, tmp_path / "b.svg")
    _svg_ok(svg)
    rows = _read_csv(svg.with_suffix(".csv"))
    assert [(r["series"], r["x"], r["y"]) for r in rows] == [
        ("measured", "a", "1.2"),
        ("measured", "b", "0.8"),
        ("bound", "a", "1.0"),
        ("bound", "b", "1.0"),
    ]


def test_non_finite_and_non_positive_values(tmp_path: Path) -> None:
    spec = PlotSpec(
        "curves",
        "awkward",
        logx=True,
        logy=True,
        series=[
            Series("diverging", [0, 1, 2, 3], [1.0, math.inf, math.nan, 1e300]),
            Series("zeros", [1, 2, 3], [0.0, -1.0, 2.0], [0.0, -2.0, 1.0], [1.0, 0.0, 3.0]),
        ],
    )
    svg = render_plot(spec, tmp_path / "n.svg")
    _svg_ok(svg)
    rows = _read_csv(svg.with_suffix(".csv"))
    assert [r["y"] for r in rows[:4]] == ["1.0", "inf", "nan", "1e+300"]


def test_no_finite_data(tmp_path: Path) -> None:
    spec = PlotSpec("curves", "empty", series=[Series("nothing", [1, 2], [math.nan, math.nan])])
    text = _svg_ok(render_plot(spec, tmp_path / "e.svg"))
    assert "<svg" in text
    empty = PlotSpec("bars", "no series")
    _svg_ok(render_plot(empty, tmp_path / "e2.svg"))
    assert (tmp_path / "e2.csv").read_text() == "series,x,y,lo,hi\n"


def test_annotation_avoids_data() -> None:
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib.figure import Figure

    fig = Figure()
    ax = fig.add_subplot()
    # A line through the lower-left corner, so the box must go elsewhere.
    ax.plot([0, 1], [0, 1])
    ax.plot([0, 0.3], [1, 1])
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1)
    x, y, ha, va = _emptiest_corner(ax)
    assert (ha, va) == ("right", "bottom")


def test_write_plot_csv_standalone(tmp_path: Path) -> None:
    spec = PlotSpec("curves", "t", series=[Series("s, with comma", [0.1], [1 / 3])])
    path = write_plot_csv(spec, tmp_path / "t.csv")
    rows = _read_csv(path)
    assert rows == [{"series": "s, with comma", "x": "0.1", "y": repr(1 / 3), "lo": "", "hi": ""}]


def test_plan_figures_unique_and_deterministic() -> None:
    p1 = PlotSpec("curves", "a")
    p2 = PlotSpec("curves", "b")
    p3 = PlotSpec("curves", "c", name="custom name")
    p4 = PlotSpec("curves", "d", name="custom name")
    v1 = VerdictRow("x.check/1", "t", "k", "x.r", "printed", "HOLDS", "HOLDS", True, plots=[p1])
    v2 = VerdictRow("x.check/1", "t", "k", "x.r", "printed", "HOLDS", "HOLDS", True, plots=[p2])
    v3 = VerdictRow("y", "t", "k", "x.r", "printed", "HOLDS", "HOLDS", True, plots=[p3, p4])
    report = Report("r", [PaperSection("x", "X", verdicts=[v1, v2, v3])])
    stems = plan_figures(report)
    assert [stems[id(p)] for p in (p1, p2, p3, p4)] == [
        "x.check-1-1",
        "x.check-1-1-2",
        "custom-name",
        "custom-name-2",
    ]
    assert plan_figures(report) == stems


# ---------------------------------------------------------------------------------------------
# Model validation
# ---------------------------------------------------------------------------------------------
def test_series_validation() -> None:
    with pytest.raises(ValueError, match="len\\(y\\)"):
        Series("s", [1, 2], [1])
    with pytest.raises(ValueError, match="len\\(lo\\)"):
        Series("s", [1, 2], [1, 2], [1], [1, 2])
    with pytest.raises(ValueError, match="both lo and hi"):
        Series("s", [1], [1], lo=[0])
    with pytest.raises(ValueError, match="style"):
        Series("s", [1], [1], style="dotted")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="numbers"):
        Series("s", [1], ["a"])  # type: ignore[list-item]
    s = Series("s", np.array([1, 2]), np.array([3.0, 4.0]))
    assert s.x == (1.0, 2.0) and s.y == (3.0, 4.0) and not s.categorical
    assert Series("c", ["a"], [1]).categorical


def test_plot_and_provenance_normalization() -> None:
    spec = PlotSpec("curves", "t", hlines=[(1.0, "one"), 2.0], vlines=[RefLine(3)])
    assert spec.hlines == [RefLine(1.0, "one"), RefLine(2.0)]
    with pytest.raises(ValueError, match="kind"):
        PlotSpec("pie", "t")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="finite"):
        RefLine(math.inf)
    prov = Provenance("0.1", "cmd", "2025-01-01T00:00:00", rows=[("c", 1, "h")])
    assert prov.rows == [ProvenanceRow("c", 1, "h")]


def test_a_bound_is_drawn_in_the_colour_of_its_measured_curve() -> None:
    import matplotlib

    from pflbounds.reporting.figures import _RC

    K = np.arange(1.0, 30.0)
    spec = PlotSpec("curves", "pairs", "K", "E[F^K]", logy=True, series=[
        Series("measured (point 0)", K, 1 / K), Series("bound (point 0)", K, 2 / K, style="bound"),
        Series("measured (point 1)", K, 3 / K),
        Series("bound (point 1)", K, 5 / K, style="bound"),
    ])
    with matplotlib.rc_context(_RC):
        fig = build_figure(spec)
        lines = fig.axes[0].get_lines()
        colours = [ln.get_color() for ln in lines]
        assert colours == [PALETTE[0], PALETTE[0], PALETTE[1], PALETTE[1]]
        assert [ln.get_linestyle() for ln in lines][:2] == ["-", "--"]
        assert STYLES["bound"]["ls"] != STYLES["measured"]["ls"]
        # no title; the labels are typeset; the legend is below the axes, outside them
        assert fig.axes[0].get_title() == ""
        assert fig.axes[0].get_ylabel() == r"$\mathbb{E}[F^{K}]$"
        renderer = fig.canvas.get_renderer()
        legend = fig.legends[0].get_window_extent(renderer)
        assert legend.y1 <= fig.axes[0].get_tightbbox(renderer).y0 + 1
        assert texts_outside(fig) == []


def test_long_labels_and_many_series_stay_inside_the_figure() -> None:
    import matplotlib

    from pflbounds.reporting.figures import _RC

    K = np.geomspace(1, 1e5, 20)
    series = [Series(f"a long legend label number {k} (point {k})", K, 1e-6 * K ** (k / 3))
              for k in range(9)]
    spec = PlotSpec("curves", "many", "N_i (agents eps-close to agent i, a long x label)",
                    "E[f_i(x_i^K)] - f_i^* (worst agent of every grid point)", logx=True,
                    logy=True, series=series, annotations=["slope -1.007, predicted -1"])
    with matplotlib.rc_context(_RC):
        fig = build_figure(spec)
        assert texts_outside(fig) == []
        assert len(fig.legends[0].get_texts()) == 9
