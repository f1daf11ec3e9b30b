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


@pytest.mark.slow
def test_pfedhn_round_moves_each_sampled_row_by_its_own_delta_bit_for_bit():
    """Table 1's pFedHN round differentiates through the sampled rows only: the result is
    the dense update (J^T over the whole n x l embedding matrix, summed over the clients)
    bit for bit."""
    import jax
    import jax.numpy as jnp

    from pflbounds.algorithms import pefll
    from pflbounds.algorithms.client_models import Softmax, objective
    from pflbounds.algorithms.hypernetworks import mlp_hypernetwork

    n, l, C, p_ = 7, 3, 3, 4
    rng = np.random.default_rng(0)
    x = jnp.asarray(rng.standard_normal((n, 6, p_)))
    y = jnp.asarray(rng.integers(0, C, (n, 6)))
    data = pefll.ClientData(jnp.zeros((n, 6, 1)), x, y)
    model = Softmax(p_, C)
    arch = pefll.Architecture("pfedhn", model, mlp_hypernetwork(l, model.d, 5, 1), l=l)
    cfg = pefll.TrainConfig(T=1, c=3, k=2, beta=0.1, server_lr=0.3)
    eta = arch.init(jax.random.key(1), n)
    key = jax.random.key(2)
    new, _ = pefll.server_round(arch, data, cfg, eta, key)

    kc, kk = jax.random.split(key)
    sampled = jax.random.choice(kc, n, (cfg.c,), replace=False)

    def dense(i, kq):  # the client's Delta through the whole matrix, as a reference
        ks = jax.random.split(kq)[1]
        th0, vjp = jax.vjp(lambda e: arch.theta(e, None, i), eta)

        def step(t, _):
            return t - cfg.beta * jax.grad(lambda u: objective(model, u, x[i], y[i], 0.0))(t), None

        thk, _ = jax.lax.scan(step, th0, jax.random.split(ks, cfg.k))
        return vjp(thk - th0)[0]

    d = jax.vmap(dense)(sampled, jax.random.split(kk, cfg.c))
    want_v = eta["v"] + cfg.server_lr * d["v"].sum(0)
    assert np.array_equal(np.asarray(new["v"]), np.asarray(want_v))
    moved = np.flatnonzero(np.any(np.asarray(new["v"] != eta["v"]), axis=1))
    assert sorted(moved) == sorted(np.asarray(sampled).tolist())
