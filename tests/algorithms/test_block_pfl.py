"""Block-coordinate and local-SGD optimizers for (w, beta) objectives (block_pfl).

Reference computations are written out here: gradient descent on F by hand, averages of the
iterates, cost identities, and the known failure of the printed (biased) SVRCD estimator.
"""

from __future__ import annotations

import numpy as np
import pytest

from pflbounds.algorithms.block_pfl import (
    ClientBlockOracle,
    run_acd_pfl,
    run_ascd_pfl,
    run_asvrcd_pfl,
    run_lsgd_pfl,
    run_scd_pfl,
    run_svrcd_pfl,
)
from pflbounds.problems.pfl_objectives import PFLObjective, QuadraticLosses, structure

M, D, NS = 6, 2, 10


@pytest.fixture(scope="module")
def prob() -> PFLObjective:
    q = QuadraticLosses.random(M, D, NS, 0.3, 2.0, np.random.default_rng(5))
    return PFLObjective(q, structure("mixture", M, D, lam=1.0))


@pytest.fixture(scope="module")
def noisy() -> PFLObjective:
    """12 clients whose components disagree (noise 2): biased estimators show."""
    q = QuadraticLosses.random(12, D, NS, 0.3, 2.0, np.random.default_rng(6), noise=2.0)
    return PFLObjective(q, structure("mixture", 12, D, lam=1.0))


def _acd_params(c: dict) -> dict:
    sq = np.sqrt(c["Lw"]) + np.sqrt(c["Lb"])
    nu = c["mu"] / sq**2
    th = (np.sqrt(nu**2 + 4 * nu) - nu) / 2
    return {"Lw": c["Lw"], "Lb": c["Lb"], "nu": nu, "theta": th, "eta": 1 / th,
            "pw": np.sqrt(c["Lw"]) / sq}


def _asvrcd_params(c: dict, n: int) -> dict:
    pw = c["Lcw"] / (c["Lcw"] + c["Lcb"])
    eta = 1 / (8 * (c["Lcw"] + c["Lcb"]))
    rho = pw / n
    th1 = min(0.5, np.sqrt(eta * c["mu"] * max(0.5, 0.5 / rho)))
    gamma = 1 / max(2 * c["mu"], 4 * th1 / eta)
    return {"eta": eta, "theta1": th1, "theta2": 0.5, "gamma": gamma,
            "nu": 1 - gamma * c["mu"], "rho": rho, "pw": pw}


def test_problem_satisfies_the_oracle_protocol(prob):
    assert isinstance(prob, ClientBlockOracle)


def test_lsgd_with_tau_one_is_gradient_descent_on_F(prob):
    eta, K = 0.3, 12
    run = run_lsgd_pfl(prob, eta, 1, K, 2, np.random.default_rng(0), record=range(K + 1))
    w, beta = np.zeros((1, prob.d0)), np.zeros((1, M, prob.d1))
    xs = []
    for _ in range(K + 1):
        xs.append((w, beta))
        gw, gb = prob.grad_F(w, beta)
        w, beta = w - eta * gw, beta - eta * gb
    by_hand = np.array([prob.excess(*x)[0] for x in xs])
    assert np.allclose(run.metrics["excess"][0], by_hand, rtol=1e-12, atol=1e-15)
    assert np.array_equal(run.metrics["excess"][0], run.metrics["excess"][1])  # sigma = 0
    # mu = 0: the output is the uniform average of the virtual iterates 0..k
    k = 7
    avg_w = np.mean([x[0] for x in xs[: k + 1]], axis=0)
    avg_b = np.mean([x[1] for x in xs[: k + 1]], axis=0)
    assert run.metrics["excess_avg"][0, k] == pytest.approx(prob.excess(avg_w, avg_b)[0],
                                                            rel=1e-12)
    assert run.costs["rounds"][0, -1] == K and run.costs["grad_w_stochastic"][0, -1] == K


def test_lsgd_weighted_average_and_communication_period(prob):
    eta, mu, tau, K = 0.2, 0.05, 4, 9
    run = run_lsgd_pfl(prob, eta, tau, K, 1, np.random.default_rng(0), mu=mu,
                       record=range(K + 1))
    assert list(run.costs["rounds"][0]) == [0, 1, 1, 1, 1, 2, 2, 2, 2, 3]
    assert run.metrics["consensus"][0, 0] == 0 and run.metrics["consensus"][0, 3] > 0
    # weights (1 - eta mu)^(-k-1), k = 0..K, on the virtual iterates, by hand
    W, beta = np.zeros((1, M, prob.d0)), np.zeros((1, M, prob.d1))
    ws, bs = [], []
    for k in range(K + 1):
        ws.append(W.mean(1))
        bs.append(beta)
        if k % tau == 0:
            W = np.repeat(W.mean(1, keepdims=True), M, axis=1)
        gw, gb = prob.client_grads(W, beta)
        W, beta = W - eta * gw, beta - eta * gb / M
    om = (1 - eta * mu) ** -(np.arange(K + 1) + 1.0)
    avg_w = np.tensordot(om, np.array(ws), 1) / om.sum()
    avg_b = np.tensordot(om, np.array(bs), 1) / om.sum()
    assert run.metrics["excess_avg"][0, -1] == pytest.approx(prob.excess(avg_w, avg_b)[0],
                                                             rel=1e-10)


def test_lsgd_noise_is_reproducible_and_literal_beta_step_diverges(prob, noisy):
    a = run_lsgd_pfl(prob, 0.1, 3, 30, 4, np.random.default_rng(9), sigma2=1.0, B=2)
    b = run_lsgd_pfl(prob, 0.1, 3, 30, 4, np.random.default_rng(9), sigma2=1.0, B=2)
    assert np.array_equal(a.metrics["excess"], b.metrics["excess"])
    assert not np.array_equal(a.metrics["excess"][0], a.metrics["excess"][1])
    # f_m is M L^beta-smooth in beta_m: the literal step eta = 1/(4 L^beta) is unstable
    # once M > 8
    c = noisy.constants
    lit = run_lsgd_pfl(noisy, 1 / (4 * c["Lb"]), 1, 200, 1, np.random.default_rng(0),
                       beta_scale="literal", record=[200])
    ok = run_lsgd_pfl(noisy, 1 / (4 * max(c["Lb"], c["Lw"])), 1, 200, 1,
                      np.random.default_rng(0), record=[200])
    assert lit.metrics["excess"][0, -1] > 1e3 and ok.metrics["excess"][0, -1] < 1e-3


def test_acd_converges_and_counts_rounds_per_w_step(prob):
    p = _acd_params(prob.constants)
    run = run_acd_pfl(prob, **p, K=300, R=40, rng=np.random.default_rng(1), record=[0, 300])
    assert run.metrics["excess"][:, -1].max() < 1e-10
    rounds, gw, gb = (run.costs[k][:, -1] for k in ("rounds", "grad_w", "grad_beta"))
    assert np.array_equal(rounds, gw) and np.all(gw + gb == 300)
    assert abs(gw.mean() / 300 - p["pw"]) < 4 * np.sqrt(p["pw"] * (1 - p["pw"]) / 12000)
    keep = run_acd_pfl(prob, **p, K=300, R=4, rng=np.random.default_rng(1), unsampled_y="keep",
                       record=[300])
    assert keep.metrics["excess"][:, -1].max() < 1e-8
    lit = run_acd_pfl(prob, **p, K=200, R=2, rng=np.random.default_rng(1),
                      beta_scale="literal", record=[200])
    assert lit.metrics["excess"][:, -1].min() > 1.0  # grad_beta f_m with step 1/L^beta


def test_asvrcd_converges_and_its_counters_add_up(prob):
    p = _asvrcd_params(prob.constants, NS)
    run = run_asvrcd_pfl(prob, **p, K=6000, R=4, rng=np.random.default_rng(2),
                         record=[0, 6000])
    assert run.metrics["excess"][:, -1].max() < 1e-8 * run.metrics["excess"][:, 0].min()
    c = {k: v[:, -1] for k, v in run.costs.items()}
    # two component gradients per iteration, n of each block per refresh
    assert np.array_equal(c["grad_w_stochastic"] + c["grad_beta_stochastic"],
                          2 * c["iterations"] + 2 * NS * c["grad_w"])
    assert np.all(c["rounds"] <= c["iterations"]) and np.all(c["grad_w"] == c["grad_beta"])


def test_ascd_and_scd_make_progress(prob):
    c = prob.constants
    p = _asvrcd_params(c, NS)
    ascd = run_ascd_pfl(prob, eta=p["eta"], theta=min(0.8, 1 / p["eta"]), gamma=p["gamma"],
                        nu=p["nu"], pw=p["pw"], K=3000, R=4, rng=np.random.default_rng(3),
                        record=[0, 3000])
    assert ascd.metrics["excess"][:, -1].max() < 0.05 * ascd.metrics["excess"][:, 0].min()
    pw = c["Lw"] / (c["Lw"] + c["Lb"])
    scd = run_scd_pfl(prob, eta=(pw / c["Lw"], (1 - pw) / c["Lb"]), pw=pw, K=3000, R=4,
                      rng=np.random.default_rng(3), full=True, record=[0, 3000])
    assert scd.metrics["excess"][:, -1].max() < 1e-10
    assert np.all(scd.costs["grad_w"][:, -1] + scd.costs["grad_beta"][:, -1] == 3000)


def test_svrcd_control_variate_removes_the_bias(noisy):
    p = _asvrcd_params(noisy.constants, NS)
    kw = {"eta": p["eta"], "pw": 0.5, "rho": 0.05, "K": 4000, "R": 3, "record": [0, 4000]}
    good = run_svrcd_pfl(noisy, rng=np.random.default_rng(4), **kw)
    printed = run_svrcd_pfl(noisy, rng=np.random.default_rng(4), control_variate=False, **kw)
    start = good.metrics["excess"][0, 0]
    assert good.metrics["excess"][:, -1].max() < 1e-6 * start
    # the printed estimator E g = grad F(y) + grad F(v) has no variance reduction: it stalls
    assert printed.metrics["excess"][:, -1].min() > 1e-3 * start
    assert printed.metrics["excess"][:, -1].min() > 1e3 * good.metrics["excess"][:, -1].max()


@pytest.mark.parametrize("bad, match", [({"pw": 1.0}, "p_w must lie in"),
                                        ({"beta_scale": "M"}, "beta_scale must be")])
def test_bad_parameters(prob, bad, match):
    p = {**_acd_params(prob.constants), **bad}
    with pytest.raises(ValueError, match=match):
        run_acd_pfl(prob, **p, K=2, R=1, rng=np.random.default_rng(0))


def test_lsgd_pfl_step_sequence_and_extra_metrics():
    """A constant step given as a sequence runs bitwise as the scalar; a sequence of the wrong
    length (or with mu > 0) is refused; extra metrics are recorded beside the built-in ones."""
    from pflbounds.algorithms.block_pfl import run_lsgd_pfl
    from pflbounds.problems.pfl_objectives import PFLObjective, QuadraticLosses, structure

    q = QuadraticLosses.random(3, 2, 5, 0.5, 2.0, np.random.default_rng(1))
    obj = PFLObjective(q, structure("mixture", 3, 2, lam=1.0))
    extra = {"wnorm": lambda st: (st["W"] ** 2).sum((-1, -2))}
    a = run_lsgd_pfl(obj, 0.1, 2, 20, 2, np.random.default_rng(0), sigma2=1.0,
                     extra_metrics=extra)
    b = run_lsgd_pfl(obj, np.full(20, 0.1), 2, 20, 2, np.random.default_rng(0), sigma2=1.0,
                     extra_metrics=extra)
    assert np.array_equal(a.metrics["excess"], b.metrics["excess"])
    assert np.array_equal(a.metrics["wnorm"], b.metrics["wnorm"])
    assert a.metrics["wnorm"].shape == a.metrics["excess"].shape
    with pytest.raises(ValueError, match="K = 20 steps"):
        run_lsgd_pfl(obj, np.full(19, 0.1), 2, 20, 1, np.random.default_rng(0))
    with pytest.raises(ValueError, match="mu = 0"):
        run_lsgd_pfl(obj, np.full(20, 0.1), 2, 20, 1, np.random.default_rng(0), mu=0.1)


@pytest.mark.parametrize("q", [1.0, 0.9, 0.5])
def test_average_weight_gives_the_geometric_average(q):
    """Folding x_1..x_{K+1} in with average_weight(k, q) gives sum_t q^(K+1-t) x_t / sum of
    the weights, x_0 included."""
    from pflbounds.algorithms.block_pfl import average_weight

    x = np.random.default_rng(0).standard_normal(9)
    avg = x[0]
    for k in range(8):
        avg += average_weight(k, q) * (x[k + 1] - avg)
    w = q ** np.arange(8, -1, -1.0)
    assert avg == pytest.approx(np.dot(w, x) / w.sum(), rel=1e-13)
