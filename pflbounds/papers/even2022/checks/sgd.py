"""Checks of Lemma 6 (SGD): erratum #15 on the averaged-iterate claim."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from pflbounds.checking import Check, CheckKind, Verdict, bound
from pflbounds.papers.even2022.theory.sgd import LEMMA6_EPS


def _sgd_moments(mu: float, eta: float, sigma2: float, x0: float, T: int):
    """Exact mean/variance of the last iterate x^T and of the average (1/T) sum_{t<T} x^t for
    SGD on f(x) = mu x^2/2 with additive N(0, sigma2) gradient noise."""
    a = 1 - eta * mu
    t = np.arange(T)
    last_mean = a**T * x0
    last_var = eta**2 * sigma2 * np.sum(a ** (2 * t))
    avg_mean = x0 * np.sum(a**t) / T
    w = (1 - a ** (T - 1 - np.arange(T - 1))) / (1 - a)  # weight of n_s in the average
    avg_var = (eta / T) ** 2 * sigma2 * np.sum(w**2)
    return last_mean, last_var, avg_mean, avg_var


def simulate_e15(p: Mapping[str, Any], R: int, seed: np.random.SeedSequence) -> dict:
    """Printed: f(average of x^t, t < T_eps) <= eps with Lemma 6's eta_eps and T_eps (violated);
    corrected: E f(x^T) <= eps for the last iterate with the corrected T and step (holds)."""
    mu = L = 1.0
    sigma2, f0, eps = p["sigma2"], p["f0"], p["eps"]
    x0 = np.sqrt(2 * f0 / mu)
    eta_p = min(mu * eps / (2 * L * sigma2), 1 / (2 * L))
    T_p = int(np.ceil(np.log(f0 / eps) / (eta_p * mu)))
    _, _, m, v = _sgd_moments(mu, eta_p, sigma2, x0, T_p)
    avg_err = 0.5 * mu * (m**2 + v)
    eta_c = min(mu * eps / (3 * L * sigma2), 1 / (2 * L))
    T_c = int(bound(LEMMA6_EPS, "corrected", L=L, mu=mu, sigma2=sigma2, eps=eps,
                    Delta0=f0))
    lm, lv, _, _ = _sgd_moments(mu, eta_c, sigma2, x0, T_c)
    last_err = 0.5 * mu * (lm**2 + lv)
    return {"ks": np.array([float(T_p), float(T_c)]), "mean": np.array([avg_err, last_err]),
            "bound_printed": np.array([eps, np.inf]), "bound_corrected": np.array([np.inf, eps]),
            "T_printed_formula": np.asarray(bound(LEMMA6_EPS, "printed", L=L, mu=mu,
                                                  sigma2=sigma2, eps=eps, Delta0=f0))}


CHECKS = [
    Check(
        "even2022.E15", "Erratum: Lemma 6's averaged-iterate precision claim",
        CheckKind.ERRATUM, Verdict.CONFIRMED, simulate_e15,
        grid=tuple({"sigma2": s2, "f0": 1.0, "eps": e} for s2 in (1e-3, 1.0)
                   for e in (1e-2, 1e-4)),
        quick_grid=({"sigma2": 1e-3, "f0": 1.0, "eps": 1e-4},), engine="exact",
        result_id=LEMMA6_EPS.id, form="printed",
        xlabel='T (SGD steps)', ylabel='E f(x) - f* (averaged, then last iterate)',
        description="f = x^2/2 with Gaussian gradient noise, exact moments: the averaged "
                    "iterate after T_eps steps keeps about f_0/ln(f_0/eps)^2 >> eps; the last "
                    "iterate with the corrected T reaches eps."),
]
