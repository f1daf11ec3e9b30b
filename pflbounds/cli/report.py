"""The ``report`` command: the PDF report of a suite (run first) or of a results folder."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from pflbounds.cli.errors import CliError
from pflbounds.cli.run import load_suite_arg, print_skipped, sweep


def cmd_report(args: argparse.Namespace) -> int:
    """Write the PDF report of a suite (run first) or of a results folder. Every problem with
    the source or the output is one line (exit 2), checked before any work; Ctrl-C leaves the
    previous report as it was (exit 130)."""
    from pflbounds.reporting.assemble import (
        UnknownPaperError,
        check_outcome_papers,
        load_outcome_papers,
    )
    from pflbounds.running.locations import results_name

    out = None
    try:
        src = args.source
        if src is not None and (Path(src).is_dir() or Path(src).name == "outcomes.json"):
            outcomes, suite_name, results = _read_results(Path(src)), results_name(src), src
            from pflbounds.running.results import load_skipped

            skipped = load_skipped(Path(src))
            suite = None
            # the papers the outcomes come from (all of them for an audit chapter), so
            # that a broken one is named before any work
            load_outcome_papers([] if args.audit else outcomes)
            try:
                check_outcome_papers(outcomes)
            except UnknownPaperError as e:
                raise CliError(f"results folder {str(results)!r}: {e}") from None
        else:
            load_outcome_papers([])  # a suite to run: every paper, as validate loads them
            suite = load_suite_arg(src)
            suite_name, results = suite.name, None
        out = _report_path(args.out, suite_name)
        data_dir = out.with_suffix("")
        if results is not None and Path(results).name == "outcomes.json":
            results = str(Path(results).parent)
        save = results is None or Path(results).resolve() != data_dir.resolve()
        if save:
            _report_check_results_folder(data_dir)
        audit = None
        if getattr(args, "audit", None):
            from pflbounds.reporting.audit_page import load_audit

            audit = load_audit(args.audit)  # ValueError: one line naming the folder or file
        if suite is not None:
            if args.jobs < 1:
                raise CliError(f"--jobs must be >= 1, got {args.jobs}")
            from pflbounds.running.suite import sweep_suite

            multiplicity = "per-check" if getattr(args, "per_check", False) else "paper"
            _, run = sweep(args, lambda **kw: sweep_suite(
                suite, jobs=args.jobs, multiplicity=multiplicity, **kw))
            outcomes, skipped = run.outcomes, run.skipped
            print_skipped(skipped)
        return _report_write(args, outcomes, suite, suite_name, results, out, save, audit,
                             skipped)
    except KeyboardInterrupt:
        where = f"; {out} and its figures are as they were" if out is not None else ""
        print(f"pflbounds report: interrupted{where}", file=sys.stderr)
        return 130


def _read_results(src: Path) -> list:
    """The outcomes of a results folder (:func:`pflbounds.running.locations.read_results`)."""
    from pflbounds.running.locations import read_results
    from pflbounds.running.results import ResultsError

    try:
        return read_results(src)
    except ResultsError as e:
        raise CliError(str(e)) from None


def _report_path(given: str | None, suite_name: str) -> Path:
    """The PDF to write (:func:`pflbounds.reporting.locations.report_path`)."""
    from pflbounds.reporting.locations import ReportPathError, report_path

    try:
        return report_path(given, suite_name)
    except ReportPathError as e:
        raise CliError(str(e)) from None


def _report_check_results_folder(data_dir: Path) -> None:
    from pflbounds.running.atomic import OutputError
    from pflbounds.running.results import check_results_folder

    try:
        check_results_folder(data_dir, parents=False)
    except OutputError as e:
        raise CliError(f"the results beside the report go to {e}") from None


def _report_write(args, outcomes, suite, suite_name, results, out, save, audit,
                  skipped: dict[str, str]) -> int:
    from pflbounds.checking.vocabulary import summary_line
    from pflbounds.reporting.assemble import build_report, data_command
    from pflbounds.reporting.pdf import ReportFolderError, write_report
    from pflbounds.running.atomic import OutputError
    from pflbounds.running.results import RESULT_FILES, save_outcomes

    data_dir = out.with_suffix("")
    if save:
        try:
            save_outcomes(outcomes, data_dir, parents=False, skipped=skipped)
        except OutputError as e:
            raise CliError(f"the results beside the report go to {e}") from None
        except OSError as e:
            raise CliError(f"cannot write the results to {data_dir} ({e.strerror or e}); "
                           "nothing was changed there") from None
    detail = getattr(args, "detail", "quick")
    command = " ".join(["pflbounds report", *([args.source] if args.source else []),
                        "--out", str(out), *(["--audit", args.audit] if args.audit else []),
                        *(["--detail", detail] if detail != "quick" else [])])
    made_by = data_command(outcomes, results or data_dir,
                           suites_dir=suite.path.parent if suite and suite.path else "validation")
    from pflbounds.audit.files import AUDIT_DIR
    from pflbounds.reporting.tightness_text import load_tightness_records

    # the tightness audit's records (never a search): from --audit, else the default folder
    tightness = load_tightness_records(args.audit or AUDIT_DIR)
    report = build_report(outcomes, suite=suite_name, command=command, audit=audit,
                          data_command_line=made_by, detail=detail, skipped=skipped,
                          tightness=tightness)
    try:
        pdf = write_report(report, out, RESULT_FILES)
    except ReportFolderError as e:
        raise CliError(f"--out {out}: {e}") from None
    except OSError as e:
        raise CliError(f"cannot write the report to {out} ({e.strerror or e}); {out} and its "
                       "figures are as they were") from None
    print(f"wrote {pdf}")
    print(summary_line(outcomes, skipped))
    return 0

