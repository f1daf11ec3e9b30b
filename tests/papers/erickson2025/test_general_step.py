"""erickson2025 Theorem 4.3 for a general step (theory/general_step.py) and its checks: the
dimension errata of eps, and P11 with the corrected and the printed Lyapunov weights (the
weights, the pair-block projection against the conic solver, and the searched violation)."""

from __future__ import annotations

import numpy as np
import pytest

from pflbounds.checking.registry import get as get_check
from pflbounds.checking.registry import load_papers
from pflbounds.papers.erickson2025.checks.general_step import (
    block_projection,
    lyapunov_terms,
    lyapunov_weights,
    printed_lyapunov_weights,
    simulate_p11_printed,
)
from pflbounds.problems.pairwise_constraints import PairwiseConstraintSet, pair_index
from pflbounds.running import run_check
from pflbounds.symbolic.catalog import get
from pflbounds.symbolic.units import DimensionError, Unit


def test_dimension_check_flags_the_printed_epsilon():
    for rid in ("erickson2025.theorem4_3", "erickson2025.theorem4_3_eta38"):
        r = get(rid)
        with pytest.raises(DimensionError, match=r"\[f\] and \[f\]\^2\*\[x\]\^-2"):
            r.dimension_check("printed")
        with pytest.raises(DimensionError):
            r.dimension_check("explicit")
        assert r.dimension_check("corrected")[""] == Unit.parse("f^2/x^2")
    assert get("erickson2025.lemmaA2_5").dimension_check("printed")[""] == Unit.parse("x^2")


def test_printed_weights_miss_the_recursion_and_corrected_ones_solve_it():
    n, s, eta, L, K = 30, 2, 0.375, 1.0, 200
    r = (n * n - s * s) / (n * n)
    a = 2 * eta * L**2 / (n * s)
    cc, cp = lyapunov_weights(n, s, eta, L, K), printed_lyapunov_weights(n, s, eta, L, K)
    # the proof's recursion c_k = a + r c_{k+1}, c_K = 0
    np.testing.assert_allclose(cc[:-1] - r * cc[1:], a, rtol=1e-12)
    np.testing.assert_allclose(cp[:-1] - r * cp[1:], a * (1 - r) / r, rtol=1e-9)
    assert cc[-1] == cp[-1] == 0.0
    assert cc[0] / cp[0] == pytest.approx(r / (1 - r), rel=1e-12)  # 224 at n = 30, s = 2


def test_block_projection_is_the_exact_projection_onto_K():
    rng = np.random.default_rng(3)
    n, d = 6, 2
    rho = np.array([0.3, 1.0, 0.05])
    i, j = pair_index(n)
    far = np.where((i % 2 == 0) & (j == i + 1), rho[np.minimum(i // 2, 2)], 100.0)
    z = rng.standard_normal((4, n, d))
    exact = PairwiseConstraintSet(n, d, far).project_exact(z)
    np.testing.assert_allclose(block_projection(z, rho), exact.theta, atol=1e-6)


def test_step_terms_match_a_loop_over_subsets():
    rng = np.random.default_rng(1)
    n, d, s, eta, L = 6, 2, 2, 0.375, 1.0
    m = rng.standard_normal((n, d))
    rho = np.array([0.2, 0.5, 0.1])
    theta = block_projection(rng.standard_normal((n, d)), rho)
    phi = theta + 0.3 * rng.standard_normal((n, d))
    t = lyapunov_terms(m, theta, phi, rho, s=s, eta=eta, L=L)
    f = lambda x: 0.5 * L * ((x - m) ** 2).sum() / n  # noqa: E731
    vals, dists = [], []
    for a in range(n):
        for b in range(a + 1, n):
            S = np.zeros((n, 1), bool)
            S[[a, b]] = True
            g, y = L * (theta - m), L * (phi - m)
            th1 = block_projection(theta - eta * (y / n + S * (g - y) / s), rho)
            vals.append(f(th1))
            dists.append(((th1 - np.where(S, theta, phi)) ** 2).sum())
    G = (theta - block_projection(theta - eta * L * (theta - m) / n, rho)) / eta
    pay = np.mean(vals) - f(theta) + eta**2 * (1 / (2 * eta) - L) * (G**2).sum()
    assert float(t["pay"]) == pytest.approx(pay, rel=1e-12, abs=1e-15)
    assert float(t["d1"]) == pytest.approx(np.mean(dists), rel=1e-12)


@pytest.mark.slow
def test_search_finds_a_state_where_the_printed_weights_fail():
    p = dict(n=30, s=2, d=2, K=1000, k=0, starts=2, search_seed=0, recursion_search=True)
    ev = simulate_p11_printed(p, 1, np.random.SeedSequence(0))
    assert float(ev["mean"][0]) > float(ev["bound_printed"][0]) * 1.05
    assert float(ev["mean"][0]) < float(ev["bound_corrected"][0])
    assert float(ev["violation"]) < 1e-12
    assert float(ev["recursion_best"]) > 0  # s = 2 is outside the corrected range at n = 30
    load_papers()
    chk = get_check("erickson2025.P11_printed")
    out = run_check(chk, quick=True, base_seed=0, progress=False)
    assert out.verdict == chk.expected, out.detail


@pytest.mark.parametrize("cid", ['P11'])
def test_checks_end_with_their_expected_verdicts(cid):
    load_papers()
    chk = get_check(f"erickson2025.{cid}")
    out = run_check(chk, quick=True, base_seed=0, progress=False)
    assert out.verdict == chk.expected, out.detail
