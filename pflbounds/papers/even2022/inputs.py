"""Scalar inputs computed from user matrices: the bias matrix ``b`` and the weights ``Lambda``.

Per-agent quantities (V_i, B_i, N_i^eps) are returned as arrays, so a per-agent result
evaluates to one value per agent.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

from pflbounds.symbolic.result import Derivation

# pflbounds.problems.clusters is imported where a matrix is used, not here: the problem
# modules (scipy.sparse, the instance families) would add about 0.35 s to every eval and solve.


def check_bias_matrix(b: Any) -> np.ndarray:
    """Validate b: square, non-negative, zero diagonal (b_ii = 0)."""
    b = np.asarray(b, dtype=float)
    if b.ndim != 2 or b.shape[0] != b.shape[1]:
        raise ValueError(f"b must be a square matrix, got shape {b.shape}")
    if np.any(b < 0) or not np.all(np.isfinite(b)):
        raise ValueError("b must have finite non-negative entries")
    if np.any(np.abs(np.diag(b)) > 0):
        raise ValueError("b must have a zero diagonal (b_ii = 0)")
    return b


def check_weights(lam: Any) -> np.ndarray:
    """Validate Lambda: square, non-negative, rows summing to one (row-stochastic)."""
    lam = np.asarray(lam, dtype=float)
    if lam.ndim != 2 or lam.shape[0] != lam.shape[1]:
        raise ValueError(f"Lambda must be a square matrix, got shape {lam.shape}")
    if np.any(lam < 0):
        raise ValueError("Lambda must have non-negative entries")
    rows = lam.sum(axis=1)
    bad = np.flatnonzero(np.abs(rows - 1) > 1e-9)
    if bad.size:
        raise ValueError(
            f"Lambda must be row-stochastic: row {int(bad[0])} sums to {rows[bad[0]]:.6g}"
        )
    return lam


def _pair(m: Mapping[str, Any]) -> tuple[np.ndarray, np.ndarray]:
    b = check_bias_matrix(m["b"])
    lam = check_weights(m["Lambda"])
    if b.shape != lam.shape:
        raise ValueError(f"b has shape {b.shape} but Lambda has shape {lam.shape}")
    return b, lam


def d_V(m: Mapping[str, Any], v: Mapping[str, Any]) -> np.ndarray:
    return (check_weights(m["Lambda"]) ** 2).sum(axis=1)


def d_B(m: Mapping[str, Any], v: Mapping[str, Any]) -> np.ndarray:
    b, lam = _pair(m)
    return (lam * b**2).sum(axis=1)


def d_SumLam2(m: Mapping[str, Any], v: Mapping[str, Any]) -> float:
    return float((check_weights(m["Lambda"]) ** 2).sum())


def d_BiasSum(m: Mapping[str, Any], v: Mapping[str, Any]) -> float:
    b, lam = _pair(m)
    return float((lam * b**2).sum())


def d_rho_W(m: Mapping[str, Any], v: Mapping[str, Any]) -> float:
    from pflbounds.problems.clusters import spectral_radius

    lam = check_weights(m["Lambda"])
    return float(spectral_radius(lam @ lam.T))  # rho(Lambda Lambda^T) = ||Lambda||_2^2


def d_N_from_lambda(m: Mapping[str, Any], v: Mapping[str, Any]) -> float:
    return float(check_weights(m["Lambda"]).shape[0])


def d_N_from_b(m: Mapping[str, Any], v: Mapping[str, Any]) -> float:
    return float(check_bias_matrix(m["b"]).shape[0])


def d_b_max(m: Mapping[str, Any], v: Mapping[str, Any]) -> float:
    return float(check_bias_matrix(m["b"]).max())


def d_b(m: Mapping[str, Any], v: Mapping[str, Any]) -> np.ndarray:
    return check_bias_matrix(m["b"])


def neps_derivation(
    symbol: str, factor: float, text: str, forms: tuple[str, ...] = (), with_mu: bool = True,
    strict: bool = False, mu_is_inverse_r2: bool = False,
) -> Derivation:
    """N_i^eps = #{j : b_ij^2 <= factor * mu * eps} per agent (factor * eps without mu;
    ``<`` when ``strict``). With ``mu_is_inverse_r2`` (Theorem 1 printed, which sets
    mu = L = 1/r^2) a given r must agree with mu: a mismatch would change the counts."""

    def f(m: Mapping[str, Any], v: Mapping[str, Any]) -> np.ndarray:
        from pflbounds.problems.clusters import closeness_counts

        b = check_bias_matrix(m["b"])
        if mu_is_inverse_r2 and "r" in v:
            want = 1.0 / float(v["r"]) ** 2
            if not np.isclose(float(v["mu"]), want, rtol=1e-9, atol=0.0):
                raise ValueError(
                    f"Theorem 1 sets mu = 1/r^2: mu={float(v['mu']):g} but r={float(v['r']):g} "
                    f"gives 1/r^2={want:g}; give mu=1/r^2"
                )
        scale = float(v["mu"]) if with_mu else 1.0
        return closeness_counts(b**2, factor * scale * float(v["eps"]), strict=strict).astype(float)

    uses = ("mu", "eps") if with_mu else ("eps",)
    return Derivation(symbol, ("b",), f, text, per_agent=True, uses=uses, forms=forms)


def invn_mean_derivation() -> Derivation:
    """(1/N) sum_i 1/N_i^eps(b^2/mu), N_i^eps counting b_ij^2 <= mu eps (Corollary 1)."""

    def f(m: Mapping[str, Any], v: Mapping[str, Any]) -> float:
        from pflbounds.problems.clusters import closeness_counts

        b = check_bias_matrix(m["b"])
        n = closeness_counts(b**2, float(v["mu"]) * float(v["eps"]))
        return float(np.mean(1.0 / n))

    return Derivation("invN_mean", ("b",), f, "(1/N) sum_i 1/#{j: b_ij^2 <= mu eps}",
                      uses=("mu", "eps"))


def cor1_rho_derivation() -> Derivation:
    """rho(W) for Corollary 1's weights built from b (threshold b_ij^2 <= mu eps)."""

    def f(m: Mapping[str, Any], v: Mapping[str, Any]) -> float:
        from pflbounds.problems.clusters import spectral_radius, threshold_weights

        b = check_bias_matrix(m["b"])
        lam = threshold_weights(b**2, float(v["mu"]) * float(v["eps"]))
        return float(spectral_radius(lam @ lam.T))

    return Derivation("rho_W", ("b",), f,
                      "rho(Lambda Lambda^T) for Corollary 1 weights built from b",
                      uses=("mu", "eps"))


def simple(symbol: str, needs: tuple[str, ...], func: Callable, text: str,
           per_agent: bool = False) -> Derivation:
    return Derivation(symbol, needs, func, text, per_agent=per_agent)


V_FROM_LAMBDA = simple("V", ("Lambda",), d_V, "V_i = sum_j lambda_ij^2", True)
B_FROM_MATRICES = simple("B", ("b", "Lambda"), d_B, "B_i = sum_j lambda_ij b_ij^2", True)
SUMLAM2 = simple("SumLam2", ("Lambda",), d_SumLam2, "sum_ij lambda_ij^2")
BIASSUM = simple("BiasSum", ("b", "Lambda"), d_BiasSum, "sum_ij lambda_ij b_ij^2")
RHO_W = simple("rho_W", ("Lambda",), d_rho_W, "rho(Lambda Lambda^T) = ||Lambda||_2^2")
N_FROM_LAMBDA = simple("N", ("Lambda",), d_N_from_lambda, "N = size of Lambda")
N_FROM_B = simple("N", ("b",), d_N_from_b, "N = size of b")
B_MAX = simple("b_max", ("b",), d_b_max, "b_max = max_ij b_ij")
B_ENTRIES = simple("b", ("b",), d_b, "the matrix b itself (one value per pair)", True)
