"""All-for-one (AFO) and All-for-all (AFA) with their baselines, vectorised over replicas and
agents.

References (even2022):
  * AFA, Algorithm 1: x^{k+1} = x^k - eta W g^k, g_j^k = grad ell(x_j^k, xi_j^k) (digest 3.2);
  * lifted recursion y^{k+1} = y^k - eta Lam^T g^k(Lam y^k), x^k = Lam y^k (digest 3.2, P10);
  * AFO / WGA, Eq. (2): x_i^{k+1} = x_i^k - eta_i sum_j lambda_ij grad ell(x_i^k, xi_j^k)
    (digest 3.1);
  * baselines: local SGD (W = I), single global model (W = 1 1^T / N), classical
    personalisation (digest 3.4);
  * AFA with estimated biases (Section 6, Theorem 4; digest 3.3).

Conventions: iterates have shape (R, N, d); the initialisation x0 (d,) is common to all agents
(digest section 8 #29). Randomness comes from one numpy Generator consumed in a fixed order
(one (R, N, d) block per iteration), so equal seeds give bitwise-equal runs; to split a sweep
into replica blocks, give each block its own generator (e.g. SeedSequence.spawn).
Python loops run over iterations only.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

import numpy as np

from pflbounds.algorithms.driver import Costs, iterate
from pflbounds.algorithms.protocols import MixtureProblem, StochasticProblem
from pflbounds.algorithms.trace import LiftedTrace, Trace
from pflbounds.problems.agent_ops import AgentMatrix, AgentOperator
from pflbounds.problems.clusters import interpolated_operator, spectral_radius

__all__ = [
    "afo_update",
    "run_afa",
    "run_afo",
    "run_local_sgd",
    "run_global_model",
    "run_interpolated",
    "run_afa_lifted",
    "run_afa_estimated",
    "stable_afa_step",
]

EtaRule = float | str | Callable[[np.ndarray], np.ndarray]


# ---------------------------------------------------------------------- helpers
def _initial(problem: StochasticProblem, x0: np.ndarray, R: int) -> np.ndarray:
    x0 = np.asarray(x0, dtype=np.float64)
    if x0.shape != (problem.d,):
        raise ValueError(
            f"x0 must be the common initialisation of shape ({problem.d},), got {x0.shape}"
        )
    if R < 1:
        raise ValueError(f"R must be >= 1, got {R}")
    return np.broadcast_to(x0, (R, problem.N, problem.d)).copy()


def _eta_array(eta: float | np.ndarray, N: int) -> float | np.ndarray:
    """Scalar step, or per-agent steps (N,) shaped for broadcasting against (R, N, d)."""
    e = np.asarray(eta, dtype=np.float64)
    if e.ndim == 0:
        if not e > 0:
            raise ValueError(f"step size eta must be > 0, got {float(e)}")
        return float(e)
    if e.shape != (N,):
        raise ValueError(f"eta must be a scalar or have shape ({N},), got {e.shape}")
    if np.any(e <= 0):
        raise ValueError("every step size eta_i must be > 0")
    return e[:, None]


Charge = Callable[[Costs], None]


def _run(
    problem: StochasticProblem,
    step: Callable[[np.ndarray], np.ndarray],
    K: int,
    x0: np.ndarray,
    R: int,
    record: Iterable[int] | None,
    store_iterates: bool,
    view: Callable[[np.ndarray], np.ndarray] | None = None,
    charge: Charge | None = None,
) -> tuple[Trace, list[np.ndarray]]:
    """Run ``X <- step(X)`` K times on the iteration driver; record the excess of view(X)
    (and the iterates when asked) and the cost counters charged by ``charge`` each step."""
    see = view if view is not None else (lambda X: X)
    metrics: dict[str, Callable[[Any], np.ndarray]] = {
        "excess": lambda s: problem.excess(see(s["X"]))
    }
    if store_iterates:
        metrics["iterates"] = lambda s: np.array(see(s["X"]))
        metrics["states"] = lambda s: np.array(s["X"])

    def drive(state: dict[str, np.ndarray], k: int, costs: Costs) -> dict[str, np.ndarray]:
        X = step(state["X"])
        if charge is not None:
            charge(costs)
        return {"X": X}

    run = iterate({"X": _initial(problem, x0, R)}, drive, K, metrics=metrics, record=record,
                  counters=COLLABORATIVE_COUNTERS)
    tr = Trace(
        ks=run.ks,
        excess=run.metrics["excess"],
        X_final=see(run.state["X"]),
        iterates=run.metrics.get("iterates"),
        costs=run.costs,
    )
    states = list(np.moveaxis(run.metrics["states"], 1, 0)) if store_iterates else []
    return tr, states


COLLABORATIVE_COUNTERS = ("rounds", "floats_sent", "samples", "grad_evals")
"""Counters of the collaborative methods (see :data:`pflbounds.algorithms.driver.COUNTERS`)."""


def _charge(N: int, d: int, *, rounds: float, grads: float, floats_per_round: float) -> Charge:
    """Per iteration: N fresh samples, ``grads`` gradient evaluations, ``rounds`` rounds
    moving ``floats_per_round`` floats each."""

    def charge(costs: Costs) -> None:
        costs.add("samples", N)
        costs.add("grad_evals", grads)
        if rounds:
            costs.add("rounds", rounds)
            costs.add("floats_sent", rounds * floats_per_round)

    return charge


def _mixing_charge(N: int, d: int) -> Charge:
    """AFA-type methods: one sample and one gradient per agent, one round in which every agent
    sends its gradient and receives its mixed direction (2 N d floats)."""
    return _charge(N, d, rounds=1, grads=N, floats_per_round=2 * N * d)


def _support_size(op: AgentOperator) -> float:
    """Number of nonzero weights lambda_ij (per replica for a stack: the largest)."""
    if op.kind == "sparse":
        return float(op.W.nnz)
    if op.kind == "linop":  # matrix-free (e.g. interpolated weights): every pair
        return float(op.N * op.N)
    return float(np.max(np.count_nonzero(op.W, axis=(-2, -1))))


def stable_afa_step(L: float, W: AgentMatrix) -> float | np.ndarray:
    """eta = 1 / (2 L rho(W)): the step that keeps AFA stable for any W = Lam Lam^T
    (digest section 3.2 "implementation rule", P11). Per replica for a stack (R, N, N)."""
    rho = spectral_radius(W.W if isinstance(W, AgentOperator) else W)
    return 1.0 / (2.0 * L * np.asarray(rho)) if np.ndim(rho) else 1.0 / (2.0 * L * float(rho))


# ---------------------------------------------------------------------- AFA
def run_afa(
    problem: StochasticProblem,
    W: AgentMatrix,
    eta: float | np.ndarray,
    K: int,
    x0: np.ndarray,
    R: int,
    rng: np.random.Generator,
    record: Iterable[int] | None = None,
    store_iterates: bool = False,
) -> Trace:
    """All-for-all, even2022 Algorithm 1: x^{k+1} = x^k - eta W g^k (digest section 3.2).

    g_j^k is one stochastic gradient of agent j at its own x_j^k. W: any (N, N) matrix (dense,
    scipy.sparse, LinearOperator) or a per-replica stack (R, N, N); the paper's choice is
    W = Lam Lam^T. eta: scalar or per-agent (N,) (x^{k+1} = x^k - diag(eta) W g^k).
    Stability needs eta <= 1/(2 L rho(W)) in general (digest P11; :func:`stable_afa_step`).
    """
    op = W if isinstance(W, AgentOperator) else AgentOperator(W, problem.N)
    e = _eta_array(eta, problem.N)

    def step(X: np.ndarray) -> np.ndarray:
        return X - e * op.apply(problem.grad(X, rng))

    tr, _ = _run(problem, step, K, x0, R, record, store_iterates,
                 charge=_mixing_charge(problem.N, problem.d))
    tr.info.update(method="afa", eta=eta)
    return tr


def run_local_sgd(
    problem: StochasticProblem,
    eta: float | np.ndarray,
    K: int,
    x0: np.ndarray,
    R: int,
    rng: np.random.Generator,
    record: Iterable[int] | None = None,
    store_iterates: bool = False,
) -> Trace:
    """No collaboration: AFA with W = I (digest section 3.4), x_j^{k+1} = x_j^k - eta g_j^k."""
    e = _eta_array(eta, problem.N)

    def step(X: np.ndarray) -> np.ndarray:
        return X - e * problem.grad(X, rng)

    tr, _ = _run(problem, step, K, x0, R, record, store_iterates,
                 charge=_charge(problem.N, problem.d, rounds=0, grads=problem.N,
                                floats_per_round=0))
    tr.info.update(method="local_sgd", eta=eta)
    return tr


def run_global_model(
    problem: StochasticProblem,
    eta: float,
    K: int,
    x0: np.ndarray,
    R: int,
    rng: np.random.Generator,
    record: Iterable[int] | None = None,
    store_iterates: bool = False,
) -> Trace:
    """Single global model: AFA with W = 1 1^T / N (digest section 3.4). With the common
    initialisation all agents share one model x^{k+1} = x^k - eta (1/N) sum_j g_j^k; the
    mixing costs O(N d) per replica instead of O(N^2 d)."""
    e = _eta_array(eta, problem.N)

    def step(X: np.ndarray) -> np.ndarray:
        G = problem.grad(X, rng)
        return X - e * G.mean(axis=1, keepdims=True)

    tr, _ = _run(problem, step, K, x0, R, record, store_iterates,
                 charge=_mixing_charge(problem.N, problem.d))
    tr.info.update(method="global_model", eta=eta)
    return tr


def run_afa_lifted(
    problem: StochasticProblem,
    Lam: AgentMatrix,
    eta: float,
    K: int,
    x0: np.ndarray,
    R: int,
    rng: np.random.Generator,
    record: Iterable[int] | None = None,
) -> LiftedTrace:
    """Lifted AFA recursion y^{k+1} = y^k - eta Lam^T g^k(Lam y^k), y^0 = 1 x0 (even2022 proof
    of Theorem 3; digest section 3.2 with the Lam^T correction of section 8 #11, P10).

    Consumes the generator exactly like :func:`run_afa` with W = Lam Lam^T, so with the same
    seed x^k = Lam y^k reproduces AFA's iterates to rounding. Returns x^k = Lam y^k in
    ``iterates`` and y^k in ``y_iterates`` (both (R, n_rec, N, d)); excess is that of x^k.
    """
    op = Lam if isinstance(Lam, AgentOperator) else AgentOperator(Lam, problem.N)
    opT = op.transpose()
    e = _eta_array(eta, problem.N)

    def step(Y: np.ndarray) -> np.ndarray:
        return Y - e * opT.apply(problem.grad(op.apply(Y), rng))

    tr, states = _run(problem, step, K, x0, R, record, True, view=op.apply,
                      charge=_mixing_charge(problem.N, problem.d))
    out = LiftedTrace(
        ks=tr.ks,
        excess=tr.excess,
        X_final=tr.X_final,
        iterates=tr.iterates,
        info={"method": "afa_lifted", "eta": eta},
        costs=tr.costs,
        y_iterates=np.stack(states, axis=1),
    )
    return out


# ---------------------------------------------------------------------- AFO
def afo_update(
    problem: MixtureProblem,
    X: np.ndarray,
    Lam: AgentOperator,
    eta: float | np.ndarray,
    rng: np.random.Generator,
) -> np.ndarray:
    """One All-for-one step, even2022 Eq. (2): x_i - eta_i sum_j lambda_ij grad ell(x_i, xi_j)
    with one fresh sample xi_j per agent reused for every i (``problem.sample_noise`` then
    ``problem.mixed_grad``). ``eta``: scalar or shaped to broadcast against X (R, N, d). Shared
    by :func:`run_afo` and the adaptive runner (weights recomputed each step)."""
    noise = problem.sample_noise(X.shape[0], rng)
    return X - eta * problem.mixed_grad(X, Lam, noise)


def run_afo(
    problem: MixtureProblem,
    Lam: AgentMatrix,
    eta: float | np.ndarray,
    K: int,
    x0: np.ndarray,
    R: int,
    rng: np.random.Generator,
    record: Iterable[int] | None = None,
    store_iterates: bool = False,
) -> Trace:
    """All-for-one (N parallel weighted gradient averagings), even2022 Eq. (2):
    x_i^{k+1} = x_i^k - eta_i sum_j lambda_ij grad ell(x_i^k, xi_j^k) (digest section 3.1).

    One fresh sample per agent j per iteration, reused for every i. eta scalar or per agent
    (N,) (Eq. (6) is per agent). Lam dense, sparse, LinearOperator or a per-replica stack.
    Needs ``problem.sample_noise`` and ``problem.mixed_grad`` (:class:`MixtureProblem`).
    """
    op = Lam if isinstance(Lam, AgentOperator) else AgentOperator(Lam, problem.N)
    e = _eta_array(eta, problem.N)

    def step(X: np.ndarray) -> np.ndarray:
        return afo_update(problem, X, op, e, rng)

    # agent j evaluates grad l(x_i, xi_j) for every i with lambda_ij != 0: it receives x_i and
    # sends the gradient back (2 d floats per pair)
    pairs = _support_size(op)
    tr, _ = _run(problem, step, K, x0, R, record, store_iterates,
                 charge=_charge(problem.N, problem.d, rounds=1, grads=pairs,
                                floats_per_round=2 * pairs * problem.d))
    tr.info.update(method="afo", eta=eta)
    return tr


# ---------------------------------------------------------------------- classical personalisation
def run_interpolated(
    problem: StochasticProblem,
    alpha: float | np.ndarray,
    eta: float | np.ndarray,
    K: int,
    x0: np.ndarray,
    R: int,
    rng: np.random.Generator,
    record: Iterable[int] | None = None,
    method: str = "afa",
    store_iterates: bool = False,
) -> Trace:
    """Classical personalisation weights lambda_ii = 1 - alpha_i, lambda_ij = alpha_i/(N-1)
    (digest section 3.4), run through AFA (W = Lam Lam^T, default) or AFO (``method="afo"``).
    The weights are applied matrix-free in O(N d) per replica."""
    Lam = interpolated_operator(problem.N, alpha)
    if method == "afa":
        W = Lam @ Lam.T
        tr = run_afa(problem, W, eta, K, x0, R, rng, record, store_iterates)
    elif method == "afo":
        tr = run_afo(problem, Lam, eta, K, x0, R, rng, record, store_iterates)  # type: ignore[arg-type]
    else:
        raise ValueError(f"method must be 'afa' or 'afo', got {method!r}")
    tr.info.update(method=f"interpolated_{method}", alpha=alpha)
    return tr


# ---------------------------------------------------------------------- estimated biases
def run_afa_estimated(
    problem: Any,
    S: int,
    u: float,
    eta_rule: EtaRule,
    K: int,
    x0: np.ndarray,
    R: int,
    rng: np.random.Generator,
    record: Iterable[int] | None = None,
    store_iterates: bool = False,
) -> Trace:
    """AFA with estimated biases (even2022 Section 6, Theorem 4; digest section 3.3).

    Per replica: bhat^2 from S samples per agent (``problem.estimate_biases``), Lamhat_ij =
    1{bhat_ij^2 <= u} / Nhat_i, What = Lamhat Lamhat^T (batched (R, N, N) matmul), then AFA
    with What. ``eta_rule``: a float (same step everywhere), "stable" for the per-replica
    eta_r = 1/(2 L rho(What_r)) (digest 4.11 caveat), or a callable mapping the (R, N, N)
    stack What to steps (R,). ``problem`` is a GaussianMeans (or anything with
    ``estimate_biases``, ``estimated_weights``, ``grad``, ``excess``, ``L``).

    ``info`` holds Lam_hat (R, N, N), eta (R,) and ``exact_recovery`` (R,) = whether Lamhat
    equals the true cluster weights (when the problem offers ``true_weights``).
    """
    bhat2 = problem.estimate_biases(S, R, rng)
    Lam_hat = problem.estimated_weights(bhat2, u)
    W_hat = np.matmul(Lam_hat, np.swapaxes(Lam_hat, 1, 2))
    if isinstance(eta_rule, str):
        if eta_rule != "stable":
            raise ValueError(f"eta_rule must be a float, 'stable' or a callable, got {eta_rule!r}")
        eta_r = 1.0 / (2.0 * problem.L * np.asarray(spectral_radius(W_hat)))
    elif callable(eta_rule):
        eta_r = np.broadcast_to(np.asarray(eta_rule(W_hat), dtype=np.float64), (R,)).copy()
    else:
        eta_r = np.full(R, float(eta_rule))
    if np.any(eta_r <= 0):
        raise ValueError("step sizes must be > 0")
    op = AgentOperator(W_hat, problem.N)
    e = eta_r[:, None, None]

    def step(X: np.ndarray) -> np.ndarray:
        return X - e * op.apply(problem.grad(X, rng))

    tr, _ = _run(problem, step, K, x0, R, record, store_iterates,
                 charge=_mixing_charge(problem.N, problem.d))
    tr.costs["samples"] = tr.costs["samples"] + float(S * problem.N)  # the bias estimation
    info: dict[str, Any] = {"method": "afa_estimated", "S": S, "u": u, "eta": eta_r}
    info["Lam_hat"] = Lam_hat
    if hasattr(problem, "true_weights"):
        info["exact_recovery"] = np.all(Lam_hat == problem.true_weights()[None], axis=(1, 2))
    tr.info.update(info)
    return tr
