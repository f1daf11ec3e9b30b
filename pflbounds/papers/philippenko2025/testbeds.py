"""The philippenko2025 settings of digest §6.0 built on the shared problem families.

* TB-Q (isotropic clustered quadratics with additive noise) is
  :class:`pflbounds.problems.quadratic.QuadraticFamily` with h = a 1 (:func:`tb_q`).
* TB-A / TB-P are :class:`pflbounds.problems.client_quadratics.ClientQuadratics` with scale
  1/2 (TB-A) or 1 (the normalisation of Property 1, TB-P).
* TB-NC is :class:`pflbounds.problems.cosine_clusters.CosineClusters`.
* TB-LSR, the least-squares stream of Appendix A, is
  :class:`pflbounds.problems.least_squares_stream.LeastSquaresStream`.
"""

from __future__ import annotations

import numpy as np

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


def appendix_a_stream(d: int, rng: np.random.Generator, N: int = 20, batch: int = 2
                      ) -> tuple[LeastSquaresStream, np.ndarray]:
    """TB-LSR, the synthetic least squares of Appendix A (digest §5.2 recipe): two cluster
    optima theta^{*,0}, theta^{*,1} ~ U(-5, 5)^d (the authors' code; the paper does not say),
    client i in cluster i mod 2, batch b = 2. Returns the stream and the labels."""
    centres = rng.uniform(-5, 5, (2, d))
    labels = np.arange(N) % 2
    return LeastSquaresStream(centres[labels], batch=batch), labels
