"""Check code several even2022 topics share: instance families and seeds, K_eps searches,
Corollary 1's weights. (A catalog form is evaluated with :func:`pflbounds.checking.bound`.)"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

from pflbounds.checking.evidence import mc_block
from pflbounds.problems.clusters import cluster_centres, threshold_weights
from pflbounds.problems.quadratic import QuadraticFamily


def rng_of(seed: np.random.SeedSequence) -> np.random.Generator:
    return np.random.default_rng(seed)


def instance_rng(params: Mapping[str, Any]) -> np.random.Generator:
    """The instance is part of the grid point (its ``instance`` seed), not of the replica
    stream: every replica block of a grid point sees the same instance."""
    return np.random.default_rng([20221, int(params.get("instance", 0))])


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


K_MAX = 200_000
"""The largest K a K_eps search scans."""
P14_BASE = {"sizes": [2, 4, 8], "d": 3, "sep": 4.0, "x0": 0.0}
"""Three groups of sizes 2, 4, 8 with centres 4 apart: the instances of P14 (Corollary 1
against AFO)."""


def first_hits(curve: Callable[[np.ndarray], np.ndarray], eps: float,
               K_max: int = K_MAX, chunk: int = 512) -> np.ndarray:
    """Smallest K in 0..K_max with curve(K) <= eps, for every column of ``curve(ks)``
    (shape (len(ks),) or (len(ks), A)); inf where no K qualifies. Scans in chunks of
    doubling length, so a K_eps of a few thousand costs a few thousand evaluations."""
    found: np.ndarray | None = None
    start = 0
    while start <= K_max:
        ks = np.arange(start, min(start + chunk, K_max + 1))
        vals = np.asarray(curve(ks), dtype=float).reshape(ks.size, -1)
        if found is None:
            found = np.full(vals.shape[1], np.inf)
        hit = vals <= eps
        new = np.isinf(found) & hit.any(axis=0)
        found[new] = ks[hit.argmax(axis=0)[new]]
        if np.isfinite(found).all():
            break
        start += chunk
        chunk *= 2
    assert found is not None
    return found


def grouped_family(p: Mapping[str, Any]) -> tuple[QuadraticFamily, np.ndarray, np.ndarray]:
    """Groups of the given sizes around centres at pairwise distance ``sep`` (equidistant from
    the origin), members displaced by ``spread`` * N(0, I); H = diag(geomspace(1, kappa, d)),
    so mu = 1 and L = kappa; isotropic noise s_c = sigma2/d; x0 = x0 * 1/sqrt(d)."""
    rng = instance_rng(p)
    sizes = tuple(int(s) for s in p["sizes"])
    d = int(p["d"])
    labels = np.repeat(np.arange(len(sizes)), sizes)
    centres = cluster_centres(len(sizes), d, p["sep"], rng)
    m = centres[labels] + p.get("spread", 0.0) * rng.standard_normal((labels.size, d))
    h = np.geomspace(1.0, p["kappa"], d)
    fam = QuadraticFamily(h=h, m=m, s=np.full(d, p["sigma2"] / d))
    x0 = np.full(d, p.get("x0", 0.0) / np.sqrt(d))
    return fam, labels, x0


def cor1_weights(b2_over_mu: np.ndarray, eps: float) -> np.ndarray:
    """Corollary 1 weights lambda_ij = 1{b_ij^2/mu < eps} / #{l : b_il^2/mu <= eps}.

    The strict numerator and the non-strict count differ only on ties b_ij^2 = mu eps, where
    the rows would not sum to 1 (digest §8 #2): ties are refused."""
    if np.any(np.isclose(b2_over_mu, eps, rtol=1e-12, atol=0.0)):
        raise ValueError("a squared bias sits on the Corollary 1 threshold mu*eps")
    return threshold_weights(b2_over_mu, eps, strict=True)
