"""The collaboration weights of philippenko2025 (Definitions 1 and 3): hand values, the
relations Definition 1's weights satisfy, and the quick verdicts of their checks."""

from __future__ import annotations

import numpy as np
import pytest

from pflbounds.algorithms.similarity_weights import Criterion, collaboration_weights
from pflbounds.checking import Verdict
from pflbounds.papers.philippenko2025.checks.weights import CHECKS, remark1_printed
from pflbounds.papers.philippenko2025.theory.descent import S2
from pflbounds.papers.philippenko2025.theory.weights import (
    DEFINITION1,
    DEFINITION1_RATIO,
    DEFINITION3_BINARY,
    DEFINITION3_CONTINUOUS,
    REMARK1,
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


def _p17_verdict():
    from pflbounds.running.executor import run_check

    check = next(c for c in CHECKS if c.id.endswith(".P17"))
    return run_check(check, quick=True, base_seed=3, progress=False).verdict


def test_remark1_printed_weights_against_hand_values():
    """Remark 1 as printed: alpha_ik = n_k phi(r_ik)/sum_{j in N_i} n_j psi(r_ij)."""
    assert ev(REMARK1, n_k=4.0, phi_r=0.5, nPsiSum=2.0) == pytest.approx(1.0)
    # binary, lam = 0.5: r_i = (1, 0.6, 0.2), n = (1, 2, 3): N_i = {0, 1},
    # sum n_j psi = 1 * 0.5 + 2 * 0.3 = 1.1; alpha_i1 = 2 * 0.5/1.1, alpha_i2 = 0
    r = np.array([[[1.0, 0.6, 0.2], [0.6, 1.0, 0.2], [0.2, 0.2, 1.0]]])
    a = remark1_printed(r, np.array([1.0, 2.0, 3.0]), Criterion.binary(0.5))
    assert a[0, 0] == pytest.approx([0.5 / 1.1, 1.0 / 1.1, 0.0])


def test_p17_sees_a_wrong_normaliser_in_the_weights_the_algorithms_use(monkeypatch):
    """A wrong normaliser planted in Definition 1's code (weights divided by sum_k phi/sigma^2,
    so that they sum to one, instead of sum_k psi/sigma^2) leaves Remark 1's printed weights
    unchanged: P17's verdict moves from HOLDS to VIOLATED. (When Remark 1's weights were
    Definition 1's code at sigma_k^2 = 1/n_k, such a planting left its residual at 0.)"""
    import pflbounds.papers.philippenko2025.checks.weights as mod
    from pflbounds.algorithms.similarity_weights import Weights

    assert _p17_verdict() == Verdict.HOLDS

    def wrong(r, sigma2, crit):
        w = collaboration_weights(r, sigma2, crit)
        phi = crit.phi(np.asarray(r, dtype=float)) / np.asarray(sigma2, dtype=float)
        return Weights(alpha=phi / phi.sum(-1, keepdims=True), sigma_eff2=w.sigma_eff2,
                       sigma_phi2=w.sigma_phi2)

    monkeypatch.setattr(mod, "collaboration_weights", wrong)
    assert _p17_verdict() == Verdict.VIOLATED


@pytest.mark.parametrize("wrong", ["2*nPsiSum", "nPsiSum - n_k*phi_r**2"])
def test_p17_sees_a_wrong_normaliser_in_remark1(wrong):
    """A wrong normaliser planted in Remark 1's printed form (the catalog's) changes P17's
    verdict from HOLDS to VIOLATED."""
    import sympy as sp

    from pflbounds.audit.record import FormKey, substituted

    key = FormKey(REMARK1.id, "printed")
    planted = sp.sympify(f"n_k*phi_r/({wrong})", locals={s.name: s for s in
                                                          key.expr().free_symbols})
    assert _p17_verdict() == Verdict.HOLDS
    with substituted(key, planted) as calls:
        assert _p17_verdict() == Verdict.VIOLATED
    assert calls, "P17 evaluates Remark 1's printed form"
