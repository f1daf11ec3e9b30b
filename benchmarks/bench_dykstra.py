"""Milliseconds per warm Dykstra call and per sweep, numpy against the compiled jax backend
(pflbounds.problems.dykstra.dykstra_project(..., backend=...)), on the projections of the
erickson2025 §5.1 Karula loop.

The instance is the §5.1 synthetic draw (n = 30 clients, d = 50) with the LOT surrogate D and
radii sqrt(t D_ij), one t per replica (t = 0.01, 0.1 for R = 2, else R values from 0.001 to
1); Karula (reading A, s = 10, eta = 3/(8L)) runs --rounds rounds from 0 with the jax backend
warm-started at tol 1e-10, as the experiments do. The next projection is then timed from the
same warm start with each backend (best of --repeat; the jax shape is compiled by then) and
the two answers compared. Each backend runs the same sweeps, so ms per sweep is the fair
ratio. Wall and CPU time are printed: on a machine shared with other work the wall time
grows with the load. XLA hands its loops to a thread pool the size of the core count, and on
a loaded machine each hand-off waits; on one core (`taskset -c 0`) it runs them in the
calling thread, which gives the steadier (and faster) figures. Run:

    python benchmarks/bench_dykstra.py [--replicas 2 24] [--rounds 20] [--repeat 3]

With --dual it times instead the dual (FISTA) projection of the checks' loops,
pflbounds.problems.pairwise_dual.dual_project, at R = 20, n = 30, d = 50, gap_tol 1e-8 and
check_every 5: a chain of --calls projections of slightly moved points, each warm-started from
the previous answer (ms per call and microseconds per FISTA iteration, after 5 calls).
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from pflbounds.algorithms.karula import run_karula
from pflbounds.papers.erickson2025.checks.common import SYNTHETIC, pairwise_lot
from pflbounds.papers.erickson2025.instances import generator
from pflbounds.problems.clustered_regression import RidgeQuadratics
from pflbounds.problems.dykstra import DykstraResult, dykstra_project
from pflbounds.problems.pairwise_constraints import radii

TOL = 1e-10


def section5_instance(R: int, seed: int = 0):
    """The §5.1 draw as Karula sees it: (weighted gradient, n, d, L, radii at t = 1, the
    per-replica scale sqrt(t))."""
    rng = np.random.default_rng(seed)
    data = generator(dict(SYNTHETIC)).draw(rng)
    D = pairwise_lot([data.samples(i) for i in range(data.n)], 100, "literal", rng)
    full = data.ridge()
    fb = RidgeQuadratics(*(np.broadcast_to(a, (R, *a.shape))
                           for a in (full.H, full.b, full.c, full.alpha)))
    t = np.array([0.01, 0.1]) if R == 2 else np.geomspace(1e-3, 1.0, R)
    return fb.weighted_grad, data.n, data.d, float(full.L), radii(1.0, D), np.sqrt(t)


def warm_state(R: int, rounds: int) -> tuple[np.ndarray, np.ndarray, DykstraResult]:
    """The point of the projection after ``rounds`` Karula rounds (scaled to t = 1), the
    radii and the warm start the loop holds then (jax backend)."""
    grad, n, d, L, r, c = section5_instance(R)
    c = c[:, None, None]
    seen: list = []

    def project(Z: np.ndarray) -> np.ndarray:
        warm = seen[-1][1] if seen else None
        res = dykstra_project(Z / c, r, tol=TOL, warm=warm, backend="jax")
        seen.append((Z / c, res))
        return c * res.theta

    run_karula(grad, np.zeros((R, n, d)), project, eta=3 / (8 * L), s=10, K=rounds,
               rng=np.random.default_rng(1), reading="A",
               metrics={"theta": lambda st: st["theta"]}, record=[rounds])
    return seen[-1][0], r, seen[-2][1]


def time_call(Z: np.ndarray, r: np.ndarray, warm: DykstraResult, backend: str, repeat: int
              ) -> tuple[float, float, DykstraResult]:
    """Best wall and CPU seconds of ``repeat`` warm calls, and the answer."""
    wall = cpu = np.inf
    for _ in range(repeat):
        w0, c0 = time.perf_counter(), time.process_time()
        res = dykstra_project(Z, r, tol=TOL, warm=warm, backend=backend)
        wall = min(wall, time.perf_counter() - w0)
        cpu = min(cpu, time.process_time() - c0)
    return wall, cpu, res


def time_dual(calls: int, R: int = 20, n: int = 30, d: int = 50) -> None:
    """Warm chain of dual projections on random radii (many constraints active)."""
    from pflbounds.problems.pairwise_dual import dual_project

    rng = np.random.default_rng(0)
    r = rng.uniform(0.2, 1.0, n * (n - 1) // 2)
    Z = 3.0 * rng.standard_normal((R, n, d)) / np.sqrt(d)
    warm, wall, its = None, 0.0, 0
    for k in range(calls):
        Z = Z + 1e-3 * rng.standard_normal((R, n, d)) / np.sqrt(d)
        t0 = time.perf_counter()
        warm = dual_project(Z, r, gap_tol=1e-8, warm=warm, check_every=5)
        if k >= 5:
            wall += time.perf_counter() - t0
            its += warm.sweeps
    timed = max(calls - 5, 1)
    print(f"dual_project R={R} n={n} d={d}: {1e3 * wall / timed:.1f} ms/call, "
          f"{its / timed:.0f} iterations/call, {1e6 * wall / max(its, 1):.0f} us/iteration")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--replicas", type=int, nargs="+", default=[2, 24])
    ap.add_argument("--rounds", type=int, default=20)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--dual", action="store_true", help="time dual_project instead")
    ap.add_argument("--calls", type=int, default=25)
    args = ap.parse_args()
    if args.dual:
        time_dual(args.calls)
        return
    print(f"{'R':>3} {'sweeps':>6} {'backend':>7} {'ms/call':>9} {'ms/sweep':>9} "
          f"{'cpu ms/sweep':>12} {'speed-up/sweep':>14}  max|theta diff|")
    for R in args.replicas:
        Z, r, warm = warm_state(R, args.rounds)
        rows = {b: time_call(Z, r, warm, b, args.repeat) for b in ("numpy", "jax")}
        base = rows["numpy"][0] / rows["numpy"][2].sweeps
        diff = float(np.abs(rows["jax"][2].theta - rows["numpy"][2].theta).max())
        for b, (wall, cpu, res) in rows.items():
            per = wall / res.sweeps
            print(f"{R:>3} {res.sweeps:>6} {b:>7} {1e3 * wall:>9.1f} {1e3 * per:>9.3f} "
                  f"{1e3 * cpu / res.sweeps:>12.3f} {base / per:>14.1f}  "
                  f"{diff if b == 'jax' else 0.0:.1e}")


if __name__ == "__main__":
    main()
