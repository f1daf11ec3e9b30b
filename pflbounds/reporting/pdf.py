"""Write a report: figures, Typst source and PDF, compiled in-process by the ``typst`` package.

:func:`write_report` lays the output out as::

    <dir>/<name>.pdf
    <dir>/<name>/<name>.typ          the Typst source (compile it again with ``typst compile``)
    <dir>/<name>/figures/<stem>.svg  one per plot
    <dir>/<name>/figures/<stem>.csv  the plotted numbers (series,x,y,lo,hi)

Each report owns its folder ``<dir>/<name>/`` (where the command line also puts the results
it reports): a second report into ``<dir>`` under another name never touches the first. The
files are written through a staging folder, so an interrupted run leaves the previous report
intact; a folder or ``figures/`` that holds a file the report did not write is refused
(:class:`ReportFolderError`), never emptied.

:func:`render_pages_png` rasterizes the pages with Typst itself (no poppler needed).
"""

from __future__ import annotations

import datetime as _dt
import os
import shutil
import tempfile
import warnings
from pathlib import Path

import typst

from pflbounds.reporting.document import build_document
from pflbounds.reporting.figures import plan_figures, render_plot
from pflbounds.reporting.model import Report
from pflbounds.reporting.plainmath import notation_of

__all__ = [
    "ReportCompileError",
    "ReportFolderError",
    "ReportWarning",
    "check_report_folder",
    "compile_typst",
    "render_pages_png",
    "report_folder",
    "report_source",
    "write_report",
]

FIGURES_DIR = "figures"
FIGURE_SUFFIXES = (".svg", ".csv")


class ReportFolderError(ValueError):
    """The folder of a report holds files the report did not write (the message names
    them)."""


def report_folder(out_pdf: Path | str) -> Path:
    """The folder a report owns: ``reports/NAME/`` for ``reports/NAME.pdf``."""
    return Path(out_pdf).with_suffix("")


def report_source(out_pdf: Path | str) -> Path:
    """The Typst source of a report: ``reports/NAME/NAME.typ`` for ``reports/NAME.pdf``."""
    out_pdf = Path(out_pdf)
    return report_folder(out_pdf) / f"{out_pdf.stem}.typ"


def check_report_folder(out_pdf: Path | str, allowed: tuple[str, ...] = ()) -> None:
    """Refuse (:class:`ReportFolderError`) a report folder that holds anything besides the
    report's source, ``figures/`` of SVG and CSV files, and the names in ``allowed`` (the
    results beside it); and a file where the folder belongs."""
    folder = report_folder(out_pdf)
    if folder.is_symlink() or (folder.exists() and not folder.is_dir()):
        raise ReportFolderError(f"{folder} is a file, not a folder; the report puts its source "
                                "and figures there, so choose another name")
    if not folder.is_dir():
        return
    mine = {report_source(out_pdf).name, FIGURES_DIR, *allowed}
    foreign = sorted(n for n in os.listdir(folder) if n not in mine)
    figs = folder / FIGURES_DIR
    if figs.is_symlink() or (figs.exists() and not figs.is_dir()):
        foreign.append(FIGURES_DIR)
    elif figs.is_dir():
        foreign += sorted(f"{FIGURES_DIR}/{x.name}" for x in figs.iterdir()
                          if x.suffix not in FIGURE_SUFFIXES or x.is_symlink() or x.is_dir())
    if foreign:
        shown = ", ".join(foreign[:5]) + (" …" if len(foreign) > 5 else "")
        raise ReportFolderError(f"{folder} holds files the report did not write ({shown}); "
                                "the report owns that folder (its source, figures and results), "
                                "so choose another name or move them")


class ReportCompileError(RuntimeError):
    """Typst could not compile the report; the message carries Typst's diagnostic."""


class ReportWarning(UserWarning):
    """A warning emitted by Typst while compiling a report."""


def _describe(exc: Exception) -> str:
    parts = [str(getattr(exc, "message", "") or exc)]
    diagnostic = getattr(exc, "diagnostic", "")
    if diagnostic and diagnostic not in parts[0]:
        parts.append(str(diagnostic))
    for hint in getattr(exc, "hints", None) or []:
        parts.append(f"hint: {hint}")
    return "\n".join(parts)


def _timestamp(created: str | None) -> _dt.datetime | None:
    """The report's creation time as an aware datetime, so the PDF metadata is reproducible."""
    if not created:
        return None
    try:
        when = _dt.datetime.fromisoformat(created)
    except ValueError:
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=_dt.UTC)
    return when


def compile_typst(
    typ_path: Path | str,
    output: Path | str | None = None,
    fmt: str = "pdf",
    ppi: float | None = None,
    created: str | None = None,
) -> bytes | list[bytes] | None:
    """Compile a ``.typ`` file with the in-process Typst compiler.

    The project root is the file's directory, so relative paths such as ``figures/x.svg``
    resolve beside it. With ``output`` the result is written there (atomically for PDF) and
    ``None`` is returned; without it the bytes are returned (a list of pages for multi-page
    PNG). Typst warnings are re-emitted as :class:`ReportWarning`.

    Raises:
        ReportCompileError: with Typst's message and diagnostic when compilation fails.
    """
    typ_path = Path(typ_path)
    kwargs: dict = {"root": str(typ_path.parent.resolve()), "format": fmt}
    if ppi is not None:
        kwargs["ppi"] = ppi
    stamp = _timestamp(created)
    if stamp is not None:
        kwargs["timestamp"] = stamp
    try:
        data, diagnostics = typst.compile_with_warnings(str(typ_path), **kwargs)
    except typst.TypstError as exc:
        raise ReportCompileError(f"Typst could not compile {typ_path}:\n{_describe(exc)}") from exc
    for w in diagnostics:
        warnings.warn(ReportWarning(f"{typ_path.name}: {_describe(w)}"), stacklevel=2)
    if output is None:
        return data
    output = Path(output)
    if isinstance(data, list):
        raise ValueError("multi-page output needs render_pages_png, not a single output path")
    _atomic_write(output, data)
    return None


def _umask_mode(base: int) -> int:
    """``base`` (0o666 for files, 0o777 for folders) under the user's umask."""
    mask = os.umask(0o022)
    os.umask(mask)
    return base & ~mask


def _atomic_write(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` through a temporary file and a rename, with the mode a
    plain ``open`` would give (``mkstemp`` alone makes it 0600)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.chmod(tmp, _umask_mode(0o666))
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def write_report(report: Report, out_pdf: Path | str, allowed: tuple[str, ...] = ()) -> Path:
    """Write ``report`` as a PDF, with its ``.typ`` source and figures (SVG + CSV) in its
    folder (:func:`report_folder`; ``allowed``: other names that may be there, the results).

    Everything is first written to a staging folder beside the PDF and compiled there; then
    ``figures/`` is swapped in whole, and the ``.typ`` and the PDF are replaced atomically. A
    run interrupted half-way (Ctrl-C, a full disk) leaves the previous report as it was, never
    a ``figures/`` mixing old and new files. Returns the path of the PDF. Raises
    :class:`ReportCompileError` if Typst fails and :class:`ReportFolderError` if the folder
    holds a file the report did not write.
    """
    out_pdf = Path(out_pdf)
    if out_pdf.suffix.lower() != ".pdf":
        raise ValueError(f"report output must end in .pdf, got {out_pdf}")
    out_dir = out_pdf.parent
    folder = report_folder(out_pdf)
    check_report_folder(out_pdf, allowed)
    out_dir.mkdir(parents=True, exist_ok=True)
    stems = plan_figures(report)
    # each plot with the paper whose constant names its labels use (scott2024's L1 is L_1)
    plots = [(s.paper_id, p) for s in report.sections for v in s.verdicts for p in v.plots]
    plots += [(s.paper_id, p) for s in report.sections for e in s.errata for p in e.plots]
    if report.audit:
        drawn = [p for p in report.audit.plots if p is not None]
        plots += [(None, p) for p in drawn]
        stems.update({id(p): p.name for p in drawn})
    staging = Path(tempfile.mkdtemp(prefix=f".{out_pdf.stem}-staging-", dir=out_dir))
    try:
        fig_dir = staging / FIGURES_DIR
        for paper, plot in plots:
            with notation_of(paper):
                render_plot(plot, fig_dir / f"{stems[id(plot)]}.svg")
        source = build_document(report, stems, FIGURES_DIR)
        typ_staged = staging / report_source(out_pdf).name
        typ_staged.write_text(source, encoding="utf-8")
        created = report.provenance.created if report.provenance else None
        pdf_bytes = compile_typst(typ_staged, created=created)
        assert isinstance(pdf_bytes, bytes)
        if plots:
            os.chmod(fig_dir, _umask_mode(0o777))
        if not folder.is_dir():
            os.mkdir(folder, _umask_mode(0o777))
        _swap_dir(fig_dir if plots else None, folder / FIGURES_DIR)
        _atomic_write(report_source(out_pdf), source.encode("utf-8"))
        _atomic_write(out_pdf, pdf_bytes)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return out_pdf


def _swap_dir(new: Path | None, target: Path) -> None:
    """Put the folder ``new`` at ``target`` (removing ``target`` when ``new`` is None): the old
    folder is renamed aside first, so ``target`` never holds a mix of both."""
    old = None
    if target.exists():
        stray = [x.name for x in target.iterdir()
                 if x.suffix not in FIGURE_SUFFIXES or x.is_symlink() or x.is_dir()]
        if stray:  # checked before the work too: never remove a file the report did not write
            raise ReportFolderError(f"{target} holds files the report did not write "
                                    f"({', '.join(sorted(stray)[:5])})")
        old = target.with_name(f".{target.name}-old-{os.getpid()}")
        shutil.rmtree(old, ignore_errors=True)
        os.replace(target, old)
    if new is not None:
        os.replace(new, target)
    if old is not None:
        shutil.rmtree(old, ignore_errors=True)


def render_pages_png(pdf_or_typ: Path | str, out_dir: Path | str, ppi: float = 72) -> list[Path]:
    """Render every page of a report to ``out_dir/page-001.png``, ... and return the paths.

    Typst cannot read PDFs, so for ``x.pdf`` the source ``x.typ`` beside it is compiled to PNG.
    """
    src = Path(pdf_or_typ)
    typ_path = src if src.suffix == ".typ" else report_source(src)
    if not typ_path.exists():
        raise FileNotFoundError(f"no Typst source {typ_path} to render pages from")
    pages = compile_typst(typ_path, fmt="png", ppi=ppi)
    if isinstance(pages, bytes):
        pages = [pages]
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    paths = []
    for k, png in enumerate(pages or [], 1):
        path = out / f"page-{k:03d}.png"
        path.write_bytes(png)
        paths.append(path)
    return paths
