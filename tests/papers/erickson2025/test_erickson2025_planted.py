"""erickson2025: every check sees a wrong formula planted in the results it evaluates (its
verdict changes), or is declared blind with the reason (``erickson2025.audit.BLIND_CHECKS``).
Runs every check but the §5 experiments' on its quick grid with planted formulas: slow. The
experiments' checks are left out: their quick grids are toys whose verdicts need not be the
full grid's, and they evaluate no formula (comparisons of methods, declared blind)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from planted_rules import planted_failures  # noqa: E402

from pflbounds.audit.declarations import declared  # noqa: E402
from pflbounds.audit.mutants import paper_checks  # noqa: E402

EXPERIMENTS = ("P14_", "F1_", "S52_")


@pytest.mark.slow
def test_every_check_sees_a_planted_formula_or_is_declared_blind():
    ids = [c.id for c in paper_checks("erickson2025")
           if not c.id.split(".", 1)[1].startswith(EXPERIMENTS)]
    failures, found = planted_failures("erickson2025", seed=2025, checks=ids)
    assert not failures, "\n".join(failures)
    seeing = [c for c, p in found.items() if p.sees]
    assert len(seeing) >= 12  # the bounds of Theorem 4.3, the lemmas and Prop. 3.4
    # P6 reads Lemma A.1 as printed: dropping its L^2 term moves it
    assert found["erickson2025.P6"].seen_by.startswith("erickson2025.lemmaA1")


def test_the_experiments_left_out_are_declared_blind_with_a_reason():
    blind = declared("erickson2025", "BLIND_CHECKS", {})
    for c in paper_checks("erickson2025"):
        if c.id.split(".", 1)[1].startswith(EXPERIMENTS):
            assert str(blind.get(c.id, "")).strip(), c.id
