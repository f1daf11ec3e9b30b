"""The paper's name of the claim a result belongs to, read from the result's label."""

from __future__ import annotations

import re

NAMED = re.compile(
    r"^(?:(?:Theorems?|Lemmas?|Corollar(?:y|ies)|Propositions?|Definitions?|Remarks?|"
    r"Property|Properties|Tables?|Figs?\.|Figures?|Sections?|Appendix|App\.|Algorithms?|"
    r"Assumptions?|Examples?)\s+[A-Z]?\d+(?:\.\d+)*(?:\s*[-–]\s*\d+)?"
    r"|Equation\s+\(\w+\)|Eq\.\s+\(\w+\)|§\s*\d+(?:\.\d+)*)"
)
EQUATION = re.compile(r"\b(?:Eq\.|Equation)\s+\(\w+\)")


def claim_name(label: str) -> str:
    """The paper's name of the claim a result label belongs to: ``Theorem 4.3 at eta =
    3/(8L)`` -> ``Theorem 4.3``, ``Table 2 (MT2)`` -> ``Table 2``, ``AFA step size, Eq. (7)``
    -> ``Eq. (7)``; a label without a numbered name is cut before its first parenthesis,
    colon or comma (``Remark after Corollary 1``)."""
    label = " ".join(str(label).split())
    m = NAMED.match(label)
    if m:
        return m.group(0)
    m = EQUATION.search(label)
    if m:
        return m.group(0)
    head = re.split(r"\s\(|:|,", label, maxsplit=1)[0].strip()
    return head or label
