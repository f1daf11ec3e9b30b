"""Shared pieces of the even2022 checks: instances, bounds from the catalog, K_eps search."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from pflbounds.checking.evidence import mc_block
from pflbounds.problems.quadratic import QuadraticFamily
from pflbounds.symbolic.catalog import get
from pflbounds.symbolic.evaluate import evaluate


def rng_of(seed: np.random.SeedSequence) -> np.random.Generator:
    return np.random.default_rng(seed)


def instance_rng(params: Mapping[str, Any]) -> np.random.Generator:
    """The instance is part of the grid point (its ``instance`` seed), not of the replica
    stream: every replica block of a grid point sees the same instance."""
    return np.random.default_rng([20221, int(params.get("instance", 0))])


def bound(result_id: str, form: str, **values: Any) -> np.ndarray:
    """Evaluate a catalog result's form (vectorised), as a float array."""
    ev = evaluate(get(result_id), form, strict=False, **values)
    return np.asarray(ev.value, dtype=float)


def random_stochastic(N: int, rng: np.random.Generator, concentration: float = 0.5) -> np.ndarray:
    """A random row-stochastic Lambda (Dirichlet rows)."""
    return rng.dirichlet(np.full(N, concentration), size=N)


def sinkhorn_lambda(N: int, rng: np.random.Generator) -> np.ndarray:
    from pflbounds.problems.clusters import sinkhorn

    return sinkhorn(rng.random((N, N)) ** 3 + 1e-3)


def first_below(values: np.ndarray, ks: np.ndarray, eps: float) -> float:
    """Smallest recorded k with values[k] <= eps (inf if none): an empirical K_eps."""
    hit = np.flatnonzero(np.asarray(values) <= eps)
    return float(ks[hit[0]]) if hit.size else float("inf")


def mc(samples: np.ndarray) -> dict[str, np.ndarray]:
    return mc_block(samples)


def two_coordinate_family(N: int, kappa: float, sigma2: float, spread: float,
                          rng: np.random.Generator) -> QuadraticFamily:
    """d = 2, H = diag(1, kappa): mu = 1, L = kappa exactly; optima random."""
    return QuadraticFamily(h=np.array([1.0, kappa]), m=spread * rng.standard_normal((N, 2)),
                           s=np.array([sigma2 / 2, sigma2 / 2]))
