"""Throughput of the vectorised AFA and AFO runners (agent-steps per second).

An agent-step is one update of one agent's model in one replica; a run of K iterations with
R replicas and N agents makes R*N*K agent-steps. Each vectorised runner is compared with

  (a) a plain per-agent Python loop, the way federated-learning simulators usually write it
      (a gradient call per agent, then a loop over the neighbours j with W_ij > 0); its work is
      capped by timing a fixed budget of agent updates and extrapolating;
  (b) the bare numpy/scipy product of the agent matrix with an (N, R*d) array, the one
      unavoidable mixing operation per iteration (a ceiling for the vectorised runner).

The last column is the rate allowed by drawing the (R, N, d) Gaussian noise alone; for sparse
W the draw, not the mixing, bounds the runner. Timings take the best of 3 rounds.

Problem: the quadratic family Q (d = 50, shared isotropic noise). Agent matrices: dense
Sinkhorn-normalised Lambda for N <= 1000; for N = 10000 the circulant 5-NN ring (Lambda with
11 nonzeros per row, W = Lambda Lambda^T with 21), stored sparse.

Run:  python benchmarks/bench_collaborative.py [--quick]

On a machine whose cores are busy with other work, OPENBLAS_NUM_THREADS=1 gives steadier
figures (a spinning BLAS thread pool competes for the busy core).
"""

from __future__ import annotations

import argparse
import os
import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp

from pflbounds.algorithms import run_afa, run_afo
from pflbounds.problems import QuadraticFamily, regular_graph_weights, sinkhorn


@dataclass
class Row:
    method: str
    N: int
    structure: str
    vectorised: float
    loop: float
    ceiling: float
    rng_rate: float


def _timeit(fn: Callable[[], object], min_time: float, repeat: int = 3) -> float:
    """Seconds per call: best of ``repeat`` rounds, each repeating fn for min_time/repeat
    (the machine may be shared: the best round is the least disturbed one)."""
    best = np.inf
    for _ in range(repeat):
        n, t0 = 0, time.perf_counter()
        while True:
            fn()
            n += 1
            el = time.perf_counter() - t0
            if el >= min_time / repeat:
                break
        best = min(best, el / n)
    return float(best)


def _weights(N: int, rng: np.random.Generator, sparse_from: int) -> tuple[object, str]:
    if N >= sparse_from:
        return regular_graph_weights(N, 5, sparse=True), "sparse 5-NN ring"
    return sinkhorn(rng.random((N, N)) + 0.05, tol=1e-10), "dense Sinkhorn"


def _loop_afa(P: QuadraticFamily, W: object, eta: float, rng: np.random.Generator,
              budget: int) -> float:
    """Per-agent Python loop for AFA (one replica): agent updates per second.

    Cost per agent = one gradient call + the loop over its neighbours; both are timed on
    min(N, budget) agents and the per-agent costs are added.
    """
    Wc = sp.csr_matrix(W)
    N, d = P.N, P.d
    X = np.zeros((N, d))
    sd = np.sqrt(P.s)
    n = min(N, budget)
    t0 = time.perf_counter()
    G = [P.h * (X[j] - P.m[j]) + sd * rng.standard_normal(d) for j in range(n)]
    t_grad = (time.perf_counter() - t0) / n
    G = G + [G[j % n] for j in range(n, N)]  # untimed fill for the remaining agents
    t0 = time.perf_counter()
    for i in range(n):
        upd = np.zeros(d)
        for p in range(Wc.indptr[i], Wc.indptr[i + 1]):
            upd += Wc.data[p] * G[Wc.indices[p]]
        X[i] -= eta * upd
    t_upd = (time.perf_counter() - t0) / n
    return 1.0 / (t_grad + t_upd)


def _loop_afo(P: QuadraticFamily, Lam: object, eta: float, rng: np.random.Generator,
              budget: int) -> float:
    """Per-agent Python loop for AFO (one replica): agent updates per second (one sample per
    agent, then for each agent i a loop over j with lambda_ij > 0)."""
    Lc = sp.csr_matrix(Lam)
    N, d = P.N, P.d
    X = np.zeros((N, d))
    sd = np.sqrt(P.s)
    n = min(N, budget)
    t0 = time.perf_counter()
    noise = [sd * rng.standard_normal(d) for _ in range(n)]
    t_sample = (time.perf_counter() - t0) / n
    noise = noise + [noise[j % n] for j in range(n, N)]
    t0 = time.perf_counter()
    for i in range(n):
        g = np.zeros(d)
        for p in range(Lc.indptr[i], Lc.indptr[i + 1]):
            j = Lc.indices[p]
            g += Lc.data[p] * (P.h * (X[i] - P.m[j]) + noise[j])
        X[i] -= eta * g
    t_upd = (time.perf_counter() - t0) / n
    return 1.0 / (t_sample + t_upd)


def _ceiling(M: object, N: int, R: int, d: int, min_time: float) -> float:
    B = np.random.default_rng(0).standard_normal((N, R * d))
    return R * N / _timeit(lambda: M @ B, min_time)


def _vectorised(runner: Callable[..., object], P: QuadraticFamily, M: object, eta: float,
                R: int, min_time: float) -> float:
    """Agent-steps per second of a full run (best of 3 runs of K iterations)."""
    rng = np.random.default_rng(1)
    t1 = _timeit(lambda: runner(P, M, eta, 1, np.zeros(P.d), R, rng, record=[1]), 0.0, 1)
    K = max(2, int(min_time / 3 / max(t1, 1e-6)))
    t = _timeit(lambda: runner(P, M, eta, K, np.zeros(P.d), R, rng, record=[K]), 0.0, 3)
    return R * P.N * K / t


def _rng_rate(N: int, R: int, d: int, min_time: float) -> float:
    """Agent-steps per second allowed by drawing the (R, N, d) Gaussian noise alone."""
    rng = np.random.default_rng(2)
    return R * N / _timeit(lambda: rng.standard_normal((R, N, d)), min_time)


def run_benchmark(
    Ns: tuple[int, ...] = (100, 1000, 10000),
    d: int = 50,
    R: int = 16,
    min_time: float = 1.0,
    loop_budget: int = 400,
    sparse_from: int = 10000,
) -> list[Row]:
    """Measure every (method, N) pair; returns the rows of the table."""
    rows: list[Row] = []
    for N in Ns:
        rng = np.random.default_rng(N)
        P = QuadraticFamily.random(N, d, kappa=10.0, sigma2=1.0, spread=1.0, rng=rng)
        Lam, structure = _weights(N, rng, sparse_from)
        W = (Lam @ Lam.T).tocsr() if sp.issparse(Lam) else Lam @ Lam.T
        eta = 0.5 / P.L
        rows.append(Row(
            "AFA", N, structure + (" (W = Lam Lam^T)" if sp.issparse(W) else ""),
            _vectorised(run_afa, P, W, eta, R, min_time),
            _loop_afa(P, W, eta, rng, loop_budget),
            _ceiling(W, N, R, d, min_time / 2),
            _rng_rate(N, R, d, min_time / 2),
        ))
        rows.append(Row(
            "AFO", N, structure,
            _vectorised(run_afo, P, Lam, eta, R, min_time),
            _loop_afo(P, Lam, eta, rng, loop_budget),
            _ceiling(Lam, N, R, d, min_time / 2),
            _rng_rate(N, R, d, min_time / 2),
        ))
    return rows


def format_table(rows: list[Row], d: int, R: int) -> str:
    """Markdown table of the measured throughputs."""
    out = [
        f"d = {d}, R = {R} replicas; throughput in agent-steps per second; "
        f"OPENBLAS_NUM_THREADS={os.environ.get('OPENBLAS_NUM_THREADS', 'unset')}",
        "",
        "| method | N | agent matrix | vectorised | Python loop | speed-up vs loop "
        "| matmul ceiling | % of ceiling | noise draw alone |",
        "|---|---:|---|---:|---:|---:|---:|---:|---:|",
    ]
    for r in rows:
        out.append(
            f"| {r.method} | {r.N} | {r.structure} | {r.vectorised:.3g} | {r.loop:.3g} "
            f"| {r.vectorised / r.loop:.0f}x | {r.ceiling:.3g} "
            f"| {100 * r.vectorised / r.ceiling:.0f}% | {r.rng_rate:.3g} |"
        )
    return "\n".join(out)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="small sizes and short timings")
    args = ap.parse_args(argv)
    if args.quick:
        Ns, d, R, mt, budget, sf = (20, 200), 5, 4, 0.05, 50, 200
    else:
        Ns, d, R, mt, budget, sf = (100, 1000, 10000), 50, 16, 1.0, 400, 10000
    rows = run_benchmark(Ns, d, R, mt, budget, sf)
    print(format_table(rows, d, R))


if __name__ == "__main__":
    main()
