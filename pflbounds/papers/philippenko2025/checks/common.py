"""Check code several philippenko2025 topics share: seeds, the criterion of a grid point,
Definition 2 on arrays, the printed forms outside their conditions, the exact recursion of
uniform weights over identical clients and the two-cluster regimes of Theorem 2's checks."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from pflbounds.algorithms.adaptive_afo import AdaptiveTrace, run_afo_adaptive
from pflbounds.algorithms.similarity_weights import Criterion, true_gradient_rule
from pflbounds.papers.philippenko2025 import inputs
from pflbounds.papers.philippenko2025.instances import tb_qv, two_clusters
from pflbounds.papers.philippenko2025.theory.rates import THEOREM2_DECREASING_STEP
from pflbounds.problems.quadratic import QuadraticFamily
from pflbounds.symbolic.catalog import get
from pflbounds.symbolic.evaluate import numeric
from pflbounds.symbolic.result import Result

FIX = {"n": 10, "d": 3, "gap": 10.0, "a": 1.0, "sigma2": 1.0, "e0": 1.0}
"""The fixed-weight regime (:func:`fixed_regime`): clusters of 10 at distance 10, start at
excess 1, far below every exclusion threshold."""
TBQ = {"N": 20, "d": 5, "gap": 3.0, "a": 1.0, "sigma2": 1.0, "x0": 6.0, "eta": 0.1}
"""TB-Q, two clusters of 10 at distance 3, run from x0 e_2 (:func:`tbqv`,
:func:`run_true_weights`)."""
DEC = {"n": 10, "a": 1.0, "sigma2": 1.0, "e0": 1.0, "criterion": "binary", "lam": 0.5}
"""n identical clients with uniform weights and the decreasing step (:func:`decreasing`)."""


def rng_of(seed: np.random.SeedSequence) -> np.random.Generator:
    return np.random.default_rng(seed)


def instance_rng(params: Mapping[str, Any]) -> np.random.Generator:
    """The instance belongs to the grid point (its ``instance`` seed), not to the replicas."""
    return np.random.default_rng([2025, int(params.get("instance", 0))])


def tbqv(p: Mapping[str, Any]) -> tuple[QuadraticFamily, np.ndarray, np.ndarray]:
    """TB-Q (TB-Qv with jitter ``v``) of the grid point: two clusters at distance ``gap``,
    a = mu = beta; the family, its tight b and the labels."""
    rng = instance_rng(p)
    return tb_qv(p["N"], p["d"], p["gap"], p["a"], p["sigma2"], p.get("v", 0.0), rng)


def run_true_weights(fam: QuadraticFamily, crit: Criterion, s2: Any, p: Mapping[str, Any],
                     seed: np.random.SeedSequence, track_sets: bool = True) -> AdaptiveTrace:
    """All-for-one with Definition-1 weights from the true gradients, the grid point's step
    ``eta``, ``K`` iterations and ``runs`` draws, from x0 e_2."""
    x0 = np.zeros(fam.d)
    x0[1] = p["x0"]
    return run_afo_adaptive(fam, true_gradient_rule(fam, crit, s2), p["eta"], p["K"], x0,
                            p["runs"], rng_of(seed), track_sets=track_sets)


def raw(result: Result, form: str, part: str = "", **values: Any) -> np.ndarray:
    """The catalog's form of ``result`` evaluated outside its conditions (to show what a
    printed form says where its hypotheses fail)."""
    f = get(result.id).form(form)
    return np.asarray(numeric(f.exprs[part], values), dtype=float)


def criterion(p: Mapping[str, Any]) -> Criterion:
    """The grid point's criterion: ``criterion`` = binary (with ``lam``) or continuous."""
    return Criterion.binary(p["lam"]) if p.get("criterion", "binary") == "binary" \
        else Criterion.continuous()


def kappa(p: Mapping[str, Any], N: int) -> float:
    """Remark 3's bound on the step ratio for equal variances: lambda or 1/N."""
    return float(p["lam"]) if p.get("criterion", "binary") == "binary" else 1.0 / N


def suf_variance(b: np.ndarray, c: np.ndarray | None, s2: np.ndarray, mu: float,
                 eps: Any, crit: Criterion, per_client: bool = False,
                 squared: bool = True) -> np.ndarray:
    """sigma_{i,suf}^2(eps) of Definition 2 (b^2 reading unless ``squared=False``): shape
    eps.shape + (N,), or eps.shape with ``per_client`` (eps (..., N): client i at eps[..., i])."""
    x = inputs.sufficient_ratio(b, c, mu, eps, squared, per_client)
    return inputs.sufficient_variance(x, s2, crit)


def suf_cluster(b: np.ndarray, c: np.ndarray | None, mu: float, eps: Any, crit: Criterion,
                squared: bool = True, per_client: bool = False) -> np.ndarray:
    """Membership in N_i^*(eps), boolean eps.shape + (N, N) (or eps.shape + (N,) with
    ``per_client``)."""
    return inputs.sufficient_cluster(
        inputs.sufficient_ratio(b, c, mu, eps, squared, per_client), crit)


def uniform_weight_excess(a: float, sigma2_n: float, e0: float, steps: np.ndarray
                          ) -> np.ndarray:
    """Exact E[R_i(theta^t)] - R_i^* for t = 0..len(steps) on an isotropic quadratic
    R_i = a/2 ||theta - theta_i^*||^2 under theta^t = theta^{t-1} - eta_t (grad R_i + z_t) with
    E z = 0, E||z||^2 = sigma2_n (uniform weights over identical clients: sigma^2/n):
    E||e_t||^2 = (1 - eta_t a)^2 E||e_{t-1}||^2 + eta_t^2 sigma2_n (digest P5, P9)."""
    out = [float(e0)]
    m2 = 2.0 * e0 / a
    a, s = float(a), float(sigma2_n)
    for eta in np.asarray(steps, dtype=float).tolist():  # plain floats: a scalar recursion
        m2 = (1 - eta * a) ** 2 * m2 + eta * eta * s
        out.append(0.5 * a * m2)
    return np.array(out)


def two_cluster_start(p: Mapping[str, Any], offset: float
                      ) -> tuple[QuadraticFamily, np.ndarray, np.ndarray]:
    """TB-Q, 2 clusters of n at distance gap, common start at ``offset`` e_d (orthogonal to
    the clusters' axis, so at distance ``offset`` from the optimum of cluster 0)."""
    fam, labels = two_clusters(2 * p["n"], p["d"], p["gap"], p["a"], p["sigma2"])
    x0 = np.zeros(p["d"])
    x0[-1] = offset
    return fam, labels, x0


def fixed_regime(p: Mapping[str, Any]) -> tuple[QuadraticFamily, np.ndarray, np.ndarray]:
    """Start at distance sqrt(2 e0/a) from the optimum of cluster 0, i.e. at excess e0 for
    its clients (the checks measure client 0)."""
    return two_cluster_start(p, np.sqrt(2 * p["e0"] / p["a"]))


def decreasing(p: Mapping[str, Any], gamma0: float, K: int) -> np.ndarray:
    """Exact E[eps_t], t = 0..K, of n identical clients with uniform weights under the
    decreasing step C/(mu (t + gamma0)) of the catalog (Theorem 2, shifted schedule)."""
    t = np.arange(1, K + 1)
    steps = raw(THEOREM2_DECREASING_STEP, "corrected", C=p["C"], mu=p["a"], t=t,
                gamma0=gamma0)
    return uniform_weight_excess(p["a"], p["sigma2"] / p["n"], p["e0"], steps)


def shift(p: Mapping[str, Any]) -> float:
    """Smallest integer shift gamma0 with C/(mu (1 + gamma0)) <= kappa/beta (beta = mu = a)."""
    return float(max(0, np.ceil(p["C"] / kappa(p, 2 * p["n"]) - 1)))
