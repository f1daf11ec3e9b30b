"""IFCA, the Iterative Federated Clustering Algorithm (Ghosh, Chung, Yin & Ramchandran, NeurIPS
2020), on the iteration driver, vectorised over replicas and clients; FedAvg with local
steps is its one-cluster case.

The server keeps k cluster models theta_1..theta_k. At each round a subset S of s clients
(uniform without replacement; s = n: every client) receives them; client i in S

1. estimates its cluster j_i = argmin_j f_i(theta_j) (its own loss, lowest index on ties);
2. runs ``local_steps`` gradient steps w <- w - eta grad f_i(w) from w = theta_{j_i};
3. returns w and j_i.

The server sets theta_j to the alpha-weighted mean of the returned models of the clients
in S that chose j (Ghosh et al. Algorithm 2, model averaging); a cluster that nobody chose
keeps its model. With one local step this is gradient averaging per cluster (Algorithm 1
with each cluster's gradients averaged over its members). With k = 1 it is FedAvg
(McMahan et al. 2017) with partial participation and ``local_steps`` local iterations:
:func:`run_fedavg`. Client i's personalised model is theta_{j_i} for the cluster it picks
at the end (:func:`personalised_models`).

Oracles: ``loss(W)`` -> f_i(W_i), shape (R, n), and ``grad(W)`` -> grad f_i(W_i), shape (R,
n, d), for W of shape (R, n, d). The only Python loops run over rounds, local steps and the k
cluster models (k loss evaluations of every client at once).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

import numpy as np

from pflbounds.algorithms.driver import Costs, Metric, Run, iterate
from pflbounds.algorithms.karula import sample_subsets

__all__ = ["assign_clusters", "effective_clusters", "ifca_step", "personalised_models",
           "run_fedavg", "run_ifca"]

Loss = Callable[[np.ndarray], np.ndarray]
Grad = Callable[[np.ndarray], np.ndarray]


def assign_clusters(loss: Loss, theta: np.ndarray, n: int) -> np.ndarray:
    """j_i = argmin_j f_i(theta_j) for every client, shape (R, n), from the cluster models
    ``theta`` (R, k, d) (lowest index on ties)."""
    R, k, d = theta.shape
    losses = np.stack([loss(np.broadcast_to(theta[:, j, None, :], (R, n, d)))
                       for j in range(k)], axis=-1)
    return np.argmin(losses, axis=-1)


def personalised_models(theta: np.ndarray, assign: np.ndarray) -> np.ndarray:
    """theta_{j_i} for every client: (R, n, d) from ``theta`` (R, k, d), ``assign`` (R, n)."""
    return np.take_along_axis(theta, assign[..., None], axis=1)


def effective_clusters(assign: np.ndarray, k: int) -> np.ndarray:
    """exp(entropy) of the clients' cluster shares, per replica: 1 when every client picks
    one cluster, k for equal shares (a continuous count of the clusters in use)."""
    share = np.stack([(assign == j).mean(-1) for j in range(k)], axis=-1)
    with np.errstate(divide="ignore", invalid="ignore"):
        ent = -np.where(share > 0, share * np.log(share), 0.0).sum(-1)
    return np.exp(ent)


def ifca_step(loss: Loss, grad: Grad, *, n: int, eta: float, s: int, local_steps: int,
              alpha: np.ndarray, rng: np.random.Generator):
    """The step function of IFCA for :func:`pflbounds.algorithms.driver.iterate`; the state
    holds ``theta`` (R, k, d) and the last assignment ``assign`` (R, n) (-1 for a client
    outside the last round)."""

    def step(st: dict[str, np.ndarray], k: int, costs: Costs) -> dict[str, np.ndarray]:
        theta = st["theta"]
        R, kc, d = theta.shape
        mask = sample_subsets(rng, R, n, s)
        assign = assign_clusters(loss, theta, n) if kc > 1 else np.zeros((R, n), dtype=int)
        W = personalised_models(theta, assign)
        for _ in range(local_steps):
            W = W - eta * grad(W)
        onehot = assign[..., None] == np.arange(kc)  # (R, n, k)
        w = np.where(mask[..., None] & onehot, alpha[..., None], 0.0)
        tot = w.sum(axis=1)  # (R, k)
        mean = np.einsum("rnk,rnd->rkd", w, W) / np.where(tot > 0, tot, 1.0)[..., None]
        new = dict(st)
        new["theta"] = np.where((tot > 0)[..., None], mean, theta)
        new["assign"] = np.where(mask, assign, -1)
        costs.add("rounds", 1.0)
        costs.add("grad_evals", float(s * local_steps))
        costs.add("loss_evals", float(s * kc) if kc > 1 else 0.0)
        costs.add("floats_sent", float(s * (kc + 1) * d))
        return new

    return step


def run_ifca(
    loss: Loss,
    grad: Grad,
    theta0: np.ndarray,
    *,
    n: int,
    eta: float,
    K: int,
    rng: np.random.Generator,
    metrics: Mapping[str, Metric],
    s: int | None = None,
    local_steps: int = 1,
    alpha: np.ndarray | None = None,
    record: Iterable[int] | None = None,
) -> Run:
    """Run IFCA (module docstring) for K rounds from the cluster models ``theta0`` (R, k, d)
    (distinct models break the symmetry: Ghosh et al. initialise at random) and record
    ``metrics`` (functions of the state) at ``record``. ``alpha``: aggregation weights (n,) or
    (R, n) (default equal); ``s``: clients per round (default n)."""
    theta0 = np.array(theta0, dtype=float)
    if theta0.ndim != 3:
        raise ValueError(f"theta0 must have shape (R, k, d), got {theta0.shape}")
    s = int(n if s is None else s)
    if not 1 <= s <= n:
        raise ValueError(f"s must lie in [1, n = {n}], got {s}")
    if eta <= 0 or int(local_steps) < 1:
        raise ValueError(f"need eta > 0 and local_steps >= 1, got {eta}, {local_steps}")
    R = theta0.shape[0]
    a = np.ones(n) if alpha is None else np.asarray(alpha, dtype=float)
    a = np.broadcast_to(a, (R, n))
    if np.any(a <= 0):
        raise ValueError("aggregation weights alpha must be > 0")
    state = {"theta": theta0, "assign": np.full((R, n), -1)}
    step = ifca_step(loss, grad, n=int(n), eta=float(eta), s=s, local_steps=int(local_steps),
                     alpha=a, rng=rng)
    run = iterate(state, step, K, metrics=metrics, record=record,
                  counters=("rounds", "grad_evals", "loss_evals"))
    run.info.update(method="ifca", k=theta0.shape[1], eta=eta, s=s, local_steps=local_steps)
    return run


def run_fedavg(loss: Loss, grad: Grad, theta0: np.ndarray, **kwargs: Any) -> Run:
    """FedAvg with ``local_steps`` local gradient steps and s clients per round: IFCA with one
    cluster, from the global model ``theta0`` (R, d); the keywords are :func:`run_ifca`'s."""
    theta0 = np.asarray(theta0, dtype=float)
    if theta0.ndim != 2:
        raise ValueError(f"theta0 must have shape (R, d), got {theta0.shape}")
    run = run_ifca(loss, grad, theta0[:, None, :], **kwargs)
    run.info["method"] = "fedavg"
    return run
