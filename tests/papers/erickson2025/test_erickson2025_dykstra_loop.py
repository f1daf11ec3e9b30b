"""Dykstra in Karula's loop: the a-posteriori inexactness against Dykstra's own certificate,
its fall with the tolerance, and the P5_dykstra evidence."""

from __future__ import annotations

import numpy as np
import pytest

from pflbounds.papers.erickson2025.checks.dykstra_loop import simulate_p5_dykstra
from pflbounds.papers.erickson2025.checks.karula_runs import point_instance, run
from pflbounds.problems.inexact_projection import Projector, inexactness

_P = dict(n=6, d=3, s=3, cond=10.0, rho=0.5, inst=0)


def test_measured_inexactness_is_below_dykstras_certificate():
    inst = point_instance(_P)
    eta = 3.0 / (8.0 * inst.L)
    z = inst.m[None] + 0.5 * np.random.default_rng(0).standard_normal((4, inst.n, inst.d))
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
    L = point_instance(_P).L
    assert float(ev["bound"][0]) == pytest.approx(128 * L * float(ev["delta"]) / 3, rel=1e-12)
    assert ev["samples"].shape == (3, 1)
    assert np.all(ev["samples"] <= ev["bound"][0])
