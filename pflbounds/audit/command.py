"""The ``pflbounds audit`` commands: mutants, tightness and false-alarms.

Each prints a table (or one JSON document with ``--json``) and writes its JSON file into the
audit folder (``--out``, default ``reports/audit``), where ``pflbounds report --audit DIR``
finds it: ``mutants-PAPER.json``, ``tightness-PAPER.json`` (with the PEPit cache
``pepit-cache.json``) and ``false-alarms-SUITE.json``.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

AUDIT_DIR = Path("reports") / "audit"
EXIT_FINDING = 1


def _error(message: str) -> Exception:
    from pflbounds.cli import CliError

    return CliError(message)


def _int_list(text: str, what: str) -> list[int]:
    try:
        out = [int(x) for x in text.split(",") if x.strip()]
    except ValueError:
        out = []
    if not out or any(k < 1 for k in out):
        raise _error(f"{what} {text!r}: expected integers >= 1 separated by commas (1,2,5)")
    return out


def _horizons(text: str) -> list[int]:
    """``--horizons``: iteration counts, each at most MAX_HORIZON, at most MAX_HORIZONS."""
    from pflbounds.limits import MAX_HORIZON, MAX_HORIZONS

    ks = _int_list(text, "--horizons")
    if len(ks) > MAX_HORIZONS:
        raise _error(f"--horizons lists {len(ks)} iteration counts: at most {MAX_HORIZONS}")
    big = [k for k in ks if k > MAX_HORIZON]
    if big:
        raise _error(f"--horizons {big[0]} is too large: at most K = {MAX_HORIZON} (the "
                     "PEPit problem grows as K^2)")
    return ks


def _folder(out: str | None) -> Path:
    """The audit folder, checked before any work as ``validate`` checks its own: a folder
    that can be written (the default is created; a given one's parent must exist)."""
    from pflbounds.running.atomic import OutputError, check_files_folder

    folder = Path(out) if out else AUDIT_DIR
    label = "--out " if out else "audit folder "
    if folder.exists() and not folder.is_dir():
        raise _error(f"{label}{str(folder)!r} is a file; expected a folder for the audit files")
    try:
        check_files_folder(folder, parents=not out)
    except OutputError as e:
        raise _error(f"{label}{e}") from None
    return folder


def _write(out: str | None, name: str, doc: dict[str, Any]) -> Path:
    from pflbounds.running.atomic import atomic_write

    folder = _folder(out)
    path = folder / name
    try:
        folder.mkdir(exist_ok=True)
        atomic_write(path, json.dumps(doc, indent=1, default=str))
    except OSError as e:
        raise _error(f"cannot write {path} ({e.strerror or e}); the audit ran but its file "
                     "was not written") from None
    return path


def _show(doc: dict[str, Any], text: str, path: Path, as_json: bool) -> None:
    if as_json:
        print(json.dumps(doc, indent=2, default=str))
    else:
        print(text)
        print(f"written to {path}")


def _paper(paper: str) -> str:
    from pflbounds.symbolic import catalog

    papers = catalog.papers()
    if paper not in papers:
        raise _error(f"--paper {paper!r}: unknown paper; known: {', '.join(sorted(papers))}")
    return paper


def _suite_seed(paper: str) -> int:
    """The seed of the paper's own suite (validation/PAPER.toml here, else the shipped
    one), else 0."""
    from pflbounds.running.suite import SuiteError, find_suite, load_suite

    try:
        return load_suite(find_suite(paper)).seed
    except (SuiteError, KeyError, ValueError):
        return 0


def cmd_mutants(args: argparse.Namespace) -> int:
    from pflbounds.audit.declarations import declared
    from pflbounds.audit.mutants import GRIDS, audit_mutants, format_table

    paper = _paper(args.paper)
    _folder(args.out)
    grids = [g.strip() for g in args.grids.split(",") if g.strip()]
    if not grids or any(g not in GRIDS for g in grids):
        raise _error(f"--grids {args.grids!r}: expected quick, full or quick,full")
    seed = _suite_seed(paper) if args.seed is None else args.seed
    only = [r.strip() for r in args.only.split(",")] if args.only else None
    if only:
        from pflbounds.symbolic import catalog

        known = {r.id for r in catalog.results(paper)}
        bad = [r for r in only if r not in known]
        if bad:
            raise _error(f"--only {', '.join(bad)}: not a result of {paper} "
                         f"(`pflbounds list --paper {paper}`)")
    audit = audit_mutants(paper, seed=seed, grids=grids, jobs=args.jobs, only=only,
                          notes=declared(paper, "MUTANT_NOTES", {}),
                          audited=declared(paper, "AUDIT_CHECKS", None))
    doc = audit.to_dict()
    path = _write(args.out, f"mutants-{paper}.json", doc)
    _show(doc, format_table(audit), path, args.json)
    return 0


def cmd_tightness(args: argparse.Namespace) -> int:
    from pflbounds.audit.declarations import declared
    from pflbounds.audit.tightness import audit_tightness, format_table
    from pflbounds.extras import require

    require("pepit", "pflbounds audit tightness")
    paper = _paper(args.paper)
    cases = declared(paper, "TIGHTNESS", [])
    if not cases:
        raise _error(f"paper {paper} declares no tightness case (TIGHTNESS in its audit "
                     "module)")
    folder = _folder(args.out)
    horizons = _horizons(args.horizons) if args.horizons else None
    audit = audit_tightness(paper, cases, cache_path=folder / "pepit-cache.json",
                            horizons=horizons)
    doc = audit.to_dict()
    path = _write(args.out, f"tightness-{paper}.json", doc)
    _show(doc, format_table(audit), path, args.json)
    return EXIT_FINDING if audit.verdict == "VIOLATED" else 0


def cmd_false_alarms(args: argparse.Namespace) -> int:
    from pflbounds.audit.false_alarms import false_alarms, format_table
    from pflbounds.cli import _suite_path
    from pflbounds.running.suite import SuiteError, load_suite

    _folder(args.out)
    path = _suite_path(args.suite)
    try:
        suite = load_suite(path)
    except (SuiteError, KeyError) as e:
        raise _error(str(e.args[0] if e.args else e)) from None
    from pflbounds.limits import MAX_SEED

    if args.first_seed + args.seeds - 1 > MAX_SEED:
        raise _error(f"--first-seed {args.first_seed} with --seeds {args.seeds} goes past the "
                     f"largest seed {MAX_SEED}")
    seeds = range(args.first_seed, args.first_seed + args.seeds)
    try:
        fa = false_alarms(suite, seeds, jobs=args.jobs, progress=not args.json)
    except ValueError as e:
        raise _error(str(e)) from None
    doc = fa.to_dict()
    out = _write(args.out, f"false-alarms-{suite.name}.json", doc)
    _show(doc, format_table(fa), out, args.json)
    return 0 if fa.within else EXIT_FINDING


def add_audit_commands(sub: Any, int_at_least: Any, jobs: Any, seed: Any) -> None:
    """Add ``audit mutants|tightness|false-alarms`` to the command line's subparsers;
    ``int_at_least(low, high, why)``, ``jobs`` and ``seed`` are the command line's integer
    types (:mod:`pflbounds.limits`)."""
    from pflbounds.limits import MAX_RUNS
    s = sub.add_parser("audit", help="how much to trust a verdict: checker power (mutants), "
                                     "false alarms, tightness against PEPit")
    a = s.add_subparsers(dest="audit_command", required=True, metavar="AUDIT")
    out_help = f"folder for the audit's JSON file (default {AUDIT_DIR})"
    json_help = "print one JSON document on stdout"

    m = a.add_parser("mutants", help="run the checks on mutated formulas: which wrong bounds "
                                     "would they catch?")
    m.add_argument("--paper", required=True, help="the paper whose checks to audit")
    m.add_argument("--grids", default="quick",
                   help="grids the checks run on: quick (default), full, or quick,full")
    m.add_argument("--seed", type=seed,
                   help="base seed (default: the seed of validation/PAPER.toml, else 0)")
    m.add_argument("--jobs", type=jobs, default=1,
                   help="worker processes (default 1: this process; at most 4 per core)")
    m.add_argument("--only", metavar="IDS", help="only these result ids (comma-separated)")
    m.add_argument("--out", metavar="DIR", help=out_help)
    m.add_argument("--json", action="store_true", help=json_help)
    m.set_defaults(func=cmd_mutants)

    t = a.add_parser("tightness", help="encoded bounds against PEPit's exact worst case")
    t.add_argument("--paper", required=True, help="the paper whose tightness cases to run")
    t.add_argument("--horizons", metavar="K,K,...",
                   help="iteration counts (default: each case's, up to K = 50)")
    t.add_argument("--out", metavar="DIR", help=out_help + "; solved values are cached there")
    t.add_argument("--json", action="store_true", help=json_help)
    t.set_defaults(func=cmd_tightness)

    f = a.add_parser("false-alarms", help="false VIOLATED rates of a suite's Monte Carlo "
                                          "checks of true bounds over many seeds")
    f.add_argument("suite", nargs="?", metavar="SUITE", help="a suite (default quick)")
    f.add_argument("--seeds", type=int_at_least(1, MAX_RUNS, "each run is a whole suite"),
                   default=200, help=f"number of independent runs (default 200, at most "
                                     f"{MAX_RUNS})")
    f.add_argument("--first-seed", type=seed, default=0,
                   help="the first base seed (default 0)")
    f.add_argument("--jobs", type=jobs, default=1,
                   help="worker processes (at most 4 per core)")
    f.add_argument("--out", metavar="DIR", help=out_help)
    f.add_argument("--json", action="store_true", help=json_help)
    f.set_defaults(func=cmd_false_alarms)
