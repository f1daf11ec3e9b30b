"""scott2024's experiments on population C (experiments/): the Spearman average of P13, the
class errors with and without label masking, and (slow) the Table 1 pipeline, pFedHN's round,
the stochastic predictor of Table 8 and every ablation pipeline at a tiny size."""

from __future__ import annotations

import jax.numpy as jnp
import numpy as np
import pytest
from scipy.stats import spearmanr

from pflbounds.algorithms import pefll
from pflbounds.algorithms.client_models import Softmax
from pflbounds.papers.scott2024.checks.common import class_errors
from pflbounds.papers.scott2024.experiments import ablations as ab
from pflbounds.papers.scott2024.experiments import benchmarks as bm
from pflbounds.papers.scott2024.experiments import descriptor_geometry as dg
from pflbounds.papers.scott2024.experiments import new_clients as nc
from pflbounds.papers.scott2024.instances import POINT_C, pefll_architecture, setting

TINY = dict(POINT_C, n=18, T=10, seeds=2, local_steps=20, m_total=900, width=8)

def test_spearman_rows_matches_scipy():
    rng = np.random.default_rng(0)
    a, b = rng.random((4, 15)), rng.random((4, 15))
    b[0] = a[0] ** 3  # monotone: rank correlation 1
    want = np.mean([spearmanr(a[i], b[i]).statistic for i in range(4)])
    assert dg._spearman_rows(a, b) == pytest.approx(want, rel=1e-12)
    assert dg._spearman_rows(a[:1], b[:1]) == pytest.approx(1.0)


@pytest.mark.slow
def test_table1_pipeline_small():
    p = dict(POINT_C, n=18, T=10, seeds=2, local_steps=20, m_total=900)
    out = bm.run_table1(p, np.random.SeedSequence(1))
    assert out["risk"].shape == (2, len(bm.METHODS), 2)
    assert np.all((out["risk"] >= 0) & (out["risk"] <= 1))
    assert np.all(out["se"] < 0.02)
    assert out["floats_per_round"][bm.METHODS.index("FedAvg")] == 2 * 1 * 55
    again = bm.run_table1(p, np.random.SeedSequence(1))
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


def test_class_errors_plain_and_masked():
    model = Softmax(2, 3)
    W = np.array([[1.0, 0.0], [0.0, 1.0], [-1.0, -1.0]])
    theta = jnp.asarray(np.concatenate([W.ravel(), np.zeros(3)]))
    rng = np.random.default_rng(0)
    tests = rng.standard_normal((3, 50, 2)) + 3 * np.array([[1, 0], [0, 1], [-1, -1]])[:, None]
    thetas = jnp.broadcast_to(theta, (1, 2, 9))
    plain = np.asarray(class_errors(model, thetas, jnp.asarray(tests[None]),
                                        jnp.ones((1, 2, 3), bool)))
    want = [float(model.error(theta, jnp.asarray(tests[c]), jnp.full(50, c)).mean())
            for c in range(3)]
    assert plain[0, 0].tolist() == want
    mask = jnp.asarray([[[True, True, True], [True, False, True]]])
    masked = np.asarray(class_errors(model, thetas, jnp.asarray(tests[None]), mask))
    assert masked[0, 1, 1] == 1.0  # a masked class is never predicted
    assert masked[0, 1, 0] <= plain[0, 1, 0] and masked[0, 1, 2] <= plain[0, 1, 2]
    assert masked[0, 0].tolist() == plain[0, 0].tolist()


@pytest.mark.slow
def test_stochastic_emp_at_zero_variance_is_the_training_error():
    st = setting(dict(TINY, n=9), np.random.SeedSequence(4).spawn(1))
    arch = pefll_architecture(st, TINY)
    import jax

    eta = arch.init(jax.random.key(0), st.n)
    d0 = pefll.ClientData(*(np.asarray(a[0]) for a in st.seen))
    emp, th2 = ab._stochastic_emp(arch, eta, pefll.as_jax(d0), jnp.zeros((1, 2)), 2,
                                  jax.random.key(1))
    th = pefll.predict_thetas(arch, eta, d0)
    det = pefll.errors(arch.model, th, jnp.asarray(d0.x), jnp.asarray(d0.y)).mean()
    assert float(emp[0]) == pytest.approx(float(det), abs=1e-12)
    assert float(th2[0]) == pytest.approx(float(jnp.mean(jnp.sum(th * th, 1))), rel=1e-12)
    emp2, _ = ab._stochastic_emp(arch, eta, pefll.as_jax(d0), jnp.array([[1.0, 100.0]]), 2,
                                 jax.random.key(1))
    assert abs(float(emp2[0]) - 0.8) < 0.2  # heavy noise: about chance level (4/5 wrong)


SIMS = {"table2": (nc.simulate_table2, {}), "table6": (ab.simulate_table6, {}),
        "table7": (ab.simulate_table7, {}), "table9": (ab.simulate_table9, {}),
        "fig4": (nc.simulate_fig4, {"alpha": 0.1, "alphas": [0.1, 1.0], "new_per_alpha": 3}),
        "floats": (ab.simulate_floats, {"checkpoints": 2}),
        "table8": (ab.simulate_table8, {"lam_thetas": [0.0, 0.5], "lams": [0.0],
                                        "alpha_net": [1e-2], "alpha_theta": [0.1, 1.0],
                                        "draws": 2, "delta": 0.05})}


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(SIMS))
def test_ablation_pipelines_small(name):
    sim, extra = SIMS[name]
    p = dict(TINY, **extra)
    out = sim(p, 1, np.random.SeedSequence(7))
    assert out["mean"].shape == out["bound"].shape == out["ks"].shape
    r = np.asarray(out["risk"])
    assert r.shape[0] == 2 and np.all((r >= 0) & (r <= 1))
    assert np.all(np.isfinite(out["mean"])) and np.all(np.isfinite(out["bound"]))
    if name == "table8":
        assert np.all(out["theorem3_2"] > out["emp_stochastic"])  # the complexity terms > 0
    if name == "floats":
        assert out["floats_per_round"][0] > out["floats_per_round"][1]
    again = sim(p, 1, np.random.SeedSequence(7))
    assert np.array_equal(np.asarray(again["risk"]), r)


def test_largest_trained_skips_diverged_rows():
    nan = np.nan
    risk = np.array([[[0.1, 0.2], [0.3, 0.1], [nan, 0.5]],
                     [[0.3, 0.2], [0.5, 0.3], [nan, nan]]])  # (seeds, rows, cols)
    measured, lower = ab.largest_trained(risk)
    assert measured.tolist() == pytest.approx([0.4, 0.5])  # col 0: row 1; col 1: row 2, seed 0
    assert lower.tolist() == pytest.approx([0.2, 0.2])
    m1, l1 = ab.largest_trained(np.full((2, 2, 1), nan))
    assert np.isnan(m1[0]) and np.isnan(l1[0])


def test_points_of_one_experiment_share_their_runs_and_their_seeds():
    from pflbounds.papers.scott2024.checks import common

    calls = []

    def run(p, R, seed):
        calls.append((dict(p), R, seed.generate_state(2).tolist()))
        return {"risk": np.random.default_rng(seed).random((R, 2, 2))}

    common._RUNS.clear()
    base = np.random.SeedSequence(5, spawn_key=(1, 2, 3, 4, 0))
    other = np.random.SeedSequence(5, spawn_key=(9, 9, 9, 9, 0))  # another point's task
    a = common.shared_run(run, {"n": 3, "clients": "seen"}, 4, base)
    b = common.shared_run(run, {"n": 3, "clients": "unseen"}, 4, other)
    assert len(calls) == 1 and a is b  # one run, read by both points
    assert calls[0][0] == {"n": 3, "seeds": 4}
    common.shared_run(run, {"n": 3, "clients": "seen"}, 4, np.random.SeedSequence(6))
    assert len(calls) == 2 and calls[1][2] != calls[0][2]  # another base seed: other draws


def test_every_experiment_is_a_comparison_with_its_draws_declared():
    from pflbounds.checking import CheckKind, Verdict
    from pflbounds.checking.registry import all_checks, load_papers
    from pflbounds.running.multiplicity import paper_family

    load_papers()
    fam = paper_family("scott2024")
    comps = {c.id: c for c in all_checks() if c.paper == "scott2024"
             and c.kind is CheckKind.COMPARISON}
    assert set(comps) == {f"scott2024.{k}" for k in ("table1", "table1_n900", "table2", "fig4",
                                                     "table6", "table7", "table8", "table9",
                                                     "floats", "P13")}
    for cid, c in comps.items():
        assert c.plan is not None and c.replicas == c.block_size == c.plan.draws, cid
        assert c.order == "decreasing" and len(c.methods) == 2, cid
        alpha = fam.level * fam.shares[cid] / ((len(c.methods) - 1) * len(c.grid))
        rec = c.plan.record(alpha)
        if not rec["powered"]:  # an unpowered plan's verdict is INCONCLUSIVE
            assert c.expected is Verdict.INCONCLUSIVE, cid
    # the 0.1-0.2 point ablations cannot be separated within their budget
    for cid in ("scott2024.table7", "scott2024.table9"):
        c = comps[cid]
        alpha = fam.level * fam.shares[cid] / len(c.grid)
        assert not c.plan.record(alpha)["budget_reaches_target"]
        assert c.expected is Verdict.INCONCLUSIVE


def test_the_comparisons_plans_and_expected_verdicts_follow_from_the_recorded_pilot():
    """Every comparison's expected verdict is the one its 16-draw pilot predicts
    (pflbounds.checking.pilot.plan_from_pilot at the check's level), INCONCLUSIVE where the
    pilot does not settle a pair or the budget (300 s of one core per check) cannot reach
    power 0.99; a plan taken from the pilot declares exactly the draws, effect and sd the rule
    gives, and its budget; P13 keeps its first plan, with at least the draws the rule needs."""
    import json
    import math
    from pathlib import Path

    from pflbounds.checking import CheckKind, Verdict
    from pflbounds.checking.registry import all_checks, load_papers
    from pflbounds.papers.scott2024 import experiments
    from pflbounds.running.pilot import plans_from_record

    load_papers()
    pilot = json.loads((Path(experiments.__file__).parent / "pilot16.json").read_text())
    comps = {c.id: c for c in all_checks() if c.paper == "scott2024"
             and c.kind is CheckKind.COMPARISON}
    assert set(pilot["checks"]) == set(comps)
    plans = plans_from_record(pilot, "scott2024")
    from_pilot = 0
    for cid, c in comps.items():
        rec = pilot["checks"][cid]
        plan, alpha = plans[cid]
        budget = max(4, min(200, int(300 / rec["seconds_per_draw"])))
        decides = plan.predicted is not Verdict.INCONCLUSIVE and plan.draws <= budget
        assert c.expected is (plan.predicted if decides else Verdict.INCONCLUSIVE), cid
        if "16-draw pilot" in c.plan.sd_source:
            from_pilot += 1
            assert decides and c.plan.draws == max(4, plan.draws), cid
            assert math.isclose(c.plan.effect, plan.effect, rel_tol=2e-3), cid
            assert math.isclose(c.plan.sd, plan.sd, rel_tol=5e-3), cid
            assert c.plan.budget_draws == budget and c.plan.target_power == 0.99, cid
            assert c.plan.power(alpha) >= 0.99, cid
        elif decides:
            assert cid == "scott2024.P13" and c.plan.draws >= plan.draws
    assert from_pilot == 6
