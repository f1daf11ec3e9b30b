"""Seconds taken by the exact propagator (pflbounds.exact.propagator) on typical sizes.

Each case propagates the mean and covariance for K steps, records 11 iteration counts and
evaluates M quadratic metrics there. Cases:

  dense         one block of size n, J random draws (block sampling: each draw updates a
                random half of the coordinates), M = 10 metrics on n/10 positions each;
  blocks        B blocks of size n with A shared by the blocks (Kronecker A = I_B (x) A_c,
                J = 1) or per block (J draws), M = n metrics (one position per block);
  afa           even2022's AFA on the quadratic family: d coordinate blocks of N agents;
  pfl           randomized block-coordinate descent on F(w, beta) = (1/M) sum_m f_m(w, beta_m)
                with random SPD client Hessians (hanzely2023 eq. (1)): the w-block with
                probability p_w, else one of the M beta-blocks (J = M + 1 draws), Gaussian
                gradient noise, one metric per client; row kernel against dense products.

Timings are one run each (the largest cases take seconds), with BLAS pinned to one thread
by threadpoolctl unless --threads is given. Both the CPU time of the process and the wall
time are printed: on a machine shared with other work the wall time grows with the load,
the CPU time (one thread) is the cost on an idle core. Run:

    python benchmarks/bench_exact.py [--quick] [--threads T]
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

import numpy as np
from threadpoolctl import threadpool_limits

from pflbounds.exact import (
    LinearDraws,
    QuadraticMetrics,
    afa_draws,
    agent_excess_metrics,
    block_coordinate_draws,
    coordinate_blocks,
    pfl_client_metrics,
    pfl_quadratic,
    propagate,
)
from pflbounds.problems import QuadraticFamily, sinkhorn


def _spd(rng: np.random.Generator, n: int, lo: float, hi: float) -> np.ndarray:
    Q = np.linalg.qr(rng.standard_normal((n, n)))[0]
    return (Q * rng.uniform(lo, hi, n)) @ Q.T


def _block_sampling(rng: np.random.Generator, n: int, J: int, B: int) -> LinearDraws:
    """J draws x <- x - eta P_j (H x - b + xi): P_j a random half of the coordinates."""
    H = np.stack([_spd(rng, n, 0.5, 2.0) for _ in range(B)])
    S = np.stack([_spd(rng, n, 0.01, 0.1) for _ in range(B)])
    masks = (rng.random((J, 1, n)) < 0.5).astype(np.float64)
    eta = 0.4
    A = np.eye(n) - eta * masks[..., None] * H[None]  # (J, B, n, n)
    c = eta * masks * rng.standard_normal((1, B, n))
    Sigma = eta**2 * masks[..., None] * S[None] * masks[:, :, None, :]
    return LinearDraws(p=np.full(J, 1.0 / J), A=A, c=c, Sigma=Sigma)


def _time(fn: Callable[[], object]) -> tuple[float, float]:
    """(CPU seconds of this process, wall seconds) of one call."""
    c0, t0 = time.process_time(), time.perf_counter()
    fn()
    return time.process_time() - c0, time.perf_counter() - t0


def dense(n: int, J: int, K: int, rng: np.random.Generator) -> tuple[float, float]:
    draws = _block_sampling(rng, n, J, 1)
    s = n // 10
    idx = np.arange(10 * s).reshape(10, s)
    metrics = QuadraticMetrics(Q=np.stack([_spd(rng, s, 0.5, 2.0) for _ in range(10)])[:, None],
                               index=idx)
    ks = np.unique(np.linspace(0, K, 11).astype(int))
    return _time(lambda: propagate(draws, rng.standard_normal(n), ks, metrics))


def blocks(B: int, n: int, J: int, K: int, shared: bool, method: str,
           rng: np.random.Generator) -> tuple[float, float]:
    if shared:  # Kronecker: one A_c for every block, per-block offsets and noise
        one = _block_sampling(rng, n, 1, 1)
        draws = LinearDraws(p=[1.0], A=one.A, c=rng.standard_normal((1, B, n)) * 0.1,
                            Sigma=np.broadcast_to(one.Sigma, (1, B, n, n)))
    else:
        draws = _block_sampling(rng, n, J, B)
    metrics = QuadraticMetrics(Q=np.ones((n, 1, 1)), index=np.arange(n)[:, None])
    ks = np.unique(np.linspace(0, K, 11).astype(int))
    return _time(lambda: propagate(draws, rng.standard_normal((B, n)), ks, metrics,
                                   method=method))


def afa(N: int, d: int, K: int, method: str,
        rng: np.random.Generator) -> tuple[float, float]:
    P = QuadraticFamily.random(N, d, kappa=10.0, sigma2=1.0, spread=1.0, rng=rng)
    Lam = sinkhorn(rng.random((N, N)))
    draws = afa_draws(P, Lam @ Lam.T, 0.5 / P.L)
    ks = np.unique(np.linspace(0, K, 11).astype(int))
    return _time(lambda: propagate(draws, coordinate_blocks(P, np.zeros(d)), ks,
                                   agent_excess_metrics(P), method=method))


def pfl(M: int, d0: int, d1: int, K: int, structure: str,
        rng: np.random.Generator) -> tuple[float, float]:
    H_c = np.stack([_spd(rng, d0 + d1, 0.5, 2.0) for _ in range(M)])
    a_c = rng.standard_normal((M, d0 + d1))
    H, xs = pfl_quadratic(H_c, a_c, d0)
    n = H.shape[0]
    blocks = [np.arange(d0)] + [d0 + d1 * m + np.arange(d1) for m in range(M)]
    p = np.array([0.5] + [0.5 / M] * M)
    draws = block_coordinate_draws(H, xs, blocks, p, 0.5 / np.linalg.eigvalsh(H)[-1],
                                   _spd(rng, n, 0.01, 0.1))
    ks = np.unique(np.linspace(0, K, 11).astype(int))
    metrics = pfl_client_metrics(H_c, a_c, d0, xs)
    return _time(lambda: propagate(draws, xs + rng.standard_normal(n), ks, metrics,
                                   structure=structure))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="smaller K (a smoke run)")
    ap.add_argument("--threads", type=int, default=1, help="BLAS threads (default 1)")
    args = ap.parse_args()
    K = 100 if args.quick else 1000
    rng = np.random.default_rng(0)
    cases: list[tuple[str, Callable[[], tuple[float, float]]]] = [
        (f"dense n=100, J=3, K={K}", lambda: dense(100, 3, K, rng)),
        (f"dense n=200, J=3, K={K}", lambda: dense(200, 3, K, rng)),
        (f"dense n=400, J=2, K={K // 5}", lambda: dense(400, 2, K // 5, rng)),
        (f"B=100 blocks n=50, shared A, J=1, K={K}, recursion",
         lambda: blocks(100, 50, 1, K, True, "recursion", rng)),
        (f"B=100 blocks n=50, shared A, J=1, K={K}, doubling",
         lambda: blocks(100, 50, 1, K, True, "doubling", rng)),
        (f"B=100 blocks n=50, J=3, K={K}", lambda: blocks(100, 50, 3, K, False, "auto", rng)),
        (f"AFA N=100, d=50, K={K}, recursion", lambda: afa(100, 50, K, "recursion", rng)),
        (f"AFA N=100, d=50, K={K}, doubling", lambda: afa(100, 50, K, "doubling", rng)),
        (f"AFA N=300, d=20, K={K}, doubling", lambda: afa(300, 20, K, "doubling", rng)),
        (f"PFL M=50, d0=d1=4 (n=204), J=51, K={K}, rows",
         lambda: pfl(50, 4, 4, K, "rows", rng)),
        (f"PFL M=50, d0=d1=4 (n=204), J=51, K={K // 20}, dense",
         lambda: pfl(50, 4, 4, K // 20, "dense", rng)),
        (f"PFL M=200, d0=d1=2 (n=402), J=201, K={K}, rows",
         lambda: pfl(200, 2, 2, K, "rows", rng)),
    ]
    with threadpool_limits(limits=args.threads, user_api="blas"):
        print(f"| case | CPU seconds | wall seconds |   (BLAS threads: {args.threads})")
        print("|---|---:|---:|")
        for name, fn in cases:
            cpu, wall = fn()
            print(f"| {name} | {cpu:.3g} | {wall:.3g} |", flush=True)


if __name__ == "__main__":
    main()
