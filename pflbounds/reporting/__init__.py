"""Reporting: figures (matplotlib SVG + CSV) and the PDF report (Typst).

Build a :class:`Report` from the plain dataclasses in :mod:`pflbounds.reporting.model` and
call :func:`write_report`. The names below load on first use, so that a paper package can
import :mod:`pflbounds.reporting.figure_specs` without loading matplotlib or Typst.
"""

from __future__ import annotations

import importlib
from typing import Any

_WHERE = {
    "build_document": "document",
    "paper_findings": "claims",
    "escape_markup": "escape",
    "plan_figures": "figures",
    "render_plot": "figures",
    "write_plot_csv": "figures",
    "VERDICTS": "model",
    "AssumptionRow": "model",
    "ClaimVerdict": "model",
    "ErratumBlock": "model",
    "FormBlock": "model",
    "PaperSection": "model",
    "PlotSpec": "model",
    "Provenance": "model",
    "ProvenanceRow": "model",
    "RefLine": "model",
    "Report": "model",
    "ResultBlock": "model",
    "Series": "model",
    "VerdictRow": "model",
    "ReportCompileError": "pdf",
    "ReportWarning": "pdf",
    "compile_typst": "pdf",
    "render_pages_png": "pdf",
    "write_report": "pdf",
    "build_report": "assemble",
    "figures_for": "outcome_figures",
}

__all__ = sorted(_WHERE)


def __getattr__(name: str) -> Any:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module 'pflbounds.reporting' has no attribute {name!r}")
    value = getattr(importlib.import_module(f"pflbounds.reporting.{module}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return __all__
