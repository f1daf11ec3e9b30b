"""Exact mean and covariance of linear dynamics with randomly drawn matrices and additive noise.

The dynamics, for k = 0, 1, ...:

    x_{k+1} = A_k x_k + c_k + noise_k,

where the triple (A_k, c_k, Sigma_k) is drawn independently of the past from a finite set
{(A_j, c_j, Sigma_j)} with probabilities p_j (block or coordinate sampling: a w-update taken
with probability p_w, a beta_m-update otherwise, a sampled data index, a refresh coin, ...),
and noise_k has mean 0 and covariance Sigma_j given the draw j (and is uncorrelated with
x_k). The set may depend on k through a callable k -> :class:`LinearDraws` (a deterministic
schedule: decreasing step sizes, a communication step every tau iterations).

Propagation (law of total expectation and of total covariance, conditioning on the draw):

    u_j = A_j m + c_j,            m' = sum_j p_j u_j,
    C'  = sum_j p_j ( A_j C A_j^T + Sigma_j + (u_j - m')(u_j - m')^T ).

The covariance form is used rather than raw second moments E[x x^T]: it does not subtract
two large numbers when the mean is far from zero. With a single draw (J = 1) and a constant
set, the map from step k to step k + D is computed by repeated squaring of the affine map
(P, g, S) = (A^D, sum_{t<D} A^t c, sum_{t<D} A^t Sigma A^tT), which is exact algebra.

Expectations of quadratic metrics E[1/2 (x_S - x*)^T Q (x_S - x*) + g^T (x_S - x*)] at the
recorded k, vectorised over many metrics, come from (m, C) (:mod:`.propagator_metrics`).

Batches of independent blocks
-----------------------------
The state is an array of shape (B, n): B blocks of size n, and every A_j is block diagonal,
given as (J, B, n, n) or (J, 1, n, n) when all blocks share it (Kronecker structure
A = I_B (x) A_c). Only the B diagonal blocks of the covariance are propagated, (B, n, n).
This is exact for these blocks even when one draw is shared by all blocks: the (b, b)
block of sum_j p_j A_j C A_j^T involves only C_bb, and the spread term is formed block by
block. Cross-block covariances are not tracked, so metrics are sums over blocks. Examples:
even2022's AFA/AFO on the quadratic family with a diagonal Hessian (d blocks of N agents,
:mod:`.propagator_afa_afo`); a dense state (B = 1) for per-agent Hessians H_i or a coupled
(w, beta) Hessian (:mod:`.propagator_blocks`).

Methods with several sequences
------------------------------
A method whose state holds several sequences (ACD-PFL's w_y, w_z, beta_y, beta_z;
ASVRCD-PFL's y, z and the snapshot v; LSGD-PFL's local copies w_m) is one state vector: the
sequences are stacked (see :class:`.propagator_layout.StateLayout`, which maps a driver's
state dict to the vector and back). Intermediate sequences that are functions of the state
(ACD's x = (1 - theta) y + theta z) are substituted into A_j. Every random choice of one
iteration together forms one draw: ASVRCD-PFL's draw set is the product of the block coin
zeta (p_w, 1 - p_w), the refresh coin (rho, 1 - rho) and the data index j (1/n each), with
product probabilities; a finite-sum method has c_j, A_j depending on the sampled index and
Sigma_j = 0. LSGD-PFL's averaging every tau steps is a schedule k -> set (the averaging
matrix composed with the step when k mod tau == 0). References: hanzely2023 digest
(/work/shared/papers/004_hanzely_digest.md) section 1.1 (objective F(w, beta)) and section
4 (Algorithms 1, 2, 4-7: block sampling with probability p_w).

Sizes handled, measured by benchmarks/bench_exact.py (one BLAS thread, 11 recorded k,
metrics evaluated there; CPU seconds of the process, which is the wall time on an idle core;
the run's machine had 2 cores under a load of about 9, so its wall times were 3-5x longer):

    dense n = 100, J = 3 draws, K = 1000 ............................. 1.2 s
    dense n = 200, J = 3 draws, K = 1000 ............................. 7.7 s
    dense n = 400, J = 2 draws, K = 200 .............................. 6.6 s
    B = 100 blocks of n = 50, shared A (Kronecker), J = 1, K = 1000 ... 5.7 s recursion,
                                                                      0.11 s doubling
    B = 100 blocks of n = 50, J = 3 draws, K = 1000 .................. 20 s
    AFA on Q, N = 100 agents, d = 50 (d blocks of N), K = 1000 ........ 19 s recursion,
                                                                      0.40 s doubling
    AFA on Q, N = 300, d = 20, K = 1000, doubling .................... 3.3 s
    (w, beta) block sampling, M = 50 clients, d0 = d1 = 4 (n = 204),
      J = 51 draws, K = 1000, row kernel ............................. 2.4 s
      (dense products: 5.7 s for K = 50, i.e. about 115 s for K = 1000)
    (w, beta) block sampling, M = 200, d0 = d1 = 2 (n = 402), J = 201,
      K = 1000, row kernel ........................................... 13 s

Costs: a dense step is about 4 J B n^3 flops; the row kernel about 2 (sum_j r_j) B n^2 for
draws changing r_j rows; doubling about 3 B n^3 (log2 K + digits of the record gaps).
Memory: the draws are stored dense, 2 J B n^2 floats (A and Sigma).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np

from pflbounds.algorithms.trace import record_points
from pflbounds.exact.propagator_draws import LinearDraws, Schedule, check_psd, finite_array
from pflbounds.exact.propagator_metrics import QuadraticMetrics
from pflbounds.exact.propagator_step import Doubling, Prepared, doubling_pays, step

__all__ = ["LinearDraws", "Propagation", "propagate", "Schedule"]

@dataclass
class Propagation:
    """Result of :func:`propagate`.

    Attributes
    ----------
    ks
        Recorded iteration counts, shape (n_rec,).
    metrics
        E[metric] at the recorded k, shape (n_rec, M) (None without metrics).
    means, covs
        Moments at the recorded k, shapes (n_rec, B, n) and (n_rec, B, n, n), when
        ``keep_moments``; else None.
    mean, cov
        Moments at the last recorded k, shapes (B, n) and (B, n, n).
    method
        "recursion" or "doubling".
    structure
        "dense" or "rows" (the recursion's last step), "" for doubling.
    """

    ks: np.ndarray
    metrics: np.ndarray | None
    means: np.ndarray | None
    covs: np.ndarray | None
    mean: np.ndarray
    cov: np.ndarray
    method: str
    structure: str


def _initial(x0: np.ndarray, cov0: np.ndarray | None, B: int, n: int) -> tuple[np.ndarray,
                                                                              np.ndarray]:
    """Initial mean (B_state, n) and covariance; B_state = B, or any count when B = 1."""
    x0 = finite_array("x0", x0)
    if x0.ndim == 1 and B == 1:
        x0 = x0[None]
    if x0.ndim != 2 or x0.shape[1] != n or (B > 1 and x0.shape[0] != B) or x0.shape[0] == 0:
        expected = f"({B}, {n})" if B > 1 else f"(B, {n}) or ({n},)"
        raise ValueError(f"x0 must have shape {expected} to match the draws, got "
                         f"{np.shape(x0)}")
    Bs = x0.shape[0]
    if cov0 is None:
        cov = np.zeros((Bs, n, n))
    else:
        cov = finite_array("cov0", cov0)
        if cov.ndim == 2:
            cov = cov[None]
        if cov.shape != (Bs, n, n):
            raise ValueError(f"cov0 must have shape ({Bs}, {n}, {n}) or ({n}, {n}), got "
                             f"{np.shape(cov0)}")
        check_psd("cov0", cov)
    return x0.copy(), cov.copy()


def propagate(
    draws: LinearDraws | Schedule,
    x0: np.ndarray,
    ks: Iterable[int],
    metrics: QuadraticMetrics | None = None,
    cov0: np.ndarray | None = None,
    keep_moments: bool = False,
    method: str = "auto",
    structure: str = "auto",
) -> Propagation:
    """Exact E[x_k], Cov[x_k] (diagonal blocks) and E[metrics] at the recorded k.

    ``draws`` is a :class:`LinearDraws` (the same set every iteration) or a schedule
    k -> LinearDraws used for the step x_k -> x_{k+1}. ``x0`` is the (deterministic mean of
    the) initial state, shape (B, n), or (n,) for one block; ``cov0`` its covariance
    (default 0). ``ks``: strictly increasing iteration counts to record, from 0.
    ``method``: "recursion" (one step at a time), "doubling" (repeated squaring: a constant
    set with a single draw only) or "auto" (doubling where it is allowed and cheaper).
    ``structure`` (recursion): "dense", "rows" (products only over the rows each draw
    changes, exact; :mod:`.propagator_step`) or "auto" ("rows" when every draw changes at
    most half of the rows).

    Formula: law of total covariance over the draw (module docstring); even2022 digest
    Appendix A (AFA, AFO) and hanzely2023 digest section 4 (block sampling) are instances.
    """
    ks_arr = np.asarray(list(ks), dtype=np.int64)
    ks_arr = record_points(ks_arr, int(ks_arr.max()) if ks_arr.size else 0)
    schedule = None if isinstance(draws, LinearDraws) else draws
    if schedule is not None and not callable(schedule):
        raise ValueError(f"draws must be a LinearDraws or a callable k -> LinearDraws, got "
                         f"{type(draws).__name__}")
    first = draws if schedule is None else _draws_at(schedule, 0, None)
    mean, cov = _initial(x0, cov0, first.B, first.n)
    if metrics is not None:
        metrics.check_state(mean.shape)
    if method not in {"auto", "recursion", "doubling"}:
        raise ValueError(f"method must be 'auto', 'recursion' or 'doubling', got {method!r}")
    single = schedule is None and first.J == 1
    if method == "doubling" and not single:
        raise ValueError("the doubling method needs a constant set with a single draw (J = 1);"
                         " use method='recursion'")
    if method == "auto":
        method = "doubling" if single and doubling_pays(ks_arr) else "recursion"
    if structure not in {"auto", "dense", "rows"}:
        raise ValueError(f"structure must be 'auto', 'dense' or 'rows', got {structure!r}")

    n_rec = ks_arr.size
    out = None if metrics is None else np.empty((n_rec, metrics.M))
    means = np.empty((n_rec, *mean.shape)) if keep_moments else None
    covs = np.empty((n_rec, *cov.shape)) if keep_moments else None
    doubling = Doubling(first) if method == "doubling" else None
    prepared = None if schedule is not None or doubling else Prepared(first, structure)
    k = 0
    with np.errstate(over="ignore", invalid="ignore"):
        for t, target in enumerate(ks_arr):
            if doubling is not None:
                mean, cov = doubling.advance(mean, cov, int(target) - k)
                k = int(target)
            while k < target:
                if schedule is not None:
                    d = first if k == 0 else _draws_at(schedule, k, mean.shape)
                    if prepared is None or prepared.draws is not d:
                        prepared = Prepared(d, structure)
                mean, cov = step(mean, cov, prepared)
                k += 1
            if out is not None:
                out[t] = metrics.expect(mean, cov)
            if keep_moments:
                means[t], covs[t] = mean, cov
    used = "" if prepared is None else prepared.structure
    return Propagation(ks_arr, out, means, covs, mean, cov, method, used)


def _draws_at(schedule: Schedule, k: int, state: tuple[int, ...] | None) -> LinearDraws:
    d = schedule(k)
    if not isinstance(d, LinearDraws):
        raise ValueError(f"the schedule must return a LinearDraws at every k, got "
                         f"{type(d).__name__} at k = {k}")
    if state is not None and (d.n != state[1] or d.B not in {1, state[0]}):
        raise ValueError(f"the schedule changes the state shape at k = {k}: draws for "
                         f"blocks (B={d.B}, n={d.n}), state (B={state[0]}, n={state[1]})")
    return d
