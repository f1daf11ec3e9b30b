"""The iteration driver: one loop that runs any method, with per-replica cost counters.

A method is a *state* (a dict of arrays whose first axis is the replica axis R: iterates
``X`` (R, N, d), a pair ``w`` (R, d) and ``beta`` (R, M, d), ACD's ``x``/``y``/``z``, a
gradient table, ...) and a *step* ``step(state, k, costs) -> state`` that advances it by one
iteration and charges what it spends to ``costs``. :func:`iterate` calls the step K times
and records named *metrics* (functions of the state, each returning an array with a leading
replica axis) and every cost counter at the chosen iterations.

Cost counters are per replica, because methods that sample (a w-step with probability p_w,
coordinate sampling, adaptive stopping) spend different amounts in different replicas. Names
in :data:`COUNTERS` are the conventional ones; a method may add its own. A check may use any
recorded counter as its x-axis, and :func:`first_reach` gives the per-replica cost of first
reaching a target.

Order of operations (it matters for bitwise reproducibility): at k = 0..K, record the metrics
if k is a recorded iteration, then, if k < K, step. The step consumes randomness from
whatever generator the method closes over, so a fixed seed gives bitwise-identical runs.
Only the iteration loop is a Python loop.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from pflbounds.algorithms.trace import record_points

__all__ = ["COUNTERS", "Costs", "Run", "Step", "first_reach", "iterate"]

COUNTERS: dict[str, str] = {
    "rounds": "communication rounds",
    "floats_sent": "floats communicated (uplink + downlink, all agents)",
    "samples": "stochastic oracle calls: fresh samples drawn (all agents)",
    "grad_evals": "stochastic gradient evaluations (all agents)",
    "full_grad": "full (deterministic) gradient evaluations",
    "grad_w": "gradient evaluations in the global block w",
    "grad_beta": "gradient evaluations in a local block beta_m (all clients)",
    "projections": "projections onto a constraint set",
    "loss_evals": "loss evaluations",
}
"""Conventional counter names and what they count."""


class Costs:
    """Per-replica cost counters.

    Charges common to every replica are kept as Python floats and per-replica charges as
    (R,) arrays, so that the many scalar charges of a long run cost almost nothing;
    :meth:`snapshot` and :attr:`counts` give every counter as an (R,) float64 array.
    """

    def __init__(self, R: int, names: Iterable[str] = ()) -> None:
        if int(R) < 1:
            raise ValueError(f"R must be >= 1, got {R}")
        self.R = int(R)
        self._common: dict[str, float] = {n: 0.0 for n in names}
        self._per_replica: dict[str, np.ndarray] = {}

    def add(self, name: str, amount: float | np.ndarray = 1.0) -> None:
        """Charge ``amount`` (a scalar for every replica, or an (R,) array) to ``name``."""
        if isinstance(amount, (int, float)) and not isinstance(amount, bool):
            if amount < 0:
                raise ValueError(f"cost {name!r}: amounts must be >= 0")
            self._common[name] = self._common.get(name, 0.0) + float(amount)
            return
        a = np.asarray(amount, dtype=np.float64)
        if a.ndim == 0:
            self.add(name, float(a))
            return
        if a.shape != (self.R,):
            raise ValueError(f"cost {name!r}: amount must be a scalar or shape ({self.R},), "
                             f"got {a.shape}")
        if np.any(a < 0):
            raise ValueError(f"cost {name!r}: amounts must be >= 0")
        cur = self._per_replica.get(name)
        if cur is None:
            self._per_replica[name] = a.copy()
        else:
            cur += a
        self._common.setdefault(name, 0.0)

    def snapshot(self) -> dict[str, np.ndarray]:
        """Every counter as an (R,) array (a copy)."""
        out = {}
        for name, common in self._common.items():
            arr = np.full(self.R, common)
            if name in self._per_replica:
                arr += self._per_replica[name]
            out[name] = arr
        return out

    @property
    def counts(self) -> dict[str, np.ndarray]:
        """Every counter as an (R,) array."""
        return self.snapshot()


Step = Callable[[dict[str, np.ndarray], int, Costs], dict[str, np.ndarray]]
"""``step(state, k, costs) -> new state`` (the step may update ``state`` in place)."""
Metric = Callable[[Mapping[str, np.ndarray]], np.ndarray]
"""``metric(state) -> array`` with the replica axis first."""


@dataclass
class Run:
    """What :func:`iterate` recorded.

    ``metrics[name]`` has shape (R, n_rec, ...) (the metric's own trailing shape), ``costs
    [name]`` shape (R, n_rec): the counter's value when the metrics were recorded (before the
    step of that k). ``state`` is the state after K steps.
    """

    ks: np.ndarray
    metrics: dict[str, np.ndarray]
    costs: dict[str, np.ndarray]
    state: dict[str, np.ndarray]
    info: dict[str, Any] = field(default_factory=dict)

    @property
    def R(self) -> int:
        """Number of replicas."""
        return next(iter(self.state.values())).shape[0]


def _replicas(state: Mapping[str, np.ndarray]) -> int:
    if not state:
        raise ValueError("the state must hold at least one array")
    sizes = {}
    for name, arr in state.items():
        a = np.asarray(arr)
        if a.ndim < 1:
            raise ValueError(f"state {name!r} needs a leading replica axis, got a scalar")
        sizes[name] = a.shape[0]
    if len(set(sizes.values())) != 1:
        raise ValueError(f"state arrays disagree on the number of replicas: {sizes}")
    return next(iter(sizes.values()))


def iterate(
    state: Mapping[str, np.ndarray],
    step: Step,
    K: int,
    *,
    metrics: Mapping[str, Metric],
    record: Iterable[int] | None = None,
    counters: Iterable[str] = (),
) -> Run:
    """Run ``step`` K times from ``state``; record ``metrics`` and costs at ``record``.

    ``record``: strictly increasing iteration counts in [0, K] (``None``: every k).
    ``counters``: names that start at zero even if the method never charges them (so that they
    are always recorded). Overflow and invalid values in unstable runs are not warned about:
    they show in the recorded metrics (as the dynamics are).
    """
    ks = record_points(record, K)
    if not metrics:
        raise ValueError("give at least one metric to record")
    st = dict(state)
    R = _replicas(st)
    costs = Costs(R, counters)
    rec: dict[str, list[np.ndarray]] = {n: [] for n in metrics}
    cost_rec: list[dict[str, np.ndarray]] = []
    j = 0
    with np.errstate(over="ignore", invalid="ignore"):
        for k in range(K + 1):
            if j < ks.size and k == ks[j]:
                for name, fn in metrics.items():
                    rec[name].append(np.array(fn(st)))
                cost_rec.append(costs.snapshot())
                j += 1
            if k == K:
                break
            st = step(st, k, costs)
    out_metrics = {n: np.stack(v, axis=1) for n, v in rec.items()}
    names = sorted({n for c in cost_rec for n in c})
    out_costs = {
        n: np.stack([c.get(n, np.zeros(R)) for c in cost_rec], axis=1) for n in names
    }
    return Run(ks=ks, metrics=out_metrics, costs=out_costs, state=st)


def first_reach(
    values: np.ndarray, target: float | np.ndarray, x: np.ndarray
) -> np.ndarray:
    """Per replica, the x-axis value (a cost counter or K) at the first recorded point where
    ``values <= target``; ``inf`` where it is never reached.

    ``values`` and ``x``: shape (R, n_rec) (``x`` may also be (n_rec,), e.g. the recorded
    ks). Returns shape (R,).
    """
    v = np.asarray(values, dtype=np.float64)
    if v.ndim != 2:
        raise ValueError(f"values must have shape (R, n_rec), got {v.shape}")
    xs = np.broadcast_to(np.asarray(x, dtype=np.float64), v.shape)
    hit = v <= np.asarray(target, dtype=np.float64)
    first = np.argmax(hit, axis=1)
    reached = hit[np.arange(v.shape[0]), first]
    return np.where(reached, xs[np.arange(v.shape[0]), first], np.inf)
