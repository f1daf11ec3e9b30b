"""Cold start of the everyday commands, as a ratio to ``python -c "import sympy"``.

``pflbounds eval`` and ``pflbounds solve`` answer in well under a millisecond once loaded; what
a user waits for is the start: Python, numpy, sympy, and building the catalog of results.
Wall-clock times depend on the machine, so the figure to track is the ratio of each command's
cold start to the cold import of sympy measured in the same run (the floor every command pays).

Goal: ``eval`` at most 0.8 s cold on a machine where ``import sympy`` takes 0.55 s, i.e. a
ratio of at most ``GOAL_RATIO`` = 0.8 / 0.55 = 1.45. Each timing is the best of ``--repeat``
runs in fresh processes, the commands taking turns, as wall-clock time and as CPU time (user +
system) of the process; on a shared machine the CPU-time ratio is the steadier one. Each
command first runs once untimed with bytecode writing on (``PYTHONDONTWRITEBYTECODE`` removed
from its environment), so that pflbounds starts from its ``.pyc`` files, as sympy and numpy do
from their installed ones: "cold" means a fresh process, not a first run after an edit
(compiling pflbounds' sources costs about 0.1 s more).

Run:  python benchmarks/bench_cli.py [--repeat 5]
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

GOAL_SECONDS = 0.8
REFERENCE_SYMPY_SECONDS = 0.55
GOAL_RATIO = GOAL_SECONDS / REFERENCE_SYMPY_SECONDS

THM2 = ["eta=0.1", "mu=1", "L=2", "sigma2=0.5", "Delta0=1", "V=0.4", "B=0.05"]


def _pflbounds() -> list[str]:
    exe = Path(sys.executable).with_name("pflbounds")
    if exe.exists():
        return [str(exe)]
    found = shutil.which("pflbounds")
    return [found] if found else [sys.executable, "-m", "pflbounds.cli"]


def commands() -> dict[str, list[str]]:
    """The reference and the commands timed, by name."""
    cli = _pflbounds()
    return {
        "import sympy": [sys.executable, "-c", "import sympy"],
        "import sympy, numpy": [sys.executable, "-c", "import sympy, numpy"],
        "pflbounds --version": [*cli, "--version"],
        "pflbounds eval": [*cli, "eval", "even2022.theorem2", "--form", "explicit", "K=20",
                           *THM2],
        "pflbounds solve": [*cli, "solve", "even2022.theorem2", "--form", "explicit", "--for",
                            "K", "--target", "0.2", *THM2],
    }


@dataclass
class Timing:
    name: str
    wall: float
    cpu: float
    wall_ratio: float
    cpu_ratio: float


def _children_cpu() -> float:
    ru = resource.getrusage(resource.RUSAGE_CHILDREN)
    return ru.ru_utime + ru.ru_stime


def _env() -> dict[str, str]:
    """This environment, with bytecode writing on (see the module docstring)."""
    return {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def _timed(cmd: list[str], env: dict[str, str]) -> tuple[float, float]:
    """Wall-clock and CPU time of one run of ``cmd`` in a fresh process."""
    c0, t0 = _children_cpu(), time.perf_counter()
    r = subprocess.run(cmd, capture_output=True, text=True, check=False, env=env)
    wall, cpu = time.perf_counter() - t0, _children_cpu() - c0
    if r.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed ({r.returncode}): {r.stderr.strip()}")
    return wall, cpu


def run_benchmark(repeat: int = 5, names: tuple[str, ...] | None = None) -> list[Timing]:
    """Time every command (or those named) and divide by the cold ``import sympy``.

    The commands take turns (round k runs each once), so that a machine whose speed drifts
    during the run (frequency scaling, other work) slows every command alike, and each keeps
    its best of ``repeat`` runs."""
    cmds = {n: c for n, c in commands().items()
            if n == "import sympy" or names is None or n in names}
    env = _env()
    for cmd in cmds.values():  # untimed: writes the bytecode
        subprocess.run(cmd, capture_output=True, text=True, check=False, env=env)
    best = {n: (float("inf"), float("inf")) for n in cmds}
    for _ in range(repeat):
        for n, cmd in cmds.items():
            wall, cpu = _timed(cmd, env)
            best[n] = (min(best[n][0], wall), min(best[n][1], cpu))
    ref_wall, ref_cpu = best["import sympy"]
    return [Timing(n, w, c, w / ref_wall, c / ref_cpu) for n, (w, c) in best.items()]


def format_table(rows: list[Timing]) -> str:
    lines = [f"{'command':<22} {'wall s':>7} {'cpu s':>7} {'wall/sympy':>10} {'cpu/sympy':>9}"
             "  goal (ratio)"]
    for r in rows:
        goal = f"<= {GOAL_RATIO:.2f}" if r.name in ("pflbounds eval", "pflbounds solve") else ""
        mark = "" if not goal else ("  ok" if r.cpu_ratio <= GOAL_RATIO else "  over")
        lines.append(f"{r.name:<22} {r.wall:>7.3f} {r.cpu:>7.3f} {r.wall_ratio:>10.2f} "
                     f"{r.cpu_ratio:>9.2f}  {goal}{mark}")
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=5, help="runs per command (best is kept)")
    args = ap.parse_args()
    print(format_table(run_benchmark(args.repeat)))


if __name__ == "__main__":
    main()
