"""even2022: every check sees a wrong formula planted in the results it evaluates (its verdict
changes), or is declared blind with the reason (``even2022.audit.BLIND_CHECKS``). Runs every
check on its quick grid with planted formulas: slow."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from planted_rules import planted_failures  # noqa: E402


@pytest.mark.slow
def test_every_check_sees_a_planted_formula_or_is_declared_blind():
    failures, found = planted_failures("even2022", seed=2022)
    assert not failures, "\n".join(failures)
    seeing = [c for c, p in found.items() if p.sees]
    assert len(seeing) >= 20  # most checks read a formula of the paper
    # P5_orthogonal reads Theorem 2 (part 2) as printed: a planted exponent of N_i moves it
    assert found["even2022.P5_orthogonal"].seen_by.startswith("even2022.theorem2_part2")
