"""The quick report from saved results, as a ratio to the same report by the code before the
report was reworked.

Goal: ``pflbounds report RESULTS`` for the quick suite in at most half the time it took
(``GOAL_RATIO`` = 0.5). That time is measured in the same run, on the same results, by the
pflbounds tree of commit ``BASELINE`` (extracted with ``git archive``, imported through
``PYTHONPATH``), so the ratio does not depend on the machine. Both commands run in fresh
processes; each timing is the best of ``--repeat`` runs. Wall-clock time and CPU time (user +
system of the child process) are both recorded; the machine may be shared, and CPU time is
the less disturbed of the two.

Run:  python benchmarks/bench_report.py [--repeat 3] [--results DIR]

Without ``--results`` the suite the goal was set on is validated first (into a temporary
folder): every even2022 check on its quick grid, seed 2022, which was the whole quick suite
when the report was reworked. (The quick suite has since gained three papers; the ratio keeps
comparing the same work.) The load average is printed with the figures: on a shared machine
both trees slow down alike, and the CPU-time ratio moves least.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

GOAL_RATIO = 0.5
BASELINE = "2285e15dca98b1c3c617fedeaee5575382bf7ba7"
"""The last commit before the report rework (41 figures with constrained layout)."""

ROOT = Path(__file__).resolve().parents[1]

SUITE = """name = "quick"
description = "Every even2022 check on its quick grid."
seed = 2022
grid = "quick"

[[checks]]
id = "even2022.*"
"""


@dataclass
class Timing:
    name: str
    wall: float
    cpu: float


def _baseline_tree(dest: Path) -> Path:
    """The ``pflbounds`` package of :data:`BASELINE`, extracted under ``dest``."""
    archive = dest / "baseline.tar"
    with archive.open("wb") as fh:
        subprocess.run(["git", "-C", str(ROOT), "archive", BASELINE, "pflbounds"], stdout=fh,
                       check=True)
    tree = dest / "baseline"
    tree.mkdir()
    with tarfile.open(archive) as tar:
        tar.extractall(tree, filter="data")
    return tree


def _run(cmd: list[str], env: dict[str, str], cwd: Path) -> tuple[float, float]:
    """Wall and CPU seconds of one run of ``cmd`` in a fresh process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    r = subprocess.run(cmd, env=env, cwd=cwd, capture_output=True, text=True, check=False)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if r.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed ({r.returncode}): {r.stderr.strip()}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def report_command(results: Path, out: Path) -> list[str]:
    code = ("import sys; from pflbounds.cli import main; "
            "sys.exit(main(sys.argv[1:]))")
    return [sys.executable, "-c", code, "report", str(results), "--out", str(out)]


def run_benchmark(results: Path | None = None, repeat: int = 3) -> list[Timing]:
    """Time the report of ``results`` by :data:`BASELINE` and by this tree."""
    with tempfile.TemporaryDirectory(prefix="bench-report-") as tmp:
        work = Path(tmp)
        env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
        env["OPENBLAS_NUM_THREADS"] = env["MKL_NUM_THREADS"] = "1"
        if results is None:
            results = work / "results"
            suite = work / "quick_even2022.toml"
            suite.write_text(SUITE, encoding="utf-8")
            subprocess.run([sys.executable, "-m", "pflbounds.cli", "validate", str(suite),
                            "--out", str(results), "--no-cache"], env=env, cwd=ROOT,
                           check=True, capture_output=True)
        base = _baseline_tree(work)
        trees = {"baseline": (base, {**env, "PYTHONPATH": str(base)}),
                 "current": (ROOT, {**env, "PYTHONPATH": str(ROOT)})}
        best = {name: [float("inf"), float("inf")] for name in trees}
        for k in range(repeat):
            for name, (cwd, tree_env) in trees.items():
                out = work / f"{name}-{k}" / "quick.pdf"
                out.parent.mkdir()
                wall, cpu = _run(report_command(results, out), tree_env, cwd)
                best[name][0] = min(best[name][0], wall)
                best[name][1] = min(best[name][1], cpu)
                shutil.rmtree(out.parent)
    return [Timing(name, *best[name]) for name in trees]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--results", type=Path, help="a results folder of the quick suite")
    args = ap.parse_args(argv)
    print(f"load average before: {os.getloadavg()[0]:.2f}", flush=True)
    base, cur = run_benchmark(args.results, args.repeat)
    print(f"{'':>10} {'wall s':>8} {'cpu s':>8}")
    for t in (base, cur):
        print(f"{t.name:>10} {t.wall:8.2f} {t.cpu:8.2f}")
    wall_ratio, cpu_ratio = cur.wall / base.wall, cur.cpu / base.cpu
    print(f"ratio current/baseline: wall {wall_ratio:.2f}, cpu {cpu_ratio:.2f} "
          f"(goal <= {GOAL_RATIO})")
    print(f"load average after: {os.getloadavg()[0]:.2f}")
    return 0 if cpu_ratio <= GOAL_RATIO else 1


if __name__ == "__main__":
    sys.exit(main())
