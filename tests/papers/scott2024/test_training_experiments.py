"""scott2024 experiments on population C: the Spearman average of P13 and (slow) the Table 1
pipeline."""

import numpy as np
import pytest
from scipy.stats import spearmanr

from pflbounds.papers.scott2024.checks import experiments as ex


def test_spearman_rows_matches_scipy():
    rng = np.random.default_rng(0)
    a, b = rng.random((4, 15)), rng.random((4, 15))
    b[0] = a[0] ** 3  # monotone: rank correlation 1
    want = np.mean([spearmanr(a[i], b[i]).statistic for i in range(4)])
    assert ex._spearman_rows(a, b) == pytest.approx(want, rel=1e-12)
    assert ex._spearman_rows(a[:1], b[:1]) == pytest.approx(1.0)


@pytest.mark.slow
def test_table1_pipeline_small():
    p = dict(ex._C, n=18, T=10, seeds=2, local_steps=20, m_total=900)
    out = ex.run_table1(p, np.random.SeedSequence(1))
    assert out["risk"].shape == (2, len(ex.METHODS), 2)
    assert np.all((out["risk"] >= 0) & (out["risk"] <= 1))
    assert np.all(out["se"] < 0.02)
    assert out["floats_per_round"][ex.METHODS.index("FedAvg")] == 2 * 1 * 55
    again = ex.run_table1(p, np.random.SeedSequence(1))
    assert np.array_equal(again["risk"], out["risk"])
