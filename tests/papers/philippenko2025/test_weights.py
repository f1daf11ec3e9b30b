"""The collaboration weights of philippenko2025 (Definitions 1 and 3): hand values, the
relations Definition 1's weights satisfy, and the quick verdicts of their checks."""

from __future__ import annotations

import numpy as np
import pytest

from pflbounds.algorithms.similarity_weights import Criterion, collaboration_weights
from pflbounds.papers.philippenko2025.checks.weights import CHECKS
from pflbounds.papers.philippenko2025.theory.descent import S2
from pflbounds.papers.philippenko2025.theory.weights import (
    DEFINITION1,
    DEFINITION1_RATIO,
    DEFINITION3_BINARY,
    DEFINITION3_CONTINUOUS,
)
from pflbounds.symbolic import HypothesisError, evaluate, get

FAST = ["P1", "P16", "P17", "E20"]


def ev(result, form=None, **v):
    return evaluate(get(result.id), form, **v).value


def test_definitions_1_and_3_against_hand_values():
    assert ev(DEFINITION3_BINARY, r=0.4, lam=0.5) == {"phi": 0.0, "psi": 0.0}
    assert ev(DEFINITION3_BINARY, r=0.5, lam=0.5) == {"phi": 0.5, "psi": 0.25}
    assert ev(DEFINITION3_CONTINUOUS, r=0.5) == {"phi": 0.5, "psi": 0.25}
    assert ev(DEFINITION1_RATIO, D=1.0, G=4.0) == pytest.approx(0.75)
    assert ev(DEFINITION1_RATIO, D=5.0, G=4.0) == 0.0
    with pytest.raises(HypothesisError, match="grad R_i"):
        ev(DEFINITION1_RATIO, D=1.0, G=0.0)
    assert ev(DEFINITION1, phi_r=0.5, sigma_eff2=0.2, sigma_k2=0.1) == pytest.approx(1.0)


@pytest.mark.parametrize("crit", [Criterion.binary(0.3), Criterion.binary(1.0),
                                  Criterion.continuous()])
def test_definition1_weights_satisfy_the_declared_relations(crit):
    """On random ratios and variances: every weight sum is >= 1 (so (S2)'s Asum >= 1), the
    step ratio 1/sum_k alpha_ik (what kappa bounds) is <= 1, and phi(r_ik)^2 sigma_eff^2 <=
    sigma_k^2 (Definition 1's relation): evaluating Definition 1 and (S2) there succeeds."""
    rng = np.random.default_rng(7)
    N = 6
    r = rng.uniform(0, 1, (200, N, N)) * (rng.uniform(size=(200, N, N)) < 0.7)
    r[:, np.arange(N), np.arange(N)] = 1.0
    s2 = rng.uniform(0.1, 3.0, N)
    w = collaboration_weights(r, s2, crit)
    A = w.alpha.sum(-1)
    assert np.all(A >= 1 - 1e-12) and np.all(1 / A <= 1 + 1e-12)
    phi = crit.phi(r)
    assert np.all(phi**2 * w.sigma_eff2[..., None] <= s2 * (1 + 1e-12))
    for i, k in [(0, 1), (2, 5), (3, 3)]:
        a = ev(DEFINITION1, phi_r=phi[:, i, k], sigma_eff2=w.sigma_eff2[:, i], sigma_k2=s2[k])
        assert np.allclose(a, w.alpha[:, i, k])
    ev(S2, Asum=A[:, 0], G=1.0, beta=1.0, eta=0.5 / A[:, 0], sigma_eff2=w.sigma_eff2[:, 0])


@pytest.mark.parametrize("key", FAST)
def test_quick_verdict_is_the_expected_one(quick_outcomes, key):
    o = quick_outcomes[key]
    assert o.error is None, o.error
    assert o.verdict == next(c for c in CHECKS if c.id.endswith("." + key)).expected, o.detail
