"""The regime map: its boundaries are where the calculator's winner changes, and the report
gets them as a figure with labelled axes (plus the tables)."""

from __future__ import annotations

import numpy as np

from pflbounds.checking import registry
from pflbounds.papers.hanzely2023.checks.common import P
from pflbounds.papers.hanzely2023.checks.maps import _acd_lead, boundary_n, plot_map
from pflbounds.running.executor import run_check


def test_boundary_is_where_acd_stops_winning():
    n, winner = boundary_n(2.0, "grad_beta_stochastic")
    assert winner.startswith("ASVRCD-PFL")
    assert _acd_lead(2.0, int(n), "grad_beta_stochastic")[0] >= 0
    assert _acd_lead(2.0, int(n / 1.03), "grad_beta_stochastic")[0] < 0


def test_regime_map_figure_from_the_quick_outcome():
    o = run_check(registry.get(P + "regime_map"), quick=True, base_seed=0, progress=False)
    specs = plot_map(o)
    fig = specs[0]
    assert fig["kind"] == "curves" and fig["xlabel"] == "n" and fig["ylabel"] == "lambda"
    assert fig["logx"] and fig["logy"]
    assert [s["label"] for s in fig["series"]] == ["fewest grad_w F_i calls",
                                                   "fewest grad_beta F_i calls"]
    for s in fig["series"]:
        assert s["y"] == sorted(s["y"]) and len(s["y"]) == 2
        assert np.all(np.diff(s["x"]) < 0)  # more personalization: ACD wins up to larger n
    assert any("ASVRCD" in a for a in fig["annotations"])
    assert [t["kind"] for t in specs[1:]] == ["table", "table"]
