"""Verdict semantics on hand-built evidence (no runner involved)."""

from __future__ import annotations

import numpy as np
import pytest

from pflbounds.checking import Check, CheckKind, EvidenceError, Verdict, evaluate, mc_block


def _noop(params, n, ss):  # pragma: no cover - evidence is given directly
    return {}


def check(kind=CheckKind.BOUND_HOLDS, expected=Verdict.HOLDS, **kw):
    grid = kw.pop("grid", ({},))
    return Check(id="unit.c", title="unit", kind=kind, expected=expected, simulate=_noop,
                 grid=grid, **kw)


def exact(mean, bound, ks=None, **extra):
    ev = {"mean": np.asarray(mean, dtype=float), "bound": np.asarray(bound, dtype=float)}
    if ks is not None:
        ev["ks"] = np.asarray(ks, dtype=float)
    return {**ev, **extra}


def verdict(c, *evs, params=None):
    params = params if params is not None else [{}] * len(evs)
    return evaluate(c, list(evs), params)


# --- exact bound comparisons ---------------------------------------------------------------

@pytest.mark.parametrize(
    ("mean", "bound", "expected"),
    [
        ([0.0], [0.0], Verdict.HOLDS),  # zero measured, zero bound
        ([1e-20], [0.0], Verdict.VIOLATED),  # any excess over a zero bound counts
        ([-0.5], [-1.0], Verdict.VIOLATED),  # negative bound: measured above it
        ([-1.0 + 1e-12], [-1.0], Verdict.HOLDS),  # within rel_tol of a negative bound
        ([1.0 + 1e-10], [1.0], Verdict.HOLDS),  # within rel_tol = 1e-9
        ([1.0 + 1e-8], [1.0], Verdict.VIOLATED),
        ([np.inf], [1.0], Verdict.VIOLATED),  # divergence
        ([5.0], [np.inf], Verdict.HOLDS),  # vacuous bound
        ([np.inf], [np.inf], Verdict.HOLDS),
    ],
)
def test_exact_upper_bound_edge_cases(mean, bound, expected):
    assert verdict(check(), exact(mean, bound)).verdict is expected


def test_abs_tol_absorbs_roundoff_at_a_zero_bound():
    assert verdict(check(abs_tol=1e-15), exact([1e-17], [0.0])).verdict is Verdict.HOLDS


def test_exact_lower_bound_mirror():
    c = check(CheckKind.LOWER_BOUND)
    assert verdict(c, exact([2.0, 3.0], [1.0, 3.0])).verdict is Verdict.HOLDS
    assert verdict(c, exact([2.0, 3.0 - 1e-6], [1.0, 3.0])).verdict is Verdict.VIOLATED
    ev = verdict(c, exact([2.0, 6.0], [1.0, 3.0]))
    assert ev.margin == pytest.approx(2.0)  # measured / bound


def test_margin_and_detail_name_the_worst_point():
    c = check(grid=({"a": 1}, {"a": 2}))
    ev = verdict(c, exact([1.0, 1.0], [2.0, 4.0], ks=[10, 20]),
                 exact([1.0, 1.37], [2.0, 1.0], ks=[10, 40]), params=[{"a": 1}, {"a": 2}])
    assert ev.verdict is Verdict.VIOLATED
    assert ev.margin == pytest.approx(1 / 1.37)
    assert "1.37" in ev.detail and "K=40" in ev.detail and "point 1" in ev.detail


def test_nan_and_missing_bound_are_evidence_errors():
    with pytest.raises(EvidenceError, match="NaN"):
        verdict(check(), exact([np.nan], [1.0]))
    with pytest.raises(EvidenceError, match="bound"):
        verdict(check(), {"mean": np.array([1.0])})
    with pytest.raises(EvidenceError, match="mean"):
        verdict(check(), {"bound": np.array([1.0])})


# --- Monte Carlo bound comparisons ------------------------------------------------------------

def mc(mean, sd, n, bound, m_points=1):
    """Evidence with exactly the given mean and sample sd (two-point construction)."""
    mean = np.full(m_points, float(mean))
    x = np.concatenate([np.tile(mean - sd, (n // 2, 1)), np.tile(mean + sd, (n // 2, 1))])
    # sample sd with ddof=1 of +-sd values is sd*sqrt(n/(n-1)); close enough for these tests
    return {**mc_block(x), "bound": np.full(m_points, float(bound))}


def test_bonferroni_changes_the_decision():
    """A bound 3 standard errors above the mean holds for one comparison at 99% but not
    for 1000 simultaneous comparisons."""
    n = 10000
    se = 1.0 / np.sqrt(n)
    c = check(engine="mc", replicas=n)
    assert verdict(c, mc(0.0, 1.0, n, 3 * se, m_points=1)).verdict is Verdict.HOLDS
    assert verdict(c, mc(0.0, 1.0, n, 3 * se, m_points=1000)).verdict is Verdict.INCONCLUSIVE
    assert verdict(c, mc(0.0, 1.0, n, -10 * se, m_points=1000)).verdict is Verdict.VIOLATED


def test_monte_carlo_divergence_violates_a_finite_bound():
    x = np.ones((100, 3))
    x[7, 2] = np.inf  # one replica diverged at the last K
    c = check(engine="mc", replicas=100)
    ev = verdict(c, {**mc_block(x), "bound": np.full(3, 10.0)})
    assert ev.verdict is Verdict.VIOLATED
    assert ev.points[0]["hi"][2] == np.inf and ev.points[0]["hi"][0] < 10.0


def test_monte_carlo_lower_bound_mirror():
    n = 10000
    c = check(CheckKind.LOWER_BOUND, engine="mc", replicas=n)
    assert verdict(c, mc(1.0, 1.0, n, 0.9)).verdict is Verdict.HOLDS
    assert verdict(c, mc(1.0, 1.0, n, 1.1)).verdict is Verdict.VIOLATED
    assert verdict(c, mc(1.0, 1.0, n, 1.0)).verdict is Verdict.INCONCLUSIVE


def test_monte_carlo_limits_are_reported_per_point():
    n = 1000
    ev = verdict(check(engine="mc", replicas=n), mc(0.0, 1.0, n, 1.0, m_points=3))
    p = ev.points[0]
    assert np.all(p["lo"] < p["mean"]) and np.all(p["mean"] < p["hi"])
    assert p["count"] == n


# --- erratum ------------------------------------------------------------------------------------

@pytest.mark.parametrize(
    ("printed", "corrected", "expected"),
    [
        (0.5, 2.0, Verdict.CONFIRMED),
        (2.0, 3.0, Verdict.NOT_CONFIRMED),
        (0.5, 0.8, Verdict.INCONCLUSIVE),  # the correction is violated too
    ],
)
def test_erratum_outcomes(printed, corrected, expected):
    c = check(CheckKind.ERRATUM, Verdict.CONFIRMED)
    ev = {"ks": np.array([1.0, 2.0]), "mean": np.array([1.0, 0.5]),
          "bound_printed": printed * np.array([1.0, 0.5]),
          "bound_corrected": corrected * np.array([1.0, 0.5])}
    out = verdict(c, ev)
    assert out.verdict is expected
    assert "printed bound" in out.detail and "corrected bound" in out.detail


# --- rate ----------------------------------------------------------------------------------------

def test_rate_ignores_k0_and_masked_points_in_loglog():
    ks = np.array([0.0, 1.0, 2.0, 4.0, 8.0, 16.0])
    mean = np.where(ks > 0, 1.0 / np.maximum(ks, 1.0), 7.0)
    mean[-1] = 1.0  # a floor at the end, masked out
    c = check(CheckKind.RATE, predicted=-1.0, tolerance=1e-9)
    ev = verdict(c, {"ks": ks, "mean": mean, "fit_mask": ks < 16})
    assert ev.verdict is Verdict.HOLDS
    assert ev.fits[0]["ks"].tolist() == [1.0, 2.0, 4.0, 8.0]
    ev = verdict(c, {"ks": ks, "mean": mean})
    assert ev.verdict is Verdict.VIOLATED


def test_rate_needs_two_points_and_positive_exact_values():
    c = check(CheckKind.RATE, predicted=-1.0, tolerance=0.1)
    with pytest.raises(EvidenceError, match="fewer than 2"):
        verdict(c, {"ks": np.array([0.0, 1.0]), "mean": np.array([1.0, 1.0])})
    with pytest.raises(EvidenceError, match="non-positive"):
        verdict(c, {"ks": np.array([1.0, 2.0]), "mean": np.array([1.0, 0.0])})


def test_monte_carlo_rate_straddling_the_band_is_inconclusive():
    rng = np.random.default_rng(5)
    ks = np.array([1.0, 2.0, 4.0, 8.0])
    x = (1.0 / ks) * (1.0 + 0.5 * rng.standard_normal((50, ks.size)))
    c = check(CheckKind.RATE, engine="mc", replicas=50, predicted=-1.0, tolerance=0.02)
    ev = verdict(c, {"ks": ks, **mc_block(x)})
    f = ev.fits[0]
    assert f["lo"] < -1.0 - 0.02 or f["hi"] > -1.0 + 0.02  # interval wider than the band
    assert ev.verdict is Verdict.INCONCLUSIVE


# --- scaling -------------------------------------------------------------------------------------

def test_scaling_fits_each_group_separately():
    grid = [{"n": n, "eps": e} for e in (0.1, 0.01) for n in (1, 2, 4, 8)]
    evs = [{"cost": np.asarray(100.0 / p["n"] if p["eps"] == 0.1 else 100.0 / p["n"] ** 0.5)}
           for p in grid]
    c = check(CheckKind.SCALING, grid=tuple(grid), predicted=-1.0, tolerance=0.05,
              x_param="n")
    ev = evaluate(c, evs, grid)
    assert len(ev.fits) == 2
    assert [f["verdict"] for f in ev.fits] == [Verdict.HOLDS, Verdict.VIOLATED]
    assert ev.verdict is Verdict.VIOLATED
    assert ev.margin == pytest.approx(0.5)
    assert '"eps":0.01' in ev.detail


def test_scaling_fit_mask_drops_a_point():
    grid = [{"n": n} for n in (1, 2, 4, 8)]
    evs = [{"cost": np.asarray(100.0 / p["n"])} for p in grid]
    evs[3] = {"cost": np.asarray(1e6), "fit_mask": np.asarray(False)}
    c = check(CheckKind.SCALING, grid=tuple(grid), predicted=-1.0, tolerance=1e-9,
              x_param="n")
    assert evaluate(c, evs, grid).verdict is Verdict.HOLDS


def _scaling_pair(slopes):
    grid = [{"n": n, "g": i} for i in range(len(slopes)) for n in (1, 2, 4, 8)]
    evs = [{"cost": np.asarray(100.0 * p["n"] ** slopes[p["g"]])} for p in grid]
    return grid, evs


@pytest.mark.parametrize(
    ("side", "slopes", "expected", "margin"),
    [
        ("at_most", (-1.0, -0.6), Verdict.HOLDS, -0.1),  # both at most -1/2: no value inside
        ("at_most", (-3.0, -0.4), Verdict.VIOLATED, 0.1),  # one above the boundary
        ("at_least", (1.5, 2.5), Verdict.HOLDS, -0.5),
        ("at_least", (0.9, 3.0), Verdict.VIOLATED, 0.1),
        ("both", (-1.0, -0.6), Verdict.VIOLATED, 0.5),  # the same claim as a band -0.5 +- 0
    ],
)
def test_one_sided_scaling_claims(side, slopes, expected, margin):
    """A one-sided claim holds wherever the slope lies on its side of the boundary; the
    margin is the worst excess beyond the boundary, negative inside."""
    grid, evs = _scaling_pair(slopes)
    bound = 1.0 if side == "at_least" else -0.5
    c = check(CheckKind.SCALING, grid=tuple(grid), predicted=bound, tolerance=0.0,
              x_param="n", side=side)
    ev = evaluate(c, evs, grid)
    assert ev.verdict is expected
    assert ev.margin == pytest.approx(margin)
    claim = {"at_most": "claimed <= -0.5", "at_least": "claimed >= 1",
             "both": "predicted -0.5 ± 0"}[side]
    assert claim in ev.detail


def test_monte_carlo_one_sided_rate_uses_only_the_limit_on_its_side():
    rng = np.random.default_rng(5)
    ks = np.array([1.0, 2.0, 4.0, 8.0])
    x = (1.0 / ks) * (1.0 + 0.05 * rng.standard_normal((50, ks.size)))
    block = {"ks": ks, **mc_block(x)}
    at_most = check(CheckKind.RATE, engine="mc", replicas=50, predicted=-0.5, tolerance=0.0,
                    side="at_most")
    assert verdict(at_most, block).verdict is Verdict.HOLDS  # slope about -1, far below
    assert verdict(check(CheckKind.RATE, engine="mc", replicas=50, predicted=-0.5,
                         tolerance=0.0, side="at_least"), block).verdict is Verdict.VIOLATED
    assert verdict(check(CheckKind.RATE, engine="mc", replicas=50, predicted=-1.0,
                         tolerance=0.0, side="at_most"), block).verdict is Verdict.INCONCLUSIVE


def test_an_unknown_side_is_refused():
    with pytest.raises(ValueError, match="side must be one of"):
        check(CheckKind.SCALING, predicted=1.0, tolerance=0.0, x_param="n",
              grid=({"n": 1},), side="below")


# --- identity ------------------------------------------------------------------------------------

def test_identity_monte_carlo_target_is_an_equivalence_test():
    rng = np.random.default_rng(6)
    x = 2.0 + rng.standard_normal((20000, 3))
    c = check(CheckKind.IDENTITY, engine="mc", replicas=20000, tolerance=0.1)
    ok = {**mc_block(x), "target": np.full(3, 2.0)}
    assert verdict(c, ok).verdict is Verdict.HOLDS
    off = {**mc_block(x), "target": np.full(3, 2.5)}
    assert verdict(c, off).verdict is Verdict.VIOLATED
    tight = check(CheckKind.IDENTITY, engine="mc", replicas=20000, tolerance=0.001)
    assert verdict(tight, ok).verdict is Verdict.INCONCLUSIVE


def test_identity_exact_target_and_nan():
    c = check(CheckKind.IDENTITY, tolerance=1e-12)
    assert verdict(c, {"mean": np.array([1.0]), "target": np.array([1.0 + 1e-13])}).verdict \
        is Verdict.HOLDS
    with pytest.raises(EvidenceError, match="NaN"):
        verdict(c, {"residual": np.array([np.nan])})
