"""even2022 checks: expected verdicts on the quick grids, planted wrong bounds are caught,
and every erratum with a check points at a registered check."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from pflbounds.checking import CheckKind, Verdict, registry
from pflbounds.running.executor import run_check
from pflbounds.symbolic import catalog

ALL = registry.all_checks("even2022")
BY_ID = {c.id: c for c in ALL}


@pytest.fixture(scope="module")
def quick_outcomes():
    return {c.id: run_check(c, quick=True, base_seed=0, progress=False) for c in ALL}


def test_every_prediction_of_the_digest_is_encoded():
    for n in range(1, 14):
        assert f"even2022.P{n}" in BY_ID, f"P{n} has no check"
    for e in ("even2022.E6", "even2022.E15", "even2022.E17", "even2022.P11"):
        assert e in BY_ID


@pytest.mark.parametrize("check_id", sorted(BY_ID))
def test_quick_verdict_is_the_expected_one(quick_outcomes, check_id):
    o = quick_outcomes[check_id]
    assert o.error is None, o.error
    assert o.verdict == BY_ID[check_id].expected, o.detail


def test_errata_link_to_registered_checks():
    linked = 0
    for r in catalog.results("even2022"):
        for e in r.errata:
            if e.check_id:
                assert registry.find(e.check_id) is not None, f"{e.id} -> {e.check_id}"
                linked += 1
    assert linked >= 5
    ids = {e.id for r in catalog.results("even2022") for e in r.errata}
    for n in ("13", "6", "17", "15", "16"):
        assert f"even2022.erratum{n}" in ids


def _planted(check, transform):
    def simulate(params, R, seed):
        block = dict(check.simulate(params, R, seed))
        return transform(block)

    return dataclasses.replace(check, simulate=simulate)


BOUND_CHECKS = [c.id for c in ALL if c.kind is CheckKind.BOUND_HOLDS]


@pytest.mark.parametrize("check_id", BOUND_CHECKS)
def test_planted_bound_divided_is_violated(quick_outcomes, check_id):
    """The bound divided by 10 (times the observed slack when the bound is looser than 10x)
    must be reported VIOLATED."""
    check = BY_ID[check_id]
    margin = quick_outcomes[check_id].margin
    factor = 10.0 * max(1.0, float(margin))

    def shrink(block):
        block["bound"] = np.asarray(block["bound"], dtype=float) / factor
        return block

    o = run_check(_planted(check, shrink), quick=True, progress=False)
    assert o.verdict is Verdict.VIOLATED, o.detail


def test_planted_exponent_of_K_is_violated():
    """Theorem 2's explicit bound with (1 - eta mu)^(3K) in place of ^K is caught, while the
    encoded form holds, on n identical agents with small noise (the transient dominates)."""
    from pflbounds.checking import bound
    from pflbounds.exact.linear_gaussian import afo_expected_excess
    from pflbounds.problems.quadratic import QuadraticFamily

    n, kappa = 4, 10.0
    fam = QuadraticFamily(h=np.array([1.0, kappa]), m=np.ones((n, 2)), s=np.full(2, 1e-6))
    lam = np.full((n, n), 1.0 / n)
    eta = 0.5 / fam.L
    ks = np.arange(1, 200)
    Delta0 = float(fam.excess(np.zeros((n, 2)))[0])

    def simulate(exponent):
        def run(params, R, seed):
            measured = afo_expected_excess(fam, lam, eta, np.zeros(2), ks)[:, 0]
            good = bound("even2022.theorem2", "explicit", eta=eta, mu=fam.mu, L=fam.L, K=ks,
                         Delta0=Delta0, sigma2=fam.sigma2, V=1.0 / n, B=0.0)
            planted = good + ((1 - eta * fam.mu) ** (exponent * ks) - (1 - eta * fam.mu) ** ks) \
                * Delta0
            return {"ks": ks.astype(float), "mean": measured, "bound": planted}
        return run

    base = BY_ID["even2022.P1"]
    right = dataclasses.replace(base, simulate=simulate(1), grid=({"n": n},), quick_grid=None)
    wrong = dataclasses.replace(base, simulate=simulate(3), grid=({"n": n},), quick_grid=None)
    assert run_check(right, progress=False).verdict is Verdict.HOLDS
    assert run_check(wrong, progress=False).verdict is Verdict.VIOLATED


@pytest.mark.parametrize("check_id", [c.id for c in ALL
                                      if c.kind in (CheckKind.RATE, CheckKind.SCALING)])
def test_planted_wrong_exponent_is_violated(check_id):
    check = dataclasses.replace(BY_ID[check_id], predicted=BY_ID[check_id].predicted / 2)
    o = run_check(check, quick=True, progress=False)
    assert o.verdict is Verdict.VIOLATED, o.detail


def test_planted_lower_bound_above_measured_is_violated():
    check = BY_ID["even2022.P6_theory"]

    def raise_lb(block):
        block["bound"] = np.asarray(block["mean"]) * 2.0
        return block

    o = run_check(_planted(check, raise_lb), quick=True, progress=False)
    assert o.verdict is Verdict.VIOLATED


@pytest.mark.parametrize("check_id", ["even2022.P11", "even2022.E6", "even2022.E15"])
def test_erratum_not_confirmed_when_the_correction_is_planted_wrong(check_id):
    def shrink(block):
        block["bound_corrected"] = np.asarray(block["bound_corrected"], dtype=float) / 1e3
        return block

    o = run_check(_planted(BY_ID[check_id], shrink), quick=True, progress=False)
    assert o.verdict is not Verdict.CONFIRMED


def test_same_seed_bitwise_identical_and_jobs_do_not_matter():
    c = BY_ID["even2022.P1_mc"]
    a = run_check(c, quick=True, base_seed=7, progress=False)
    b = run_check(c, quick=True, base_seed=7, jobs=2, progress=False)
    ea, eb = a.evidence[0], b.evidence[0]
    assert np.array_equal(np.asarray(ea["mean"]), np.asarray(eb["mean"]))
    other = run_check(c, quick=True, base_seed=8, progress=False)
    assert not np.array_equal(np.asarray(ea["mean"]), np.asarray(other.evidence[0]["mean"]))


def test_p11_star_graph_numbers():
    o = run_check(BY_ID["even2022.P11"], quick=True, progress=False)
    rho = float(np.asarray(o.evidence[0]["rho_W"]))
    assert 4.9 < rho < 5.1  # digest: rho(W) = 5.01 for N = 20
    diverging = np.asarray(o.evidence[0]["mean"])
    assert diverging[-1] > 1e6 * diverging[0]
    converging = np.asarray(o.evidence[1]["mean"])
    assert converging[-1] < converging[0]
