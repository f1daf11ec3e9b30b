"""scott2024 P15: the figure of the average against k in both regimes."""

import numpy as np

from pflbounds.checking.outcome import Outcome
from pflbounds.papers.scott2024.checks import local_steps as ls
from pflbounds.papers.scott2024.checks.training import _pts


def test_p15_grid_has_both_regimes_and_the_figure_splits_them():
    mini, full = ls.CHECKS
    assert {p["s"] for p in mini.grid} == {1} and {p["s"] for p in full.grid} == {None}
    assert sorted({p["k"] for p in full.grid}) == list(ls.KS)
    assert (full.predicted - full.tolerance, full.predicted + full.tolerance) == (-0.25, 0.25)
    # the minibatch regime fixes beta k below the theorem's 0.1 (edge of stability at k = 1)
    assert {p["beta_k"] for p in mini.grid} == {ls.BETA_K_MINIBATCH} == {0.05}
    assert all("beta" not in p for p in mini.grid + full.grid)
    assert all("beta_k" not in p for p in full.grid)  # the theorem's beta there
    # one scaling group per regime: the grid points differ in k only
    for c in (mini, full):
        assert len({tuple(sorted((k, v) for k, v in p.items() if k != "k")) for p in c.grid}) == 1
    evs = [{"params": _pts(T=2000, c=5, k=k, s=s, init=0), "mean": np.array([1.0 / k]),
            "lo": np.array([0.9 / k]), "hi": np.array([1.1 / k])}
           for s in (1, None) for k in (5, 1)]
    o = Outcome("scott2024.P15", "scaling", "HOLDS", "HOLDS", evidence=evs)
    (fig,) = ls.plot_p15(o)
    assert [s["label"] for s in fig["series"]] == ["local minibatch 1",
                                                   "full-data local gradients"]
    assert fig["series"][0]["x"] == [1.0, 5.0]
