"""Typesetting the plain-text math notation of statements, labels and captions.

The reader lives in :mod:`pflbounds.symbolic.plainmath` (the symbolic printers use it for a
result's quantity); the report imports it from here.
"""

from __future__ import annotations

from pflbounds.symbolic.plainmath import (
    current_paper,
    declared_names,
    notation_of,
    parse,
    to_mathtext,
    to_typst,
    to_typst_math,
)

__all__ = ["current_paper", "declared_names", "notation_of", "parse", "to_mathtext", "to_typst",
           "to_typst_math"]
