"""Seconds taken by the conic solves of erickson2025's §5.1 draws (pflbounds.problems.
pairwise_constraints): the constrained optimum theta^*(t) over K(r) and the exact projection
onto K(r), at n = 30 clients of dimension d = 50 (435 pair constraints), with Clarabel's
default QDLDL factorisation and with faer's supernodal one in one thread
(pflbounds.problems.conic.SUPERNODAL). Prints CPU and wall seconds per solve, the status and
the largest difference of the two points. Run:

    python benchmarks/bench_conic.py [--repeat R]
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

import numpy as np

from pflbounds.problems import conic
from pflbounds.problems.pairwise_constraints import PairwiseConstraintSet, quadratic_optimum


def _instance(n: int = 30, d: int = 50, seed: int = 0):
    rng = np.random.default_rng(seed)
    A = rng.standard_normal((n, 60, d))
    H = np.einsum("nsd,nse->nde", A, A) / 60 + 1e-6 * np.eye(d)
    b = 3.0 * rng.standard_normal((n, d))
    r = 0.5 * np.abs(rng.standard_normal(n * (n - 1) // 2))
    return H, b, r, rng.standard_normal((n, d))


def _time(f: Callable[[], object], repeat: int) -> tuple[float, float, object]:
    cpu, wall = time.process_time(), time.perf_counter()
    for _ in range(repeat):
        out = f()
    return ((time.process_time() - cpu) / repeat, (time.perf_counter() - wall) / repeat, out)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=2)
    args = ap.parse_args()
    H, b, r, Z = _instance()
    S = PairwiseConstraintSet(Z.shape[0], Z.shape[1], r)
    cases = {"constrained optimum": lambda: quadratic_optimum(H, b, r),
             "exact projection": lambda: S.project_exact(Z)}
    supernodal = dict(conic.SUPERNODAL)
    print(f"{'solve':22s} {'factorisation':14s} {'CPU s':>7s} {'wall s':>7s}  status")
    for name, f in cases.items():
        points = {}
        for label, opts in (("QDLDL", {}), ("faer, 1 thread", supernodal)):
            conic.SUPERNODAL = opts
            cpu, wall, out = _time(f, args.repeat)
            points[label] = out.theta
            print(f"{name:22s} {label:14s} {cpu:7.2f} {wall:7.2f}  {out.status}")
        conic.SUPERNODAL = supernodal
        diff = float(np.max(np.abs(points["QDLDL"] - points["faer, 1 thread"])))
        print(f"{name:22s} largest difference of the points: {diff:.1e}")


if __name__ == "__main__":
    main()
