"""Prediction P8: every constant the objectives catalogue encodes bounds (or equals) the value
certified from the Hessians of a random quadratic instance; Table 2 as printed fails where
the errata say (APFL2 mu, MT2 denominators, WS2 normalisation)."""

from __future__ import annotations

import numpy as np
import pytest
import sympy as sp

from pflbounds.papers.hanzely2023.instances import base_values, build, encoded
from pflbounds.papers.hanzely2023.objectives import MU_ISOTROPIC, NAMES, apfl_g
from pflbounds.problems.pfl_objectives import QuadraticLosses

M, D, NS = 6, 3, 8
TOL = 1e-10


def _losses(seed: int, isotropic: bool = False) -> QuadraticLosses:
    return QuadraticLosses.random(M, D, NS, 0.2, 2.0, np.random.default_rng(seed),
                                  isotropic=isotropic)


def _alphas(seed: int) -> np.ndarray:
    return np.random.default_rng(100 + seed).uniform(0.05, 0.5, M)


def _cases():
    out = []
    for seed in range(3):
        for lam in (0.1, 0.5):
            for k in (1.0, 3.0):
                Lam = k * 3 * lam / (2 * 0.2)
                out += [("mt2", seed, {"lam": lam, "Lam": Lam}),
                        ("mt2-unscaled", seed, {"lam": lam, "Lam": Lam}),
                        ("mt-extended", seed, {"lam": lam, "Lam": 2 * Lam})]
        for lam in (0.4, 2.0, 10.0):
            out += [("mx2", seed, {"lam": lam}), ("mx2-unscaled", seed, {"lam": lam})]
        al = _alphas(seed)
        for k in (1.0, 2.0):
            Lam = k * float(max(apfl_g(al.max()), apfl_g(al.min())))
            out += [("apfl2", seed, {"Lam": Lam, "alpha": al}),
                    ("apfl2-unscaled", seed, {"Lam": Lam, "alpha": al})]
        out += [("ws2", seed, {"d_w": 1}), ("ws2-unscaled", seed, {"d_w": 2}),
                ("fl", seed, {}), ("full", seed, {})]
    return out


def _holds(enc: dict[str, float], cert: dict[str, float]) -> dict[str, bool]:
    """mu: encoded <= certified; the smoothness constants: encoded >= certified."""
    out = {"mu": enc["mu"] <= cert["mu"] * (1 + TOL) + 1e-15}
    for k in NAMES[1:]:
        out[k] = enc[k] >= cert[k] * (1 - TOL) - 1e-15
    return out


@pytest.mark.parametrize("key, seed, params", _cases(),
                         ids=lambda v: v if isinstance(v, str | int) else None)
def test_encoded_constants_bound_the_certified_ones(key, seed, params):
    obj = build(key, _losses(seed), **params)
    cert = obj.constants
    enc = encoded(key, base_values(obj, key))
    assert all(_holds(enc, cert).values()), (enc, cert)


def test_mt2_smoothness_is_attained_and_table2_printed_is_below_it():
    obj = build("mt2", _losses(0), lam=0.5, Lam=4.0)
    vals = base_values(obj, "mt2")
    enc, cert = encoded("mt2", vals), obj.constants
    for k in ("Lw", "Lb"):  # every client attains L'
        assert enc[k] == pytest.approx(cert[k], rel=1e-12)
    printed = encoded("mt2", vals, printed=True)
    ok = _holds(printed, cert)
    assert not ok["Lw"] and not ok["Lb"] and ok["mu"]
    assert printed["Lw"] == pytest.approx(cert["Lw"] / 2)


def test_apfl2_printed_mu_fails_and_corrected_holds():
    """Digest §8 #3: isotropic f'_m, alpha = 0.1, the smallest admissible Lambda."""
    a = 0.1
    Lam = float(apfl_g(a))
    obj = build("apfl2", _losses(0, isotropic=True), Lam=Lam, alpha=np.full(M, a))
    vals = base_values(obj, "apfl2")
    cert = obj.constants["mu"]
    assert cert * M / 0.2 == pytest.approx(0.424, abs=5e-4)
    exact = float(MU_ISOTROPIC["apfl2"].subs({sp.Symbol("alpha", positive=True): a,
                                              sp.Symbol("Lam", positive=True): Lam,
                                              sp.Symbol("mup", positive=True): 0.2,
                                              sp.Symbol("M", positive=True, integer=True): M}))
    assert exact == pytest.approx(cert, rel=1e-10)
    assert not _holds(encoded("apfl2", vals, printed=True), obj.constants)["mu"]
    assert _holds(encoded("apfl2", vals), obj.constants)["mu"]


def test_ws2_printed_mu_fails():
    obj = build("ws2", _losses(1), d_w=1)
    vals = base_values(obj, "ws2")
    printed_ok = _holds(encoded("ws2", vals, printed=True), obj.constants)
    assert not printed_ok["mu"] and printed_ok["Lw"] and printed_ok["Lb"]


@pytest.mark.parametrize("key, params", [("mt2", {"lam": 0.5, "Lam": 4.0}),
                                         ("mx2", {"lam": 1.0})])
def test_isotropic_mu_is_the_derived_closed_form(key, params):
    obj = build(key, _losses(2, isotropic=True), **params)
    subs = {sp.Symbol("mup", positive=True): 0.2,
            sp.Symbol("M", positive=True, integer=True): M,
            sp.Symbol("lam", positive=True): params["lam"],
            sp.Symbol("Lam", positive=True): params.get("Lam", 1.0)}
    assert float(MU_ISOTROPIC[key].subs(subs)) == pytest.approx(obj.constants["mu"], rel=1e-10)


def test_unrescaled_objective_has_M_times_the_w_smoothness():
    q = _losses(0)
    r, u = build("mx2", q, lam=1.0), build("mx2-unscaled", q, lam=1.0)
    assert u.constants["Lw"] == pytest.approx(M * r.constants["Lw"])
    assert u.constants["mu"] >= r.constants["mu"] * (1 - TOL)
    assert u.constants["Lw"] / u.constants["mu"] > 2 * r.constants["Lw"] / r.constants["mu"]
