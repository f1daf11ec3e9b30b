"""P8 (b): Proposition 3.4 on empirical ridge clients, W1 by the transport LP."""

from __future__ import annotations

import numpy as np
import pytest

from pflbounds.papers.erickson2025.checks.empirical_ridge import ridge_clients, simulate_p8_ridge
from pflbounds.problems.transport import lp_plan, w1_exact


def test_lp_w1_of_unequal_samples_lies_between_the_mean_gap_and_the_product_plan():
    rng = np.random.default_rng(0)
    (Xa, ya), (Xb, yb) = ridge_clients(rng, 2, 3, (20, 20), 0.1, 1.0)
    A, B = np.column_stack([Xa, ya])[:11], np.column_stack([Xb, yb])[:17]  # the LP path
    w1 = w1_exact(A, B)
    cost = np.linalg.norm(A[:, None] - B[None], axis=-1)
    product = float(cost.mean())  # the independent coupling
    assert np.linalg.norm(A.mean(0) - B.mean(0)) <= w1 + 1e-12  # x -> <u, x> is 1-Lipschitz
    assert w1 < product
    plan = lp_plan(A, B)
    assert float((plan * cost).sum()) == pytest.approx(w1, rel=1e-9)


def test_p8_ridge_bounds_hold_and_2_is_the_loosest():
    ev = simulate_p8_ridge(dict(n=4, d=2, sizes=[10, 20], lam=0.1, shift=1.0), 1,
                           np.random.SeedSequence(3))
    assert float(ev["residual"]) == 0.0
    assert 1.0 <= float(ev["tightness_eq3"]) < float(ev["tightness_eq2"])
    assert float(ev["tightness_eq2"]) > 10  # L_X is worst case over the data box
