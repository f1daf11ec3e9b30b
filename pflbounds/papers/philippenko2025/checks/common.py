"""Shared pieces of the philippenko2025 checks: instances, catalog bounds, exact recursions."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from pflbounds.algorithms.similarity_weights import Criterion
from pflbounds.papers.philippenko2025 import inputs
from pflbounds.papers.philippenko2025.testbeds import tb_q
from pflbounds.problems.quadratic import QuadraticFamily
from pflbounds.symbolic.catalog import get
from pflbounds.symbolic.evaluate import evaluate, numeric

P = "philippenko2025."


def rng_of(seed: np.random.SeedSequence) -> np.random.Generator:
    return np.random.default_rng(seed)


def instance_rng(params: Mapping[str, Any]) -> np.random.Generator:
    """The instance belongs to the grid point (its ``instance`` seed), not to the replicas."""
    return np.random.default_rng([2025, int(params.get("instance", 0))])


def bound(rid: str, form: str | None = None, **values: Any) -> Any:
    """A catalog result's form, evaluated inside its conditions (vectorised)."""
    v = evaluate(get(P + rid), form, strict=False, **values).value
    return v if isinstance(v, dict) else np.asarray(v, dtype=float)


def raw(rid: str, form: str, part: str = "", **values: Any) -> np.ndarray:
    """A catalog form evaluated outside its conditions (to show what the printed form says)."""
    f = get(P + rid).form(form)
    return np.asarray(numeric(f.exprs[part], values), dtype=float)


def criterion(p: Mapping[str, Any]) -> Criterion:
    """The grid point's criterion: ``criterion`` = binary (with ``lam``) or continuous."""
    return Criterion.binary(p["lam"]) if p.get("criterion", "binary") == "binary" \
        else Criterion.continuous()


def kappa(p: Mapping[str, Any], N: int) -> float:
    """Remark 3's bound on the step ratio for equal variances: lambda or 1/N."""
    return float(p["lam"]) if p.get("criterion", "binary") == "binary" else 1.0 / N


def two_clusters(N: int, d: int, gap: float, a: float = 1.0, sigma2: Any = 1.0,
                 K: int = 2) -> tuple[QuadraticFamily, np.ndarray]:
    """TB-Q: client i in cluster i mod K, centres 0, gap e_1, 2 gap e_1, ..."""
    labels = np.arange(N) % K
    centres = np.zeros((K, d))
    centres[:, 0] = gap * np.arange(K)
    return tb_q(labels, centres, a, sigma2), labels


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


def mc(samples: np.ndarray) -> dict[str, np.ndarray]:
    from pflbounds.checking.evidence import mc_block

    return mc_block(samples)
