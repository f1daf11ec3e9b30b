"""Observed false-VIOLATED rate of every Monte Carlo check of a suite, over many seeds.

Each Monte Carlo check of the suite that expects HOLDS (a true bound) runs under N
independent base seeds. The table gives, per check, the runs that said VIOLATED with the
check correcting its own comparisons (nominal rate at most 1 - confidence, 1%) with a 95%
Clopper-Pearson interval and the binomial limit of the nominal rate over N runs, the same
with each paper's error family as ``validate`` judges it, and the INCONCLUSIVE counts (the power
that the correction costs). The last line gives the share of suite runs with any false
VIOLATED under each correction, against the family-wise level. True bounds that the measured
expectation does not approach give 0 false alarms whatever the correction: the rate is
driven by the checks whose bound is nearly attained.

Run:  python benchmarks/bench_false_alarms.py [SUITE] [--seeds 200] [--jobs 2] [--json]

(the same as ``pflbounds audit false-alarms``, which also writes the JSON for the report;
the default is the quick suite, 200 seeds: about 10 minutes on 2 cores).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from pflbounds.audit.false_alarms import false_alarms, format_table
from pflbounds.running.suite import load_suite

ROOT = Path(__file__).resolve().parents[1]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("suite", nargs="?", default=str(ROOT / "validation" / "quick.toml"))
    ap.add_argument("--seeds", type=int, default=200)
    ap.add_argument("--first-seed", type=int, default=0)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    suite = load_suite(args.suite)
    fa = false_alarms(suite, range(args.first_seed, args.first_seed + args.seeds),
                      jobs=args.jobs, progress=not args.json)
    print(json.dumps(fa.to_dict(), indent=1) if args.json else format_table(fa))
    return 0 if fa.within else 1


if __name__ == "__main__":
    sys.exit(main())
