"""Check of the lower bounds (Theorem 6 and Nesterov's Eq. (54), App. B.8): P3, ACD-PFL on
the block-separable Nesterov instance stays above Eq. (54), by the exact propagator. Theorem
6 itself has orders of magnitude only (no constants); its proof sketch rests on Eq. (54)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from pflbounds.checking import Check, CheckKind, Verdict, bound
from pflbounds.exact import propagate
from pflbounds.exact.propagator_block_pfl import acd_pfl_draws
from pflbounds.exact.propagator_metrics import QuadraticMetrics
from pflbounds.papers.hanzely2023.checks.common import P, acd_parameters
from pflbounds.papers.hanzely2023.instances import build, nesterov_losses
from pflbounds.papers.hanzely2023.theory.lower import EQ54


def simulate_p3(p: Mapping[str, Any], R: int, seed) -> dict:
    """Exact E||x^k - x*||^2 of ACD-PFL on the block-separable Nesterov instance against Eq.
    (54) with k = the number of gradient evaluations (one per iteration)."""
    d, kappa = int(p["d"]), float(p["kappa"])
    obj = build("ws2", nesterov_losses(d, kappa), d_w=d)
    c = obj.constants
    par = acd_parameters(c)
    H, xs = obj.hessian, obj.optimum["x"]
    draws = acd_pfl_draws(H, xs, obj.d0, Lw=c["Lw"], Lb=c["Lb"], **par)
    ks = np.arange(1, int(p["K"]) + 1)
    dist = QuadraticMetrics(Q=2 * np.eye(obj.N)[None, None], x_star=xs[None, None],
                            index=np.arange(obj.N)[None])
    e = propagate(draws, np.zeros(2 * obj.N), np.r_[0, ks], metrics=dist).metrics[1:, 0]
    b = bound(EQ54, "printed", kap=kappa, K=ks, ystar2=float(xs @ xs))
    return {"ks": ks.astype(float), "mean": e, "bound": b}


CHECKS = [
    Check(P + "P3", "ACD-PFL respects Nesterov's lower bound, Eq. (54)",
          CheckKind.LOWER_BOUND, Verdict.HOLDS, simulate_p3,
          grid=({"d": 60, "kappa": 100.0, "K": 25}, {"d": 60, "kappa": 1000.0, "K": 25}),
          quick_grid=({"d": 40, "kappa": 100.0, "K": 15},), engine="exact",
          result_id=EQ54.id, form="printed",
          description="f(w, beta) = h(w) + h(beta), h Nesterov's tridiagonal quadratic "
          "(block-separable, M = 1): after k iterations (k gradient evaluations) E||x^k - "
          "x^*||^2 >= ((sqrt(kappa) - 1)/(sqrt(kappa) + 1))^{2k} ||x^*||^2.",
          xlabel="k (gradient evaluations)", ylabel="E||x^k - x^*||^2"),
]
