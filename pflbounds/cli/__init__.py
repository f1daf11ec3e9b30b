"""The ``pflbounds`` command line (see DESIGN.md, "Command line").

Every command prints one JSON document on stdout with ``--json``. Errors go to stderr as one
line, with exit status 2 for bad input and 1 when ``validate`` finds an unexpected verdict.

The commands live by group: :mod:`~pflbounds.cli.compute` (list, show, eval, solve,
complexity), :mod:`~pflbounds.cli.run` (check, validate, cache), :mod:`~pflbounds.cli.report`,
:mod:`~pflbounds.cli.new_paper` and :mod:`~pflbounds.cli.audit`; their inputs are read by
:mod:`~pflbounds.cli.inputs` and their options by :mod:`~pflbounds.cli.parser`. Importing
this package loads none of numpy, sympy or the papers.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

from pflbounds.cli import parser, startup
from pflbounds.cli.compute import (
    check_rows,
    cmd_complexity,
    cmd_eval,
    cmd_list,
    cmd_show,
    cmd_solve,
    example_command,
)
from pflbounds.cli.errors import EXIT_BAD_INPUT, EXIT_INTERNAL, EXIT_UNEXPECTED, CliError
from pflbounds.cli.inputs import (
    MATRIX_INPUTS,
    MAX_ENTRY,
    VECTOR_INPUTS,
    check_vector_inputs,
    load_matrix,
    load_vector,
    matrix_inputs,
    parse_inputs,
)
from pflbounds.cli.new_paper import cmd_new_paper
from pflbounds.cli.report import cmd_report
from pflbounds.cli.run import cmd_cache, cmd_check, cmd_validate

__all__ = [
    "EXIT_BAD_INPUT", "EXIT_INTERNAL", "EXIT_UNEXPECTED", "MATRIX_INPUTS", "MAX_ENTRY",
    "VECTOR_INPUTS", "CliError", "build_parser", "check_rows", "check_vector_inputs",
    "cmd_cache", "cmd_check", "cmd_complexity", "cmd_eval", "cmd_list", "cmd_new_paper",
    "cmd_report", "cmd_show", "cmd_solve", "cmd_validate", "example_command", "load_matrix",
    "load_vector", "main", "matrix_inputs", "parse_inputs",
]


def build_parser() -> argparse.ArgumentParser:
    """The parser of every command, each running the function of that name in this
    package's namespace at the time the parser is built."""
    return parser.build({
        "list": cmd_list, "show": cmd_show, "eval": cmd_eval, "solve": cmd_solve,
        "complexity": cmd_complexity, "check": cmd_check, "validate": cmd_validate,
        "report": cmd_report, "new-paper": cmd_new_paper, "cache": cmd_cache,
    })


def main(argv: Sequence[str] | None = None) -> int:
    """The command line. Called without ``argv`` (the ``pflbounds`` console script, ``python
    -m pflbounds.cli``), no Python warning reaches the user, in this process or its workers:
    pflbounds reports what matters in its own lines. Called with ``argv`` (tests, scripts),
    the caller's warning filters apply, so that a stray warning can be caught as an error."""
    if argv is not None:
        return _main(argv)
    import os
    import warnings

    os.environ["PYTHONWARNINGS"] = "ignore"  # worker processes started from here
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return _main(None, shell=True)


def _main(argv: Sequence[str] | None, *, shell: bool = False) -> int:
    """Parse ``argv`` and run its command; ``shell``: run from the shell as the
    ``pflbounds`` program, a one-shot command starts and ends as :mod:`pflbounds.cli.startup`
    says."""
    parser = build_parser()
    try:
        args, extra = parser.parse_known_args(argv)
        if extra:
            # name=value words after an option (``eval ID --form F mu=1``) land here
            if hasattr(args, "inputs") and all("=" in e and not e.startswith("-") for e in extra):
                args.inputs = list(args.inputs) + extra
            else:
                sub = f"pflbounds {args.command}"
                print(f"{sub}: error: unrecognized arguments: {' '.join(extra)}; see {sub} "
                      "--help", file=sys.stderr)
                return EXIT_BAD_INPUT
    except SystemExit as e:  # --help, --version, or a usage error already printed
        return e.code if isinstance(e.code, int) else EXIT_BAD_INPUT
    if not (shell and args.command in startup.ONE_SHOT):
        return _run(args)
    startup.begin()
    return startup.finish(_run(args))


def _run(args: argparse.Namespace) -> int:
    """Run the parsed command: its exit status, errors as one line on stderr."""
    # numpy, sympy and the papers load only now: --help, --version and usage errors stay
    # fast; numpy with one BLAS thread (pflbounds.threads), as every sweep runs anyway
    from pflbounds.threads import prefer_one_thread

    prefer_one_thread()
    from pflbounds.extras import MissingExtra
    from pflbounds.symbolic.loader import PaperLoadError, load_for_result, load_papers

    try:
        # every paper loads (or its failure is named) before any command runs; eval, solve
        # and complexity, about one paper, load only that paper (a fast start); list, show,
        # complexity and validate read the papers' indexes (pflbounds.running.index) and
        # import only the papers whose sources changed since they were indexed (every paper
        # for list and validate, its own for show and complexity, which then loads its
        # calculator alone)
        args.use_index = args.command in ("list", "show", "complexity", "validate") and \
            not getattr(args, "no_cache", False) and _index_usable()
        if args.command in ("eval", "solve"):
            load_for_result(args.result_id)
        elif args.command in ("report", "complexity") or args.use_index:
            pass  # report loads the papers its source names (all of them for a suite)
        else:
            load_papers(checks=args.command in ("check", "validate", "report", "audit")
                        or bool(getattr(args, "checks", False)))
        return int(args.func(args) or 0)
    except CliError as e:
        print(f"pflbounds {args.command}: error: {e}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except ValueError as e:  # hypotheses, inputs (HypothesisError and InputError are
        # ValueErrors), domain errors raised by constants and matrix validation
        print(f"pflbounds {args.command}: error: {e}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except MissingExtra as e:  # an optional dependency: name the pip install to run
        print(f"pflbounds {args.command}: error: {e}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except PaperLoadError as e:  # a broken paper package: name it, never hide it
        print(f"pflbounds {args.command}: error: {e}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except BrokenPipeError:  # the reader of our output stopped (`pflbounds list | head`)
        return startup.reader_gone()
    except MemoryError as e:  # sizes the limits could not foresee (inputs read by a paper)
        what = f" ({e})" if str(e) else ""
        print(f"pflbounds {args.command}: error: not enough memory for these inputs{what}; "
              "use smaller sizes", file=sys.stderr)
        return EXIT_BAD_INPUT
    except Exception as e:  # a defect of pflbounds: one line, the traceback on request
        if os.environ.get("PFLBOUNDS_DEBUG"):
            raise
        first = (str(e).strip().splitlines() or [""])[0][:300]
        print(f"pflbounds {args.command}: internal error: {type(e).__name__}: {first} (a "
              "defect of pflbounds, not of your input; PFLBOUNDS_DEBUG=1 shows the "
              "traceback)", file=sys.stderr)
        return EXIT_INTERNAL


def _index_usable() -> bool:
    """Whether the command may read the papers' indexes (:func:`pflbounds.running.index.view.
    usable`)."""
    from pflbounds.running.index.view import usable

    return usable()
