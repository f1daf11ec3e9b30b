"""The papers' comparison claims (``CheckKind.COMPARISON``: one method beats another, a table
row in the printed order) give the verdict their declarations expect at their suite's seed and
at three other seeds: a verdict another seed could flip would not be a finding. Each runs as
its paper's suite runs it (grid, draws). Slow: it reruns every comparison four times."""

from __future__ import annotations

from pathlib import Path

import pytest

from pflbounds.checking.kinds import CheckKind
from pflbounds.running.executor import run_check
from pflbounds.running.suite import load_suite

PAPERS = ("even2022", "hanzely2023", "philippenko2025", "erickson2025", "scott2024")
VALIDATION = Path(__file__).resolve().parents[2] / "validation"
OTHER_SEEDS = (1, 2, 3)
"""Offsets of the three other seeds from the suite's own."""


def comparisons() -> list[tuple[str, int]]:
    """(check id, suite seed) of every comparison in the papers' suites."""
    out = []
    for paper in PAPERS:
        suite = load_suite(VALIDATION / f"{paper}.toml")
        out += [(e.check.id, suite.seed) for e in suite.entries
                if e.check.kind is CheckKind.COMPARISON]
    return out


def test_the_papers_suites_hold_comparisons():
    """The stability test below has something to rerun (not slow: it only reads suites)."""
    found = comparisons()
    assert found, "no comparison check in the papers' suites"
    assert len({cid for cid, _ in found}) == len(found)


@pytest.mark.slow
@pytest.mark.parametrize(("check_id", "seed"), comparisons())
def test_a_comparison_gives_its_expected_verdict_at_four_seeds(check_id: str, seed: int):
    paper = check_id.split(".", 1)[0]
    entry = next(e for e in load_suite(VALIDATION / f"{paper}.toml").entries
                 if e.check.id == check_id)
    got = {}
    for offset in (0, *OTHER_SEEDS):
        o = run_check(entry.check, replicas=entry.replicas, quick=entry.quick,
                      base_seed=seed + offset, progress=False)
        got[seed + offset] = o.verdict.value
    assert set(got.values()) == {entry.check.expected.value}, (
        f"{check_id} expects {entry.check.expected.value}; by seed: {got}")
