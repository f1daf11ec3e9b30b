"""Tightness cases under a distance initial condition and at a weighted average of the
iterates (no paper involved): known values at K = 0 and K = 1, Jensen's inequality against
the last-iterate worst cases, the units of L R0, and separate cache entries."""

from __future__ import annotations

import pytest

from pflbounds.audit.tightness import (
    Cache,
    TightnessCase,
    WorstCase,
    audit_case,
    gd_worst_case,
)


def test_distance_condition_at_k0_is_half_the_smoothness():
    for measure in ("last", "weighted_average"):
        wc = gd_worst_case(0.1, 0.25, 0, initial_condition="distance", measure=measure)
        assert wc.accepted and wc.dual == pytest.approx(0.5, rel=1e-6)


def test_gradient_descent_from_a_distance_matches_the_drori_teboulle_rate():
    # eta = 1/L, mu -> 0: the worst f(x_K) - f* is L R0^2/(4K + 2) (Drori & Teboulle 2014)
    wc = gd_worst_case(1e-6, 1.0, 1, initial_condition="distance")
    assert wc.dual == pytest.approx(1 / 6, rel=1e-4)


def test_weighted_average_is_below_the_weighted_last_iterate_worst_cases():
    mu, eta, K = 0.1, 0.25, 2
    q = 1 - mu * eta
    w = [q ** (-k - 1) for k in range(K + 1)]
    last = [gd_worst_case(mu, eta, k, initial_condition="distance").dual for k in range(K + 1)]
    avg = gd_worst_case(mu, eta, K, initial_condition="distance", measure="weighted_average")
    jensen = sum(a * b for a, b in zip(w, last, strict=True)) / sum(w)
    assert avg.accepted and last[-1] < avg.dual <= jensen * (1 + 1e-6)
    assert avg.f_gap[0] <= 0.5 * (1 + 1e-6)  # f(x_0) - f* <= L R0/2 on the worst function


def test_case_rejects_unknown_variants_and_caches_them_apart():
    base = {"result_id": "x", "forms": {"printed": None}, "fixed": {},
            "points": ({"mu": 0.1, "L": 2.0, "eta": 0.1},)}
    with pytest.raises(ValueError, match="initial condition 'radius'"):
        TightnessCase(**base, initial_condition="radius")
    with pytest.raises(ValueError, match="measure 'best'"):
        TightnessCase(**base, measure="best")
    seen = []

    def solve(mu_over_L, eta_L, K, solver, **variant):
        seen.append(variant)
        return WorstCase(mu_over_L, eta_L, K, 1.0, 1.0, 0.0, 0.0, 0.0, "optimal", solver, 0.0,
                         **variant)

    cache = Cache(None)
    cache.get(0.1, 0.2, 3, "S", solve)
    cache.get(0.1, 0.2, 3, "S", solve, initial_condition="distance", measure="last")
    cache.get(0.1, 0.2, 3, "S", solve, initial_condition="distance")
    assert seen == [{}, {"initial_condition": "distance"}]
    assert len(cache.data) == 2


def test_distance_worst_case_is_reported_in_units_of_L(monkeypatch):
    import pflbounds.audit.tightness as t

    case = TightnessCase(result_id="r", forms={"printed": None}, fixed={},
                         points=({"mu": 0.5, "L": 4.0, "eta": 0.1},), horizons=(1,),
                         initial_condition="distance", initial="R0")
    monkeypatch.setattr(t, "deterministic_value", lambda *a, **k: 1.0)
    wc = WorstCase(0.125, 0.4, 1, 0.3, 0.3, 0.0, 0.0, 0.0, "optimal", "S", 0.0)
    (row,) = audit_case(case, Cache(None), solve=lambda *a, **k: wc)
    assert row.worst == pytest.approx(1.2) and row.ratio == pytest.approx(1 / 1.2)
    assert row.verdict == "VIOLATED"  # 1.0 < 4 x 0.3
