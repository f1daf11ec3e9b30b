"""What each paper's audits cost and find: the tightness audit cold (an empty folder) and
warm (its PEPit solves and searches cached), and the mutation audit re-run on the worst
instances, per paper.

For every paper it runs, in fresh processes,

    pflbounds audit tightness --paper P --out DIR --json      (twice: cold, then warm)
    pflbounds audit mutants   --paper P --out DIR --json      (unless --no-mutants)

and reads the figures from the JSON the commands write: the forms the checks evaluate and
how many have a worst-case search, the counterexamples, the wall time of each run; the
stronger mutants caught, refuted, caught at or true at the worst instance, and the fraction
accounted for. With ``--write`` it replaces the table between the markers of
``benchmarks/README.md`` (section "Audit run times"), so that the figures there are what the
code measured, with the date, the load average and the commit.

Run:  python benchmarks/bench_audit.py [--papers even2022,...] [--jobs 1] [--no-mutants]
      [--write]      (all five papers with the mutation audit: an hour or more on 2 cores)
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
PAPERS = ("even2022", "hanzely2023", "philippenko2025", "erickson2025", "scott2024")
README = ROOT / "benchmarks" / "README.md"
BEGIN = "<!-- bench_audit.py: begin (written by the script; do not edit by hand) -->"
END = "<!-- bench_audit.py: end -->"


def _run(args: list[str]) -> tuple[dict[str, Any], float]:
    """The JSON a pflbounds command prints, and its wall time."""
    t0 = time.perf_counter()
    proc = subprocess.run([sys.executable, "-m", "pflbounds.cli", *args], cwd=ROOT,
                          capture_output=True, text=True, check=False)
    wall = time.perf_counter() - t0
    if proc.returncode not in (0, 1):  # 1: a finding (a counterexample, a survivor)
        raise SystemExit(f"bench_audit: {' '.join(args)} exited {proc.returncode}: "
                         f"{proc.stderr.strip()[-400:]}")
    return json.loads(proc.stdout), wall


def _minutes(seconds: float) -> str:
    return f"{seconds:.0f} s" if seconds < 90 else f"{seconds / 60:.1f} min"


def measure(paper: str, jobs: int, mutants: bool, keep: Path | None = None) -> dict[str, Any]:
    """The audits of ``paper`` in a fresh folder (``keep``/PAPER, kept for a report's
    ``--audit``, else a temporary one): tightness cold and warm, then mutants."""
    with tempfile.TemporaryDirectory(prefix=f"bench-audit-{paper}-") as tmp:
        folder = Path(tmp)
        if keep is not None:
            folder = keep / paper
            if folder.exists():
                raise SystemExit(f"bench_audit: --keep: {folder} exists (the cold run needs "
                                 "a new folder)")
            keep.mkdir(parents=True, exist_ok=True)
        out = ["--out", str(folder)]
        cold, t_cold = _run(["audit", "tightness", "--paper", paper, *out, "--json"])
        _, t_warm = _run(["audit", "tightness", "--paper", paper, *out, "--json"])
        row: dict[str, Any] = {
            "paper": paper, "covered": len(cold.get("covered", [])),
            "uncovered": len(cold.get("uncovered", [])),
            "forms_from": str(cold.get("forms_from", "")),
            "counterexamples": len(cold.get("counterexamples", [])),
            "unexpected": len(cold.get("missing_expected", [])),
            "tightness_cold": t_cold, "tightness_warm": t_warm,
        }
        if mutants:
            doc, t_mut = _run(["audit", "mutants", "--paper", paper, "--jobs", str(jobs),
                               *out, "--json"])
            worst = doc.get("worst_instances") or {}
            row.update(mutants_wall=t_mut, stronger=worst.get("stronger"),
                       caught=worst.get("caught", 0) + worst.get("refuted", 0),
                       accounted=worst.get("accounted"),
                       fraction=worst.get("accounted_fraction"))
        return row


def _source(forms_from: str) -> str:
    """Where the audit took the forms the checks evaluate from, in two words."""
    return "mutation audit" if forms_from.startswith("recorded") else "declarations"


def table(rows: list[dict[str, Any]], jobs: int, load: tuple[float, float]) -> str:
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT,
                            capture_output=True, text=True, check=False).stdout.strip()
    lines = [f"Measured {dt.date.today().isoformat()} at commit {commit or '?'}, "
             f"{os.cpu_count()} cores, load average {load[0]:.1f} before and {load[1]:.1f} "
             f"after; the mutation audit with `--jobs {jobs}`. The bound forms evaluated by "
             "checks come from the mutation audit's record when it ran first (its forms), "
             "else from the checks' declarations (every form of a result a check names, an "
             "over-count): the column says which.", "",
             "| paper | bound forms searched / evaluated by checks (from) | counterexamples "
             "(unexplained) | tightness cold | warm | stronger mutants accounted for | "
             "mutation audit |", "|---|---:|---:|---:|---:|---:|---:|"]
    for r in rows:
        total = r["covered"] + r["uncovered"]
        acc = "not run"
        if r.get("stronger"):
            acc = (f"{100 * r['fraction']:.1f}% ({r['accounted']} of {r['stronger']}; "
                   f"{r['caught']} caught or refuted by the checks)")
        lines.append(
            f"| {r['paper']} | {r['covered']} / {total} ({_source(r['forms_from'])}) | "
            f"{r['counterexamples']} "
            f"({r['unexpected']}) | {_minutes(r['tightness_cold'])} | "
            f"{_minutes(r['tightness_warm'])} | {acc} | "
            f"{_minutes(r['mutants_wall']) if 'mutants_wall' in r else 'not run'} |")
    return "\n".join(lines)


def write(text: str) -> None:
    """Replace the table between the markers of benchmarks/README.md."""
    doc = README.read_text(encoding="utf-8")
    if BEGIN not in doc or END not in doc:
        raise SystemExit(f"bench_audit: the markers are missing from {README}")
    head, rest = doc.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    README.write_text(f"{head}{BEGIN}\n{text}\n{END}{tail}", encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--papers", default=",".join(PAPERS))
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--no-mutants", action="store_true")
    ap.add_argument("--write", action="store_true", help="write the table into the README")
    ap.add_argument("--keep", type=Path, default=None,
                    help="keep each paper's audit files in KEEP/PAPER (a new folder)")
    args = ap.parse_args(argv)
    papers = [p.strip() for p in args.papers.split(",") if p.strip()]
    unknown = [p for p in papers if p not in PAPERS]
    if unknown:
        print(f"bench_audit: --papers: unknown paper {unknown[0]!r} (expected some of "
              f"{', '.join(PAPERS)})", file=sys.stderr)
        return 2
    before = os.getloadavg()[0]
    rows = []
    for p in papers:
        print(f"{p} ...", file=sys.stderr, flush=True)
        rows.append(measure(p, args.jobs, not args.no_mutants, args.keep))
    text = table(rows, args.jobs, (before, os.getloadavg()[0]))
    print(text)
    if args.write:
        write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
