"""Collaboration weights from gradient similarity, vectorised over replicas and clients.

Reference: philippenko2025 (adaptive All-for-one), Definitions 1 and 3, Remark 1 and Eq. (1);
digest §3.2-§3.6. For client i at its parameter theta_i (the previous iterate):

    r_ik = (1 - ||grad R_k(theta_i) - grad R_i(theta_i)||^2 / ||grad R_i(theta_i)||^2)_+,
    alpha_ik = phi(r_ik) / sigma_k^2 / sum_j psi(r_ij)/sigma_j^2,     psi(x) = x phi(x),
    (sigma_{i,eff})^2 = (sum_j psi(r_ij)/sigma_j^2)^-1   (the effective variance),

with a criterion phi: binary phi(x) = lam 1{x >= lam} or continuous phi(x) = x. The weights
need not sum to one: sum_k alpha_ik = (sigma_psi/sigma_phi)^2 lies in [1, 1/lam] (binary) or
[1, sigma_i^2 sum_k sigma_k^-2] (continuous).

Ratios come either from exact gradients (the setting of the theory: :func:`true_ratios`) or
from the estimators of Eq. (1) with m extra stochastic gradients per pair
(:func:`estimated_ratios`). :func:`true_gradient_rule`, :func:`estimated_rule` and
:func:`fixed_rule` turn them into weight rules for
:func:`pflbounds.algorithms.adaptive_afo.run_afo_adaptive`.

Arrays: r, D, alpha have shape (R, N, N) with [r, i, k] for client i and collaborator k;
per-client quantities (R, N). No Python loop over clients or replicas.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from pflbounds.algorithms.driver import Costs
from pflbounds.problems.quadratic import QuadraticFamily

__all__ = [
    "Criterion",
    "WeightRule",
    "Weights",
    "aggregated_variance",
    "collaboration_weights",
    "cross_gradients",
    "estimated_ratios",
    "estimated_rule",
    "fixed_rule",
    "gradient_gaps",
    "remark1_weights",
    "similarity_ratios",
    "true_gradient_rule",
    "true_ratios",
]

WeightRule = Callable[[Mapping[str, np.ndarray], int, np.random.Generator, Costs],
                      Mapping[str, np.ndarray]]
"""``rule(state, k, rng, costs) -> {"alpha": (R, N, N), ...}``: the weights for the step that
starts from ``state["X"]`` at iteration k (any further arrays, each with a leading replica
axis, are kept in the state; ``sigma_eff2`` (R, N) is recorded by the runner)."""


# ---------------------------------------------------------------------- criteria
@dataclass(frozen=True)
class Criterion:
    """A criterion phi of philippenko2025 Definition 3 (with psi(x) = x phi(x)).

    ``binary(lam)``: phi(x) = lam 1{x >= lam}; ``continuous()``: phi(x) = x. Both are
    non-decreasing with phi(0) = 0 and phi(x) <= x, as Definition 1 requires.
    """

    name: str
    lam: float | None = None

    def __post_init__(self) -> None:
        if self.name not in ("binary", "continuous"):
            raise ValueError(f"criterion must be 'binary' or 'continuous', got {self.name!r}")
        if self.name == "binary":
            if self.lam is None or not (0.0 < float(self.lam) <= 1.0):
                raise ValueError(f"the binary criterion needs lam in (0, 1], got {self.lam}")
        elif self.lam is not None:
            raise ValueError("the continuous criterion has no threshold lam")

    @classmethod
    def binary(cls, lam: float) -> Criterion:
        """phi_bin(x) = lam 1{x >= lam} (Definition 3, hard threshold)."""
        return cls("binary", float(lam))

    @classmethod
    def continuous(cls) -> Criterion:
        """phi_cont(x) = x (Definition 3, soft threshold, no hyperparameter)."""
        return cls("continuous")

    def phi(self, x: np.ndarray) -> np.ndarray:
        """phi(x), elementwise."""
        x = np.asarray(x, dtype=np.float64)
        if self.name == "binary":
            return np.where(x >= self.lam, self.lam, 0.0)
        return x.copy()

    def psi(self, x: np.ndarray) -> np.ndarray:
        """psi(x) = x phi(x) (Definition 1)."""
        x = np.asarray(x, dtype=np.float64)
        return x * self.phi(x)

    def selects(self, x: np.ndarray) -> np.ndarray:
        """phi(x) > 0: membership in the collaborator set (psi(x) > 0 is the same set)."""
        x = np.asarray(x, dtype=np.float64)
        return x >= self.lam if self.name == "binary" else x > 0

    def kappa(self, sigma2: np.ndarray) -> np.ndarray:
        """Uniform lower bound on (sigma_{i,phi}/sigma_{i,psi})^2 per client (Remark 3):
        lam (binary) or 1/(sigma_i^2 sum_k sigma_k^-2) (continuous). ``sigma2``: (N,)."""
        s = np.asarray(sigma2, dtype=np.float64)
        if self.name == "binary":
            return np.full(s.shape, self.lam)
        return 1.0 / (s * np.sum(1.0 / s))


# ---------------------------------------------------------------------- ratios and weights
def similarity_ratios(D: np.ndarray, G: np.ndarray) -> np.ndarray:
    """r_ik = (1 - D_ik/G_i)_+ (philippenko2025 Definition 1, digest §3.2).

    ``D`` (..., N, N): squared gaps ||grad R_k(theta_i) - grad R_i(theta_i)||^2; ``G`` (..., N):
    ||grad R_i(theta_i)||^2. Where G_i = 0 the ratio is undefined; the convention (digest §7.21)
    is r_ik = 1 if D_ik = 0 (k shares the stationary point, i itself) and 0 otherwise.
    """
    D = np.asarray(D, dtype=np.float64)
    G = np.asarray(G, dtype=np.float64)[..., None]
    pos = G > 0
    if pos.all():  # the usual case: one division, in place
        r = D / G
        np.subtract(1.0, r, out=r)
        return np.maximum(r, 0.0, out=r)
    with np.errstate(divide="ignore", invalid="ignore"):
        r = np.maximum(1.0 - D / np.where(pos, G, 1.0), 0.0)
    return np.where(pos, r, np.where(D == 0, 1.0, 0.0))


@dataclass(frozen=True)
class Weights:
    """Definition-1 weights and the variances they define (per replica and client)."""

    alpha: np.ndarray
    """alpha_ik, shape (R, N, N)."""
    sigma_eff2: np.ndarray
    """(sigma_{i,psi})^2 = (sum_k psi(r_ik)/sigma_k^2)^-1, the effective variance, (R, N)."""
    sigma_phi2: np.ndarray
    """(sigma_{i,phi})^2 = (sum_k phi(r_ik)/sigma_k^2)^-1, (R, N)."""


def collaboration_weights(r: np.ndarray, sigma2: np.ndarray, criterion: Criterion) -> Weights:
    """alpha_ik = phi(r_ik) (sigma_{i,psi}/sigma_k)^2 (philippenko2025 Definition 1).

    ``r`` (..., N, N) with r_ii = 1; ``sigma2`` (N,) the variances sigma_k^2 (or batch-size
    surrogates sigma^2/n_k, Remark 1). Returns the weights with the effective variance.
    """
    r = np.asarray(r, dtype=np.float64)
    s = np.asarray(sigma2, dtype=np.float64)
    if s.shape != (r.shape[-1],):
        raise ValueError(f"sigma2 must have shape ({r.shape[-1]},), got {s.shape}")
    if np.any(s <= 0):
        raise ValueError("every variance sigma_k^2 must be > 0")
    phi = criterion.phi(r) / s
    psi_sum = np.sum(r * phi, axis=-1)
    phi_sum = np.sum(phi, axis=-1)
    if np.any(psi_sum <= 0):
        raise ValueError("sum_k psi(r_ik)/sigma_k^2 must be > 0: give r_ii = 1")
    return Weights(alpha=phi / psi_sum[..., None], sigma_eff2=1.0 / psi_sum,
                   sigma_phi2=1.0 / phi_sum)


def aggregated_variance(alpha: np.ndarray, sigma2: np.ndarray) -> np.ndarray:
    """sum_k alpha_ik^2 sigma_k^2 per client: the variance of the aggregated stochastic
    direction (philippenko2025 Lemma 1's variance term; (I2) of digest §3.3)."""
    return np.einsum("...ik,k->...i", np.asarray(alpha) ** 2, np.asarray(sigma2, dtype=float))


def remark1_weights(r: np.ndarray, n: np.ndarray, criterion: Criterion) -> np.ndarray:
    """alpha_ik = n_k phi(r_ik) / sum_j n_j psi(r_ij) (philippenko2025 Remark 1): Definition 1
    with sigma_k = sigma/sqrt(n_k), which needs no sigma. ``n`` (N,) batch sizes."""
    n = np.asarray(n, dtype=np.float64)
    if np.any(n <= 0):
        raise ValueError("batch sizes n_k must be > 0")
    return collaboration_weights(r, 1.0 / n, criterion).alpha


# ---------------------------------------------------------------------- oracles of r
def cross_gradients(problem: Any, X: np.ndarray) -> np.ndarray:
    """grad R_k(theta_i) for every client i and collaborator k, shape (R, N, N, d).

    Uses ``problem.exact_grad`` on the stack X'[r, i, k] = theta_i (any problem whose exact
    gradient broadcasts over leading axes with the client axis second to last).
    """
    X = np.asarray(X, dtype=np.float64)
    R, N, d = X.shape
    return problem.exact_grad(np.broadcast_to(X[:, :, None, :], (R, N, N, d)))


def _gaps(CG: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """D_ik = ||CG_ik - CG_ii||^2 and G_i = ||CG_ii||^2 from a cross-gradient stack."""
    N = CG.shape[1]
    own = CG[:, np.arange(N), np.arange(N), :]  # (R, N, d)
    diff = CG - own[:, :, None, :]
    return np.einsum("rikd,rikd->rik", diff, diff), np.einsum("rid,rid->ri", own, own)


def gradient_gaps(problem: Any, X: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """D_ik = ||grad R_k(theta_i) - grad R_i(theta_i)||^2 (R, N, N) and G_i =
    ||grad R_i(theta_i)||^2 (R, N) at theta_i = X[:, i].

    A problem may offer ``gradient_gaps(X)`` itself (a closed form); on the shared-Hessian
    quadratic family the gap H(m_i - m_k) does not depend on theta, so D is its (constant)
    squared bias matrix; otherwise the gaps come from :func:`cross_gradients`.
    """
    if hasattr(problem, "gradient_gaps"):
        return problem.gradient_gaps(X)
    if isinstance(problem, QuadraticFamily):
        X = np.asarray(X, dtype=np.float64)
        g = problem.exact_grad(X)
        D = np.broadcast_to(problem.bias_matrix() ** 2, (X.shape[0], problem.N, problem.N))
        return D, np.einsum("rid,rid->ri", g, g)
    return _gaps(cross_gradients(problem, X))


def true_ratios(problem: Any, X: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Exact r_ik at theta_i = X[:, i] (the setting of philippenko2025's theory), with the
    squared gaps D (R, N, N) and squared norms G (R, N) it is built from."""
    D, G = gradient_gaps(problem, X)
    return similarity_ratios(D, G), D, G


def estimated_ratios(problem: Any, X: np.ndarray, m: int, rng: np.random.Generator,
                     variant: str = "paper") -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """r_hat_ik = (1 - Z_ik/Z_i)_+ from m fresh stochastic gradients per pair (philippenko2025
    Eq. (1), digest §3.6):

        Z_ik = ||(1/m) sum_j (g_i^j(theta_i) - g_k^j(theta_i))||^2,  Z_i = ||(1/m) sum_j g_i^j||^2,

    every g_k^j(theta_i) drawn independently (``problem.grad`` on a stack of R*N copies of the
    N clients, one block per j). ``variant="code"`` uses the authors' code instead: one
    unsquared norm ||mean(g_i - g_k)|| over the squared ||mean g_i||^2 (digest §5.8).
    Returns (r_hat, Z_ik, Z_i).
    """
    if int(m) < 1:
        raise ValueError(f"m (b_alpha) must be >= 1, got {m}")
    if variant not in ("paper", "code"):
        raise ValueError(f"variant must be 'paper' or 'code', got {variant!r}")
    X = np.asarray(X, dtype=np.float64)
    R, N, d = X.shape
    stack = np.broadcast_to(X[:, :, None, :], (R, N, N, d)).reshape(R * N, N, d)
    total = np.zeros((R * N, N, d))
    for _ in range(int(m)):
        total += problem.grad(stack, rng)
    CG = (total / m).reshape(R, N, N, d)
    Z_ik, Z_i = _gaps(CG)
    if variant == "code":
        return similarity_ratios(np.sqrt(Z_ik), Z_i), Z_ik, Z_i
    return similarity_ratios(Z_ik, Z_i), Z_ik, Z_i


# ---------------------------------------------------------------------- weight rules
def _variances(sigma2: Any, N: int) -> np.ndarray:
    s = np.broadcast_to(np.asarray(sigma2, dtype=np.float64), (N,)).copy()
    if np.any(s <= 0):
        raise ValueError("every variance sigma_k^2 must be > 0")
    return s


def true_gradient_rule(problem: Any, criterion: Criterion, sigma2: Any) -> WeightRule:
    """Definition-1 weights from the exact gradients at the current iterates (philippenko2025
    Algorithm A, digest §3.8). ``sigma2``: scalar or (N,) variances sigma_k^2. Costs nothing
    (an oracle of the analysis). The state gets ``alpha``, ``sigma_eff2``, ``sigma_phi2``,
    ``variance`` (sum_k alpha_ik^2 sigma_k^2) and ``ratios``."""
    s = _variances(sigma2, problem.N)

    def rule(state: Mapping[str, np.ndarray], k: int, rng: np.random.Generator,
             costs: Costs) -> dict[str, np.ndarray]:
        r, _, _ = true_ratios(problem, state["X"])
        w = collaboration_weights(r, s, criterion)
        return {"alpha": w.alpha, "sigma_eff2": w.sigma_eff2, "sigma_phi2": w.sigma_phi2,
                "variance": aggregated_variance(w.alpha, s), "ratios": r}

    return rule


def estimated_rule(problem: Any, criterion: Criterion, m: int, sigma2: Any = None,
                   batch_sizes: Any = None, variant: str = "paper") -> WeightRule:
    """Weights from the estimators of Eq. (1) with m = b_alpha extra stochastic gradients per
    pair (philippenko2025 Algorithm B, digest §3.8).

    Give either ``sigma2`` (Definition 1 with known variances) or ``batch_sizes`` n_k (Remark
    1, sigma_k = sigma/sqrt(n_k), no variance needed; default: equal sizes). Charges N^2 m
    samples and gradient evaluations per refresh. ``variant="code"`` follows the authors'
    code (digest §5.8): unsquared ratio and weights renormalised to sum to one (binary:
    proportional to n_k over r_hat > 0, i.e. lam -> 0; continuous: proportional to r_hat).
    The state gets ``alpha``, ``variance`` (sum_k alpha_ik^2 sigma_k^2) and ``ratios``, and
    for Definition 1 ``sigma_eff2`` and ``sigma_phi2``.
    """
    N = problem.N
    if sigma2 is not None and batch_sizes is not None:
        raise ValueError("give sigma2 or batch_sizes, not both")
    if sigma2 is not None:
        s = _variances(sigma2, N)
    else:
        n = np.ones(N) if batch_sizes is None else np.asarray(batch_sizes, dtype=np.float64)
        if n.shape != (N,) or np.any(n <= 0):
            raise ValueError(f"batch_sizes must be {N} positive numbers")
        s = 1.0 / n
    if variant not in ("paper", "code"):
        raise ValueError(f"variant must be 'paper' or 'code', got {variant!r}")

    def rule(state: Mapping[str, np.ndarray], k: int, rng: np.random.Generator,
             costs: Costs) -> dict[str, np.ndarray]:
        r, _, _ = estimated_ratios(problem, state["X"], m, rng, variant)
        costs.add("samples", float(N * N * m))
        costs.add("grad_evals", float(N * N * m))
        if variant == "code":
            raw = (r > 0) / s if criterion.name == "binary" else r
            alpha = raw / raw.sum(axis=-1, keepdims=True)
            return {"alpha": alpha, "variance": aggregated_variance(alpha, s), "ratios": r}
        w = collaboration_weights(r, s, criterion)
        return {"alpha": w.alpha, "sigma_eff2": w.sigma_eff2, "sigma_phi2": w.sigma_phi2,
                "variance": aggregated_variance(w.alpha, s), "ratios": r}

    return rule


def fixed_rule(Lam: np.ndarray) -> WeightRule:
    """Constant weights (Local: I; oracle All-for-one: cluster weights; FedAvg weights 1/N),
    as a rule: the same (N, N) matrix, or per-replica (R, N, N) stack, at every step."""
    L = np.asarray(Lam, dtype=np.float64)
    if L.ndim not in (2, 3) or L.shape[-1] != L.shape[-2]:
        raise ValueError(f"Lam must have shape (N, N) or (R, N, N), got {L.shape}")

    def rule(state: Mapping[str, np.ndarray], k: int, rng: np.random.Generator,
             costs: Costs) -> dict[str, np.ndarray]:
        R = state["X"].shape[0]
        return {"alpha": np.broadcast_to(L, (R, *L.shape[-2:]))}

    return rule
