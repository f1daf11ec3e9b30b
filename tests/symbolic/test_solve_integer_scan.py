"""The integer scan of solve: in chunks that grow from 1024 integers, it finds the first
integer that meets the target, as a scan of every integer at once does, on both sides of
every chunk boundary."""

from __future__ import annotations

import numpy as np
import pytest

from pflbounds.symbolic import catalog, evaluate, solve

VALUES = dict(eta=1e-4, mu=1, L=2, sigma2=0.5, Delta0=1, V=0.4, B=0.05)
"""even2022.theorem2 (explicit) with a slow contraction: it decreases over K = 1..4e5."""


@pytest.mark.parametrize("k", [1, 2, 1024, 1025, 1026, 33792, 33793, 300000, 408936])
def test_the_smallest_k_is_the_first_integer_of_a_full_scan(k):
    r = catalog.get("even2022.theorem2")
    target = float(evaluate(r, "explicit", K=float(k), **VALUES).value)
    ks = np.arange(1, 500_001, dtype=float)
    full = np.asarray(evaluate(r, "explicit", K=ks, **VALUES).value)
    first = float(ks[np.argmax(full <= target)])
    got = solve(r, "K", target, "explicit", **VALUES).value
    assert got == first
    assert first <= k  # the value at k meets the target: the answer is k or before
