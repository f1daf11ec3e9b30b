"""P11 (digest §7): Theorems 3 and 4 (LSGD-PFL without convexity, Algorithm 1 with its
literal beta-step, as Lemma 8 analyses it) on quadratic MX2 instances, deterministic runs.

The constants of Assumptions 4-7 are computed, not assumed:

* L: the joint smoothness of every f_m in (w, beta_m), max_m lambda_max of its Hessian;
* C_1 = C_2 = 0 and sigma_1 = sigma_2 = 0: exact gradients (the trajectory is deterministic);
* Assumption 6 (lambda, sigma_dif^2) and Assumption 7 (mu) on the trajectory's region. Neither
  can hold on the whole space once M >= 2: the stationarity measure
  ||(1/M) sum_m grad f_m(w, beta_m)||^2 maps the d_0 + M d_1 parameters to d_0 + d_1 numbers,
  so it vanishes on a subspace where the clients' gradients and F - F^* do not (the report
  shows the global PL constant, 0, beside the trajectory's). The proofs use the two
  assumptions only at the iterates (Lemmas 9, 11, 12), so lambda = 1 and sigma_dif^2 = the
  largest (1/M) sum_m ||grad f_m||^2 - ||(1/M) sum_m grad f_m||^2 over the local and virtual
  points visited, and mu = the smallest PL ratio over the virtual points visited, are valid
  constants for the run (mu is found by a fixed point: the steps of Theorem 4 depend on mu).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
from scipy.linalg import eigh

from pflbounds.algorithms.block_pfl import run_lsgd_pfl
from pflbounds.checking import Check, CheckKind, Verdict, bound
from pflbounds.papers.hanzely2023.checks.common import P, instance
from pflbounds.papers.hanzely2023.theory.nonconvex import THEOREM3, THEOREM4
from pflbounds.problems.pfl_objectives import PFLObjective

LAM_DIS = 1.0
"""Assumption 6's lambda (Jensen: lambda >= 1 is needed at any point)."""


def _mean_grad(obj: PFLObjective, W: np.ndarray, beta: np.ndarray) -> tuple[np.ndarray,
                                                                                 np.ndarray]:
    """((1/M) sum_m ||grad f_m||^2, ||(1/M) sum_m grad f_m||^2) at (W, beta), (R,) each."""
    gw, gb = obj.client_grads(W, beta)
    g = np.concatenate([gw, gb], axis=-1)  # equal d_0 and d_1 (Section 8 #12)
    return (g**2).sum(-1).mean(-1), (g.mean(1) ** 2).sum(-1)


def _metrics(obj: PFLObjective) -> dict:
    def virtual(st):
        return st["W"].mean(1)

    return {
        "stationarity": lambda st: _mean_grad(obj, virtual(st), st["beta"])[1],
        "dissimilarity": lambda st: np.maximum(
            *(a - LAM_DIS * b for a, b in (_mean_grad(obj, st["W"], st["beta"]),
                                           _mean_grad(obj, virtual(st), st["beta"])))),
    }


def joint_smoothness(obj: PFLObjective) -> float:
    """L of Assumption 4: the largest eigenvalue of the client Hessians in (w, beta_m)."""
    Hm, _ = obj.client_quadratics()
    return float(np.linalg.eigvalsh(Hm)[:, -1].max())


def global_pl_constant(obj: PFLObjective) -> float:
    """The PL constant of Assumption 7 on the whole space: the smallest generalized eigenvalue
    of (A^T A, H) with A x = (1/M) sum_m grad f_m (its linear part) and H the Hessian of F
    (F - F^* = (x - x^*)^T H (x - x^*)/2); 0 up to rounding when d_0 + M d_1 > d_0 + d_1."""
    Hm, _ = obj.client_quadratics()
    d0, d1, M = obj.d0, obj.d1, obj.M
    A = np.zeros((d0 + d1, obj.N))
    for m in range(M):  # M is small here; A is assembled once per instance
        A[:, :d0] += Hm[m][:, :d0] / M
        A[:, d0 + m * d1: d0 + (m + 1) * d1] += Hm[m][:, d0:] / M
    ev = eigh(A.T @ A, obj.hessian, eigvals_only=True)
    return float(max(ev[0], 0.0))


def _run(obj: PFLObjective, eta, tau: int, K: int, record) -> Any:
    return run_lsgd_pfl(obj, eta, tau, K, 1, np.random.default_rng(0), beta_scale="literal",
                        record=record, extra_metrics=_metrics(obj))


def _eta20(L: float, tau: int) -> float:
    """The largest constant step of Eq. (20) with C_1 = C_2 = 0: the positive root of
    lambda L^2 tau (tau-1) eta^2 + lambda L eta - 1 = 0."""
    a, b = LAM_DIS * L**2 * tau * (tau - 1), LAM_DIS * L
    root = 1 / b if a == 0 else (-b + np.sqrt(b * b + 4 * a)) / (2 * a)
    return root * (1 - 1e-12)  # rounding must not put the root outside (20)


def simulate_theorem3(p: Mapping[str, Any], R: int, seed) -> dict:
    """(1/K) sum_{k<K} ||(1/M) sum_m grad f_m(w^k, beta_m^k)||^2 against Theorem 3 at every K,
    with the largest step of (20) (times ``eta_frac``)."""
    obj = instance(p)
    tau, K = int(p["tau"]), int(p["K"])
    L = joint_smoothness(obj)
    eta = _eta20(L, tau) * p.get("eta_frac", 1.0)
    run = _run(obj, eta, tau, K, None)
    G = run.metrics["stationarity"][0]
    s2dif = float(max(run.metrics["dissimilarity"][0].max(), 0.0))
    ks = np.arange(1, K + 1)
    avg = np.cumsum(G[:-1]) / ks
    delta0 = float(run.metrics["excess"][0, 0])
    b = bound(THEOREM3, "printed", Delta0=delta0, eta=eta, K=ks, L=L, lam_dis=LAM_DIS,
              C1=0.0, C2=0.0, M=obj.M, B=1, s1sq=0.0, s2sq=0.0, s2dif=s2dif, tau=tau)
    sel = np.unique(np.round(np.geomspace(1, K, 40)).astype(int)) - 1
    return {"ks": ks[sel].astype(float), "mean": avg[sel], "bound": b[sel],
            "eta": np.asarray(eta), "L": np.asarray(L), "sigma_dif2": np.asarray(s2dif),
            "mu_global": np.asarray(global_pl_constant(obj))}


def _theorem4_parameters(L: float, mu: float, M: int) -> tuple[float, float]:
    """beta just above Theorem 4's lower limit (and above Eq. (52)'s), and nu."""
    nu = 2 * L**2 * LAM_DIS / mu**2
    beta0 = 1.01 * max(2 * LAM_DIS * L / mu - 2, nu, 1.0)
    while beta0**2 * np.exp(-1 / beta0) <= nu:
        beta0 *= 1.1
    return beta0, nu


def simulate_theorem4(p: Mapping[str, Any], R: int, seed) -> dict:
    """The gap (1/M) sum_m f_m(w^K, beta_m^K) - f^* at the multiples K of tau against Theorem
    4, with eta_k = 1/(mu (k + beta tau + 1)), mu the PL constant of the trajectory (fixed
    point: start from the ratio at x^0, lower mu to 0.9 x the smallest ratio seen until the
    run's smallest ratio is at least the mu it ran with)."""
    obj = instance(p)
    tau, K = int(p["tau"]), int(p["K"])
    L = joint_smoothness(obj)
    record = np.arange(0, K + 1, tau)
    f0 = float(obj.excess(np.zeros((1, obj.d0)), np.zeros((1, obj.M, obj.d1)))[0])
    g0 = float(_mean_grad(obj, np.zeros((1, obj.d0)), np.zeros((1, obj.M, obj.d1)))[1][0])
    mu = 0.5 * g0 / f0
    for _ in range(40):
        beta0, _nu = _theorem4_parameters(L, mu, obj.M)
        etas = 1 / (mu * (np.arange(K) + beta0 * tau + 1))
        run = _run(obj, etas, tau, K, record)
        gap, G = run.metrics["excess"][0], run.metrics["stationarity"][0]
        ok = gap > 1e-14 * f0
        mu_run = float(np.min(0.5 * G[ok] / gap[ok]))
        if mu_run >= mu:
            break
        mu = 0.9 * mu_run
    else:
        raise RuntimeError("no PL constant of the trajectory found in 40 rounds")
    s2dif = float(max(run.metrics["dissimilarity"][0].max(), 0.0))
    ks = record[1:].astype(float)
    b = bound(THEOREM4, p.get("form", "printed"), Delta0=f0, K=ks, L=L, mu=mu,
              lam_dis=LAM_DIS, C1=0.0, C2=0.0, M=obj.M, B=1, s1sq=0.0, s2sq=0.0, s2dif=s2dif,
              tau=tau, beta0=beta0)
    return {"ks": ks, "mean": gap[1:], "bound": b, "mu": np.asarray(mu),
            "mu_trajectory": np.asarray(mu_run), "beta": np.asarray(beta0),
            "L": np.asarray(L), "sigma_dif2": np.asarray(s2dif),
            "mu_global": np.asarray(global_pl_constant(obj))}


_BASE = {"objective": "mx2", "M": 3, "d": 2, "lam": 1.0, "mup": 0.5, "Lp": 1.0}
_T3 = tuple({**_BASE, "tau": t, "K": 400, "instance": i} for t in (1, 2, 5) for i in (0, 1))
_T4 = tuple({**_BASE, "tau": t, "K": 2000, "instance": i} for t in (1, 2, 5) for i in (0, 1))

CHECKS = [
    Check(P + "P11_theorem3", "Theorem 3 bounds LSGD-PFL's averaged stationarity measure at "
          "every K", CheckKind.BOUND_HOLDS, Verdict.HOLDS, simulate_theorem3, grid=_T3,
          quick_grid=(_T3[2],), engine="exact", result_id=THEOREM3.id, form="printed",
          description="Quadratic MX2 (M = 3, d = 2, equal d_m), exact gradients (C_1 = C_2 = "
          "sigma_1 = sigma_2 = 0), the literal beta-step, the largest step of (20) with "
          "lambda = 1, sigma_dif^2 from the trajectory; deterministic runs.",
          xlabel="K", ylabel="(1/K) sum_k ||(1/M) sum_m grad f_m(w^k, beta_m^k)||^2"),
    Check(P + "P11_theorem4", "Theorem 4 bounds LSGD-PFL's gap under the PL condition at "
          "every multiple of tau", CheckKind.BOUND_HOLDS, Verdict.HOLDS, simulate_theorem4,
          grid=_T4, quick_grid=({**_T4[4], "K": 500},), engine="exact",
          result_id=THEOREM4.id, form="printed",
          description="As P11_theorem3, with eta_k = 1/(mu (k + beta tau + 1)), beta just "
          "above Theorem 4's limit, mu the PL constant of the trajectory.",
          xlabel="K", ylabel="(1/M) sum_m f_m(w^K, beta_m^K) - f^*"),
]
