"""The papers' comparison claims (``CheckKind.COMPARISON``: one method beats another, a table
row in the printed order) give the verdict their declarations expect at their suite's seed and
at three other seeds: a verdict another seed could flip would not be a finding. Each runs as
its paper's suite runs it (grid, draws, its paper's error family). Slow: a paper's comparisons
run together at each of the four seeds (one sweep per seed, so that checks reading the same
shared draws compute them once), in two processes, with a task cache kept for the session."""

from __future__ import annotations

from pathlib import Path

import pytest

from pflbounds.checking.kinds import CheckKind
from pflbounds.running.cache import TaskCache
from pflbounds.running.executor import RunSpec, run_specs
from pflbounds.running.suite import SuiteEntry, load_suite

PAPERS = ("even2022", "hanzely2023", "philippenko2025", "erickson2025", "scott2024")
VALIDATION = Path(__file__).resolve().parents[2] / "validation"
OTHER_SEEDS = (1, 2, 3)
"""Offsets of the three other seeds from the suite's own."""
JOBS = 2


def comparisons(paper: str) -> tuple[int, list[SuiteEntry]]:
    """The suite seed and the comparison entries of ``paper``'s suite."""
    suite = load_suite(VALIDATION / f"{paper}.toml")
    return suite.seed, [e for e in suite.entries if e.check.kind is CheckKind.COMPARISON]


def test_the_papers_suites_hold_comparisons():
    """The stability test below has something to rerun (not slow: it only reads suites)."""
    found = [e.check.id for paper in PAPERS for e in comparisons(paper)[1]]
    assert found, "no comparison check in the papers' suites"
    assert len(set(found)) == len(found)
    assert {cid.split(".")[0] for cid in found} == {"hanzely2023", "philippenko2025",
                                                    "erickson2025", "scott2024"}


@pytest.mark.slow
@pytest.mark.parametrize("paper", [p for p in PAPERS if comparisons(p)[1]])
def test_a_papers_comparisons_give_their_expected_verdicts_at_four_seeds(paper, tmp_path_factory):
    seed, entries = comparisons(paper)
    cache = TaskCache(tmp_path_factory.mktemp(f"stability-{paper}"))
    got: dict[str, dict[int, str]] = {e.check.id: {} for e in entries}
    for offset in (0, *OTHER_SEEDS):
        outs = run_specs([RunSpec(e.check, e.replicas, e.quick) for e in entries],
                         base_seed=seed + offset, jobs=JOBS, progress=False, cache=cache)
        for o in outs:
            got[o.check_id][seed + offset] = o.verdict.value
    unstable = {e.check.id: (e.check.expected.value, got[e.check.id]) for e in entries
                if set(got[e.check.id].values()) != {e.check.expected.value}}
    assert not unstable, f"expected verdict, then the verdicts by seed: {unstable}"
