"""Reporting: figures (matplotlib SVG + CSV) and the PDF report (Typst).

Build a :class:`Report` from the plain dataclasses in :mod:`pflbounds.reporting.model` and
call :func:`write_report`.
"""

from pflbounds.reporting.document import build_document
from pflbounds.reporting.escape import escape_markup
from pflbounds.reporting.figures import plan_figures, render_plot, write_plot_csv
from pflbounds.reporting.model import (
    VERDICTS,
    AssumptionRow,
    ErratumBlock,
    FormBlock,
    PaperSection,
    PlotSpec,
    Provenance,
    ProvenanceRow,
    RefLine,
    Report,
    ResultBlock,
    Series,
    VerdictRow,
)
from pflbounds.reporting.pdf import (
    ReportCompileError,
    ReportWarning,
    compile_typst,
    render_pages_png,
    write_report,
)

__all__ = [
    "VERDICTS",
    "AssumptionRow",
    "ErratumBlock",
    "FormBlock",
    "PaperSection",
    "PlotSpec",
    "Provenance",
    "ProvenanceRow",
    "RefLine",
    "Report",
    "ReportCompileError",
    "ReportWarning",
    "ResultBlock",
    "Series",
    "VerdictRow",
    "build_document",
    "compile_typst",
    "escape_markup",
    "plan_figures",
    "render_pages_png",
    "render_plot",
    "write_plot_csv",
    "write_report",
]
