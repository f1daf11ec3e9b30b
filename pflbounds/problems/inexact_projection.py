"""Projections onto K(r) as a projected-gradient method uses them: a projector with a choice
of method and warm starts, the controlled-delta projection, the a-posteriori inexactness
delta_k, the gradient mapping G_eta and its squared norm with the exact projection as a
certified interval.

Definitions (Erickson & Johansson 2025, §4 and digest §4.3, with the typo of the printed
definition fixed): u is a delta-inexact projection of z when u is in K and
(1/(2 eta)) ||u - z||^2 <= delta + (1/(2 eta)) ||Pi_K(z) - z||^2; then ||u - Pi_K(z)||^2 <=
2 eta delta (Lemma A.2 (5)). The gradient mapping is G_eta(theta) = (theta - Pi_K(theta - eta
grad f(theta)))/eta.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from pflbounds.problems.dykstra import DykstraResult, check_backend, dykstra_project
from pflbounds.problems.pairwise_constraints import PairwiseConstraintSet
from pflbounds.problems.pairwise_dual import dual_project

__all__ = [
    "PROJECTION_METHODS",
    "Projector",
    "certified_gradient_mapping_sq",
    "controlled_delta",
    "gradient_mapping",
    "inexactness",
]

PROJECTION_METHODS = ("exact", "dual", "dykstra")
"""``exact``: cvxpy + Clarabel, one conic solve per replica; ``dual``: FISTA on the dual
(:mod:`pflbounds.problems.pairwise_dual`), certified gap; ``dykstra``: Dykstra over the
round-robin matchings (:mod:`pflbounds.problems.dykstra`), certified gap."""


class Projector:
    """Projection onto a :class:`PairwiseConstraintSet`, (R, n, d) -> (R, n, d).

    ``method`` is one of :data:`PROJECTION_METHODS`; ``tol`` is the iterative methods'
    tolerance (the relative gap of ``dual``, the sweep change of ``dykstra``). The iterative
    methods warm-start from the previous call's increments when the shape matches, return
    feasible (shrunk) points and keep the certified gap of the last call in :attr:`gap`
    (``gap/eta`` bounds the inexactness delta of the returned point). ``calls`` counts
    projections. ``backend`` is the sweep loop of ``dykstra`` (:data:`pflbounds.problems.
    dykstra.BACKENDS`: ``numpy`` or the compiled ``jax``); ``check_every``: how often the
    ``dual`` method tests its gap (warm starts in a converging loop need only a few
    iterations, so a loop tests often).
    """

    def __init__(self, cset: PairwiseConstraintSet, method: str = "dual",
                 tol: float = 1e-13, backend: str = "numpy", check_every: int = 25) -> None:
        if method not in PROJECTION_METHODS:
            raise ValueError(f"projection method must be one of {PROJECTION_METHODS}, "
                             f"got {method!r}")
        if method == "dual" and cset.ball is not None:
            raise ValueError("the dual projection has no ball; use 'dykstra' or 'exact'")
        self.cset, self.method, self.tol = cset, method, float(tol)
        self.backend = check_backend(backend)
        if check_every < 1:
            raise ValueError(f"check_every must be >= 1, got {check_every}")
        self.check_every = int(check_every)
        self._warm: DykstraResult | None = None
        self.gap: np.ndarray | None = None
        self.calls = 0

    def __call__(self, Z: np.ndarray) -> np.ndarray:
        self.calls += 1
        if self.method == "exact":
            P = self.cset.project_exact(Z)
            self.gap = None
            return P.theta
        if self.method == "dual":
            res = dual_project(Z, self.cset.r, gap_tol=self.tol, warm=self._warm,
                               check_every=self.check_every)
        else:
            res = dykstra_project(Z, self.cset.r, self.cset.ball, tol=self.tol,
                                  warm=self._warm, backend=self.backend)
        self._warm, self.gap = res, res.gap
        return res.theta

    def project(self, X: np.ndarray) -> np.ndarray:
        """:class:`~pflbounds.algorithms.protocols.ProjectionOracle`."""
        return self(X)


def gradient_mapping(theta: np.ndarray, grad: np.ndarray, eta: float,
                     project: Callable[[np.ndarray], np.ndarray]) -> np.ndarray:
    """G_eta(theta) = (theta - Pi_K(theta - eta grad f(theta)))/eta (erickson2025, §4, the
    definition before Theorem 4.3, with '/alpha' read '/eta'); any leading replica axes."""
    return (theta - project(theta - eta * grad)) / eta


def inexactness(u: np.ndarray, z: np.ndarray, exact: np.ndarray, eta: float) -> np.ndarray:
    """delta(u; z) = (||u - z||^2 - ||Pi_K(z) - z||^2)/(2 eta) per replica (digest §4.3, the
    operational definition; u must be feasible), with ``exact`` = Pi_K(z)."""
    ax = (-2, -1)
    return (((u - z) ** 2).sum(axis=ax) - ((exact - z) ** 2).sum(axis=ax)) / (2.0 * eta)


def controlled_delta(z: np.ndarray, exact: np.ndarray, centre: np.ndarray, eta: float,
                     delta: float | np.ndarray) -> np.ndarray:
    """A feasible projection of z whose inexactness is exactly ``delta`` (digest §4.3 item 4):
    u = ubar + lambda (c - ubar), ubar = Pi_K(z), c in K (e.g. a consensus point), with
    lambda in [0, 1] the root of (1/(2 eta)) (lambda b + lambda^2 a) = delta, a = ||c - ubar||
    ^2, b = 2 <ubar - z, c - ubar> >= 0 (capped at 1, where the inexactness is then below
    delta). Shapes (R, n, d); ``delta`` a scalar or one value per replica (R,)."""
    ax = (-2, -1)
    w = centre - exact
    a = (w * w).sum(axis=ax)
    b = np.maximum(2.0 * ((exact - z) * w).sum(axis=ax), 0.0)
    with np.errstate(divide="ignore", invalid="ignore"):
        lam = np.where(a > 0, (-b + np.sqrt(b * b + 8.0 * eta * delta * a)) / (2.0 * np.where(
            a > 0, a, 1.0)), 0.0)
    lam = np.clip(lam, 0.0, 1.0)
    return exact + lam[..., None, None] * w


def certified_gradient_mapping_sq(theta: np.ndarray, grad: np.ndarray, eta: float,
                                  proj: Projector) -> tuple[np.ndarray, np.ndarray]:
    """||G_eta(theta)||^2 with the exact projection, per replica, as a certified interval
    (lower, upper): G_eta is computed with ``proj`` (``grad`` = grad f(theta)), whose last
    certified gap g bounds ||G - G_exact|| by sqrt(2 g)/eta (an exact ``proj``, with no gap,
    gives lower = upper)."""
    G = gradient_mapping(theta, grad, eta, proj)
    norm = np.sqrt((G * G).sum(axis=(-2, -1)))
    err = np.zeros_like(norm) if proj.gap is None else np.sqrt(2 * np.maximum(proj.gap, 0)) / eta
    return np.maximum(norm - err, 0.0) ** 2, (norm + err) ** 2
