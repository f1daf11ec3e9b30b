"""hanzely2023: every check sees a wrong formula planted in the results it evaluates (its
verdict changes), or is declared blind with the reason (``hanzely2023.audit.BLIND_CHECKS``).
Runs every check on its quick grid with planted formulas: slow."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from planted_rules import planted_failures  # noqa: E402


@pytest.mark.slow
def test_every_check_sees_a_planted_formula_or_is_declared_blind():
    failures, found = planted_failures("hanzely2023", seed=2023)
    assert not failures, "\n".join(failures)
    seeing = [c for c, p in found.items() if p.sees]
    assert len(seeing) >= 15  # most checks read a formula of the paper
    # P11_theorem4 reads Theorem 4 as printed: dropping its initial term makes it fail
    assert found["hanzely2023.P11_theorem4"].seen_by.startswith("hanzely2023.theorem4")
