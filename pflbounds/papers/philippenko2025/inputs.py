"""Per-client inputs computed from the heterogeneity matrices b and c (Assumption 3).

Definition 2 (digest §4.4), for client i at precision eps:

    x_ik(eps) = (1 - b_ik^2/(2 mu eps) - c_ik)_+            (printed: b_ik unsquared),
    N_i^*(eps) = {k : psi(x_ik(eps)) > 0},
    sigma_{i,suf}^2(eps) = (sum_k psi(x_ik(eps))/sigma_k^2)^-1,

with psi(x) = x phi(x) for the binary (phi = lam 1{x >= lam}) or continuous (phi = x)
criterion. ``sigma2`` may be one number (every client) or one per client (N,). The matrix c
is optional (c_ik = 0 when absent). Results per client come out as arrays (N,).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from pflbounds.algorithms.similarity_weights import Criterion
from pflbounds.symbolic.result import Derivation


def check_pair_matrix(name: str, m: Any) -> np.ndarray:
    """A per-pair heterogeneity matrix (b or c of Assumption 3): square, finite, >= 0, zero
    diagonal (b_ii = c_ii = 0). Not necessarily symmetric: (i, k) is an ordered pair."""
    a = np.asarray(m, dtype=np.float64)
    if a.ndim != 2 or a.shape[0] != a.shape[1]:
        raise ValueError(f"{name} must be a square matrix, got shape {a.shape}")
    if not np.all(np.isfinite(a)) or np.any(a < 0):
        raise ValueError(f"{name} must have finite non-negative entries")
    if np.any(np.diag(a) != 0):
        raise ValueError(f"{name} must have a zero diagonal ({name}_ii = 0)")
    return a


def variances(sigma2: Any, N: int) -> np.ndarray:
    """sigma_k^2 for every client: one value for all, or one per client (N,)."""
    s = np.asarray(sigma2, dtype=np.float64)
    if s.ndim == 0:
        s = np.full(N, float(s))
    if s.shape != (N,):
        got = f"{s.size} values" if s.ndim == 1 else f"shape {s.shape}"
        raise ValueError(f"sigma2 has {got}; expected one number or {N} numbers (one per "
                         "client)")
    bad = np.flatnonzero(~np.isfinite(s) | (s <= 0))
    if bad.size:
        k = int(bad[0])
        raise ValueError(f"sigma2 of client {k} is {s[k]:g}; expected every sigma_k^2 finite "
                         "and > 0")
    return s


def criterion_of(name: str, lam: Any = None) -> Criterion:
    """The binary (with lam) or continuous criterion of Definition 3."""
    return Criterion.binary(float(lam)) if name == "binary" else Criterion.continuous()


def sufficient_ratio(b: np.ndarray, c: np.ndarray | None, mu: float, eps: Any,
                     squared: bool = True, per_client: bool = False) -> np.ndarray:
    """x_ik(eps) = (1 - b_ik^2/(2 mu eps) - c_ik)_+ (Definition 2 read with b^2, digest §7.4);
    ``squared=False`` gives the printed (1 - b_ik/(2 mu eps) - c_ik)_+. ``eps`` may be an
    array: the result then has shape eps.shape + (N, N); with ``per_client`` eps has shape
    (..., N), one precision per client i (row i uses eps[..., i]), and the result (..., N, N).
    """
    b = check_pair_matrix("b", b)
    cc = np.zeros_like(b) if c is None else check_pair_matrix("c", c)
    if cc.shape != b.shape:
        raise ValueError(f"b has shape {b.shape} but c has shape {cc.shape}")
    e = np.asarray(eps, dtype=np.float64)
    if per_client:
        if e.shape[-1:] != b.shape[:1]:
            raise ValueError(f"per-client eps must end with {b.shape[0]} values, got {e.shape}")
        e = e[..., :, None]
    else:
        e = e[..., None, None]
    num = b**2 if squared else b
    return np.maximum(1.0 - num / (2.0 * float(mu) * e) - cc, 0.0)


def sufficient_cluster(x: np.ndarray, crit: Criterion) -> np.ndarray:
    """Membership k in N_i^*(eps): psi(x_ik) > 0 (Definition 2), boolean (..., N, N)."""
    return crit.psi(x) > 0


def sufficient_variance(x: np.ndarray, sigma2: np.ndarray, crit: Criterion) -> np.ndarray:
    """sigma_{i,suf}^2(eps) = (sum_k psi(x_ik)/sigma_k^2)^-1 (Definition 2), shape (..., N);
    x_ii = 1 keeps the sum > 0."""
    return 1.0 / np.sum(crit.psi(x) / sigma2, axis=-1)


def psi_minimum(x: np.ndarray, crit: Criterion) -> np.ndarray:
    """min over k in N_i^*(eps) of psi(x_ik) (Corollary 1), shape (..., N)."""
    p = crit.psi(x)
    return np.min(np.where(p > 0, p, np.inf), axis=-1)


def _pieces(m: Mapping[str, Any], v: Mapping[str, Any], squared: bool, criterion: str
            ) -> tuple[np.ndarray, np.ndarray, Criterion]:
    b = check_pair_matrix("b", m["b"])
    x = sufficient_ratio(b, m.get("c"), float(v["mu"]), float(v["eps"]), squared)
    return x, variances(v["sigma2"], b.shape[0]), criterion_of(criterion, v.get("lam"))


def _uses(criterion: str) -> tuple[str, ...]:
    return ("mu", "eps", "lam") if criterion == "binary" else ("mu", "eps")


def sufficient_derivations(criterion: str) -> tuple[Derivation, ...]:
    """Nstar, psi_min and sigma_suf2 per client from b (and c when given), for one
    criterion: the printed form reads b_ik, the corrected one b_ik^2."""
    out: list[Derivation] = []
    for form, squared, reading in (("printed", False, "b_ik"), ("corrected", True, "b_ik^2")):
        for needs in (("b", "c"), ("b",)):
            cterm = " - c_ik" if "c" in needs else ""

            def n_star(m, v, squared=squared):
                x, _, crit = _pieces(m, v, squared, criterion)
                return sufficient_cluster(x, crit).sum(axis=-1).astype(float)

            def s_suf(m, v, squared=squared):
                x, s, crit = _pieces(m, v, squared, criterion)
                return sufficient_variance(x, s, crit)

            def p_min(m, v, squared=squared):
                x, _, crit = _pieces(m, v, squared, criterion)
                return psi_minimum(x, crit)

            x_text = f"x_ik = (1 - {reading}/(2 mu eps){cterm})_+"
            out += [
                Derivation("Nstar", needs, n_star, f"|N_i^*(eps)| = #{{k: psi(x_ik) > 0}}, "
                           f"{x_text}", per_agent=True, uses=_uses(criterion), forms=(form,)),
                Derivation("sigma_suf2", needs, s_suf, "sigma_suf^2 = (sum_k psi(x_ik)/"
                           f"sigma_k^2)^-1, {x_text}", per_agent=True,
                           uses=(*_uses(criterion), "sigma2"), forms=(form,)),
                Derivation("psi_min", needs, p_min, f"min over N_i^*(eps) of psi(x_ik), "
                           f"{x_text}", per_agent=True, uses=_uses(criterion), forms=(form,)),
            ]
    return tuple(out)


def pair_derivations() -> tuple[Derivation, ...]:
    """The entries b_ik and c_ik themselves (one value per pair) from the matrices."""
    return (
        Derivation("b", ("b",), lambda m, v: check_pair_matrix("b", m["b"]),
                   "the matrix b itself (one value per pair)", per_agent=True),
        Derivation("c", ("c",), lambda m, v: check_pair_matrix("c", m["c"]),
                   "the matrix c itself (one value per pair)", per_agent=True),
    )


def binary_count_derivations() -> tuple[Derivation, ...]:
    """|N_i^*(eps)| for the binary criterion with c = 0 (Corollary 1's special case):
    #{k : b_ik^2/(2 mu eps) <= 1 - lam}."""

    def n_star(m, v):
        b = check_pair_matrix("b", m["b"])
        x = sufficient_ratio(b, None, float(v["mu"]), float(v["eps"]), True)
        return sufficient_cluster(x, Criterion.binary(float(v["lam"]))).sum(-1).astype(float)

    return (Derivation("Nstar", ("b",), n_star,
                       "|N_i^*(eps)| = #{k : b_ik^2/(2 mu eps) <= 1 - lambda} (c = 0)",
                       per_agent=True, uses=("mu", "eps", "lam")),)
