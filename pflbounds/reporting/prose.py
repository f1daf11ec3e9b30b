"""Prose as a reader of the report gets it: without references to files the reader lacks.

The paper encodings cite their working notes (the papers' digests: ``(digest §4.4)``,
``digest C13``, ``the digest's reading``). A report goes to readers who have the papers but
not those notes, so :func:`for_reader` removes such references from every piece of prose the
report prints (statements, notes, check titles and details, errata), leaving the rest of the
sentence intact; the encodings themselves keep them.
"""

from __future__ import annotations

import re

__all__ = ["for_reader"]

_REF = r"(?:§\s*[\w.]+(?:\s*[-–]\s*§?[\w.]+)?|#\s*\d+|[A-Z]\d+|P\d+(?:\s*[-–]\s*P?\d+)?)"
_REFS = rf"{_REF}(?:\s*(?:,|and)\s*{_REF})*"
_CUT = "\x00"  # where a reference was cut: the spaces around it are tidied, nothing else
_RULES: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"\bdigest run\b"), "a run"),
    # "(digest item C11: A1's reading)" -> "(A1's reading)"; "(digest §4.1.7, derived; ...)"
    (re.compile(r"\((?:the\s+)?digest(?:'s)?(?:\s+item)?\s*" + _REFS + r"?\s*[:,;]\s*"), "("),
    # "(digest §6.1-6.2)", "(digest P5, P9)", "(digest §5.2 recipe)" -> ""
    (re.compile(r"\s*\((?:see\s+)?(?:the\s+)?(?:\w+\s+)?digest(?:'s)?\b[^()]*\)"), _CUT),
    # "(Definition 2, digest §4.4)" -> "(Definition 2)"
    (re.compile(r"\s*[,;]\s*(?:see\s+)?(?:the\s+)?(?:\w+\s+)?digest(?:'s)?\b[^,;()]*(?=[);])"),
     _CUT),
    # "P1-P20 of the digest (§6)", "Typos 12-16 of digest §8"
    (re.compile(r"\s+(?:of|in|from)\s+(?:the\s+)?digest(?:'s)?(?:\s*\(" + _REFS + r"\)|\s+"
                + _REFS + r")?"), _CUT),
    # "the digest's reading of d_eff" -> "the encoded reading of d_eff"
    (re.compile(r"\b[Tt]he digest's\b"), "the encoded"),
    (re.compile(r"\bthe digest\b"), "the encoding"),
    # any other "digest §x", "digest C13"
    (re.compile(r"\s*\bdigest\s+(?:item\s+)?" + _REFS), _CUT),
)


def for_reader(text: str) -> str:
    """``text`` without references to the papers' digests."""
    if not text or "digest" not in text:
        return text
    out = text
    for pattern, repl in _RULES:
        out = pattern.sub(repl, out)
    out = re.sub(r"[ \t]*" + _CUT + r"[ \t]*(?=[,.;:)]|$)", "", out)
    out = re.sub(r"[ \t]*" + _CUT + r"[ \t]*", " ", out)
    return out.strip()
