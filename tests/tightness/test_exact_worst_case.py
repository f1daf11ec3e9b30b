"""The worst case of SGD on quadratics: the planted bounds of ``tightfix.sgd_worst`` against
the exact decoupled worst case, the L-BFGS-B search over the full parameterisation (spectrum,
rotation, noise, initial point), an independent brute-force grid, and Monte Carlo."""

from __future__ import annotations

import numpy as np
import pytest

from pflbounds.tightness import Rotation, Search, SearchCase, Simplex, Sphere, run_case, spectrum
from pflbounds.tightness.registry import get_model
from pflbounds.tightness.spaces import Box

FIXED = {"mu": 1e-3, "L": 1.0, "eta": 1.0, "K": 20, "sigma2": 0.002, "R0": 1.0, "d": 2}
FREE = {"spectrum": spectrum(), "rotation": Rotation("d"), "noise": Simplex("d", "sigma2"),
        "x0": Sphere("d", "sqrt(R0)")}


def _case(form: str, mode: str, **kw) -> SearchCase:
    return SearchCase("tightfix.sgd_worst", form, "quadratic_sgd", fixed=FIXED, free=FREE,
                      search=Search(mode=mode, starts=6, budget=2500, **kw))


def closed_form(c, h, Q, s, r):
    """E[f(x_K) - f*] of SGD on the quadratic, by the eigen-coordinates (the model's
    docstring), vectorised over leading axes; written here independently of the engine."""
    eta, K = c["eta"], int(c["K"])
    e2 = np.einsum("...ji,...j->...i", Q, r) ** 2
    s_t = np.einsum("...ji,...j->...i", Q**2, s)
    q = (1 - eta * h) ** 2
    G = (1 - q**K) / (1 - q)
    return 0.5 * (h * q**K * e2).sum(-1) + 0.5 * (h * eta**2 * s_t * G).sum(-1)


@pytest.fixture(scope="module")
def searched_tight(tightfix):
    """The L-BFGS-B search of the tight bound (shared by the tests that read it)."""
    return run_case(_case("printed", "optimize")).points[0]


def test_the_default_instance_misses_the_tight_bound_by_a_large_factor(tightfix):
    rec = run_case(_case("printed", "exact"))
    assert rec.points[0].default["ratio"] < 0.2


@pytest.mark.parametrize("mode", ["exact", "optimize"])
def test_a_tight_bound_is_found_tight(tightfix, searched_tight, mode):
    p = run_case(_case("printed", mode)).points[0] if mode == "exact" else searched_tight
    assert p.verdict == "HOLDS"
    if mode == "exact":
        assert p.ratio == pytest.approx(1.0, rel=1e-9)
        assert p.how == "exact" and p.worst_is == "exact"
    else:
        assert abs(p.ratio - 1.0) < 0.01
        assert p.how == "searched" and p.worst_is == "at least"
    # the worst instance: initial error on h* = 1/(eta (2K + 1)), noise on L
    h = sorted(p.instance["spectrum"])
    assert h[0] == pytest.approx(1 / 41, rel=1e-3) and h[1] == pytest.approx(1.0, rel=1e-6)


@pytest.mark.parametrize("mode", ["exact", "optimize"])
def test_a_bound_wrong_only_near_the_worst_instance_is_caught(tightfix, mode):
    p = run_case(_case("explicit", mode)).points[0]
    assert p.default["ratio"] < 1  # the default instance would have said HOLDS
    assert p.verdict == "VIOLATED" and p.ratio > 1.9


def test_exact_worst_case_agrees_with_a_brute_force_grid(tightfix):
    c = {"mu": 0.01, "L": 1.0, "eta": 1.0, "K": 5, "sigma2": 0.05, "R0": 1.0, "d": 2}
    case = SearchCase("tightfix.sgd_worst", "printed", "quadratic_sgd", fixed=c, free=FREE,
                      search=Search(mode="exact"))
    exact = run_case(case).points[0].measured
    hs = np.geomspace(0.01, 1.0, 41)
    th = np.linspace(0, np.pi / 2, 7)  # rotation angles
    ph = np.linspace(0, np.pi, 13)  # directions of x_0 - x*
    ts = np.linspace(0, 1, 6)  # share of the noise on the first axis
    H1, H2, T, P, S = np.meshgrid(hs, hs, th, ph, ts, indexing="ij")
    h = np.stack([H1, H2], -1)
    Q = np.stack([np.stack([np.cos(T), -np.sin(T)], -1), np.stack([np.sin(T), np.cos(T)], -1)],
                 -2)
    r = np.stack([np.cos(P), np.sin(P)], -1)
    s = 0.05 * np.stack([S, 1 - S], -1)
    grid = closed_form(c, h, Q, s, r).max()
    assert grid <= exact * (1 + 1e-12)
    assert grid >= exact * 0.99


def test_exact_worst_case_with_pinned_extremes_agrees_with_a_grid(tightfix):
    # d = 3, spectrum (mu, h, L): one free direction; initial error and noise spread over a
    # simplex lattice (no vertex assumed), rotation the identity
    c = {"mu": 0.01, "L": 1.0, "eta": 1.0, "K": 5, "sigma2": 0.05, "R0": 1.0, "d": 3}
    free = {"spectrum": spectrum(attain=True), "noise": Simplex("d", "sigma2"),
            "x0": Sphere("d", "sqrt(R0)")}
    case = SearchCase("tightfix.sgd_worst", "printed", "quadratic_sgd", fixed=c, free=free,
                      pinned={"rotation": np.eye(3).tolist()}, search=Search(mode="exact"))
    exact = run_case(case).points[0].measured
    n = 20
    lat = np.array([(i, j, n - i - j) for i in range(n + 1) for j in range(n + 1 - i)]) / n
    best = 0.0
    for hm in np.geomspace(0.01, 1.0, 400):
        h = np.array([0.01, hm, 1.0])
        q = (1 - h) ** 2
        bias = 0.5 * h * q**5 * 1.0  # times the weights e_c^2 (sum R0 = 1)
        noise = 0.5 * h * 0.05 * (1 - q**5) / (1 - q)  # times the noise shares
        best = max(best, (lat @ bias).max() + (lat @ noise).max())
    assert best <= exact * (1 + 1e-12)
    assert best >= exact * 0.999


def test_the_propagator_measure_agrees_with_the_eigen_coordinates(tightfix):
    model = get_model("quadratic_sgd")
    rng = np.random.default_rng(3)
    c = dict(FIXED, d=4, K=7, eta=0.7)
    for _ in range(5):
        h = rng.uniform(1e-3, 1.0, 4)
        Q = np.linalg.qr(rng.standard_normal((4, 4)))[0]
        s = rng.dirichlet(np.ones(4)) * 0.002
        r = rng.standard_normal(4)
        r /= np.linalg.norm(r)
        inst = {"spectrum": h, "rotation": Q, "noise": s, "x0": r}
        model.admissible(c, inst)
        got = model.measure(c, inst, "last").value
        assert got == pytest.approx(closed_form(c, h, Q, s, r), rel=1e-12)


def test_the_searched_worst_instance_agrees_with_monte_carlo(tightfix, searched_tight):
    p = searched_tight
    h, Q = np.array(p.instance["spectrum"]), np.array(p.instance["rotation"])
    s, x0 = np.array(p.instance["noise"]), np.array(p.instance["x0"])
    H = (Q * h) @ Q.T
    rng = np.random.default_rng(11)
    R = 20000
    X = np.tile(x0, (R, 1))
    for _ in range(20):
        X = X - 1.0 * (X @ H + np.sqrt(s) * rng.standard_normal((R, 2)))
    f = 0.5 * np.einsum("ri,ij,rj->r", X, H, X)
    half = 3.29 * f.std(ddof=1) / np.sqrt(R)  # two-sided 99.9 %
    assert abs(f.mean() - p.measured) <= half


def test_function_gap_worst_case_matches_pepit(tightfix):
    # quadratics attain gradient descent's worst case under f(x_0) - f* <= Delta0, so the
    # exact decoupled value and PEPit's SDP agree
    pytest.importorskip("PEPit")
    fixed = {"mu": 0.1, "L": 1.0, "eta": 1.0, "Delta0": 1.0}
    quad = SearchCase("tightfix.gd_rate", "printed", "quadratic_sgd_gap",
                      fixed={**fixed, "sigma2": 0.0, "d": 1}, sweep={"K": [1, 3]},
                      free={"spectrum": spectrum(), "noise": Simplex("d", "sigma2"),
                            "x0": Sphere("d", "sqrt(2*Delta0)")})
    sdp = SearchCase("tightfix.gd_rate", "printed", "gd_pepit", fixed=fixed,
                     sweep={"K": [1, 3]})
    for a, b in zip(run_case(quad).points, run_case(sdp).points, strict=True):
        assert a.how == "exact" and b.how == "sdp"
        assert a.measured == pytest.approx(b.measured, rel=1e-6)
        assert a.measured == pytest.approx(0.81 ** a.constants["K"], rel=1e-12)


def test_a_set_outside_the_hypotheses_is_refused(tightfix):
    from pflbounds.tightness import CaseError

    free = dict(FREE, spectrum=Box("d", "mu/2", "L", "log"))
    case = SearchCase("tightfix.sgd_worst", "printed", "quadratic_sgd", fixed=FIXED, free=free,
                      search=Search(mode="optimize", starts=2, budget=50))
    with pytest.raises(CaseError, match=r"spectrum\[\d\]=.* is outside \[0.001, 1\]: the "
                                        r"Hessian's eigenvalues must lie in \[mu, L\]"):
        run_case(case)
