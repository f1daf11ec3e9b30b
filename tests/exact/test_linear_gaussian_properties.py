"""Property tests: the spectral closed form equals the exact recursion on random instances."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from pflbounds.exact import afa_expected_excess, afo_expected_excess
from pflbounds.problems import QuadraticFamily, sinkhorn


@settings(max_examples=40, deadline=None)
@given(
    N=st.integers(2, 7),
    d=st.integers(1, 3),
    seed=st.integers(0, 10_000),
    per_agent=st.booleans(),
    step=st.floats(0.05, 1.0),
)
def test_spectral_matches_recursion(N, d, seed, per_agent, step):
    rng = np.random.default_rng(seed)
    h = rng.uniform(0.2, 3.0, d)
    s = rng.random((N, d)) if per_agent else rng.random(d)
    P = QuadraticFamily(h=h, m=rng.standard_normal((N, d)), s=s)
    Lam = sinkhorn(rng.random((N, N)) + 0.01)
    W = Lam @ Lam.T
    eta = step / P.L  # up to 1/L: stable since rho(W) = 1
    ks = [0, 1, 3, 17, 40]
    x0 = rng.standard_normal(d)
    a = afa_expected_excess(P, W, eta, x0, ks, method="spectral")
    b = afa_expected_excess(P, W, eta, x0, ks, method="recursion")
    assert np.allclose(a, b, rtol=1e-9, atol=1e-13)
    # AFO with Lam = I and AFA with W = I are the same dynamics (local SGD)
    c = afo_expected_excess(P, np.eye(N), eta, x0, ks)
    e = afa_expected_excess(P, np.eye(N), eta, x0, ks)
    assert np.allclose(c, e, rtol=1e-11, atol=1e-14)
