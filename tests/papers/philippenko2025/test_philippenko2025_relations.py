"""philippenko2025's instance relations and side conditions: they hold on the weights that
Definition 1 actually produces (so they refuse no instance), they refuse what no instance
has (kappa > 1, mu > beta, eps > eps_i^0, ...), the printed decreasing step of Theorem 2
admits no point at all (erratum 8), and the calculator refuses what ``eval`` refuses."""

from __future__ import annotations

import numpy as np
import pytest

from pflbounds.algorithms.similarity_weights import Criterion, collaboration_weights
from pflbounds.symbolic import HypothesisError, InputError, evaluate, get
from pflbounds.symbolic.admissible import admissible_point
from pflbounds.symbolic.complexity import complexity_table
from pflbounds.symbolic.loader import load_papers

load_papers()
P = "philippenko2025."


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
        a = evaluate(get(P + "definition1"), phi_r=phi[:, i, k], sigma_eff2=w.sigma_eff2[:, i],
                     sigma_k2=s2[k]).value
        assert np.allclose(a, w.alpha[:, i, k])
    evaluate(get(P + "s2"), Asum=A[:, 0], G=1.0, beta=1.0, eta=0.5 / A[:, 0],
             sigma_eff2=w.sigma_eff2[:, 0])


def test_kappa_above_one_is_refused_and_one_is_accepted():
    base = dict(S_eff=1, T=10, beta=1, eps0=1, eta=0.9, mu=0.5)
    assert evaluate(get(P + "theorem1"), kappa_w=1.0, **base).value > 0
    with pytest.raises(InputError, match=r"kappa_w=1.5"):
        evaluate(get(P + "theorem1"), kappa_w=1.5, **base)


def test_the_printed_decreasing_step_admits_no_point():
    r = get(P + "theorem2_decreasing")
    assert admissible_point(r, "printed") is None
    assert admissible_point(r, "corrected") is not None
    # the best a point can do: C barely above 1, mu = beta, kappa = 1: still C beta > kappa mu
    with pytest.raises(HypothesisError, match=r"C\*beta <= kappa_w\*mu"):
        evaluate(r, "printed", C=1.0001, T=10, beta=1, eps0=1, kappa_w=1, mu=1, sigma_suf2=1)


def test_corrected_corollary1_is_never_negative_where_admitted():
    r = get(P + "corollary1")
    rng = np.random.default_rng(3)
    for _ in range(200):
        mu, C = rng.uniform(0.1, 1), rng.uniform(1.01, 5)
        beta, kappa = mu * rng.uniform(1, 10), rng.uniform(0.05, 1)
        eps0 = rng.uniform(0.1, 10)
        g0 = np.ceil(C * beta / (mu * kappa) - 1) + rng.integers(0, 3)
        v = evaluate(r, "corrected", C=C, beta=beta, eps=eps0 * rng.uniform(1e-3, 1), eps0=eps0,
                     gamma0=g0, kappa_w=kappa, mu=mu, sigma_suf2=rng.uniform(0.01, 10)).value
        assert v >= -1e-9


_CX = dict(mu=1.0, beta=2.0, eps=0.1, sigma2=1.0, lam=0.5, N=4, clusters=2, b_between=1.0)


@pytest.mark.parametrize("bad, rid, form, values", [
    ({"mu": 3.0}, "corollary1", "printed", dict(C=2, beta=2, eps=0.1, mu=3, sigma_suf2=1)),
    ({"lam": 1.5}, "corollary1_binary", "printed",
     dict(C=2, Nstar=2, beta=2, eps=0.1, lam=1.5, mu=1, sigma2=1)),
    ({"eps0": 0.01}, "corollary1", "general",
     dict(C=2, beta=2, eps=0.1, eps0=0.01, mu=1, sigma_suf2=1)),
    ({"C": 1.0}, "corollary1", "printed", dict(C=1, beta=2, eps=0.1, mu=1, sigma_suf2=1)),
])
def test_the_calculator_refuses_what_eval_refuses(bad, rid, form, values):
    complexity_table("philippenko2025", _CX, {})  # the base point is accepted
    with pytest.raises((InputError, HypothesisError)) as calc:
        complexity_table("philippenko2025", {**_CX, **bad}, {})
    with pytest.raises((InputError, HypothesisError)) as ev:
        evaluate(get(P + rid), form, **values)
    assert type(calc.value) is type(ev.value)
    assert str(calc.value).split(" fails")[0] == str(ev.value).split(" fails")[0]
