"""Escaping plain text for Typst markup and Typst code.

Report prose comes from result statements, check details and errata. It may contain any
character, including ones that mean something in Typst markup (``#`` starts code, ``$`` math,
``*`` strong, ``_`` emphasis, ``@`` references, ``<x>`` labels, ``[``/``]`` content,
``//`` comments, ``-``/``+``/``=`` at the start of a line lists and headings, ``1.`` numbered
lists). Everything here turns such text into markup that displays it literally.
"""

from __future__ import annotations

import re

from pflbounds.symbolic.typst_printer import typst_string

__all__ = ["escape_markup", "typst_string", "label_name"]

# Every character that has a meaning somewhere in Typst markup. Typst accepts a backslash
# before any of them and prints the character itself.
_SPECIAL = set("\\#$*_@<>[]`~=-+/")
_WS = re.compile(r"\s+")
_ENUM_START = re.compile(r"^(\s*\d+)\.", re.MULTILINE)


def escape_markup(text: str, paragraphs: bool = False) -> str:
    """Return Typst markup that displays ``text`` literally.

    Runs of whitespace collapse to one space. With ``paragraphs=True`` a blank line in
    ``text`` stays a paragraph break; otherwise the result is a single line, safe inside
    table cells and function arguments.
    """
    text = "".join(ch for ch in str(text) if ch in "\n\t" or ord(ch) >= 32)
    if paragraphs:
        blocks = re.split(r"\n[ \t]*\n", text.strip())
        return "\n\n".join(escape_markup(b) for b in blocks if b.strip())
    text = _WS.sub(" ", text).strip()
    out = "".join("\\" + ch if ch in _SPECIAL else ch for ch in text)
    # "1. foo" at the start would become a numbered list.
    return _ENUM_START.sub(lambda m: m.group(1) + "\\.", out)


def label_name(*parts: str) -> str:
    """A valid Typst label name built from ``parts`` (e.g. ``erratum-even2022-E1``)."""
    raw = "-".join(parts)
    return re.sub(r"[^A-Za-z0-9_-]", "-", raw)
