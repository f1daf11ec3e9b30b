"""scott2024 P12: Theorem 3.2's terms for given networks on population B, and the P12
figures."""

import numpy as np
import pytest

from pflbounds.checking.outcome import Outcome
from pflbounds.papers.scott2024.checks import population_b as pb
from pflbounds.papers.scott2024.checks import regularization as rg


def test_grid_terms_match_the_fixed_network_replica_terms():
    p = dict(pb._B_QUICK)
    direct = pb.replica_terms(p, np.random.default_rng(3))
    rng = np.random.default_rng(3)
    pop = pb.population(p)
    w = pop.clients(rng, (p["n"],))
    x, y, psi = pb._psi(pop, rng, w, p["m"])
    again = pb.grid_terms(pop, pb.networks(pop, p["scale"]), w, x, y, psi, p["delta"], rng)
    for k in ("emp", "meta", "sample", "bound"):
        assert np.array_equal(direct[k], again[k])
    # a wider grid pays delta/|grid|: every meta and sample term grows
    wide = pb.grid_terms(pop, pb.networks(pop, p["scale"]), w, x, y, psi, p["delta"],
                         np.random.default_rng(0), pb.GRID * 5)
    assert np.all(wide["meta"][: len(pb.GRID)] > direct["meta"])


def test_grid_is_data_independent_and_wide():
    assert len(rg.GRID12) == len(rg.ALPHA_NET12) * len(rg.ALPHA_THETA12) == 30
    assert min(a for a, _ in rg.GRID12) == 1e-3 and max(t for _, t in rg.GRID12) == 100.0


def test_fresh_risk_of_the_true_direction_is_the_noise_level():
    pop = pb.population(pb._B)
    U, _ = np.linalg.qr(pop.W)
    nets = (5.0 * U, U.T.copy())
    er = rg.fresh_risk(pop, nets, 0.0, 0.0, 400, np.random.default_rng(1))
    assert pop.rho < er < pop.rho + 0.1  # descriptors from 400 points: close to w


def test_p12_figures_read_the_evidence():
    lams = np.array([0.0, 1e-3, 1e-2, 1e-1])
    ev = {"params": {"lam_grid": 1e-2}, "lams": lams,
          **{f"mean_{k}": np.linspace(0.1, 0.4, 4) for k in
             ("bound", "emp", "meta", "sample", "er", "eta2", "theta2", "er_tilde")},
          **{f"grid_{k}": np.full(len(rg.GRID12), 0.3) for k in
             ("bound", "emp", "meta", "sample", "er", "er_tilde")}}
    o = Outcome("scott2024.P12", "bound_holds", "HOLDS", "HOLDS", evidence=[ev])
    fig, gfig, table = rg.plot_p12(o)
    assert fig["series"][0]["x"][0] == pytest.approx(1e-4)  # lambda = 0 a decade left
    # the alpha-grid: er and the bound against alpha_theta, one group per alpha_h = alpha_v
    assert len(gfig["series"]) == 2 * len(rg.ALPHA_NET12)
    assert gfig["series"][0]["x"] == list(rg.ALPHA_THETA12)
    assert {s["style"] for s in gfig["series"]} == {"measured", "bound"}
    assert table["rows"][2][0] == "0.01" and len(table["rows"]) == 4
