"""erickson2025 corollaries of Theorem 4.3 (theory/corollaries.py) and their check: the values of
digest §5.6, and Dykstra in Karula's loop (the a-posteriori inexactness against Dykstra's own
certificate, its fall with the tolerance, and the P5_dykstra evidence)."""

from __future__ import annotations

import numpy as np
import pytest

from pflbounds.papers.erickson2025.checks.common import run
from pflbounds.papers.erickson2025.checks.corollaries import simulate_p5_dykstra
from pflbounds.papers.erickson2025.instances import point_instance
from pflbounds.problems.inexact_projection import Projector, inexactness
from pflbounds.symbolic.catalog import get
from pflbounds.symbolic.evaluate import evaluate, solve


def _val(rid: str, form: str, **kw: float) -> float:
    return float(evaluate(get(rid), form, **kw).value)


BASE = dict(L=2.0, n=30, s=10, K=50, Delta0=3.0, sigma2=0.4, delta=0.01)


def test_corollaries_match_digest_5_6():
    L, s, sig, dl = BASE["L"], BASE["s"], BASE["sigma2"], BASE["delta"]
    kw = {k: BASE[k] for k in ("L", "n", "s", "sigma2", "delta")}
    assert _val("erickson2025.corollary_floor", "printed", **kw) == pytest.approx(
        32 * L * (s + 1) / (3 * s) * sig + 16 * L / 3 * dl, rel=1e-13)
    assert _val("erickson2025.corollary_floor", "explicit", **kw) == pytest.approx(
        256 * L * (s + 1) / (3 * s) * sig + 128 * L / 3 * dl, rel=1e-13)
    assert _val("erickson2025.corollary_floor", "corrected", **kw) == pytest.approx(
        32 * (s + 1) / s * sig + 128 * L / 3 * dl, rel=1e-13)
    assert _val("erickson2025.corollary_inexact_step", "printed", eta=0.5,
                delta=0.09) == pytest.approx(0.3, rel=1e-13)
    # K for a target: the closed form and solve on the theorem agree (ceil)
    target = 20.0
    floor = _val("erickson2025.corollary_floor", "corrected", **kw)
    k_closed = 64 * L / 3 * BASE["Delta0"] / (target - floor)
    assert _val("erickson2025.corollary_iterations", "corrected", epsG=target,
                Delta0=BASE["Delta0"], **kw) == pytest.approx(k_closed, rel=1e-12)
    vals = {k: v for k, v in BASE.items() if k != "K"}
    k_solved = solve(get("erickson2025.theorem4_3_eta38"), "K", target, "corrected",
                     **vals).value
    assert k_solved == np.ceil(k_closed)


_P = dict(n=6, d=3, s=3, cond=10.0, rho=0.5, inst=0)


def test_measured_inexactness_is_below_dykstras_certificate():
    inst = point_instance(_P)
    eta = 3.0 / (8.0 * inst.beta)
    z = inst.m[None] + 0.5 * np.random.default_rng(0).standard_normal((4, inst.N, inst.d))
    dk = Projector(inst.cset, "dykstra", 1e-3)
    u = dk(z)
    ref = Projector(inst.cset, "dual", 1e-14)
    delta = inexactness(u, z, ref(z), eta)
    assert np.all(delta > 0)  # a stopped Dykstra is inexact
    assert np.all(delta <= dk.gap / eta * (1 + 1e-9) + 1e-15)  # primal - dual >= eta delta


def test_loop_delta_falls_with_the_tolerance():
    deltas = [float(run(_P, 3, np.random.SeedSequence(1), K=6, loop="dykstra", loop_tol=t,
                        start="optimum")["delta_meas"].max()) for t in (1e-2, 1e-6)]
    assert deltas[0] > 100 * deltas[1] > 0


def test_p5_dykstra_evidence_uses_the_measured_delta():
    ev = simulate_p5_dykstra(dict(_P, K=8, tol=1e-3), 3, np.random.SeedSequence(2))
    L = point_instance(_P).beta
    assert float(ev["bound"][0]) == pytest.approx(128 * L * float(ev["delta"]) / 3, rel=1e-12)
    assert ev["samples"].shape == (3, 1)
    assert np.all(ev["samples"] <= ev["bound"][0])


def test_inexact_steps_realise_their_delta_and_stay_within_sqrt_2_eta_delta():
    from pflbounds.papers.erickson2025.checks.corollaries import simulate_inexact_step

    p = dict(n=6, d=3, s=3, cond=10.0, rho=0.5, inst=0, sigma2=1e-2, delta=1e-4)
    ev = simulate_inexact_step(p, 16, np.random.SeedSequence(3))
    assert np.all(ev["mean"] <= ev["bound"] * (1 + 1e-9))
    # the controlled projection realises delta (up to the cap at the consensus point)
    assert np.all(ev["delta_k"] <= 1e-4 * (1 + 1e-6)) and np.median(ev["delta_k"]) > 0.5e-4


def test_the_corrected_count_is_computed_at_each_target_and_read_at_its_last_iterate():
    from pflbounds.papers.erickson2025.checks.corollaries import simulate_iterations

    p = dict(n=6, d=3, s=3, cond=10.0, rho=0.5, inst=0, targets=[0.5, 0.2])
    ev = simulate_iterations(p, 4, np.random.SeedSequence(4))
    # K = (64L/3) Delta0/(epsG - (64L/3) 2 delta) rounded up, delta the loop's (tiny): just
    # above 1/q
    q = np.array([0.5, 0.2])
    assert np.all(ev["ks"] >= 1 / q) and np.all(ev["ks"] <= 1 / q + 1)
    assert ev["samples"].shape == (4, 2) and np.all(ev["bound"] > 0)
