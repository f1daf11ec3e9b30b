"""Optimizers for personalized FL objectives in the (w, beta) form (hanzely2023 §4): local SGD
with personal parameters, and randomized block coordinate methods that update the global block
w with probability p_w and the personal blocks otherwise, with acceleration and/or control
variates. All run on the iteration driver, vectorised over replicas and clients.

The problem supplies per-client block gradients (:class:`ClientBlockOracle`), full
(grad f_m) or of one finite-sum component (grad f_{m,j}), for F = (1/M) sum_m f_m; e.g.
:class:`pflbounds.problems.pfl_objectives.PFLObjective`. Step parameters are inputs: a
paper's theorem computes them (hanzely2023 Theorems 7-9), the method only runs.

Best readings of hanzely2023 (digest §8), the defaults here:
* beta-steps use grad_{beta_m} F = (1/M) grad_beta f_m (Algorithms 1, 2; ``beta_scale``
  ``"F"``; ``"literal"`` runs the printed step);
* ACD-PFL updates w with probability p_w (Algorithm 2's branch label is swapped) and sets
  y = x on the block it does not sample;
* ASVRCD-PFL is Algorithm 4 (not the lifted Algorithm 3), the snapshot refresh coin is shared
  by w and every beta_m and the gradient uses V^k before V^{k+1} = Y^k;
* SVRCD-PFL subtracts the control variate at the snapshot (``control_variate=False`` runs
  Algorithm 7 as printed, a biased estimator).

Cost counters (per client: every client works in parallel; multiply by M for totals):
``iterations``; ``rounds`` (communication rounds); ``grad_w``/``grad_beta``: full local
gradients grad_w f_m / grad_beta f_m; ``grad_w_stochastic``/``grad_beta_stochastic``:
stochastic gradients (one finite-sum component or one minibatch sample each). A full
gradient of an n-component f_m is charged once to ``grad_*`` and n times to
``grad_*_stochastic`` in the finite-sum methods (ASVRCD, SVRCD refreshes).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Protocol, runtime_checkable

import numpy as np

from pflbounds.algorithms.driver import Costs, Run, iterate

__all__ = [
    "COUNTERS",
    "ClientBlockOracle",
    "run_acd_pfl",
    "run_ascd_pfl",
    "run_asvrcd_pfl",
    "run_lsgd_pfl",
    "run_scd_pfl",
    "run_svrcd_pfl",
    "svrcd_estimator",
]

COUNTERS = ("iterations", "rounds", "grad_w", "grad_beta", "grad_w_stochastic",
            "grad_beta_stochastic")


@runtime_checkable
class ClientBlockOracle(Protocol):
    """Per-client block gradients of F(w, beta) = (1/M) sum_m f_m(w, beta_m)."""

    M: int
    n: int
    d0: int
    d1: int

    def client_grads(self, W: np.ndarray, beta: np.ndarray, idx: np.ndarray | None = None
                     ) -> tuple[np.ndarray, np.ndarray]:
        """(grad_w f_m, grad_beta f_m) (R, M, d0), (R, M, d1) at W (R, d0) or (R, M, d0) and
        beta (R, M, d1); of the component f_{m, idx} when idx ((R,) or (R, M)) is given."""
        ...

    def excess(self, w: np.ndarray, beta: np.ndarray) -> np.ndarray:
        """F(w, beta) - F^*, (R,)."""
        ...


def _start(problem: ClientBlockOracle, R: int, w0, beta0) -> tuple[np.ndarray, np.ndarray]:
    w = np.zeros((R, problem.d0)) if w0 is None else np.broadcast_to(
        np.asarray(w0, dtype=float), (R, problem.d0)).copy()
    b = np.zeros((R, problem.M, problem.d1)) if beta0 is None else np.broadcast_to(
        np.asarray(beta0, dtype=float), (R, problem.M, problem.d1)).copy()
    return w, b


def _beta_factor(problem: ClientBlockOracle, beta_scale: str) -> float:
    if beta_scale not in ("F", "literal"):
        raise ValueError(f"beta_scale must be 'F' (gradient of F) or 'literal', got "
                         f"{beta_scale!r}")
    return 1.0 / problem.M if beta_scale == "F" else 1.0


def _metrics(problem: ClientBlockOracle, wkey: str, bkey: str, extra: Mapping | None = None):
    out = {"excess": lambda st: problem.excess(st[wkey], st[bkey])}
    if hasattr(problem, "distance2"):
        out["distance2"] = lambda st: problem.distance2(st[wkey], st[bkey])
    out.update(extra or {})
    return out


def _check_p(name: str, p: float) -> None:
    if not 0.0 < p < 1.0:
        raise ValueError(f"{name} must lie in (0, 1), got {p}")


def _w(mask: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """a where the replica's mask is set, else b (broadcast over trailing axes)."""
    return np.where(mask.reshape(-1, *([1] * (a.ndim - 1))), a, b)


def average_weight(k: int, q: float) -> float:
    """Weight of the newest virtual iterate when the running average of iterates 0..k+1
    (weights proportional to q^(k+1-t), hanzely2023 Theorem 5 with q = 1 - eta mu) takes it
    in: 1 / sum_{t<=k+1} q^(k+1-t), i.e. 1/(k+2) for q = 1, else (1 - q)/(1 - q^(k+2))."""
    return 1.0 / (k + 2) if q == 1.0 else (1 - q) / (1 - q ** (k + 2))


# ------------------------------------------------------------------------------ LSGD-PFL
def run_lsgd_pfl(problem: ClientBlockOracle, eta: float | np.ndarray, tau: int, K: int,
                 R: int, rng: np.random.Generator, *, sigma2: float = 0.0, B: int = 1,
                 mu: float = 0.0, beta_scale: str = "F", w0=None, beta0=None,
                 record: Iterable[int] | None = None,
                 extra_metrics: Mapping[str, Callable[[dict], np.ndarray]] | None = None,
                 components: bool = False) -> Run:
    """LSGD-PFL (hanzely2023 Algorithm 1): each client takes a stochastic gradient step on its
    copy w_m and on beta_m; every tau iterations (at k mod tau = 0) the server averages the
    w_m. Stochastic gradients are the exact local gradients plus Gaussian noise of total
    variance sigma^2/B on each block of each client (Assumption 3 with equality).

    Metrics: ``excess`` F(w^k, beta^k) - F^* at the virtual iterate w^k = mean_m w_m^k;
    ``excess_avg`` at Theorem 5's weighted average of the virtual iterates k = 0..K, weights
    (1 - eta mu)^(-k-1) (uniform when mu = 0); ``consensus`` V_k = mean_m ||w^k - w_m^k||^2.

    ``eta``: a constant step, or the steps eta_0..eta_{K-1} (Theorem 4's decreasing rule;
    then mu = 0, the weights of ``excess_avg`` being defined for a constant step only).
    ``components``: each client's stochastic gradient is that of one uniformly sampled
    finite-sum component f_{m,j} (B = 1, the data-point oracle of Eq. (3); ``sigma2`` unused)
    instead of the exact gradient plus Gaussian noise.
    ``extra_metrics``: more metrics of the state (``W`` the local copies (R, M, d0) as left by
    the last step, before the averaging of the next round; ``beta`` (R, M, d1)).
    """
    etas = np.asarray(eta, dtype=float) if np.ndim(eta) else None
    if etas is not None and (etas.shape != (K,) or mu != 0):
        raise ValueError(f"a step sequence needs K = {K} steps and mu = 0, got "
                         f"{np.shape(eta)} steps and mu = {mu}")
    if tau < 1 or np.any(np.asarray(eta) <= 0) or B < 1 or sigma2 < 0:
        raise ValueError(f"need tau >= 1, eta > 0, B >= 1, sigma2 >= 0; got tau={tau}, "
                         f"eta={eta}, B={B}, sigma2={sigma2}")
    fb = _beta_factor(problem, beta_scale)
    w, beta = _start(problem, R, w0, beta0)
    M, d0, d1 = problem.M, problem.d0, problem.d1
    sw = np.sqrt(sigma2 / (B * max(d0, 1)))
    sb = np.sqrt(sigma2 / (B * max(d1, 1)))
    q = 1.0 - eta * mu if etas is None else 1.0
    state = {"W": np.repeat(w[:, None], M, axis=1), "beta": beta, "avg_w": w.copy(),
             "avg_beta": beta.copy()}

    def step(st: dict, k: int, costs: Costs) -> dict:
        W = st["W"]
        if k % tau == 0:
            W = np.repeat(W.mean(1, keepdims=True), M, axis=1)
            costs.add("rounds", 1)
        if components:
            gw, gb = problem.client_grads(W, st["beta"], rng.integers(problem.n, size=(R, M)))
        else:
            gw, gb = problem.client_grads(W, st["beta"])
        if sigma2 > 0 and not components:
            gw = gw + sw * rng.standard_normal(gw.shape)
            gb = gb + sb * rng.standard_normal(gb.shape)
        e = eta if etas is None else etas[k]
        W = W - e * gw
        beta = st["beta"] - e * fb * gb
        r = average_weight(k, q)  # the running weighted average of the virtual iterates
        wv = W.mean(1)
        costs.add("iterations", 1)
        costs.add("grad_w_stochastic", B)
        costs.add("grad_beta_stochastic", B)
        return {"W": W, "beta": beta, "avg_w": st["avg_w"] + r * (wv - st["avg_w"]),
                "avg_beta": st["avg_beta"] + r * (beta - st["avg_beta"])}

    metrics = {
        "excess": lambda st: problem.excess(st["W"].mean(1), st["beta"]),
        "excess_avg": lambda st: problem.excess(st["avg_w"], st["avg_beta"]),
        "consensus": lambda st: ((st["W"] - st["W"].mean(1, keepdims=True)) ** 2).sum(-1)
        .mean(-1),
        **(extra_metrics or {}),
    }
    return iterate(state, step, K, metrics=metrics, record=record, counters=COUNTERS)


# ------------------------------------------------------------------------------ ACD-PFL
def run_acd_pfl(problem: ClientBlockOracle, *, Lw: float, Lb: float, nu: float, theta: float,
                eta: float, pw: float, K: int, R: int, rng: np.random.Generator,
                beta_scale: str = "F", unsampled_y: str = "x", w0=None, beta0=None,
                record: Iterable[int] | None = None) -> Run:
    """ACD-PFL (hanzely2023 Algorithm 2): accelerated coordinate descent over the two blocks.

    x = (1 - theta) y + theta z; with probability p_w, y_w = x_w - grad_w F(x)/L^w and
    z_w = (z_w + eta nu x_w - eta/(sqrt(L^w)(sqrt(L^w) + sqrt(L^beta))) grad_w F(x))/(1 +
    eta nu), z_beta = (z_beta + eta nu x_beta)/(1 + eta nu); otherwise the same on beta with
    grad_beta F = (1/M) grad_beta f_m. ``unsampled_y``: ``"x"`` (y = x on the other block,
    standard ACD) or ``"keep"``. Metric ``excess`` at y. Each w-step costs one round and one
    grad_w f_m per client, each beta-step one grad_beta f_m.
    """
    _check_p("p_w", pw)
    if unsampled_y not in ("x", "keep"):
        raise ValueError(f"unsampled_y must be 'x' or 'keep', got {unsampled_y!r}")
    fb = _beta_factor(problem, beta_scale)
    w, beta = _start(problem, R, w0, beta0)
    cw = eta / (np.sqrt(Lw) * (np.sqrt(Lw) + np.sqrt(Lb)))
    cb = eta / (np.sqrt(Lb) * (np.sqrt(Lw) + np.sqrt(Lb)))
    den = 1.0 + eta * nu
    state = {"wy": w, "wz": w.copy(), "by": beta, "bz": beta.copy()}

    def step(st: dict, k: int, costs: Costs) -> dict:
        wx = (1 - theta) * st["wy"] + theta * st["wz"]
        bx = (1 - theta) * st["by"] + theta * st["bz"]
        on_w = rng.random(R) < pw
        gw_c, gb_c = problem.client_grads(wx, bx)
        gw, gb = gw_c.mean(1), fb * gb_c
        wz_pull = (st["wz"] + eta * nu * wx) / den
        bz_pull = (st["bz"] + eta * nu * bx) / den
        keep_w, keep_b = (wx, bx) if unsampled_y == "x" else (st["wy"], st["by"])
        new = {
            "wy": _w(on_w, wx - gw / Lw, keep_w),
            "wz": _w(on_w, wz_pull - cw * gw / den, wz_pull),
            "by": _w(on_w, keep_b, bx - gb / Lb),
            "bz": _w(on_w, bz_pull, bz_pull - cb * gb / den),
        }
        costs.add("iterations", 1)
        costs.add("rounds", on_w.astype(float))
        costs.add("grad_w", on_w.astype(float))
        costs.add("grad_beta", (~on_w).astype(float))
        return new

    return iterate(state, step, K, metrics=_metrics(problem, "wy", "by"), record=record,
                   counters=COUNTERS)


def _refresh(problem: ClientBlockOracle, st: Mapping[str, np.ndarray], new: dict,
             refresh: np.ndarray, on_w: np.ndarray, per_step: float, costs: Costs) -> None:
    """The snapshot's full gradients in ``new`` (recomputed where ``refresh``), and the costs
    of a control-variate iteration: ``per_step`` component gradients of the sampled block,
    n of each block and a round per refresh, a round per w-step."""
    if refresh.any():
        gw_new, gb_new = problem.client_grads(new["wv"], new["bv"])
        new["gw_v"] = _w(refresh, gw_new.mean(1), st["gw_v"])
        new["gb_v"] = _w(refresh, gb_new, st["gb_v"])
    else:
        new["gw_v"], new["gb_v"] = st["gw_v"], st["gb_v"]
    rf = refresh.astype(float)
    costs.add("iterations", 1)
    costs.add("rounds", np.maximum(on_w.astype(float), rf))
    costs.add("grad_w_stochastic", per_step * on_w + problem.n * rf)
    costs.add("grad_beta_stochastic", per_step * (~on_w) + problem.n * rf)
    costs.add("grad_w", rf)
    costs.add("grad_beta", rf)


# ------------------------------------------------------------------------------ ASVRCD-PFL
def run_asvrcd_pfl(problem: ClientBlockOracle, *, eta: float, theta1: float, theta2: float,
                   gamma: float, nu: float, rho: float, pw: float, K: int, R: int,
                   rng: np.random.Generator, w0=None, beta0=None,
                   record: Iterable[int] | None = None,
                   extra_metrics: Mapping[str, Callable[[dict], np.ndarray]] | None = None
                   ) -> Run:
    """ASVRCD-PFL (hanzely2023 Algorithm 4): accelerated block coordinate descent with control
    variates at a snapshot v refreshed with probability rho.

    x = theta1 z + theta2 v + (1 - theta1 - theta2) y; a shared index j ~ U{1..n}; with
    probability p_w, g_w = (1/p_w)(mean_m grad_w f_{m,j}(x) - mean_m grad_w f_{m,j}(v)) +
    grad_w F(v) and g_beta,m = (1/M) grad_beta f_m(v); otherwise g_w = grad_w F(v) and
    g_beta,m = (1/(p_beta M))(grad_beta f_{m,j}(x) - grad_beta f_{m,j}(v)) + (1/M) grad_beta
    f_m(v). y' = x - eta g, z' = nu z + (1 - nu) x + (gamma/eta)(y' - x), v' = y w.p. rho.
    Rounds: one per w-step (the averaged w-gradient difference) and one per refresh (the
    full grad_w F(v)). Metric ``excess`` at y.
    """
    _check_p("p_w", pw)
    _check_p("rho", rho)
    n, M = problem.n, problem.M
    w, beta = _start(problem, R, w0, beta0)
    gwv, gbv = problem.client_grads(w, beta)
    state = {"wy": w, "wz": w.copy(), "wv": w.copy(), "by": beta, "bz": beta.copy(),
             "bv": beta.copy(), "gw_v": gwv.mean(1), "gb_v": gbv}

    def step(st: dict, k: int, costs: Costs) -> dict:
        t0 = 1 - theta1 - theta2
        wx = theta1 * st["wz"] + theta2 * st["wv"] + t0 * st["wy"]
        bx = theta1 * st["bz"] + theta2 * st["bv"] + t0 * st["by"]
        j = rng.integers(n, size=R)
        on_w = rng.random(R) < pw
        refresh = rng.random(R) < rho
        gxw, gxb = problem.client_grads(wx, bx, j)
        gvw, gvb = problem.client_grads(st["wv"], st["bv"], j)
        gw = _w(on_w, (gxw.mean(1) - gvw.mean(1)) / pw + st["gw_v"], st["gw_v"])
        gb = _w(on_w, st["gb_v"] / M, (gxb - gvb) / ((1 - pw) * M) + st["gb_v"] / M)
        wy, by = wx - eta * gw, bx - eta * gb
        new = {"wy": wy, "by": by,
               "wz": nu * st["wz"] + (1 - nu) * wx + gamma / eta * (wy - wx),
               "bz": nu * st["bz"] + (1 - nu) * bx + gamma / eta * (by - bx),
               "wv": _w(refresh, st["wy"], st["wv"]), "bv": _w(refresh, st["by"], st["bv"])}
        _refresh(problem, st, new, refresh, on_w, 2.0, costs)
        return new

    return iterate(state, step, K, metrics=_metrics(problem, "wy", "by", extra_metrics),
                   record=record, counters=COUNTERS)


# ------------------------------------------------------------------------------ ASCD-PFL
def run_ascd_pfl(problem: ClientBlockOracle, *, eta: float, theta: float, gamma: float,
                 nu: float, pw: float, K: int, R: int, rng: np.random.Generator, w0=None,
                 beta0=None, record: Iterable[int] | None = None,
                 extra_metrics: Mapping[str, Callable[[dict], np.ndarray]] | None = None
                 ) -> Run:
    """ASCD-PFL (hanzely2023 Algorithm 5, Appendix A): ASVRCD-PFL without control variates.

    x = theta z + (1 - theta) y; with probability p_w, g_w = (1/(p_w M)) sum_m grad_w
    f_{m,j}(x) updates (y_w, z_w) only; otherwise g_beta,m = (1/(p_beta M)) grad_beta
    f_{m,j}(x) updates (y_beta, z_beta) only (the other block keeps y and z). No theory in
    the paper. One round per w-step. Metric ``excess`` at y.
    """
    _check_p("p_w", pw)
    n, M = problem.n, problem.M
    w, beta = _start(problem, R, w0, beta0)
    state = {"wy": w, "wz": w.copy(), "by": beta, "bz": beta.copy()}

    def step(st: dict, k: int, costs: Costs) -> dict:
        wx = theta * st["wz"] + (1 - theta) * st["wy"]
        bx = theta * st["bz"] + (1 - theta) * st["by"]
        j = rng.integers(n, size=R)
        on_w = rng.random(R) < pw
        gxw, gxb = problem.client_grads(wx, bx, j)
        gw = gxw.sum(1) / (pw * M)
        gb = gxb / ((1 - pw) * M)
        wy, by = wx - eta * gw, bx - eta * gb
        wz = nu * st["wz"] + (1 - nu) * wx + gamma / eta * (wy - wx)
        bz = nu * st["bz"] + (1 - nu) * bx + gamma / eta * (by - bx)
        costs.add("iterations", 1)
        costs.add("rounds", on_w.astype(float))
        costs.add("grad_w_stochastic", on_w.astype(float))
        costs.add("grad_beta_stochastic", (~on_w).astype(float))
        return {"wy": _w(on_w, wy, st["wy"]), "wz": _w(on_w, wz, st["wz"]),
                "by": _w(on_w, st["by"], by), "bz": _w(on_w, st["bz"], bz)}

    return iterate(state, step, K, metrics=_metrics(problem, "wy", "by", extra_metrics),
                   record=record, counters=COUNTERS)


# ------------------------------------------------------------------------------ SCD-PFL
def _etas(eta: float | tuple[float, float]) -> tuple[float, float]:
    if isinstance(eta, tuple):
        return float(eta[0]), float(eta[1])
    return float(eta), float(eta)


def run_scd_pfl(problem: ClientBlockOracle, *, eta: float | tuple[float, float], pw: float,
                K: int, R: int, rng: np.random.Generator, full: bool = False, w0=None,
                beta0=None, record: Iterable[int] | None = None) -> Run:
    """SCD-PFL (hanzely2023 Algorithm 6): with probability p_w, w <- w - eta (1/(p_w M))
    sum_m grad_w f_{m,j_m}(w, beta_m); otherwise beta_m <- beta_m - eta (1/(p_beta M))
    grad_beta f_{m,j_m}(w, beta_m), with j_m ~ U{1..n} drawn independently per client.
    ``full``: full local gradients (n = 1, the non-accelerated baseline of coordinate
    descent); ``eta`` may be one step or (eta_w, eta_beta). No theory in the paper.
    """
    _check_p("p_w", pw)
    ew, eb = _etas(eta)
    n, M = problem.n, problem.M
    w, beta = _start(problem, R, w0, beta0)
    wkey, bkey = ("grad_w", "grad_beta") if full else ("grad_w_stochastic",
                                                       "grad_beta_stochastic")

    def step(st: dict, k: int, costs: Costs) -> dict:
        idx = None if full else rng.integers(n, size=(R, M))
        on_w = rng.random(R) < pw
        gw, gb = problem.client_grads(st["w"], st["beta"], idx)
        costs.add("iterations", 1)
        costs.add("rounds", on_w.astype(float))
        costs.add(wkey, on_w.astype(float))
        costs.add(bkey, (~on_w).astype(float))
        return {"w": _w(on_w, st["w"] - ew * gw.sum(1) / (pw * M), st["w"]),
                "beta": _w(on_w, st["beta"], st["beta"] - eb * gb / ((1 - pw) * M))}

    return iterate({"w": w, "beta": beta}, step, K, metrics=_metrics(problem, "w", "beta"),
                   record=record, counters=COUNTERS)


# ------------------------------------------------------------------------------ SVRCD-PFL
def svrcd_estimator(problem: ClientBlockOracle, st: Mapping[str, np.ndarray],
                    idx: np.ndarray, on_w: np.ndarray, pw: float, control_variate: bool = True
                    ) -> tuple[np.ndarray, np.ndarray]:
    """SVRCD-PFL's gradient estimator (hanzely2023 Algorithm 7) at y = (st["w"], st["beta"])
    with snapshot v = (st["wv"], st["bv"]) and stored grad_w F(v) (st["gw_v"]) and
    grad_beta f_m(v) (st["gb_v"]), for component indices ``idx`` (R, M) and the block coin
    ``on_w`` (R,): the estimate of (grad_w F, grad_beta F), shapes (R, d0), (R, M, d1)."""
    M = problem.M
    gyw, gyb = problem.client_grads(st["w"], st["beta"], idx)
    if control_variate:  # the printed estimator skips the snapshot's component gradients
        gvw, gvb = problem.client_grads(st["wv"], st["bv"], idx)
        gyw, gyb = gyw - gvw, gyb - gvb
    gw = _w(on_w, gyw.sum(1) / (pw * M) + st["gw_v"], st["gw_v"])
    gb = _w(on_w, st["gb_v"] / M, gyb / ((1 - pw) * M) + st["gb_v"] / M)
    return gw, gb


def run_svrcd_pfl(problem: ClientBlockOracle, *, eta: float, pw: float, rho: float, K: int,
                  R: int, rng: np.random.Generator, control_variate: bool = True, w0=None,
                  beta0=None, record: Iterable[int] | None = None) -> Run:
    """SVRCD-PFL (hanzely2023 Algorithm 7, with its control-variate correction): with
    probability p_w, g_w = (1/(p_w M)) sum_m [grad_w f_{m,j_m}(y) - grad_w f_{m,j_m}(v)] +
    grad_w F(v), g_beta,m = (1/M) grad_beta f_m(v); otherwise g_w = grad_w F(v) and g_beta,m
    = (1/(p_beta M)) [grad_beta f_{m,j_m}(y) - grad_beta f_{m,j_m}(v)] + (1/M) grad_beta
    f_m(v); y <- y - eta g; v <- y (before the step) w.p. rho. ``control_variate=False``: the
    printed Algorithm 7, without the -grad f_{m,j_m}(v) terms (a biased estimator).
    """
    _check_p("p_w", pw)
    _check_p("rho", rho)
    n, M = problem.n, problem.M
    w, beta = _start(problem, R, w0, beta0)
    gwv, gbv = problem.client_grads(w, beta)
    cv = 1.0 if control_variate else 0.0
    state = {"w": w, "beta": beta, "wv": w.copy(), "bv": beta.copy(), "gw_v": gwv.mean(1),
             "gb_v": gbv}

    def step(st: dict, k: int, costs: Costs) -> dict:
        idx = rng.integers(n, size=(R, M))
        on_w = rng.random(R) < pw
        refresh = rng.random(R) < rho
        gw, gb = svrcd_estimator(problem, st, idx, on_w, pw, control_variate)
        new = {"w": st["w"] - eta * gw, "beta": st["beta"] - eta * gb,
               "wv": _w(refresh, st["w"], st["wv"]), "bv": _w(refresh, st["beta"], st["bv"])}
        _refresh(problem, st, new, refresh, on_w, 1.0 + cv, costs)
        return new

    return iterate(state, step, K, metrics=_metrics(problem, "w", "beta"), record=record,
                   counters=COUNTERS)
