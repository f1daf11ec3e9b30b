"""Property 1's constants of Assumption 3 for quadratic clients: the printed and corrected
forms, and the erratum check (E18) on its instance."""

from __future__ import annotations

import math

import pytest

from pflbounds.papers.philippenko2025.checks.heterogeneity import CHECKS
from pflbounds.papers.philippenko2025.theory.heterogeneity import PROPERTY1
from pflbounds.symbolic import evaluate, get

FAST = ["E18"]


def test_property1_forms():
    p = evaluate(get(PROPERTY1.id), "corrected", Axi=1.0, IAA=0.5).value
    assert p["b"] == pytest.approx(2 * math.sqrt(2)) and p["c"] == pytest.approx(0.5)
    assert evaluate(get(PROPERTY1.id), "printed", Axi=1.0, IAA=0.5).value["b"] == \
        pytest.approx(math.sqrt(2))


def test_the_printed_constant_fails_and_the_corrected_one_holds(quick_outcomes):
    o = quick_outcomes["E18"]
    assert o.error is None, o.error
    assert o.verdict == CHECKS[0].expected, o.detail
    assert o.claims == {"printed": "VIOLATED", "corrected": "HOLDS"}
