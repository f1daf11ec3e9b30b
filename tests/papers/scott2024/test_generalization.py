"""scott2024's Gaussian KL and Theorem 3.2 (theory/generalization.py,
checks/generalization.py): the forms against the paper's display in plain Python, solve for
n, the dimension check of the printed forms; Theorem 3.2's terms on population B against the
catalogue, the alpha-grid and the P12 figures; every check of the topic ending with its
expected verdict (the full-size draws: slow)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from pflbounds.checking.outcome import Outcome
from pflbounds.checking.registry import get as get_check
from pflbounds.checking.registry import load_papers
from pflbounds.papers.scott2024.checks import generalization as gn
from pflbounds.papers.scott2024.checks.common import (
    GRID,
    future_risk_of,
    grid_terms,
    replica_terms,
    theorem32_terms,
)
from pflbounds.papers.scott2024.instances import (
    POINT_B,
    POINT_B_QUICK,
    descriptor_features,
    fixed_networks,
    population_b,
)
from pflbounds.running import run_check
from pflbounds.symbolic.catalog import get
from pflbounds.symbolic.evaluate import InputError, evaluate, solve
from pflbounds.symbolic.units import DimensionError


def _thm32_by_hand(emp, eta_h2, eta_v2, a_h, a_v, a_t, theta2, n, m, delta, G=1,
                   appendix=False):
    if appendix:
        kl_meta, kl_sum = a_h * eta_h2 + a_v * eta_v2, n * a_t * theta2
    else:
        kl_meta = eta_h2 / (2 * a_h) + eta_v2 / (2 * a_v)
        kl_sum = n * theta2 / (2 * a_t)
    d = delta / G
    meta = math.sqrt((kl_meta + math.log(4 * math.sqrt(n) / d)) / (2 * n))
    sample = math.sqrt((kl_sum + math.log(8 * m * n / d) + 1) / (2 * m * n))
    return emp + meta + sample


T32 = dict(emp=0.27, eta_h2=3.0, eta_v2=2.0, alpha_h=0.1, alpha_v=0.2, alpha_theta=0.5,
           theta2=1.4, n=20000, m=200, delta=0.05)


@pytest.mark.parametrize("form", ["printed", "appendix", "corrected"])
def test_theorem3_2_matches_the_papers_display(form):
    kw = dict(T32, G=6) if form == "corrected" else T32
    got = float(evaluate(get("scott2024.theorem3_2"), form, **kw).value)
    want = _thm32_by_hand(0.27, 3.0, 2.0, 0.1, 0.2, 0.5, 1.4, 20000, 200, 0.05,
                          G=6 if form == "corrected" else 1, appendix=form == "appendix")
    assert got == pytest.approx(want, rel=1e-12)


def test_solve_for_n():
    n = int(solve(get("scott2024.theorem3_2"), "n", 0.9, "printed",
                  **{k: v for k, v in T32.items() if k != "n"}).value)
    args = (0.27, 3.0, 2.0, 0.1, 0.2, 0.5, 1.4)
    assert _thm32_by_hand(*args, n, 200, 0.05) <= 0.9 < _thm32_by_hand(*args, n - 1, 200, 0.05)


def test_solve_for_n_below_the_sample_floor_is_refused():
    # the sample term tends to sqrt(theta2/(4 alpha_theta m)) = 0.0592 > 0.3 - 0.27
    with pytest.raises(InputError, match="n"):
        solve(get("scott2024.theorem3_2"), "n", 0.3, "printed",
              **{k: v for k, v in T32.items() if k != "n"})


@pytest.mark.parametrize("rid, bad, good", [
    ("scott2024.kl_gaussian", "printed", "corrected"),
    ("scott2024.theorem3_2", "appendix", "corrected"),
    ("scott2024.lemmaC3_iterate", "printed", "corrected")])
def test_dimension_check_flags_the_errata(rid, bad, good):
    with pytest.raises(DimensionError):
        get(rid).dimension_check(bad)
    get(rid).dimension_check(good)


@pytest.mark.parametrize("cid", [
    "E_dimension", "E_P3_kl", "P3_kl_mc"])
def test_checks_end_with_their_expected_verdicts(cid):
    load_papers()
    chk = get_check(f"scott2024.{cid}")
    out = run_check(chk, quick=True, base_seed=0, progress=False)
    assert out.verdict == chk.expected, out.detail


@pytest.mark.parametrize("cid, replicas", [("P8_quick", 30), ("P8_planted", 10)])
def test_probability_checks_small(cid, replicas):
    load_papers()
    chk = get_check(f"scott2024.{cid}")
    out = run_check(chk, quick=True, base_seed=1, replicas=replicas, progress=False)
    assert out.verdict == chk.expected, out.detail


def test_population_b_terms_are_consistent():
    p = dict(POINT_B_QUICK)
    r = replica_terms(p, np.random.default_rng(0))
    er = future_risk_of(p)
    assert np.all(r["bound"] == r["emp"] + r["meta"] + r["sample"])
    assert np.all((r["emp"] > 0) & (r["emp"] < 0.5) & (er < 0.5))
    assert np.any(er > r["emp"])  # the in-sample optimism the planted claim trips over
    # the meta term only depends on alpha_h = alpha_v: equal along alpha_theta
    assert np.ptp(r["meta"][:3]) == 0 and r["meta"][0] > r["meta"][3]
    assert r["bound"].min() < 1  # non-vacuous at the best grid point


@pytest.mark.slow
@pytest.mark.parametrize("cid", ["P8", "P8_planted"])
def test_full_probability_checks(cid):
    load_papers()
    chk = get_check(f"scott2024.{cid}")
    out = run_check(chk, quick=False, base_seed=0, progress=False)
    assert out.verdict == chk.expected, out.detail


def test_theorem32_terms_sum_to_the_catalogued_theorem():
    """The one evaluation of Theorem 3.2's terms (population B and Table 8): with one draw,
    emp + meta + sample is the catalogue's corrected Theorem 3.2 (to rounding); over several
    draws the sample term is the mean of the per-draw roots, below the root of the mean."""
    n, m, delta, G = 90, 50, 0.05, 9
    meta, sample = theorem32_terms(3.0, 2.0, 0.1, np.array([n * 0.5 / (2 * 0.2)]), n, m,
                                      delta / G)
    full = float(evaluate(get("scott2024.theorem3_2"), "corrected", emp=0.3, eta_h2=3.0,
                          eta_v2=2.0, alpha_h=0.1, alpha_v=0.1, alpha_theta=0.2, theta2=0.5,
                          n=n, m=m, delta=delta, G=G).value)
    assert 0.3 + meta + sample == pytest.approx(full, rel=1e-14)
    assert meta == pytest.approx(np.sqrt((25 + np.log(4 * np.sqrt(n) * G / delta)) / (2 * n)))
    _, spread = theorem32_terms(3.0, 2.0, 0.1, np.array([10.0, 200.0]), n, m, delta / G)
    _, pooled = theorem32_terms(3.0, 2.0, 0.1, np.array([105.0]), n, m, delta / G)
    assert spread < pooled


def test_grid_terms_match_the_fixed_network_replica_terms():
    p = dict(POINT_B_QUICK)
    direct = replica_terms(p, np.random.default_rng(3))
    rng = np.random.default_rng(3)
    pop = population_b(p)
    w = pop.clients(rng, (p["n"],))
    x, y, psi = descriptor_features(pop, rng, w, p["m"])
    again = grid_terms(pop, fixed_networks(pop, p["scale"]), w, x, y, psi, p["delta"], rng)
    for k in ("emp", "meta", "sample", "bound"):
        assert np.array_equal(direct[k], again[k])
    # a wider grid pays delta/|grid|: every meta and sample term grows
    wide = grid_terms(pop, fixed_networks(pop, p["scale"]), w, x, y, psi, p["delta"],
                         np.random.default_rng(0), GRID * 5)
    assert np.all(wide["meta"][: len(GRID)] > direct["meta"])


def test_grid_is_data_independent_and_wide():
    assert len(gn.GRID12) == len(gn.ALPHA_NET12) * len(gn.ALPHA_THETA12) == 30
    assert min(a for a, _ in gn.GRID12) == 1e-3 and max(t for _, t in gn.GRID12) == 100.0


def test_fresh_risk_of_the_true_direction_is_the_noise_level():
    pop = population_b(POINT_B)
    U, _ = np.linalg.qr(pop.W)
    nets = (5.0 * U, U.T.copy())
    er = gn.fresh_risk(pop, nets, 0.0, 0.0, 400, np.random.default_rng(1))
    assert pop.rho < er < pop.rho + 0.1  # descriptors from 400 points: close to w


def test_p12_figures_read_the_evidence():
    lams = np.array([0.0, 1e-3, 1e-2, 1e-1])
    ev = {"params": {"lam_grid": 1e-2}, "lams": lams,
          **{f"mean_{k}": np.linspace(0.1, 0.4, 4) for k in
             ("bound", "emp", "meta", "sample", "er", "eta2", "theta2", "er_tilde")},
          **{f"grid_{k}": np.full(len(gn.GRID12), 0.3) for k in
             ("bound", "emp", "meta", "sample", "er", "er_tilde")}}
    o = Outcome("scott2024.P12", "bound_holds", "HOLDS", "HOLDS", evidence=[ev])
    fig, gfig, table = gn.plot_p12(o)
    assert fig["series"][0]["x"][0] == pytest.approx(1e-4)  # lambda = 0 a decade left
    # the alpha-grid: er and the bound against alpha_theta, one group per alpha_h = alpha_v
    assert len(gfig["series"]) == 2 * len(gn.ALPHA_NET12)
    assert gfig["series"][0]["x"] == list(gn.ALPHA_THETA12)
    assert {s["style"] for s in gfig["series"]} == {"measured", "bound"}
    assert table["rows"][2][0] == "0.01" and len(table["rows"]) == 4
