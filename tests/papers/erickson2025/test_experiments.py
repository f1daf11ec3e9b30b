"""The experiments of erickson2025 §5 (experiments/) at toy sizes: the scaled projection, the
MLP gradient, the draws' evidence, reproducibility, the checks' comparisons, and the claims'
inputs."""

from __future__ import annotations

import numpy as np
import pytest

from pflbounds.algorithms.ifca import assign_clusters
from pflbounds.papers.erickson2025.checks import common as syn
from pflbounds.papers.erickson2025.experiments import digits as dig
from pflbounds.papers.erickson2025.experiments import figure1, table1
from pflbounds.problems.clustered_regression import RidgeQuadratics
from pflbounds.problems.distorted_digits import distorted_writers
from pflbounds.problems.pairwise_constraints import (
    PairwiseConstraintSet,
    quadratic_optimum,
    radii,
)
from pflbounds.symbolic.catalog import get
from pflbounds.symbolic.evaluate import InputError, evaluate

CHECKS = [*table1.CHECKS, *figure1.CHECKS, *dig.CHECKS]

TINY = {**syn.SYNTHETIC, "n": 6, "d": 3, "s": 2, "K": 40, "N0": 12, "n_max": 30,
        "t_grid": [0.1, 10.0], "k_grid": [1, 2], "seeds": 1}


def test_scaled_dual_projection_is_the_exact_projection_onto_k_t():
    rng = np.random.default_rng(0)
    n, d, t = 5, 3, 0.3
    A = rng.standard_normal((n, 2))
    D = np.linalg.norm(A[:, None] - A[None], axis=-1)
    Z = 3 * rng.standard_normal((2, n, d))
    base = syn.loop_projector(n, d, radii(1.0, D), "dual", 1e-14)
    c = np.sqrt(t)
    got = c * base(Z / c)
    exact = PairwiseConstraintSet(n, d, radii(t, D)).project_exact(Z).theta
    np.testing.assert_allclose(got, exact, atol=1e-5)


def test_pairwise_lot_is_symmetric_zero_on_the_diagonal_and_separates_shifts():
    rng = np.random.default_rng(1)
    a = rng.standard_normal((20, 2))
    samples = [a, a + 0.01, a + 5.0]
    D = syn.pairwise_lot(samples, 15, "w1", rng)
    np.testing.assert_allclose(D, D.T)
    np.testing.assert_allclose(np.diag(D), 0.0)
    assert D[0, 1] < 0.1 < 4.0 < D[0, 2]


def test_mlp_gradient_matches_finite_differences():
    data = distorted_writers(3, np.random.default_rng(2))
    cl = dig.MLPClients(data, 8, np.random.default_rng(3))
    rng = np.random.default_rng(4)
    w = 0.3 * rng.standard_normal((3, cl.d))
    X, y = cl._batch()
    wts = np.full(y.shape, 1.0 / 8)
    loss, g = cl.loss_grad(w, X, y, wts)
    v = rng.standard_normal(w.shape)
    h = 1e-6
    num = (cl.loss_grad(w + h * v, X, y, wts)[0] - cl.loss_grad(w - h * v, X, y, wts)[0]) / (2 * h)
    np.testing.assert_allclose(num, (g * v).sum(-1), rtol=1e-5, atol=1e-8)
    assert loss.shape == (3,) and np.all(loss > 0)


def test_synthetic_draw_evidence_and_reproducibility():
    a = syn.run_synthetic(TINY, np.random.SeedSequence(5))
    b = syn.run_synthetic(TINY, np.random.SeedSequence(5))
    for key in a:
        np.testing.assert_array_equal(a[key], b[key])
    assert a["error"].shape == (1, 4) and a["r2"].shape == (1, 4)
    assert np.all(a["error"] > 0) and np.all(a["r2"] <= 1)
    assert float(a["t"][0]) in TINY["t_grid"] and int(a["k"][0]) in TINY["k_grid"]
    assert a["cv_t"].shape == (1, 2) and a["cv_k"].shape == (1, 2)
    # the chosen t is the CV minimiser and Karula's reported error is at that t
    j = int(np.argmin(a["cv_t"][0]))
    assert float(a["t"][0]) == TINY["t_grid"][j]
    np.testing.assert_allclose(a["error"][0, 3], a["karula_error_t"][0, j])
    assert -1 <= float(a["spearman_D"][0]) <= 1
    assert a["true_dist"].shape == (1, 15)
    # the convergence measure: the change of each method's error from round K/2 to K
    assert a["change"].shape == (1, 4) and a["error_half"].shape == (1, 4)
    np.testing.assert_allclose(a["change"], np.abs(a["error"] - a["error_half"]) / a["error"])
    np.testing.assert_allclose(a["change"][0, 3], a["karula_change_t"][0, j])
    assert np.all(a["change"] > 0)  # K = 40 rounds are far from converged
    # the limits: Local's is the ridge optimum, every method's K-round model is away from
    # its limit, and Karula's limit at the chosen t is the one reported
    np.testing.assert_allclose(a["limit_error"][0, 0], a["local_optimum_error"][0])
    np.testing.assert_allclose(a["limit_error"][0, 3], a["karula_limit_error_t"][0, j])
    np.testing.assert_allclose(a["limit_distance"][0, 3], a["karula_distance_t"][0, j])
    assert np.all(a["limit_distance"] > 1e-3) and bool(a["ifca_settled"][0])
    assert int(a["limit_inaccurate"][0]) == 0 and float(a["limit_violation"][0]) < 1e-8
    # theta*(t) is optimal: every K-round model (feasible) has a larger objective
    assert np.all(a["karula_objective_gap_t"] > 0)
    # the chosen replica's recorded iterates are exact projections, Dykstra's within 1e-6
    assert 0 < float(a["exact_distance"][0]) < 1e-6


def test_recorded_halves_are_the_models_of_a_run_of_half_the_rounds():
    # Local's model at K/2 of a K-round run is the model of a K/2-round run
    p = {**TINY, "K": 40}
    data = syn.generator(p).draw(np.random.default_rng(3))
    full = data.ridge()
    both = syn._local(full, p, np.random.default_rng(0))
    half = syn._local(full, {**p, "K": 20}, np.random.default_rng(0))
    assert both.shape == (2, 6, 3)
    np.testing.assert_array_equal(both[0], half[1])
    assert np.abs(both[1] - both[0]).max() > 1e-6


def test_fedavg_and_ifca_share_the_replica_axis_rule():
    p = {**TINY, "K": 10}
    data = syn.generator(p).draw(np.random.default_rng(4))
    cv = data.ridge(np.stack([data.mask, data.mask]))  # two replicas
    L = float(cv.L.max())
    fed = syn._fedavg(cv, p, L, np.random.default_rng(0))
    models, assign, theta = syn._ifca(cv, 2, p, L, np.random.default_rng(0))
    assert fed.shape == models.shape == (2, 2, 6, 3)
    assert assign.shape == (2, 6) and theta.shape == (2, 2, 3)
    np.testing.assert_array_equal(fed[:, :, 0], fed[:, :, 5])  # one global model


def test_digits_draw_runs_every_method():
    p = {**dig.DIGITS, "n": 6, "s": 3, "batch": 8, "K": 3, "N0": 10, "ifca_k": 2}
    out = dig.digits_draw(p, np.random.default_rng(0))
    assert out["accuracy"].shape == (4,)
    assert np.all((out["accuracy"] >= 0) & (out["accuracy"] <= 1))
    assert out["accuracy_clients"].shape == (4, 6)
    assert 0 <= float(out["active_fraction"]) <= 1


def _check(cid):
    return next(c for c in CHECKS if c.id == cid)


def test_comparison_checks_read_paired_draws_of_the_shared_runs():
    chk = _check("erickson2025.P14_error_fedavg")
    assert chk.kind.value == "comparison" and chk.replicas == chk.plan.draws
    ev = chk.simulate(TINY, 2, np.random.SeedSequence(11))
    out = syn.synthetic_draws({**TINY, "seeds": 2}, np.random.SeedSequence(11))
    # drawn one by one (each draw shared on its own), they are run_synthetic's draws bit for bit
    whole = syn.run_synthetic({**TINY, "seeds": 2}, syn.draws_seed(
        "synthetic", *syn.draws_args({**TINY, "seeds": 2}, np.random.SeedSequence(11))))
    assert set(whole) == set(out)
    for key in whole:
        assert whole[key].dtype == out[key].dtype and np.array_equal(whole[key], out[key],
                                                                      equal_nan=True), key
    np.testing.assert_array_equal(ev["draws"], out["error"][:, [3, 1]])  # Karula, FedAvg
    # another check at the same grid point reads the same draws, in its methods' order
    ev2 = _check("erickson2025.F1_spearman").simulate(TINY, 2, np.random.SeedSequence(11))
    np.testing.assert_array_equal(ev2["draws"][:, 0], out["spearman_D"])
    ev3 = _check("erickson2025.P14_error_local").simulate(TINY, 2, np.random.SeedSequence(11))
    np.testing.assert_array_equal(ev3["draws"][:, 1], out["local_optimum_error"])


def test_every_section5_comparison_declares_draws_before_the_run_and_shares_them():
    comps = [c for c in CHECKS if c.kind.value == "comparison"]
    assert len(comps) == 16
    for c in comps:
        assert c.plan is not None and c.engine == "mc" and len(c.methods) == 2
        grid_draws = c.grid[0]["seeds"]
        assert c.plan.draws == grid_draws, c.id  # the grid's draws are the plan's
    # every §5.1 check (the bound on IFCA's clusters too) reads the same number of draws
    syn_draws = {c.grid[0]["seeds"] for c in CHECKS if c.result_id != "erickson2025.section5_2"}
    assert syn_draws == {syn.SYN_DRAWS}


def test_the_comparisons_plans_and_expected_verdicts_follow_from_the_recorded_pilot():
    """Every comparison's plan and expected verdict follow from its 16-draw pilot
    (pflbounds.checking.pilot.plan_from_pilot at the check's level, pilot16.json): the checks
    of a group share the draws the most demanding comparison that the budget can power needs;
    each declares the pilot's effect and sd at power 0.99; a comparison the pilot settles
    within the budget expects the predicted verdict and is powered, any other expects
    INCONCLUSIVE and is not powered."""
    import json
    import math
    from pathlib import Path

    from pflbounds.checking import CheckKind, Verdict
    from pflbounds.checking.registry import all_checks, load_papers
    from pflbounds.papers.erickson2025 import experiments
    from pflbounds.running.pilot import plans_from_record

    load_papers()
    pilot = json.loads((Path(experiments.__file__).parent / "pilot16.json").read_text())
    comps = {c.id: c for c in all_checks() if c.paper == "erickson2025"
             and c.kind is CheckKind.COMPARISON}
    assert set(pilot["checks"]) == set(comps)
    assert sorted(c for g in pilot["groups"].values() for c in g["checks"]) == sorted(comps)
    planned = plans_from_record(pilot, "erickson2025")
    decided = {}
    for name, group in pilot["groups"].items():
        budget = int(group["budget_s"] / group["seconds_per_draw"])
        plans = {cid: planned[cid] for cid in group["checks"]}
        for cid in group["checks"]:
            assert pilot["checks"][cid]["draws"] == 16, cid
            assert comps[cid].plan.budget_draws == budget, cid
            assert comps[cid].plan.target_power == 0.99, cid
        shared = max(p.draws for p, _ in plans.values()
                     if p.predicted is not Verdict.INCONCLUSIVE and p.draws <= budget)
        for cid, (plan, alpha) in plans.items():
            c = comps[cid]
            assert c.plan.draws == shared == c.grid[0]["seeds"], (name, cid)
            assert math.isclose(c.plan.effect, plan.effect, rel_tol=2e-3), cid
            assert math.isclose(c.plan.sd, plan.sd, rel_tol=2e-3), cid
            decides = plan.predicted is not Verdict.INCONCLUSIVE and plan.draws <= budget
            assert c.plan.powered(alpha) is decides, cid
            assert c.expected is (plan.predicted if decides else Verdict.INCONCLUSIVE), cid
            decided[cid] = decides
    # the pilot leaves four undecided within the budget: the difference of Local's K steps,
    # the ridge optima's R^2, Fig. 1's ranking and Karula against IFCA on the digits
    assert sorted(k for k, v in decided.items() if not v) == [
        "erickson2025.F1_spearman", "erickson2025.P14_error_local_gd",
        "erickson2025.P14_r2_local", "erickson2025.S52_karula_ifca"]


def test_experiment_checks_name_the_claims_of_section_5():
    claims = {"P14_error": "table1_error", "P14_r2": "table1_r2", "P14_ifca": "ifca_collapse",
              "F1": "fig1", "S52": "section5_2"}
    for c in CHECKS:
        short = c.id.split(".")[1]
        want = next(v for k, v in claims.items() if short.startswith(k))
        assert c.result_id == f"erickson2025.{want}" and c.form == "printed"
        assert get(c.result_id).form("printed") is not None  # in the catalogue
        if c.expected.value in ("VIOLATED", "INCONCLUSIVE"):  # not reproduced: says why
            assert "the paper claims" in c.description and "because" in c.description, c.id


def test_karula_converges_to_the_constrained_optimum():
    # enough rounds on a small draw: Karula's models approach the cvxpy limit theta*(t)
    p = {**TINY, "K": 1000, "s": 6}
    data = syn.generator(p).draw(np.random.default_rng(8))
    full = data.ridge()
    D = syn.pairwise_lot([data.samples(i) for i in range(data.n)], 12, "literal",
                         np.random.default_rng(9))
    tb = RidgeQuadratics(*(a[None] for a in (full.H, full.b, full.c, full.alpha)))
    th, _ = syn._karula(tb, D, np.array([0.1]), p, float(full.L), np.random.default_rng(0))
    lim = quadratic_optimum(full.H, full.b, np.sqrt(0.1) * radii(1.0, D), full.alpha).theta
    first, last = (syn._rel_distance(th[0, h], lim) for h in (0, 1))
    assert last <= first and last < 1e-4  # to the solver's accuracy (tol 1e-10)


def test_ifca_limit_is_a_fixed_point_of_assignment_and_cluster_optima():
    p = {**TINY, "n": 9}
    data = syn.generator(p).draw(np.random.default_rng(10))
    full = data.ridge()
    rng = np.random.default_rng(0)
    theta0 = rng.standard_normal((2, full.d))
    th, a, settled = syn.ifca_limit(full, theta0, np.zeros(9, dtype=int))
    assert settled
    np.testing.assert_array_equal(assign_clusters(full.loss, th[None], 9)[0], a)
    for j in range(2):
        m = a == j
        if m.any():  # each model is its members' alpha-weighted ridge optimum
            grads = np.einsum("nij,j->ni", full.H[m], th[j]) - full.b[m]
            g = (full.alpha[m, None] * grads).sum(0)
            assert np.linalg.norm(g) < 1e-8 * (1 + np.linalg.norm(full.b))


def test_loop_projector_rejects_an_unknown_method():
    with pytest.raises(ValueError, match="projection must be one of"):
        syn.loop_projector(3, 2, np.ones(3), "admm", 1e-8)


def test_claims_refuse_measurements_no_instance_can_have():
    """R^2 <= 1 (it may be negative), a Spearman correlation in [-1, 1], an accuracy in
    [0, 1]."""
    def val(rid: str, **kw: float) -> float:
        return float(evaluate(get(f"erickson2025.{rid}"), "printed", **kw).value)

    for rid, name, bad in (("table1_r2", "r2_ref", 1.001), ("fig1", "rho_ref", -1.2),
                           ("fig1", "rho_ref", 1.5), ("section5_2", "acc_ref", 1.5)):
        with pytest.raises(InputError, match=f"{name}={bad:g}"):
            val(rid, **{name: bad})
    assert val("table1_r2", r2_ref=-0.3) == -0.3  # R^2 may be < 0
    assert val("ifca_collapse") == 1  # 'a single global model': one cluster in use


def test_each_experiment_declares_the_claims_its_checks_test():
    for mod in (table1, figure1, dig):
        claims = {v.id for v in vars(mod).values() if getattr(v, "paper", None) == "erickson2025"
                  and hasattr(v, "forms")}
        assert claims and {c.result_id for c in mod.CHECKS} <= claims, mod.__name__
