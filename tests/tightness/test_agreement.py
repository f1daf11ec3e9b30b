"""More agreements: the search in four dimensions against the exact worst case, and the
All-for-one worst instance against a Monte Carlo run of the method itself (run_afo)."""

from __future__ import annotations

import numpy as np

from pflbounds.tightness import Rotation, Search, SearchCase, Simplex, Sphere, run_case, spectrum


def test_search_in_four_dimensions_reaches_the_exact_worst_case(tightfix):
    # d = 4 with the extremes mu and L pinned: 2 free eigenvalues, a rotation of 6 angles,
    # 4 noise shares, 4 initial coordinates (16 raw coordinates)
    fixed = {"mu": 1e-3, "L": 1.0, "eta": 0.8, "K": 15, "sigma2": 0.01, "R0": 2.0, "d": 4}
    free = {"spectrum": spectrum(attain=True), "rotation": Rotation("d"),
            "noise": Simplex("d", "sigma2"), "x0": Sphere("d", "sqrt(R0)")}
    case = SearchCase("tightfix.sgd_worst", "printed", "quadratic_sgd", fixed=fixed, free=free)
    exact = run_case(case, mode="exact").points[0]
    searched = run_case(case, mode="optimize").points[0]
    assert searched.measured <= exact.measured * (1 + 1e-9)
    assert searched.measured >= exact.measured * 0.99


def test_afo_worst_instance_agrees_with_monte_carlo_of_the_method(tightfix):
    from pflbounds.algorithms.collaborative import run_afo
    from pflbounds.tightness.registry import get_model

    fixed = {"mu": 0.1, "L": 1.0, "eta": 1.0, "K": 30, "sigma2": 0.01, "Delta0": 1e-4,
             "d": 2, "b": 1.0, "lam": 0.5}
    free = {"spectrum": spectrum(), "noise": Simplex("d", "sigma2", count=2),
            "gap": Sphere("d", "b"), "x0": Sphere("d", "sqrt(2*Delta0)")}
    p = run_case(SearchCase("tightfix.afo_pair", "explicit", "afo_two_agents", fixed=fixed,
                            free=free, search=Search(starts=4, budget=1500))).points[0]
    inst = {k: np.asarray(v) for k, v in p.instance.items()}
    P, x0 = get_model("afo_two_agents").family(inst)
    Lam = np.array([[0.5, 0.5], [0.5, 0.5]])
    R = 40000
    tr = run_afo(P, Lam, 1.0, 30, x0, R, np.random.default_rng(17), record=[30])
    f = tr.excess[:, -1, 0]
    half = 3.29 * f.std(ddof=1) / np.sqrt(R)  # two-sided 99.9 %
    assert abs(f.mean() - p.measured) <= half
