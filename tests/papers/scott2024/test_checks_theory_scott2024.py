"""scott2024 theory checks: the exact numbers of population D quoted in the errata, every
check ending with its expected verdict on its quick grid, and population B's terms."""

from __future__ import annotations

import numpy as np
import pytest

from pflbounds.checking.registry import get, load_papers
from pflbounds.papers.scott2024.checks import population_b as pb
from pflbounds.papers.scott2024.checks import population_d as pd
from pflbounds.running import run_check


def _ev(check_id: str, point: int = 0) -> dict:
    load_papers()
    c = get(check_id)
    return c.simulate(c.grid[point], 1, np.random.SeedSequence(0))


@pytest.mark.parametrize("cid, ratio", [
    ("scott2024.E_C5_lemmaC5", 9 / (4 + 1944e-4)),
    ("scott2024.E_C4_theorem3_1_main", 1.47075),
    ("scott2024.E_C4_theorem3_1_appendix", 1.11020),
    ("scott2024.E_C5_theorem3_1", 1.33165)])
def test_population_d_ratios(cid, ratio):
    ev = _ev(cid)
    assert float(ev["mean"][0] / ev["bound_printed"][0]) == pytest.approx(ratio, rel=1e-5)


def test_theorem_run_numbers():
    run = pd.theorem_run(9.0, 2_000_000)
    a = 2 / np.sqrt(2e6) * 9
    assert run["avg"] == pytest.approx(9 * a / (2 - a), rel=1e-4)  # stationary level
    assert run["T_min"] == 12544 * 81 and run["exit"] < -20
    ev = _ev("scott2024.E_C5_theorem3_1")
    assert float(ev["ratio_corrected"]) == pytest.approx(0.08396, rel=1e-3)
    assert float(ev["step_conditions_hold"]) == 1.0


QUICK = ["E_C5_lemmaC5", "E_C4_theorem3_1_main", "E_C4_theorem3_1_appendix",
         "E_C4_theorem3_1_proof", "E_C5_theorem3_1", "E_C1_lemmaC4", "P6_lemmaC4_proof_step",
         "E_algebra", "E_dimension", "E_P2_gamma", "E_P3_kl", "P3_kl_mc", "P7_lemmaC2", "P10",
         "P14"]


@pytest.mark.parametrize("cid", QUICK)
def test_checks_end_with_their_expected_verdicts(cid):
    load_papers()
    chk = get(f"scott2024.{cid}")
    out = run_check(chk, quick=True, base_seed=0, progress=False)
    assert out.verdict == chk.expected, out.detail


@pytest.mark.parametrize("cid, replicas", [("P8_quick", 30), ("P8_planted", 10)])
def test_probability_checks_small(cid, replicas):
    load_papers()
    chk = get(f"scott2024.{cid}")
    out = run_check(chk, quick=True, base_seed=1, replicas=replicas, progress=False)
    assert out.verdict == chk.expected, out.detail


def test_population_b_terms_are_consistent():
    p = dict(pb._B_QUICK)
    r = pb.replica_terms(p, np.random.default_rng(0))
    er = pb._er(p)
    assert np.all(r["bound"] == r["emp"] + r["meta"] + r["sample"])
    assert np.all((r["emp"] > 0) & (r["emp"] < 0.5) & (er < 0.5))
    assert np.any(er > r["emp"])  # the in-sample optimism the planted claim trips over
    # the meta term only depends on alpha_h = alpha_v: equal along alpha_theta
    assert np.ptp(r["meta"][:3]) == 0 and r["meta"][0] > r["meta"][3]
    assert r["bound"].min() < 1  # non-vacuous at the best grid point


@pytest.mark.slow
@pytest.mark.parametrize("cid", ["P8", "P8_planted", "P9_part1", "P9_part2", "P11"])
def test_full_probability_checks(cid):
    load_papers()
    chk = get(f"scott2024.{cid}")
    out = run_check(chk, quick=False, base_seed=0, progress=False)
    assert out.verdict == chk.expected, out.detail


def test_lemma_c2_shows_as_a_scatter_of_both_equations():
    """P7's figure: each point's exact left side against its bound, one series per equation;
    (44) is an equality (on y = x), (45) lies below it."""
    load_papers()
    check = get("scott2024.P7_lemmaC2")
    outcome = run_check(check, quick=True)
    (fig,) = check.plot(outcome)
    assert fig["kind"] == "scatter"
    eq44, eq45 = fig["series"]
    assert (eq44["label"], eq45["label"]) == ("(44)", "(45)")
    assert len(eq44["x"]) == len(eq45["x"]) == len(outcome.evidence)
    np.testing.assert_allclose(eq44["y"], eq44["x"], rtol=1e-9)
    assert all(y <= x * (1 + 1e-9) for x, y in zip(eq45["x"], eq45["y"], strict=True))


def test_theorem32_terms_sum_to_the_catalogued_theorem():
    """The one evaluation of Theorem 3.2's terms (population B and Table 8): with one draw,
    emp + meta + sample is the catalogue's corrected Theorem 3.2 (to rounding); over several
    draws the sample term is the mean of the per-draw roots, below the root of the mean."""
    from pflbounds.symbolic.catalog import get as result
    from pflbounds.symbolic.evaluate import evaluate

    n, m, delta, G = 90, 50, 0.05, 9
    meta, sample = pb.theorem32_terms(3.0, 2.0, 0.1, np.array([n * 0.5 / (2 * 0.2)]), n, m,
                                      delta / G)
    full = float(evaluate(result("scott2024.theorem3_2"), "corrected", emp=0.3, eta_h2=3.0,
                          eta_v2=2.0, alpha_h=0.1, alpha_v=0.1, alpha_theta=0.2, theta2=0.5,
                          n=n, m=m, delta=delta, G=G).value)
    assert 0.3 + meta + sample == pytest.approx(full, rel=1e-14)
    assert meta == pytest.approx(np.sqrt((25 + np.log(4 * np.sqrt(n) * G / delta)) / (2 * n)))
    _, spread = pb.theorem32_terms(3.0, 2.0, 0.1, np.array([10.0, 200.0]), n, m, delta / G)
    _, pooled = pb.theorem32_terms(3.0, 2.0, 0.1, np.array([105.0]), n, m, delta / G)
    assert spread < pooled
