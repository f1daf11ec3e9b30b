"""Karula (Algorithm 1 of Erickson & Johansson 2025): projected, variance-reduced stochastic
gradient with partial participation, on the iteration driver.

The server keeps every client's model theta_i, a gradient table y_i (the last stochastic
gradient G_i received from client i) and projects onto the constraint set K after each step.
At each round a subset S_k of s clients, uniform without replacement, returns G_i(theta_i^k)
and the estimate nu^k is formed from the table and the fresh gradients:

* Reading B (``reading="B"``, default; the estimator the proof of Lemma A.1 analyses, digest
  §4.2): nu_i = y_i/n + 1[i in S_k] (G_i(theta_i) - y_i)/s, unbiased for grad f(theta) =
  (alpha_i grad f_i(theta_i)/n)_i when sigma = 0;
* Reading A (``reading="A"``, the printed recursion with an unscaled table): nu_i = y_i +
  1[i in S_k] (G_i(theta_i) - y_i)/s, biased (E nu_i = (1 - 1/n) y_i + G_i(theta_i)/n);
* the non-variance-reduced estimate (``estimator="plain"``, digest P3): nu_i = 1[i in S_k]
  G_i(theta_i)/s, unbiased for grad f, no table.

Then y_i <- G_i(theta_i) for i in S_k and theta^{k+1} = Pi(theta^k - eta nu^k) with the
given projection (exact, iterative or deliberately inexact). Oracles: G_i(theta_i) =
alpha_i grad f_i(theta_i) + zeta with zeta ~ N(0, (sigma^2/d) I_d), so E||zeta||^2 = sigma^2
(Assumption 4.2 with equality). The initial round queries every client once. Replicas and
clients are array axes; the only Python loop is the driver's loop over k.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Mapping

import numpy as np

from pflbounds.algorithms.driver import Costs, Metric, Run, iterate

__all__ = ["READINGS", "ESTIMATORS", "all_subset_masks", "karula_estimate", "karula_state",
           "karula_step", "run_karula", "sample_subsets"]

READINGS = ("A", "B")
ESTIMATORS = ("vr", "plain")

WeightedGrad = Callable[[np.ndarray], np.ndarray]
"""``weighted_grad(theta)``: (alpha_i grad f_i(theta_i))_i, exact, shape (R, n, d)."""
Project = Callable[[np.ndarray], np.ndarray]


def sample_subsets(rng: np.random.Generator, R: int, n: int, s: int) -> np.ndarray:
    """Participation masks (R, n) of uniform s-subsets drawn without replacement, one per
    replica (the first s of a uniform random permutation)."""
    order = rng.random((R, n)).argsort(axis=1)[:, :s]
    mask = np.zeros((R, n), dtype=bool)
    np.put_along_axis(mask, order, True, axis=1)
    return mask


def all_subset_masks(n: int, s: int) -> np.ndarray:
    """Participation masks (C(n, s), n, 1) of every s-subset of the n clients, in
    lexicographic order: the exact expectation over S_k is the mean over the first axis."""
    subsets = np.array(list(itertools.combinations(range(n), s)))
    mask = np.zeros((len(subsets), n, 1), dtype=bool)
    np.put_along_axis(mask, subsets[:, :, None], True, axis=1)
    return mask


def _oracle(weighted_grad: WeightedGrad, theta: np.ndarray, sigma2: float,
            rng: np.random.Generator) -> np.ndarray:
    g = weighted_grad(theta)
    if sigma2 > 0:
        g = g + rng.standard_normal(theta.shape) * np.sqrt(sigma2 / theta.shape[-1])
    return g


def karula_state(theta0: np.ndarray, weighted_grad: WeightedGrad, sigma2: float,
                 rng: np.random.Generator) -> dict[str, np.ndarray]:
    """Initial state: theta^0 (R, n, d) (feasible) and the table y^0 = G(theta^0) (every
    client queried once)."""
    theta = np.array(theta0, dtype=float)
    return {"theta": theta, "y": _oracle(weighted_grad, theta, sigma2, rng),
            "z": theta.copy(), "phi": theta.copy()}


def karula_estimate(G: np.ndarray, y: np.ndarray, mask: np.ndarray, s: int,
                    reading: str = "B", estimator: str = "vr") -> np.ndarray:
    """The estimate nu^k of Algorithm 1 (module docstring: Reading A, Reading B or the plain
    estimate) from the fresh gradients G, the table y (..., n, d) and the participation mask
    (..., n, 1) of the s sampled clients."""
    n = G.shape[-2]
    if estimator == "plain":
        return np.where(mask, G, 0.0) / s
    if reading == "B":
        return y / n + np.where(mask, G - y, 0.0) / s
    return y + np.where(mask, G - y, 0.0) / s


def karula_step(weighted_grad: WeightedGrad, project: Project, *, eta: float, s: int,
                sigma2: float, rng: np.random.Generator, reading: str = "B",
                estimator: str = "vr"):
    """The step function of Algorithm 1 for :func:`pflbounds.algorithms.driver.iterate`.

    The state holds ``theta`` (R, n, d), the table ``y``, the points ``phi`` where the table
    was evaluated (phi_i^{k+1} = theta_i^k for i in S_k) and ``z`` = theta - eta nu of the
    last step (the point that was projected).
    """
    if reading not in READINGS:
        raise ValueError(f"reading must be one of {READINGS}, got {reading!r}")
    if estimator not in ESTIMATORS:
        raise ValueError(f"estimator must be one of {ESTIMATORS}, got {estimator!r}")

    def step(st: dict[str, np.ndarray], k: int, costs: Costs) -> dict[str, np.ndarray]:
        theta, y = st["theta"], st["y"]
        R, n, d = theta.shape
        mask = sample_subsets(rng, R, n, s)[..., None]
        G = _oracle(weighted_grad, theta, sigma2, rng)
        nu = karula_estimate(G, y, mask, s, reading, estimator)
        z = theta - eta * nu
        new = dict(st)
        new["y"] = np.where(mask, G, y)
        if "phi" in st:
            new["phi"] = np.where(mask, theta, st["phi"])
        new["z"] = z
        new["theta"] = project(z)
        costs.add("rounds", 1.0)
        costs.add("grad_evals", float(s))
        costs.add("floats_sent", float(2 * s * d))
        costs.add("projections", 1.0)
        return new

    return step


def run_karula(
    weighted_grad: WeightedGrad,
    theta0: np.ndarray,
    project: Project,
    *,
    eta: float,
    s: int,
    K: int,
    rng: np.random.Generator,
    metrics: Mapping[str, Metric],
    sigma2: float = 0.0,
    reading: str = "B",
    estimator: str = "vr",
    record: Iterable[int] | None = None,
) -> Run:
    """Run Algorithm 1 for K rounds from theta0 (R, n, d) and record ``metrics`` (functions
    of the state) at ``record`` (default every k). See the module docstring."""
    theta0 = np.asarray(theta0, dtype=float)
    if theta0.ndim != 3:
        raise ValueError(f"theta0 must have shape (R, n, d), got {theta0.shape}")
    n = theta0.shape[1]
    if not 1 <= int(s) <= n:
        raise ValueError(f"s must lie in [1, n = {n}], got {s}")
    if eta <= 0 or sigma2 < 0:
        raise ValueError("eta must be > 0 and sigma2 >= 0")
    state = karula_state(theta0, weighted_grad, sigma2, rng)
    step = karula_step(weighted_grad, project, eta=eta, s=int(s), sigma2=sigma2, rng=rng,
                       reading=reading, estimator=estimator)
    run = iterate(state, step, K, metrics=metrics, record=record,
                  counters=("rounds", "grad_evals", "projections"))
    run.info.update(reading=reading, estimator=estimator, eta=eta, s=int(s), sigma2=sigma2)
    return run
