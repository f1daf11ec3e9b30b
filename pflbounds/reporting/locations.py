"""Where a report may be written: the PDF's path, checked before any work.

A report is ``--out FILE.pdf`` or ``reports/SUITE_NAME.pdf``; its own folder beside it
(``reports/SUITE_NAME/``) holds its Typst source, figures and results
(:mod:`pflbounds.reporting.pdf`). Every problem is a :class:`ReportPathError` whose message
is the one line the command prints.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

REPORTS_DIR = Path("reports")
"""The default folder of reports (created when missing)."""
PDF_MARK = b"/Author(pflbounds)"
"""The mark of a PDF pflbounds wrote: only such a file is overwritten."""


class ReportPathError(ValueError):
    """A report path that cannot be used; the message names it and the problem."""


def report_path(given: str | None, suite_name: str) -> Path:
    """The PDF path, checked before any work: a .pdf, not a folder, not a file pflbounds did
    not write, in a folder that exists (``reports/`` is created) and can be written, beside
    a report folder that holds nothing but a report's files and results."""
    out = Path(given) if given else REPORTS_DIR / f"{suite_name}.pdf"
    label = f"--out {given}" if given else f"report {out}"
    if out.suffix.lower() != ".pdf":
        raise ReportPathError(f"--out must name a .pdf file, got {str(out)!r}")
    if out.is_dir():
        raise ReportPathError(f"{label} is an existing folder; expected a .pdf file name")
    if out.exists():
        try:
            with out.open("rb") as fh:
                mine = PDF_MARK in fh.read()
        except OSError as e:
            raise ReportPathError(f"{label} cannot be read ({e.strerror}); choose another "
                                  "name") from None
        if not mine:
            raise ReportPathError(f"{label} is an existing file that pflbounds did not write; "
                                  "choose another name or remove it")
    folder = out.parent
    if not folder.exists():
        if given:
            raise ReportPathError(f"{label}: folder {folder} does not exist; create it first "
                                  "or choose another place")
        try:
            folder.mkdir(parents=True)
        except OSError as e:
            raise ReportPathError(f"cannot create folder {folder} ({e.strerror})") from None
    if not folder.is_dir():
        raise ReportPathError(f"{label}: {folder} is a file, not a folder")
    try:
        tempfile.TemporaryDirectory(dir=folder).cleanup()
    except OSError as e:
        raise ReportPathError(f"{label}: cannot write in folder {folder} ({e.strerror})") \
            from None
    from pflbounds.reporting.pdf import ReportFolderError, check_report_folder
    from pflbounds.running.results import RESULT_FILES

    try:
        check_report_folder(out, RESULT_FILES)
    except ReportFolderError as e:
        raise ReportPathError(f"{label}: {e}") from None
    return out
