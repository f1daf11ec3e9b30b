"""The other search modes and models: PEPit's SDP, a lower bound (the best step against the
bound), All-for-one of two agents (heterogeneity at a given gradient gap), and the
randomised search over generated logistic regressions with a Monte Carlo measure."""

from __future__ import annotations

import numpy as np
import pytest

from pflbounds.tightness import (
    Box,
    Measurement,
    Model,
    Search,
    SearchCase,
    Simplex,
    Sphere,
    register_model,
    run_case,
    spectrum,
)
from pflbounds.tightness.registry import get_model


def test_pepit_finds_a_tight_rate_tight_and_a_smaller_one_violated(tightfix):
    pytest.importorskip("PEPit")
    fixed = {"mu": 0.1, "L": 1.0, "eta": 1.0, "Delta0": 2.0}
    tight = run_case(SearchCase("tightfix.gd_rate", "printed", "gd_pepit", fixed=fixed,
                                sweep={"K": [2]})).points[0]
    assert tight.how == "sdp" and tight.worst_is == "sdp"
    assert tight.ratio == pytest.approx(1.0, abs=1e-6)
    assert tight.detail["ratio_dual"] == pytest.approx(1.0, abs=1e-6)
    assert tight.verdict in ("HOLDS", "INCONCLUSIVE")  # the bound is the worst case itself
    assert tight.detail["pepit"]["relative_gap"] <= 1e-3
    low = run_case(SearchCase("tightfix.gd_rate", "explicit", "gd_pepit", fixed=fixed,
                              sweep={"K": [2]})).points[0]
    assert low.verdict == "VIOLATED" and low.ratio == pytest.approx(10 / 9, rel=1e-6)
    # the worst function's trajectory is the evidence: f(x_k) - f* for k = 0..K (units of
    # Delta0)
    assert len(low.detail["pepit"]["f_gap"]) == 3


def test_a_lower_bound_is_searched_for_the_best_step(tightfix):
    pinned = {"spectrum": [0.1], "rotation": [[1.0]], "noise": [0.0], "x0": [1.0]}
    fixed = {"mu": 0.1, "L": 1.0, "K": 10, "sigma2": 0.0, "R0": 1.0, "d": 1}
    free = {"eta": Box(1, 0.01, "1/L")}
    for form, tight in (("printed", True), ("explicit", False)):
        rec = run_case(SearchCase("tightfix.step_lower", form, "quadratic_sgd", fixed=fixed,
                                  free=free, pinned=pinned,
                                  search=Search(starts=3, budget=300)))
        p = rec.points[0]
        assert rec.sense == "min" and p.mode == "optimize" and p.worst_is == "at most"
        assert p.constants["eta"] == pytest.approx(1.0, rel=1e-9)  # the largest step
        if tight:
            assert p.ratio == pytest.approx(1.0, rel=1e-9) and p.verdict == "HOLDS"
        else:  # a step beats the claimed lower bound
            assert p.ratio == pytest.approx(0.9**10, rel=1e-9) and p.verdict == "VIOLATED"


AFO_FIXED = {"mu": 0.1, "L": 1.0, "eta": 1.0, "K": 30, "sigma2": 0.01, "Delta0": 1e-4,
             "d": 2, "b": 1.0, "lam": 0.5}
AFO_FREE = {"spectrum": spectrum(), "noise": Simplex("d", "sigma2", count=2),
            "gap": Sphere("d", "b"), "x0": Sphere("d", "sqrt(2*Delta0)")}


def test_two_agent_afo_measure_is_the_propagators(tightfix):
    from pflbounds.exact import afo_excess_by_propagation

    model = get_model("afo_two_agents")
    rng = np.random.default_rng(5)
    inst = {"spectrum": rng.uniform(0.1, 1.0, 2), "noise": rng.dirichlet([1, 1], 2) * 0.01,
            "gap": np.array([0.6, -0.8]), "x0": np.array([0.01, 0.004])}
    model.admissible(AFO_FIXED, inst)
    P, x0 = model.family(inst)
    Lam = np.array([[0.5, 0.5], [0.5, 0.5]])
    want = afo_excess_by_propagation(P, Lam, 1.0, x0, [30])[-1, 0]
    assert model.measure(AFO_FIXED, inst, "last").value == pytest.approx(want, rel=1e-12)
    assert model.derived(AFO_FIXED) == {"B": 0.5, "V": 0.5}


def test_two_agent_afo_true_bound_holds_and_a_planted_one_is_caught(tightfix):
    search = Search(starts=4, budget=1500)
    true = run_case(SearchCase("tightfix.afo_pair", "printed", "afo_two_agents",
                               fixed=AFO_FIXED, free=AFO_FREE, search=search)).points[0]
    assert true.verdict == "HOLDS" and 0.1 < true.ratio <= 1
    assert true.constants["B"] == 0.5 and true.constants["V"] == 0.5  # derived
    wrong = run_case(SearchCase("tightfix.afo_pair", "explicit", "afo_two_agents",
                                fixed=AFO_FIXED, free=AFO_FREE, search=search)).points[0]
    assert wrong.verdict == "VIOLATED" and wrong.ratio > 1.5
    # the bias sits on the flattest direction: the gap vector along the eigenvalue mu
    h, gap = np.array(wrong.instance["spectrum"]), np.array(wrong.instance["gap"])
    assert abs(gap[np.argmin(h)]) == pytest.approx(1.0, rel=1e-3)
    assert h.min() == pytest.approx(0.1, rel=1e-9)


LOG_FIXED = {"mu": 0.05, "L": 1.0, "eta": 0.5, "K": 30, "sigma2": 1.0, "R0": 4.0, "d": 2,
             "n": 40}
LOG_FREE = {"scales": Box("d", 0.05, 1), "teacher": Box("d", -6, 6),
            "x0": Sphere("d", "sqrt(R0)")}
LOG_SEARCH = Search(budget=12, replicas=32, confirm=512, seed=3)


def test_random_search_on_logistic_regressions_states_its_budget(tightfix):
    rec = run_case(SearchCase("tightfix.sgd_any", "printed", "logistic_sgd", fixed=LOG_FIXED,
                              free=LOG_FREE, search=LOG_SEARCH))
    p = rec.points[0]
    assert p.mode == "random" and p.how == "searched" and p.worst_is == "at least"
    assert p.detail["draws"] == 12 and p.detail["budget"] == 12
    assert len(p.detail["confirmed"]) == 3
    assert p.evaluations == 12 + 3 + 1  # draws, confirmations, the default instance
    assert p.verdict == "HOLDS" and 0 < p.ratio < 1 and p.stderr > 0
    lo, hi = p.detail["interval"]
    assert lo < p.measured < hi


def test_random_search_catches_a_planted_bound_with_confidence(tightfix):
    p = run_case(SearchCase("tightfix.sgd_any", "explicit", "logistic_sgd", fixed=LOG_FIXED,
                            free=LOG_FREE, search=LOG_SEARCH)).points[0]
    assert p.verdict == "VIOLATED" and p.detail["interval"][0] > p.bound
    # the generated instance's certified constants are within the case's
    assert p.detail["measurement"]["L_cert"] <= 1.0 * (1 + 1e-12)
    assert p.detail["measurement"]["sigma2_cert"] <= 1.0 * (1 + 1e-12)
    assert p.detail["measurement"]["replicas"] == 512


LOCAL_FIXED = {"mu": 0.1, "L": 1.0, "eta": 0.5, "K": 20, "tau": 5, "sigma2": 0.0, "d": 2,
               "N": 2, "R0": 1e-4, "zeta2": 1.0}


def test_local_sgd_measure_agrees_with_monte_carlo(tightfix):
    model = get_model("local_sgd_clients")
    c = {**LOCAL_FIXED, "sigma2": 0.02, "K": 6, "tau": 3}
    rng = np.random.default_rng(8)
    Q = np.stack([np.linalg.qr(rng.standard_normal((2, 2)))[0] for _ in range(2)])
    g = np.array([[0.6, -0.2], [-0.6, 0.2]])
    inst = {"spectra": rng.uniform(0.1, 1.0, (2, 2)), "rotations": Q,
            "noise": np.array([[0.01, 0.01], [0.015, 0.005]]), "gradients": g,
            "x0": np.array([0.006, -0.008])}
    model.admissible(c, inst)
    exact = model.measure(c, inst, "last").value
    H = np.einsum("nij,nj,nkj->nik", Q, inst["spectra"], Q)
    m = -np.linalg.solve(H, g[..., None])[..., 0]
    R = 40000
    X = np.tile(inst["x0"], (R, 2, 1))
    for k in range(6):
        noise = np.sqrt(inst["noise"]) * rng.standard_normal((R, 2, 2))
        X = X - 0.5 * (np.einsum("nij,rnj->rni", H, X - m) + noise)
        if (k + 1) % 3 == 0:
            X[:] = X.mean(axis=1, keepdims=True)
    xbar = X.mean(axis=1)
    f = 0.5 * np.einsum("ri,ij,rj->r", xbar, H.mean(axis=0), xbar)
    half = 3.29 * f.std(ddof=1) / np.sqrt(R)
    assert abs(f.mean() - exact) <= half


def test_local_sgd_drift_comes_from_misaligned_clients(tightfix):
    # a bound without a heterogeneity term (sgd_any: the rate of SGD on F) holds when the
    # clients share their Hessian, whatever their gradients at the optimum; it fails by
    # orders of magnitude once their eigenvectors may differ, the spectra being the same
    from pflbounds.tightness import Rotation, Spread

    same = {"spectra": np.tile([0.1, 1.0], (2, 1)).tolist()}
    free = {"gradients": Spread("d", "N", "zeta2"), "x0": Sphere("d", "sqrt(R0)")}
    search = Search(starts=4, budget=1500)
    aligned = run_case(SearchCase("tightfix.sgd_any", "printed", "local_sgd_clients",
                                  fixed=LOCAL_FIXED, free=free, pinned=same,
                                  search=search)).points[0]
    assert aligned.verdict == "HOLDS" and aligned.ratio < 0.1
    turned = run_case(SearchCase("tightfix.sgd_any", "printed", "local_sgd_clients",
                                 fixed=LOCAL_FIXED, pinned=same, search=search,
                                 free={**free, "rotations": Rotation("d", count="N")}))
    p = turned.points[0]
    assert p.default["ratio"] < 0.1  # the default instance: aligned clients
    assert p.verdict == "VIOLATED" and p.ratio > 100
    Q = np.array(p.instance["rotations"])
    assert abs(abs(float(Q[0, :, 0] @ Q[1, :, 0])) - 1) > 0.1  # eigenvectors not aligned


class _Generated(Model):
    """A generator model: its searched constant ``scale`` sets the instance, whose certified
    R0 it derives; the measure is sgd_any's bound without noise at that R0 (so measured /
    bound is 1 at every instance when the bound follows the derived R0)."""

    name = "test_generated_r0"
    constants = ("mu", "L", "eta", "K", "scale")

    def derived(self, c):
        return {"R0": float(c["scale"]) ** 2, "sigma2": 0.0}

    def admissible(self, c, inst, *, seed=0):
        return None

    def measure(self, c, inst, measure, *, seed=0, replicas=0, stream=0):
        return Measurement(c["L"] / 2 * (1 - c["eta"] * c["mu"]) ** c["K"] * c["scale"] ** 2)


def test_a_searched_generator_constant_moves_the_bound_through_the_derived_ones(tightfix):
    register_model(_Generated())
    p = run_case(SearchCase("tightfix.sgd_any", "printed", "test_generated_r0",
                            fixed={"mu": 0.1, "L": 1.0, "eta": 0.5, "K": 10},
                            free={"scale": Box(1, 0.5, 2.0)},
                            search=Search(mode="random", seed=0, budget=20))).points[0]
    assert p.ratio == pytest.approx(1.0, rel=1e-12)  # not 16: the bound is not the first one
    assert p.constants["R0"] == pytest.approx(p.constants["scale"] ** 2, rel=1e-12)
