"""The philippenko2025 testbeds of digest §6.0, built on the shared problem families.

* TB-Q (isotropic clustered quadratics with additive noise) is
  :class:`pflbounds.problems.quadratic.QuadraticFamily` with h = a 1 (:func:`tb_q`; clusters
  along one axis: :func:`two_clusters`; with jittered optima, TB-Qv: :func:`tb_qv`).
* TB-A / TB-P are :class:`pflbounds.problems.client_quadratics.ClientQuadratics` with scale
  1/2 (TB-A) or 1 (the normalisation of Property 1, TB-P): :func:`tb_a`.
* TB-NC is :class:`pflbounds.problems.cosine_clusters.CosineClusters` (:func:`tb_nc`).
* TB-LSR, the least-squares stream of Appendix A, is
  :class:`pflbounds.problems.least_squares_stream.LeastSquaresStream`
  (:func:`appendix_a_stream`).

Every family draws its random parts from the generator it is given, in a fixed order, so a
check's instance depends on its grid point's seed only.
"""

from __future__ import annotations

import numpy as np

from pflbounds.problems.client_quadratics import ClientQuadratics, random_spd
from pflbounds.problems.cosine_clusters import CosineClusters
from pflbounds.problems.least_squares_stream import LeastSquaresStream
from pflbounds.problems.quadratic import QuadraticFamily


def tb_q(labels: np.ndarray, centres: np.ndarray, a: float, sigma2: float | np.ndarray
         ) -> QuadraticFamily:
    """TB-Q (digest §6.0): R_k(theta) = a/2 ||theta - theta^{*,c(k)}||^2, g_k = grad R_k + sigma_k
    zeta with zeta ~ N(0, I_d/d): beta = mu = a, c_ik = 0, b_ik = a ||theta_i^* - theta_k^*||
    (tight). ``sigma2``: one value or one per client."""
    labels = np.asarray(labels)
    centres = np.asarray(centres, dtype=np.float64)
    d = centres.shape[1]
    s2 = np.broadcast_to(np.asarray(sigma2, dtype=np.float64), labels.shape)
    s = np.repeat(s2[:, None] / d, d, axis=1)
    return QuadraticFamily(h=np.full(d, float(a)), m=centres[labels], s=s)


def two_clusters(N: int, d: int, gap: float, a: float = 1.0, sigma2: float | np.ndarray = 1.0,
                 K: int = 2) -> tuple[QuadraticFamily, np.ndarray]:
    """TB-Q with K clusters on the first axis: client i in cluster i mod K, centres 0, gap e_1,
    2 gap e_1, ...; returns the family and the labels."""
    labels = np.arange(N) % K
    centres = np.zeros((K, d))
    centres[:, 0] = gap * np.arange(K)
    return tb_q(labels, centres, a, sigma2), labels


def tb_qv(N: int, d: int, gap: float, a: float, sigma2: float, v: float,
          rng: np.random.Generator) -> tuple[QuadraticFamily, np.ndarray, np.ndarray]:
    """TB-Qv: TB-Q with two clusters at distance ``gap`` and every optimum moved by v N(0, I_d)
    (TB-Q itself when v = 0, which draws nothing). Returns the family, its tight b
    (a ||theta_i^* - theta_k^*||, c = 0) and the labels."""
    labels = np.arange(N) % 2
    centres = np.zeros((2, d))
    centres[1, 0] = gap
    fam = tb_q(labels, centres, a, sigma2)
    if v > 0:
        fam = fam.with_optima(fam.m + v * rng.standard_normal((N, d)))
    return fam, fam.bias_matrix(), labels


def tb_a(N: int, d: int, lo: float, hi: float, spread: float, scale: float,
         rng: np.random.Generator) -> ClientQuadratics:
    """TB-A (``scale`` 1/2) or TB-P (``scale`` 1, Property 1's normalisation): per-client
    quadratics with Hessians of eigenvalues in [lo, hi], optima ``spread`` N(0, I_d) and
    noise variances uniform in [0.2, 2] (drawn in that order)."""
    A = random_spd(N, d, lo, hi, rng)
    m = spread * rng.standard_normal((N, d))
    return ClientQuadratics(A, m, rng.uniform(0.2, 2.0, N), scale=scale)


def tb_nc(n: int, d: int, gap: float, rho: float, sigma2: float) -> CosineClusters:
    """TB-NC (non-convex, no PL): two clusters of n clients at distance ``gap`` along every
    coordinate."""
    u = np.zeros((2 * n, d))
    u[1::2] = gap
    return CosineClusters(u, rho, sigma2)


def appendix_a_stream(d: int, rng: np.random.Generator, N: int = 20, batch: int = 2
                      ) -> tuple[LeastSquaresStream, np.ndarray]:
    """TB-LSR, the synthetic least squares of Appendix A (digest §5.2 recipe): two cluster
    optima theta^{*,0}, theta^{*,1} ~ U(-5, 5)^d (the authors' code; the paper does not say),
    client i in cluster i mod 2, batch b = 2. Returns the stream and the labels."""
    centres = rng.uniform(-5, 5, (2, d))
    labels = np.arange(N) % 2
    return LeastSquaresStream(centres[labels], batch=batch), labels
