"""The argument parser of the command line: every command's options and help texts.

Building it imports no numpy, sympy or paper: ``--help``, ``--version`` and usage errors
answer at once.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Mapping

from pflbounds.cli.audit import add_audit_commands
from pflbounds.cli.errors import EXIT_BAD_INPUT

Handler = Callable[[argparse.Namespace], int]
"""A command: its parsed arguments in, its exit status out."""

FORMS_HELP = (
    "form of the result: printed (as the paper states it; O-constants set to 1 and named), "
    "explicit (constants recovered from the proof), corrected (errata applied), proof (a "
    "display of the proof); default: printed. `pflbounds show ID` lists a result's forms"
)
INPUTS_HELP = (
    "inputs as name=value: a number or an expression over other inputs (eta=1/(2*L)); "
    "b=FILE and Lambda=FILE read an N x N matrix (.npy, or .csv with commas and no header); "
    "sigma2 may be one value per client (sigma2=0.5,1,2 or a .csv/.npy file) where a result "
    "reads it per client"
)
JSON_HELP = "print one JSON document on stdout"
CACHE_DIR_HELP = ("task cache folder (default: $PFLBOUNDS_CACHE_DIR, else .pflbounds-cache "
                  "in the current folder)")


class _Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line on stderr, exit status 2."""

    def error(self, message: str):  # type: ignore[override]
        self.exit(EXIT_BAD_INPUT, f"{self.prog}: error: {message}; see {self.prog} --help\n")


def _read_int(text: str) -> int | None:
    """An integer typed as digits or in powers of ten (``1e6``); None when it is neither."""
    t = text.strip()
    if len(t) > 40:  # no size or seed needs more digits (and int() refuses 4300 of them)
        return None
    try:
        return int(t)
    except ValueError:
        pass
    try:
        f = float(t)
    except ValueError:
        return None
    return int(f) if f == f and abs(f) != float("inf") and f == int(f) else None


def _int_at_least(low: int, high: int | None = None, why: str = ""):
    """An argparse type: an integer in [low, high] (``high`` None: no upper limit, used for
    none of the sizes); beyond ``high`` the error names the limit and ``why``."""
    def parse(text: str) -> int:
        v = _read_int(text)
        if v is None or v < low:
            raise argparse.ArgumentTypeError(f"expected an integer >= {low}, got {text!r}")
        if high is not None and v > high:
            raise argparse.ArgumentTypeError(
                f"{text} is too large: at most {high}" + (f" ({why})" if why else ""))
        return v

    return parse


def _seed_type():
    from pflbounds.limits import MAX_SEED

    return _int_at_least(0, MAX_SEED, "a seed is stored as a 64-bit integer")


def _jobs_type():
    from pflbounds.limits import JOBS_PER_CORE, cores, max_jobs

    return _int_at_least(1, max_jobs(), f"{JOBS_PER_CORE} per core on the {cores()} cores "
                                        "this process may use")


def _replicas_type():
    from pflbounds.limits import MAX_REPLICAS

    return _int_at_least(1, MAX_REPLICAS, "the checks use 10^2 to 10^4")


def build(handlers: Mapping[str, Handler]) -> argparse.ArgumentParser:
    """The parser of every command; ``handlers`` maps each command name (``list``, ``show``,
    ``eval``, ``solve``, ``complexity``, ``check``, ``validate``, ``report``, ``new-paper``,
    ``cache``) to the function that runs it. The audit commands come with their own
    (:mod:`pflbounds.cli.audit`)."""
    from pflbounds.version import __version__

    p = _Parser(
        prog="pflbounds",
        description="Compute, check and report the theory of personalized federated learning.",
    )
    p.add_argument("--version", action="version", version=f"pflbounds {__version__}")
    sub = p.add_subparsers(dest="command", required=True, metavar="COMMAND")

    s = sub.add_parser("list", help="list encoded results (or, with --checks, the checks)")
    s.add_argument("--paper", help="only this paper's results (a paper id such as even2022)")
    s.add_argument("--checks", action="store_true",
                   help="list the checks instead: result, kind, expected verdict, role, cost "
                        "class (cheap, minutes, long), the extras each needs and whether the "
                        "quick suite runs it")
    s.add_argument("--json", action="store_true", help=JSON_HELP)
    s.set_defaults(func=handlers["list"])

    s = sub.add_parser("show", help="show a result: statement, forms, inputs, errata")
    s.add_argument("result_id", help="a result id such as even2022.theorem2 (see list)")
    s.add_argument("--form", help=FORMS_HELP.replace("default: printed", "default: all"))
    s.add_argument("--json", action="store_true", help=JSON_HELP)
    s.set_defaults(func=handlers["show"])

    for name, helptext in (("eval", "evaluate a result's form"),
                           ("solve", "smallest VAR with the form <= TARGET")):
        s = sub.add_parser(name, help=helptext)
        s.add_argument("result_id", help="a result id such as even2022.theorem2 (see list)")
        s.add_argument("--form", help=FORMS_HELP)
        if name == "solve":
            s.add_argument("--for", dest="var", required=True, metavar="VAR",
                           help="the input to solve for (K, T, N, eta, ...)")
            s.add_argument("--target", required=True, metavar="TARGET",
                           help="the value the form must not exceed (a number or expression)")
        else:
            s.add_argument("--elasticities", action="store_true",
                           help="also print d log(value)/d log(input) for every input")
        s.add_argument("--part", help="part of a multi-part form (show lists the parts)")
        s.add_argument("inputs", nargs="*", metavar="name=value", help=INPUTS_HELP)
        s.add_argument("--json", action="store_true", help=JSON_HELP)
        s.set_defaults(func=handlers[name])

    s = sub.add_parser("complexity", help="compare the methods' complexities for a regime")
    s.add_argument("--paper", required=True, help="the paper whose methods to compare")
    s.add_argument("--objective", help="the objective, for papers with several")
    s.add_argument("--algorithm", help="only this algorithm's rows (e.g. afo, afa, sgd)")
    s.add_argument("inputs", nargs="*", metavar="name=value", help=INPUTS_HELP)
    s.add_argument("--json", action="store_true", help=JSON_HELP)
    s.set_defaults(func=handlers["complexity"])

    s = sub.add_parser("check", help="run one check")
    s.add_argument("check_id", help="a check id such as even2022.P11 (see validation/*.toml)")
    s.add_argument("--replicas", type=_replicas_type(),
                   help="Monte Carlo replicas (default: the check's own; at most 10^7 and "
                        "what the memory holds)")
    s.add_argument("--quick", action="store_true", help="use the check's quick grid")
    s.add_argument("--seed", type=_seed_type(), default=0,
                   help="base seed (default 0); the same seed gives the same numbers")
    s.add_argument("--jobs", type=_jobs_type(), default=1,
                   help="worker processes (default 1; at most 4 per core)")
    _add_run_options(s)
    s.add_argument("--json", action="store_true", help=JSON_HELP)
    s.set_defaults(func=handlers["check"])

    s = sub.add_parser("validate", help="run a validation suite")
    s.add_argument("suite", nargs="?", metavar="SUITE",
                   help="a suite name (quick, even2022) or a suite file (.toml); default quick")
    s.add_argument("--jobs", type=_jobs_type(), default=1,
                   help="local worker processes, one BLAS thread each (default 1; at most 4 "
                        "per core)")
    _add_run_options(s)
    s.add_argument("--out", metavar="DIR",
                   help="results folder (default reports/SUITE_NAME); its parent must exist")
    s.add_argument("--per-check", action="store_true",
                   help="judge each Monte Carlo check at its own 1 - confidence (Bonferroni "
                        "over its comparisons) instead of at its share of its paper's "
                        "family-wise level")
    s.add_argument("--json", action="store_true", help=JSON_HELP)
    s.set_defaults(func=handlers["validate"])

    s = sub.add_parser("report", help="write the PDF report of a suite or of saved results")
    s.add_argument("source", nargs="?", metavar="SUITE_OR_RESULTS",
                   help="a suite (name or .toml file, run first; default quick) or a results "
                        "folder written by `pflbounds validate --out DIR`")
    s.add_argument("--out", metavar="FILE.pdf",
                   help="the PDF to write (default reports/SUITE_NAME.pdf); its folder must "
                        "exist; the report's own folder beside it (reports/SUITE_NAME/) holds "
                        "its .typ source, figures/ and the results")
    s.add_argument("--jobs", type=_jobs_type(), default=1,
                   help="worker processes when a suite is run (default 1; at most 4 per core)")
    s.add_argument("--per-check", action="store_true",
                   help="when a suite is run: judge each Monte Carlo check at its own 1 - "
                        "confidence instead of at its share of its paper's family-wise level")
    _add_run_options(s)
    s.add_argument("--audit", metavar="DIR",
                   help="add the audit chapter from the files `pflbounds audit ...` wrote in DIR "
                        "(e.g. reports/audit)")
    s.add_argument("--detail", choices=("quick", "full"), default="quick",
                   help="quick (default): findings, controls, errata and a block for each claim "
                        "that fails or has an erratum shown; full: also a detail appendix with "
                        "a block for every other claim and each check's seed and hash")
    s.set_defaults(func=handlers["report"])

    s = sub.add_parser("new-paper", help="write the skeleton of a new paper package")
    s.add_argument("name", metavar="NAME",
                   help="the paper id: a Python identifier that is not already a paper "
                        "(e.g. doe2099)")
    s.add_argument("--dir", metavar="DIR",
                   help="the folder to write DIR/NAME/ in (default: the current folder); "
                        "pflbounds/papers in a clone adds the paper to the tree; nothing "
                        "existing is overwritten")
    s.set_defaults(func=handlers["new-paper"])

    s = sub.add_parser("cache", help="show or clear the task cache")
    s.add_argument("action", choices=("info", "clear"),
                   help="info: what the cache holds; clear: remove stored tasks (and, "
                        "without --check, shared computations)")
    s.add_argument("--cache-dir", metavar="DIR", help=CACHE_DIR_HELP)
    s.add_argument("--check", metavar="GLOB",
                   help="clear only the tasks of checks matching GLOB (even2022.P6, even2022.*)")
    s.add_argument("--stale", action="store_true",
                   help="clear only stale tasks: of checks that are gone or whose code changed")
    s.add_argument("--json", action="store_true", help=JSON_HELP)
    s.set_defaults(func=handlers["cache"])

    add_audit_commands(sub, _int_at_least, _jobs_type(), _seed_type())
    return p


def _add_run_options(s: argparse.ArgumentParser) -> None:
    """--scheduler, --no-cache and --cache-dir of the commands that run checks."""
    s.add_argument("--scheduler", metavar="ADDRESS",
                   help="run the tasks on a Dask cluster (tcp://HOST:8786); needs the dask "
                        "extra; --jobs is then unused")
    s.add_argument("--no-cache", action="store_true",
                   help="compute every task, read and store nothing in the task cache")
    s.add_argument("--cache-dir", metavar="DIR", help=CACHE_DIR_HELP)

