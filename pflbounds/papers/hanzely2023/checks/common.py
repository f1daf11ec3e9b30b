"""Shared pieces of the hanzely2023 checks: instances from grid points, the catalog's step
parameters, exact ACD-PFL curves and costs to reach a target, and the rounds ACD-PFL needs to
reach one (P2 on Theorem 7, P9 on the rescaling, P10 on Table 3), and the measured costs of
Tables 1 and 3's rows (P_table1_acd, P_table3_*)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from pflbounds.checking import bound
from pflbounds.exact import propagate
from pflbounds.exact.propagator_block_pfl import acd_pfl_draws, excess_metric
from pflbounds.papers.hanzely2023.instances import build
from pflbounds.papers.hanzely2023.theory.acd import THEOREM7_PARAMETERS
from pflbounds.papers.hanzely2023.theory.asvrcd import THEOREM8_PARAMETERS
from pflbounds.problems.pfl_objectives import PFLObjective, QuadraticLosses

P = "hanzely2023."
"""The prefix of the paper's check ids."""
REL = 1e-6
"""Target of the cost-to-accuracy checks: E[F - F^*] <= REL (F(0) - F^*)."""
ISO = {"objective": "mx2", "isotropic": True, "mup": 0.2, "Lp": 0.2}
"""Isotropic clients: mu barely moves with lambda (lambda + mu'/2 - sqrt(lambda^2 +
mu'^2/4))/M, so lambda is proportional to L^w/mu along the sweep."""


def losses(p: Mapping[str, Any]) -> QuadraticLosses:
    """Random least-squares clients of a grid point; the instance seed is part of the point,
    so every replica block sees the same instance. ``identical``: every client has client
    0's data (zero heterogeneity)."""
    rng = np.random.default_rng([2023, int(p.get("instance", 0))])
    M = int(p.get("M", 5))
    q = QuadraticLosses.random(M, int(p.get("d", 2)), int(p.get("n", 10)),
                               p.get("mup", 0.2), p.get("Lp", 2.0), rng,
                               spread=p.get("spread", 1.0), noise=p.get("noise", 0.1),
                               isotropic=p.get("isotropic", False))
    if p.get("identical", False):
        q = QuadraticLosses(np.repeat(q.a[:1], M, 0), np.repeat(q.b[:1], M, 0), q.ridge)
    return q


def instance(p: Mapping[str, Any]) -> PFLObjective:
    """The objective ``p["objective"]`` of the catalogue on :func:`losses`."""
    alpha = p.get("alpha")
    return build(p["objective"], losses(p), lam=p.get("lam", 0.0), Lam=p.get("Lam", 1.0),
                 alpha=None if alpha is None else np.asarray(alpha, dtype=float),
                 d_w=p.get("d_w"))


def scalars(parts: Mapping[str, Any]) -> dict[str, float]:
    """The parts of a form evaluated at one point (``bound`` gives 0-d arrays), as floats."""
    return {k: float(v) for k, v in parts.items()}


def acd_parameters(c: Mapping[str, float]) -> dict[str, float]:
    """Theorem 7's nu, theta, eta and Algorithm 2's p_w, from the catalog."""
    v = scalars(bound(THEOREM7_PARAMETERS, "printed", mu=c["mu"], Lw=c["Lw"], Lb=c["Lb"]))
    return {"nu": v["nu"], "theta": v["theta"], "eta": v["eta"], "pw": v["p_w"]}


def asvrcd_parameters(c: Mapping[str, float], n: int, which: str = "w",
                      pw: float | None = None) -> dict[str, float]:
    """Theorem 8's parameters (p_w = Lcal^w/(Lcal^w + Lcal^beta) unless given) with
    rho = p_w/n (``which="w"``) or p_beta/n, from the catalog."""
    if pw is None:
        pw = float(bound(THEOREM8_PARAMETERS, "printed", Lcw=c["Lcw"], Lcb=c["Lcb"], mu=c["mu"],
                         pw=0.5, rho=0.5)["p_w"])
    rho = (pw if which == "w" else 1 - pw) / n
    v = scalars(bound(THEOREM8_PARAMETERS, "printed", Lcw=c["Lcw"], Lcb=c["Lcb"], mu=c["mu"],
                      pw=pw, rho=rho))
    return {"eta": v["eta"], "theta1": v["theta1"], "theta2": v["theta2"],
            "gamma": v["gamma"], "nu": v["nu"], "rho": rho, "pw": pw}


def acd_exact(obj: PFLObjective, K: int, beta_factor: float = 1.0,
              ks: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray, dict[str, float]]:
    """Exact E[F(y^k) - F^*] of ACD-PFL (Theorem 7's parameters, y^0 = z^0 = 0) at ks
    (default 0..K), with the parameters."""
    c = obj.constants
    par = acd_parameters(c)
    draws = acd_pfl_draws(obj.hessian, obj.optimum["x"], obj.d0, Lw=c["Lw"], Lb=c["Lb"],
                          beta_factor=beta_factor, **par)
    ks = np.arange(K + 1) if ks is None else np.asarray(ks)
    pr = propagate(draws, np.zeros(2 * obj.N), ks, metrics=excess_metric(obj.hessian,
                                                                         obj.optimum["x"]))
    return ks, pr.metrics[:, 0], par


def acd_iterations_to(obj: PFLObjective, rel: float) -> tuple[int, dict[str, float]]:
    """The first k with exact E[F(y^k) - F^*] <= rel (F(0) - F^*), searched on a horizon of
    three times Theorem 7's iteration count (constant 1)."""
    c = obj.constants
    guess = (np.sqrt(c["Lw"]) + np.sqrt(c["Lb"])) / np.sqrt(c["mu"]) * np.log(1 / rel)
    K = int(3 * guess) + 50
    ks, e, par = acd_exact(obj, K)
    hit = np.flatnonzero(e <= rel * e[0])
    if not hit.size:
        raise RuntimeError(f"ACD-PFL did not reach {rel:g} of its initial error in {K} steps")
    return int(ks[hit[0]]), par


def simulate_comm(p: Mapping[str, Any], R: int, seed) -> dict:
    """Expected rounds of ACD-PFL to REL: p_w x the first k with E[F(y^k)] <= REL F(0)."""
    obj = instance(p)
    k, par = acd_iterations_to(obj, REL)
    return {"cost": np.asarray(par["pw"] * k), "iterations": np.asarray(float(k)),
            "kappa_w": np.asarray(obj.constants["Lw"] / obj.constants["mu"])}


# ------------------------------------------------------------------------------ Tables 1 and 3
def simulate_row(p: Mapping[str, Any], R: int, seed) -> dict:
    """ACD-PFL's expected cost to REL of the initial error on a Table 3 objective, exactly:
    the rounds (p_w x iterations) for ``count = "comm"``, the grad_beta F calls ((1 - p_w) x
    iterations) for ``count = "grad_beta"``."""
    obj = instance(p)
    k, par = acd_iterations_to(obj, REL)
    share = par["pw"] if p["count"] == "comm" else 1.0 - par["pw"]
    c = obj.constants
    return {"cost": np.asarray(share * k), "iterations": np.asarray(float(k)),
            "Lw_over_mu": np.asarray(c["Lw"] / c["mu"]),
            "Lb_over_mu": np.asarray(c["Lb"] / c["mu"])}


ROW = {"M": 5, "d": 2, "n": 10, "mup": 0.2, "identical": True}
"""Identical clients (client 0's data for all): the averaged losses keep the spectrum [mu',
L'] of one client, so the constants of the rows are L' and mu' themselves."""
LPS = (2.0, 8.0, 32.0, 128.0)
