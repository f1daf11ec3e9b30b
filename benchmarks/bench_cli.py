"""Cold start of the everyday commands, as a ratio to ``python -c "import sympy"``.

``pflbounds eval`` answers in well under a millisecond once loaded; what a user waits for is
the start: Python, numpy, sympy, and building the results it needs. Wall-clock times depend on
the machine, so the figure to track is the ratio of each command's cold start to the cold
import of sympy measured in the same run (the floor every command pays).

Goals (ratios, :data:`GOALS`): ``list``, ``list --checks`` and ``show`` at most 2,
``complexity`` at most 2.5, ``eval`` at most 1.45 (0.8 s where ``import sympy`` takes 0.55 s),
``solve`` at most 1.6; ``--help`` of every command under 0.2 s (:data:`HELP_GOAL_SECONDS`).
Each timing is the best of ``--repeat`` runs in fresh processes, the commands taking turns, as
wall-clock time and as CPU time (user + system) of the process; on a shared machine the
CPU-time ratio is the steadier one. Each command first runs once untimed with bytecode writing
on (``PYTHONDONTWRITEBYTECODE`` removed from its environment), so that pflbounds starts from
its ``.pyc`` files, as sympy and numpy do from their installed ones: "cold" means a fresh
process, not a first run after an edit (compiling pflbounds' sources costs about 0.1 s more).

``eval`` and ``solve`` run from the shell start without the cyclic garbage collector and
end without the interpreter's object-by-object shutdown (:mod:`pflbounds.cli.startup`), which
``import sympy`` pays: about a fifth of its CPU time on a loaded machine. The row ``import
sympy, one-shot`` starts and ends that way too, and the line after the table divides
``eval`` and ``solve`` by it: what they add to sympy on equal terms.

``list`` and ``show`` read the papers' indexes in the task cache (``pflbounds.running.index``): the
benchmark gives its commands a task cache of their own (``PFLBOUNDS_CACHE_DIR``, a temporary
folder), which the untimed first runs fill, as a user's earlier commands would.

Run:  python benchmarks/bench_cli.py [--repeat 5] [--only NAME ...] [--markdown]
                                     [--instructions]
(``--markdown``: the table as the Markdown of ``benchmarks/README.md``, with the load
averages and the commit measured; ``--instructions``: instead of times, the instructions each
command executes, counted by valgrind's cachegrind, and their ratio to ``import sympy``, the
figure that does not move with the load of a shared machine.)
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

GOAL_SECONDS = 0.8
REFERENCE_SYMPY_SECONDS = 0.55
GOAL_RATIO = GOAL_SECONDS / REFERENCE_SYMPY_SECONDS
GOALS = {
    "pflbounds eval": GOAL_RATIO,
    "pflbounds solve": 1.6,
    "pflbounds complexity": 2.5,
    "pflbounds list": 2.0,
    "pflbounds list --checks": 2.0,
    "pflbounds show": 2.0,
    "pflbounds show (hanzely2023)": 2.0,
}
"""The goal of each command's ratio to ``import sympy``."""
ONE_SHOT_FLOOR = "import sympy, one-shot"
"""``import sympy`` started and ended as ``eval`` and ``solve`` are (module docstring)."""
ONE_SHOT = ("pflbounds eval", "pflbounds solve")
HELP_GOAL_SECONDS = 0.2
HELP_COMMANDS = ("list", "show", "eval", "solve", "complexity", "check", "validate", "report",
                 "new-paper", "cache", "audit")

THM2 = ["eta=0.1", "mu=1", "L=2", "sigma2=0.5", "Delta0=1", "V=0.4", "B=0.05"]
MT2 = ["Lp=10", "lam=0.1", "Lam=20", "M=20", "n=1000", "eps=1e-6"]


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
        ONE_SHOT_FLOOR: [sys.executable, "-c",
                         "import gc; gc.disable(); import os, sympy; os._exit(0)"],
        "pflbounds --version": [*cli, "--version"],
        "pflbounds eval": [*cli, "eval", "even2022.theorem2", "--form", "explicit", "K=20",
                           *THM2],
        "pflbounds solve": [*cli, "solve", "even2022.theorem2", "--form", "explicit", "--for",
                            "K", "--target", "0.2", *THM2],
        "pflbounds complexity": [*cli, "complexity", "--paper", "hanzely2023", "--objective",
                                 "mt2", "--algorithm", "acd-pfl", *MT2],
        "pflbounds list": [*cli, "list"],
        "pflbounds list --checks": [*cli, "list", "--checks"],
        "pflbounds show": [*cli, "show", "even2022.theorem2"],
        "pflbounds show (hanzely2023)": [*cli, "show", "hanzely2023.theorem7"],
    }


def help_commands() -> dict[str, list[str]]:
    """``pflbounds COMMAND --help`` for every command."""
    cli = _pflbounds()
    return {f"{c} --help": [*cli, c, "--help"] for c in HELP_COMMANDS}


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


def _env(cache_dir: str | None = None) -> dict[str, str]:
    """This environment, with bytecode writing on (see the module docstring) and, when
    given, the task cache folder of the commands."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    if cache_dir is not None:
        env["PFLBOUNDS_CACHE_DIR"] = cache_dir
    return env


def _timed(cmd: list[str], env: dict[str, str]) -> tuple[float, float]:
    """Wall-clock and CPU time of one run of ``cmd`` in a fresh process."""
    c0, t0 = _children_cpu(), time.perf_counter()
    r = subprocess.run(cmd, capture_output=True, text=True, check=False, env=env)
    wall, cpu = time.perf_counter() - t0, _children_cpu() - c0
    if r.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed ({r.returncode}): {r.stderr.strip()}")
    return wall, cpu


def _best(cmds: dict[str, list[str]], repeat: int, env: dict[str, str]
          ) -> dict[str, tuple[float, float]]:
    """Best wall and CPU time of each command, the commands taking turns (round k runs
    each once), after one untimed run each."""
    for cmd in cmds.values():  # untimed: writes the bytecode (and the papers' indexes)
        subprocess.run(cmd, capture_output=True, text=True, check=False, env=env)
    best = {n: (float("inf"), float("inf")) for n in cmds}
    for _ in range(repeat):
        for n, cmd in cmds.items():
            wall, cpu = _timed(cmd, env)
            best[n] = (min(best[n][0], wall), min(best[n][1], cpu))
    return best


def run_benchmark(repeat: int = 5, names: tuple[str, ...] | None = None) -> list[Timing]:
    """Time every command (or those named) and divide by the cold ``import sympy``, each
    keeping its best of ``repeat`` runs (see :func:`_best`), in a task cache of their own."""
    cmds = {n: c for n, c in commands().items()
            if n == "import sympy" or names is None or n in names
            or (n == ONE_SHOT_FLOOR and any(o in names for o in ONE_SHOT))}
    with tempfile.TemporaryDirectory(prefix="bench_cli.") as tmp:
        best = _best(cmds, repeat, _env(str(Path(tmp) / "cache")))
    ref_wall, ref_cpu = best["import sympy"]
    return [Timing(n, w, c, w / ref_wall, c / ref_cpu) for n, (w, c) in best.items()]


def instructions(cmd: list[str], env: dict[str, str]) -> int:
    """The instructions one run of ``cmd`` executes, counted by valgrind's cachegrind (the
    same on a busy machine as on an idle one, up to the hash seed, fixed here)."""
    r = subprocess.run(["valgrind", "--tool=cachegrind", "--cache-sim=no",
                        "--cachegrind-out-file=/dev/null", *cmd], capture_output=True,
                       text=True, check=False, env={**env, "PYTHONHASHSEED": "0"})
    for line in r.stderr.splitlines():
        if "I   refs:" in line or "I refs:" in line:
            return int(line.rsplit(":", 1)[1].replace(",", ""))
    raise RuntimeError(f"{' '.join(cmd)}: no instruction count ({r.returncode}): "
                       f"{r.stderr.strip()[-300:]}")


def run_instructions(names: tuple[str, ...] | None = None) -> list[tuple[str, int, float]]:
    """Instructions of each command (or those named) and their ratio to ``import sympy``,
    after one untimed run each (bytecode and the papers' indexes written)."""
    cmds = {n: c for n, c in commands().items()
            if n == "import sympy" or names is None or n in names
            or (n == ONE_SHOT_FLOOR and any(o in names for o in ONE_SHOT))}
    with tempfile.TemporaryDirectory(prefix="bench_cli.") as tmp:
        env = _env(str(Path(tmp) / "cache"))
        for cmd in cmds.values():
            subprocess.run(cmd, capture_output=True, text=True, check=False, env=env)
        counts = {n: instructions(c, env) for n, c in cmds.items()}
    ref = counts["import sympy"]
    return [(n, k, k / ref) for n, k in counts.items()]


def format_instructions(rows: list[tuple[str, int, float]]) -> str:
    lines = [f"{'command':<29} {'instructions':>14} {'/ sympy':>8}"]
    lines += [f"{n:<29} {k:>14,} {x:>8.3f}" for n, k, x in rows]
    return "\n".join(lines)


def run_help(repeat: int = 3) -> list[tuple[str, float, float]]:
    """Best wall and CPU seconds of ``--help`` of every command."""
    best = _best(help_commands(), repeat, _env())
    return [(n, w, c) for n, (w, c) in best.items()]


def format_table(rows: list[Timing]) -> str:
    lines = [f"{'command':<29} {'wall s':>7} {'cpu s':>7} {'wall/sympy':>10} {'cpu/sympy':>9}"
             "  goal (ratio)"]
    for r in rows:
        limit = GOALS.get(r.name)
        goal = "" if limit is None else f"<= {limit:.2f}"
        mark = "" if limit is None else ("  ok" if r.cpu_ratio <= limit else "  over")
        lines.append(f"{r.name:<29} {r.wall:>7.3f} {r.cpu:>7.3f} {r.wall_ratio:>10.2f} "
                     f"{r.cpu_ratio:>9.2f}  {goal}{mark}")
    return "\n".join(lines)


def format_one_shot(rows: list[Timing]) -> str:
    """``eval`` and ``solve`` divided by ``import sympy`` started and ended as they are
    (empty when the table lacks them)."""
    by = {r.name: r for r in rows}
    floor = by.get(ONE_SHOT_FLOOR)
    found = [by[n] for n in ONE_SHOT if n in by]
    if floor is None or not found:
        return ""
    return (f"against {ONE_SHOT_FLOOR} (the same start and end), CPU time: "
            + ", ".join(f"{r.name.split()[-1]} {r.cpu / floor.cpu:.2f}" for r in found))


def _code_commit() -> str:
    """The commit of the pflbounds the commands import (this environment's, which may be
    another clone's than this script's), ``+`` when its tree has uncommitted changes."""
    where = subprocess.run([sys.executable, "-P", "-c", "import pflbounds, os; "
                            "print(os.path.dirname(pflbounds.__file__))"], capture_output=True,
                           text=True, check=False, env=_env()).stdout.strip()
    if not where:
        return "an unknown commit"
    git = ["git", "-C", where]
    head = subprocess.run([*git, "rev-parse", "--short", "HEAD"], capture_output=True,
                          text=True, check=False).stdout.strip()
    dirty = subprocess.run([*git, "status", "--porcelain", "--", "."], capture_output=True,
                           text=True, check=False).stdout.strip()
    return (head or "an unknown commit") + ("+" if dirty else "")


def format_markdown(rows: list[Timing], load: tuple[float, float]) -> str:
    """The table in Markdown, with the load averages (start, end) and the commit."""
    lines = [f"`bench_cli.py`, pflbounds at {_code_commit()}, load average "
             f"{load[0]:.2f} at the start, {load[1]:.2f} at the end:", "",
             "| command | wall s | CPU s | wall / sympy | CPU / sympy | goal |",
             "|---|---:|---:|---:|---:|---:|"]
    for r in rows:
        limit = GOALS.get(r.name)
        goal = "" if limit is None else f"<= {limit:.2f}"
        lines.append(f"| `{r.name}` | {r.wall:.3f} | {r.cpu:.3f} | {r.wall_ratio:.2f} | "
                     f"{r.cpu_ratio:.2f} | {goal} |")
    one_shot = format_one_shot(rows)
    return "\n".join(lines + (["", one_shot[0].upper() + one_shot[1:] + "."] if one_shot
                              else []))


def format_help(rows: list[tuple[str, float, float]]) -> str:
    worst = max(rows, key=lambda r: r[1])
    mark = "ok" if worst[1] < HELP_GOAL_SECONDS else "over"
    return (f"--help of {len(rows)} commands: slowest {worst[0]} {worst[1]:.3f} s wall "
            f"({worst[2]:.3f} s CPU); goal < {HELP_GOAL_SECONDS} s: {mark}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=5, help="runs per command (best is kept)")
    ap.add_argument("--only", nargs="+", metavar="NAME", help="time only these commands "
                    "(names as printed, e.g. 'pflbounds show')")
    ap.add_argument("--markdown", action="store_true", help="print the table as Markdown")
    ap.add_argument("--instructions", action="store_true", help="count instructions with "
                    "valgrind instead of timing (one run each; slow, steady under load)")
    args = ap.parse_args()
    if args.instructions:
        print(format_instructions(run_instructions(tuple(args.only) if args.only else None)))
        return
    start = os.getloadavg()[0]
    print(f"{os.cpu_count()} cores; load average {start:.2f}", flush=True)
    rows = run_benchmark(args.repeat, tuple(args.only) if args.only else None)
    print(format_table(rows))
    if format_one_shot(rows):
        print(format_one_shot(rows))
    if args.markdown:
        print("\n" + format_markdown(rows, (start, os.getloadavg()[0])) + "\n")
    if not args.only:
        print(format_help(run_help(max(1, args.repeat // 2 + 1))))
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
