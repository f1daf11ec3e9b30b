"""The synthetic experiment of Appendix A: Figure 2 regenerated (the exact curves it is drawn
against, FedAvg's floor, a planted wrong bound caught, the figure's axes and one colour group
per method and its bound) and the exact mean-square contraction of its fixed-weight runs."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from pflbounds.checking import Verdict
from pflbounds.papers.philippenko2025.experiments import figure2
from pflbounds.running.executor import run_check

BASE = dict(figure2._F2, d=2, gamma=0.25, T=6, compare=6)
F2 = next(c for c in figure2.CHECKS if c.id.endswith(".F2"))


def test_local_mean_follows_the_exact_geometric_curve():
    ev = figure2.simulate_figure2(dict(BASE, method="local"), 4000,
                                  np.random.SeedSequence(1))
    t = ev["t"]
    exact = float(ev["rho_local"]) ** t * float(ev["eps0"])
    assert float(ev["rho_local"]) == pytest.approx(0.625)  # (1 - 1/2)^2 + 3/(4 * 2)
    assert np.allclose(ev["curve"], exact, rtol=0.1)
    assert np.all(ev["bound"] < ev["curve"][1:])  # the oracle's curve lies below Local's


def test_fedavg_never_goes_below_its_floor():
    ev = figure2.simulate_figure2(dict(BASE, method="fedavg", T=30, compare=30), 50,
                                  np.random.SeedSequence(2))
    assert np.all(ev["curve_lo"] >= float(ev["fedavg_floor"]) * (1 - 1e-12))
    assert ev["curve"][-1] == pytest.approx(float(ev["fedavg_floor"]), rel=0.05)


def test_estimated_weights_record_the_collaborators():
    ev = figure2.simulate_figure2(dict(BASE, method="continuous"), 20,
                                  np.random.SeedSequence(3))
    c = ev["collaborators"]
    assert c.shape == (6,) and np.all((c >= 1) & (c <= 20))


def test_a_bound_above_the_oracle_is_caught():
    """Planted: the oracle curve times 10 is not a lower bound of Local early on."""
    def planted(p, R, seed):
        ev = figure2.simulate_figure2(p, R, seed)
        ev["bound"] = ev["bound"] * 10 ** np.arange(1, len(ev["bound"]) + 1)
        return ev

    chk = dataclasses.replace(F2, id="philippenko2025.F2_planted",
                              simulate=planted, quick_grid=(dict(BASE, method="local"),),
                              plot=None)
    o = run_check(chk, quick=True, base_seed=0, progress=False)
    assert o.verdict == Verdict.VIOLATED, o.detail


def test_figure_pairs_each_bound_with_its_method():
    chk = dataclasses.replace(F2, quick_grid=tuple(
        dict(BASE, method=m) for m in ("local", "fedavg", "binary")), replicas=100)
    o = run_check(chk, quick=True, base_seed=0, progress=False)
    assert o.verdict == Verdict.HOLDS, o.detail
    figs = figure2.plot_figure2(o)
    assert len(figs) == 1
    f = figs[0]
    assert f["xlabel"] == "t (iteration)" and "R_i(theta_i^t)" in f["ylabel"] and f["logy"]
    groups = {}
    for s in f["series"]:
        groups.setdefault(s["group"], set()).add(s["style"])
    # Local's exact curve is a prediction (a reference), FedAvg's floor and the oracle's
    # curve are lower bounds
    assert groups["local"] == {"measured", "reference"}
    assert groups["fedavg"] == {"measured", "lower_bound"}
    assert groups["oracle"] == {"lower_bound"} and groups["binary"] == {"measured"}
    assert "mean |N_i^t|" in f["caption"]


def test_fixed_weights_contract_at_the_exact_rate():
    """P19's evidence: the ratio of the measured loss to rho^t R_i(theta_0) averages to 1 for
    Local and the oracle; the oracle's rho is the smaller one."""
    p = dict(figure2._LSR, d=2, gamma=0.25, T=3)
    rhos = {}
    for method in ("local", "oracle"):
        ev = figure2.simulate_p19(dict(p, method=method), 4000, np.random.SeedSequence(4))
        assert np.allclose(ev["samples"].mean(0), 1.0, atol=0.1)
        rhos[method] = float(ev["rho"])
    assert rhos["local"] == pytest.approx(0.625) and rhos["oracle"] == pytest.approx(
        0.25 + 4 * 0.0625 * 3 / (2 * 10))
