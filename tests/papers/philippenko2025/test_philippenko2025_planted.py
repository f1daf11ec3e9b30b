"""philippenko2025: every check sees a wrong formula planted in the results it evaluates (its
verdict changes), or is declared blind with the reason (``philippenko2025.audit.BLIND_CHECKS``).
Runs every check on its quick grid with planted formulas: slow."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from planted_rules import planted_failures  # noqa: E402


@pytest.mark.slow
def test_every_check_sees_a_planted_formula_or_is_declared_blind():
    failures, found = planted_failures("philippenko2025", seed=2025)
    assert not failures, "\n".join(failures)
    seeing = [c for c, p in found.items() if p.sees]
    assert len(seeing) >= 20  # most bound checks read a formula of the paper
    # P17 reads Remark 1's printed weights and Definition 1's: a planted one moves it
    assert found["philippenko2025.P17"].seen_by.startswith(("philippenko2025.remark1",
                                                            "philippenko2025.definition1"))
    # P7 and E5 read Lemma 2's forms on the computed sufficient variances
    assert found["philippenko2025.P7"].sees
