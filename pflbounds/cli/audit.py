"""The ``pflbounds audit`` commands: mutants, tightness and false-alarms.

Each prints a table (or one JSON document with ``--json``) and writes its JSON file into the
audit folder (:mod:`pflbounds.audit.files`: ``--out``, default ``reports/audit``), where
``pflbounds report --audit DIR`` finds it.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from pflbounds.audit.files import AUDIT_DIR
from pflbounds.cli.errors import EXIT_UNEXPECTED, CliError

EXIT_FINDING = EXIT_UNEXPECTED
"""An audit that finds a problem (a VIOLATED tightness case, too many false alarms)."""


def _int_list(text: str, what: str) -> list[int]:
    try:
        out = [int(x) for x in text.split(",") if x.strip()]
    except ValueError:
        out = []
    if not out or any(k < 1 for k in out):
        raise CliError(f"{what} {text!r}: expected integers >= 1 separated by commas (1,2,5)")
    return out


def _horizons(text: str) -> list[int]:
    """``--horizons``: iteration counts, each at most MAX_HORIZON, at most MAX_HORIZONS."""
    from pflbounds.limits import MAX_HORIZON, MAX_HORIZONS

    ks = _int_list(text, "--horizons")
    if len(ks) > MAX_HORIZONS:
        raise CliError(f"--horizons lists {len(ks)} iteration counts: at most {MAX_HORIZONS}")
    big = [k for k in ks if k > MAX_HORIZON]
    if big:
        raise CliError(f"--horizons {big[0]} is too large: at most K = {MAX_HORIZON} (the "
                       "PEPit problem grows as K^2)")
    return ks


def _folder(out: str | None) -> Path:
    """The audit folder (:func:`pflbounds.audit.files.audit_folder`)."""
    from pflbounds.audit.files import AuditFolderError, audit_folder

    try:
        return audit_folder(out)
    except AuditFolderError as e:
        raise CliError(str(e)) from None


def _write(out: str | None, name: str, doc: dict[str, Any]) -> Path:
    from pflbounds.audit.files import AuditFolderError, write_audit_file

    try:
        return write_audit_file(out, name, doc)
    except AuditFolderError as e:
        raise CliError(str(e)) from None


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
        raise CliError(f"--paper {paper!r}: unknown paper; known: {', '.join(sorted(papers))}")
    return paper


def cmd_mutants(args: argparse.Namespace) -> int:
    from pflbounds.audit.declarations import declared
    from pflbounds.audit.mutants import GRIDS, audit_mutants, format_table
    from pflbounds.running.locations import suite_seed

    paper = _paper(args.paper)
    _folder(args.out)
    grids = [g.strip() for g in args.grids.split(",") if g.strip()]
    if not grids or any(g not in GRIDS for g in grids):
        raise CliError(f"--grids {args.grids!r}: expected quick, full or quick,full")
    seed = suite_seed(paper) if args.seed is None else args.seed
    only = [r.strip() for r in args.only.split(",")] if args.only else None
    if only:
        from pflbounds.symbolic import catalog

        known = {r.id for r in catalog.results(paper)}
        bad = [r for r in only if r not in known]
        if bad:
            raise CliError(f"--only {', '.join(bad)}: not a result of {paper} "
                           f"(`pflbounds list --paper {paper}`)")
    audit = audit_mutants(paper, seed=seed, grids=grids, jobs=args.jobs, only=only,
                          notes=declared(paper, "MUTANT_NOTES", {}),
                          audited=declared(paper, "AUDIT_CHECKS", None))
    if not args.no_worst:
        from pflbounds.audit.worst_rerun import attach_worst, load_tightness

        folder = _folder(args.out)
        attach_worst(audit, load_tightness(folder / f"tightness-{paper}.json"))
    doc = audit.to_dict()
    path = _write(args.out, f"mutants-{paper}.json", doc)
    _show(doc, format_table(audit), path, args.json)
    return 0


def cmd_tightness(args: argparse.Namespace) -> int:
    from pflbounds.audit.declarations import declared
    from pflbounds.tightness.case import CaseError
    from pflbounds.tightness.declared import paper_cases
    from pflbounds.tightness.paper_audit import format_table, run_tightness, stderr_progress
    from pflbounds.tightness.record import CacheError

    paper = _paper(args.paper)
    try:
        cases = paper_cases(paper)
    except CaseError as e:
        raise CliError(str(e)) from None
    pepit = declared(paper, "TIGHTNESS", [])
    if pepit or any(c.model.startswith("gd_pepit") for c in cases):
        from pflbounds.extras import require

        require("pepit", "pflbounds audit tightness")
    only = [r.strip() for r in args.only.split(",")] if args.only else None
    if only:
        from pflbounds.symbolic import catalog

        known = {r.id for r in catalog.results(paper)}
        bad = [r for r in only if r not in known]
        if bad:
            raise CliError(f"--only {', '.join(bad)}: not a result of {paper} "
                           f"(`pflbounds list --paper {paper}`)")
    horizons = _horizons(args.horizons) if args.horizons else None
    folder = _folder(args.out)
    try:
        folder.mkdir(exist_ok=True)
    except OSError as e:
        raise CliError(f"cannot create the audit folder {folder} ({e.strerror or e})") from None
    try:
        audit = run_tightness(paper, folder, horizons=horizons, only=only,
                              progress=None if args.quiet else stderr_progress())
    except (CaseError, CacheError) as e:
        raise CliError(str(e)) from None
    doc = audit.to_dict()
    path = _write(args.out, f"tightness-{paper}.json", doc)
    _show(doc, format_table(audit), path, args.json)
    return EXIT_FINDING if audit.finding else 0


def cmd_false_alarms(args: argparse.Namespace) -> int:
    from pflbounds.audit.false_alarms import false_alarms, format_table
    from pflbounds.running.locations import suite_file
    from pflbounds.running.results import ResultsError
    from pflbounds.running.suite import SuiteError, load_suite

    _folder(args.out)
    try:
        path = suite_file(args.suite)
    except (SuiteError, ResultsError) as e:
        raise CliError(str(e)) from None
    try:
        suite = load_suite(path)
    except (SuiteError, KeyError) as e:
        raise CliError(str(e.args[0] if e.args else e)) from None
    from pflbounds.limits import MAX_SEED

    if args.first_seed + args.seeds - 1 > MAX_SEED:
        raise CliError(f"--first-seed {args.first_seed} with --seeds {args.seeds} goes past the "
                       f"largest seed {MAX_SEED}")
    seeds = range(args.first_seed, args.first_seed + args.seeds)
    try:
        fa = false_alarms(suite, seeds, jobs=args.jobs, progress=not args.json)
    except ValueError as e:
        raise CliError(str(e)) from None
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
    m.add_argument("--out", metavar="DIR", help=out_help + "; the survivors are re-run on "
                   "the worst instances of tightness-PAPER.json found there")
    m.add_argument("--no-worst", action="store_true",
                   help="do not re-run the survivors on the tightness audit's worst instances")
    m.add_argument("--json", action="store_true", help=json_help)
    m.set_defaults(func=cmd_mutants)

    t = a.add_parser("tightness", help="how tight is each bound: the worst admissible "
                                       "instance found for every declared case")
    t.add_argument("--paper", required=True, help="the paper whose worst-case searches to run "
                                                  "(WORST_CASES and TIGHTNESS in its audit.py)")
    t.add_argument("--only", metavar="IDS", help="only these result ids (comma-separated)")
    t.add_argument("--horizons", metavar="K,K,...",
                   help="iteration counts of the PEPit cases (TIGHTNESS; default: each "
                        "case's, up to K = 50)")
    t.add_argument("--out", metavar="DIR", help=out_help + "; searches and solves are cached "
                                                           "there")
    t.add_argument("--quiet", action="store_true", help="no progress lines on stderr")
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
