"""All-for-one with weights recomputed during the run, on the iteration driver.

Reference: philippenko2025, the All-for-one update with time-varying weights (digest §3.1):

    theta_i^t = theta_i^{t-1} - eta_i^t sum_k alpha_ik^t g_k^t(theta_i^{t-1}),

which generalises even2022's All-for-one (Eq. (2), :func:`run_afo`) from fixed weights
lambda_ij to weights alpha^t computed from the current iterates (true gradients, Definition
1), from estimators (Eq. (1)), or from anything else: a *weight rule* ``rule(state, k, rng,
costs) -> {"alpha": (R, N, N), ...}`` (see
:mod:`pflbounds.algorithms.similarity_weights`). The step itself is AFO's
(:func:`~pflbounds.algorithms.collaborative.afo_update`: one fresh sample per client,
shared by every model), so a constant rule reproduces :func:`run_afo` bitwise.

Order of one iteration k (0-based; the paper's t = k + 1): if k is a refresh iteration
(k % refresh == 0) the rule computes alpha from theta^k, then the AFO step moves to
theta^{k+1}. What is recorded at k therefore describes the weights of the *last* step,
alpha^k (those that produced theta^k from theta^{k-1}); at k = 0 no step was taken and the
weight metrics are empty (no collaborators, sigma_eff2 = nan).

Recorded per client and iteration: the collaborator set N_i^t = {k : alpha_ik^t > 0}
(``collaborators``, boolean (R, n_rec, N, N), when ``track_sets``), its size, the total weight
sum_k alpha_ik^t, the effective variance (sigma_{i,eff}^t)^2 when the rule provides it, and the
variance sum_k alpha_ik^2 sigma_k^2 of the aggregated direction when the rule provides it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from pflbounds.algorithms.collaborative import (
    COLLABORATIVE_COUNTERS,
    _initial,
    afo_update,
)
from pflbounds.algorithms.driver import Costs, Metric, iterate
from pflbounds.algorithms.protocols import MixtureProblem
from pflbounds.algorithms.similarity_weights import WeightRule
from pflbounds.algorithms.trace import Trace
from pflbounds.problems.agent_ops import AgentOperator

__all__ = ["AdaptiveTrace", "StepSchedule", "run_afo_adaptive"]

StepSchedule = float | np.ndarray | Callable[[int], "float | np.ndarray"]
"""A constant step, per-client steps (N,), or ``schedule(t) -> step`` for t = 1, 2, ... (the
paper's iteration index), e.g. ``lambda t: C / (mu * (t + gamma0))``."""


@dataclass
class AdaptiveTrace(Trace):
    """Trace of :func:`run_afo_adaptive`: the excess losses plus what the weights did.

    ``n_collaborators`` (R, n_rec, N): |N_i^t|; ``weight_sum`` (R, n_rec, N): sum_k alpha_ik^t;
    ``sigma_eff2`` and ``variance`` (R, n_rec, N) or None; ``collaborators`` (R, n_rec, N, N)
    booleans or None; ``metrics``: any further recorded metric.
    """

    n_collaborators: np.ndarray | None = None
    weight_sum: np.ndarray | None = None
    sigma_eff2: np.ndarray | None = None
    variance: np.ndarray | None = None
    collaborators: np.ndarray | None = None
    metrics: dict[str, np.ndarray] | None = None


def _step_of(eta: StepSchedule, N: int) -> Callable[[int], float | np.ndarray]:
    """t -> step, shaped to broadcast against (R, N, d)."""

    def shape(e: Any) -> float | np.ndarray:
        a = np.asarray(e, dtype=np.float64)
        if a.ndim == 0:
            if not a > 0:
                raise ValueError(f"step size must be > 0, got {float(a)}")
            return float(a)
        if a.shape != (N,):
            raise ValueError(f"a step must be a scalar or have shape ({N},), got {a.shape}")
        if np.any(a <= 0):
            raise ValueError("every step size must be > 0")
        return a[:, None]

    if callable(eta):
        return lambda t: shape(eta(t))
    const = shape(eta)
    return lambda t: const


def run_afo_adaptive(
    problem: MixtureProblem,
    weights: WeightRule,
    eta: StepSchedule,
    K: int,
    x0: np.ndarray,
    R: int,
    rng: np.random.Generator,
    record: Iterable[int] | None = None,
    *,
    refresh: int = 1,
    metrics: Mapping[str, Metric] | None = None,
    track_sets: bool = True,
    store_iterates: bool = False,
) -> AdaptiveTrace:
    """All-for-one with time-varying weights (philippenko2025 §1, digest §3.1 and §3.8).

    ``weights``: the rule called at every ``refresh``-th iteration (``refresh`` = the "inner
    iterations" of Table S1; 1 recomputes every step) with the state (``X`` (R, N, d) and what
    the rule returned last), the iteration k, the generator and the cost counters; it returns
    ``alpha`` (R, N, N) and optionally ``sigma_eff2``, ``variance`` (R, N) and other arrays.
    ``eta``: constant, per client, or a schedule t -> step (t = k + 1). ``metrics``: extra
    recorded functions of the state (leading replica axis). The generator is consumed by the
    rule first, then by the step, so equal seeds give bitwise-equal runs.

    Costs per step: one round, N samples (one per client, shared by every model), and one
    gradient evaluation per nonzero alpha_ik (per replica); the rule charges its own costs.
    """
    if int(refresh) < 1:
        raise ValueError(f"refresh must be >= 1, got {refresh}")
    N, d = problem.N, problem.d
    step_at = _step_of(eta, N)
    X0 = _initial(problem, x0, R)
    state: dict[str, np.ndarray] = {
        "X": X0,
        "alpha": np.zeros((R, N, N)),
        "sigma_eff2": np.full((R, N), np.nan),
        "variance": np.full((R, N), np.nan),
    }
    provided: set[str] = set()

    def step(st: dict[str, np.ndarray], k: int, costs: Costs) -> dict[str, np.ndarray]:
        if k % refresh == 0:
            out = dict(weights(st, k, rng, costs))
            if "alpha" not in out:
                raise ValueError("a weight rule must return 'alpha'")
            alpha = np.asarray(out["alpha"], dtype=np.float64)
            if alpha.shape != (R, N, N):
                raise ValueError(f"the weight rule returned alpha of shape {alpha.shape}; "
                                 f"expected ({R}, {N}, {N})")
            if np.any(alpha < 0):
                raise ValueError("collaboration weights must be >= 0")
            provided.update(out)
            st = {**st, **out, "alpha": alpha}
        alpha = st["alpha"]
        X = afo_update(problem, st["X"], AgentOperator(alpha, N), step_at(k + 1), rng)
        pairs = np.count_nonzero(alpha, axis=(1, 2)).astype(np.float64)
        costs.add("rounds", 1.0)
        costs.add("samples", float(N))
        costs.add("grad_evals", pairs)
        costs.add("floats_sent", 2.0 * d * pairs)
        return {**st, "X": X}

    rec: dict[str, Metric] = {
        "excess": lambda s: problem.excess(s["X"]),
        "n_collaborators": lambda s: np.count_nonzero(s["alpha"], axis=2).astype(np.float64),
        "weight_sum": lambda s: s["alpha"].sum(axis=2),
        "sigma_eff2": lambda s: np.array(s["sigma_eff2"]),
        "variance": lambda s: np.array(s["variance"]),
    }
    if track_sets:
        rec["collaborators"] = lambda s: s["alpha"] > 0
    if store_iterates:
        rec["iterates"] = lambda s: np.array(s["X"])
    extra = dict(metrics or {})
    clash = set(extra) & set(rec)
    if clash:
        raise ValueError(f"metric names already recorded by the runner: {sorted(clash)}")
    rec.update(extra)
    run = iterate(state, step, K, metrics=rec, record=record, counters=COLLABORATIVE_COUNTERS)
    m = run.metrics
    tr = AdaptiveTrace(
        ks=run.ks, excess=m["excess"], X_final=run.state["X"], iterates=m.get("iterates"),
        costs=run.costs, n_collaborators=m["n_collaborators"], weight_sum=m["weight_sum"],
        sigma_eff2=m["sigma_eff2"] if "sigma_eff2" in provided else None,
        variance=m["variance"] if "variance" in provided else None,
        collaborators=m.get("collaborators"), metrics={n: m[n] for n in extra},
    )
    tr.info.update(method="afo_adaptive", refresh=int(refresh))
    return tr
