"""False alarms: Monte Carlo checks of true bounds over many seeds, at per-check levels and
with each paper's error family.

The least favourable true bound is one that the expectation meets exactly: each comparison
then says VIOLATED with probability alpha. Ten such checks of one paper judged one by one (1%
each) raise a false alarm in about 10% of runs; the paper's error family keeps it at most
1%. The 200-seed runs (the quick suite's own Monte Carlo checks, and the planted boundary
suite) are slow-marked."""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from pflbounds.audit.false_alarms import binomial_limit, false_alarms, format_table
from pflbounds.checking import Check, CheckKind, Verdict, mc_block, registry
from pflbounds.cli import main
from pflbounds.running.suite import Suite, SuiteEntry, load_suite

ROOT = Path(__file__).resolve().parents[2]


def at_the_bound(p: Mapping[str, Any], n: int, ss: np.random.SeedSequence) -> dict:
    """x ~ N(1, 1): E[x] = 1 = the bound, a true bound that the mean meets exactly."""
    x = 1.0 + np.random.default_rng(ss).standard_normal((n, 1))
    return {"ks": np.array([1.0]), **mc_block(x), "bound": np.array([1.0])}


def boundary_suite(m: int = 10, papers: tuple[str, ...] = ("fa",)) -> Suite:
    """``m`` checks at the bound per paper (and one expected VIOLATED in the first), each
    paper's checks registered as its own; each paper declares a family of equal shares of 1%
    (:func:`_families`)."""
    checks = [Check(f"{paper}.b{i}", "at the bound", CheckKind.BOUND_HOLDS, Verdict.HOLDS,
                    at_the_bound, grid=({"i": i},), engine="mc", replicas=60, block_size=60)
              for paper in papers for i in range(m)]
    planted = Check(f"{papers[0]}.expected_violation", "left out", CheckKind.BOUND_HOLDS,
                    Verdict.VIOLATED, at_the_bound, grid=({},), engine="mc", replicas=60)
    for c in [*checks, planted]:  # module "": workers receive the check with its tasks
        registry.register(c, replace=True, module="")
    return Suite("boundary", "", 0, "full",
                 tuple(SuiteEntry(c, None, False, c.id) for c in [*checks, planted]))


@pytest.fixture(autouse=True)
def _registry():
    state = registry.snapshot()
    yield
    registry.restore(state)


@pytest.fixture
def _families(monkeypatch):
    """Papers ``fa`` and ``fb`` declare an error family: 1%, an equal share for each of their
    Monte Carlo checks (as a paper's ``ERROR_FAMILY = ErrorFamily(level=0.01)`` would)."""
    from pflbounds.running import multiplicity

    declared = multiplicity.paper_family

    def family(paper: str) -> multiplicity.PaperFamily | None:
        if paper not in ("fa", "fb"):
            return declared(paper)
        ids = [c.id for c in registry.loaded_checks(paper) if not c.deterministic]
        return multiplicity.PaperFamily(paper, 0.01, {c: 1 / len(ids) for c in ids}, {})

    monkeypatch.setattr(multiplicity, "paper_family", family)


def test_binomial_limit_matches_the_binomial_tail():
    def tail(c, n, p):  # P(X > c)
        return sum(math.comb(n, k) * p**k * (1 - p) ** (n - k) for k in range(c + 1, n + 1))

    for n, p in ((200, 0.01), (30, 0.01), (200, 0.1)):
        c = binomial_limit(n, p)
        assert tail(c, n, p) <= 1e-3 < tail(c - 1, n, p)


def test_boundary_suite_per_check_against_the_paper_family(_families):
    fa = false_alarms(boundary_suite(), range(40))
    assert fa.excluded == ["fa.expected_violation"]
    assert [c.runs for c in fa.checks] == [40] * 10
    (paper,) = fa.papers.values()
    assert paper.paper == "fa" and paper.level == 0.01 and paper.checks == 10
    assert paper.any_family <= paper.any_per_check  # a share never rejects more
    per = sum(c.violated for c in fa.checks)
    assert per == paper.any_per_check >= 2  # ~10% of runs: one check at a time
    assert paper.any_family <= binomial_limit(40, 0.01) and fa.within
    text = format_table(fa)
    assert "fa (10 checks counted): runs with a false VIOLATED: per-check levels" in text
    assert "not counted (expects another verdict than HOLDS): fa.expected_violation" in text


def test_each_paper_is_counted_against_its_own_family(_families):
    fa = false_alarms(boundary_suite(5, ("fa", "fb")), range(30))
    assert sorted(fa.papers) == ["fa", "fb"]
    doc = fa.to_dict()
    assert [p["checks"] for p in doc["papers"]] == [5, 5]
    for c in fa.checks:  # each check at 1/6 (fa: 5 and the expected violation) or 1/5 of 1%
        assert c.violated_family <= c.violated
    assert all(p["within"] for p in doc["papers"]) is fa.within


def test_a_paper_without_a_family_is_counted_against_the_sum_of_its_levels():
    fa = false_alarms(boundary_suite(4), range(10))
    (paper,) = fa.papers.values()
    assert not paper.declared and paper.level == pytest.approx(0.05)  # 5 checks at 1% each
    assert paper.any_family == paper.any_per_check  # judged at their own levels either way
    assert "no family declared (per-check levels; the level shown is their sum)" in \
        format_table(fa)


def test_a_suite_without_monte_carlo_checks_is_refused():
    exact = Check("fa.exact", "exact", CheckKind.BOUND_HOLDS, Verdict.HOLDS,
                  lambda p, n, ss: {"ks": np.array([1.0]), "mean": np.array([0.5]),
                                    "bound": np.array([1.0])}, grid=({},))
    with pytest.raises(ValueError, match="no Monte Carlo check of a true bound"):
        false_alarms(Suite("x", "", 0, "full", (SuiteEntry(exact, None, False, "x"),)), [0])


def test_cli_false_alarms_on_a_suite_file(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    suite = tmp_path / "p1mc.toml"
    suite.write_text('name = "p1mc"\nseed = 1\ngrid = "quick"\n[[checks]]\n'
                     'id = "even2022.P1_mc"\nreplicas = 200\n')
    assert main(["audit", "false-alarms", str(suite), "--seeds", "3", "--out",
                 str(tmp_path), "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["runs"] == 3 and doc["checks"][0]["check"] == "even2022.P1_mc"
    assert doc["papers"][0]["paper"] == "even2022" and doc["papers"][0]["any_family"] == 0
    assert doc["within"]
    assert (tmp_path / "false-alarms-p1mc.json").is_file()
    assert main(["audit", "false-alarms", "nosuchsuite"]) == 2
    assert "suite 'nosuchsuite' not found" in capsys.readouterr().err


@pytest.mark.slow
def test_boundary_suite_200_seeds_per_check_exceeds_the_level_and_the_family_does_not(
        _families):
    fa = false_alarms(boundary_suite(), range(200), jobs=2)
    limit = binomial_limit(200, 0.01)
    assert fa.papers["fa"].any_per_check > limit  # about 1 - 0.99^10 = 9.6% of runs
    assert fa.papers["fa"].any_family <= limit


@pytest.mark.slow
def test_quick_suite_monte_carlo_checks_200_seeds_within_the_binomial_limit():
    """Every Monte Carlo check of the quick suite, and its true bound, under 200 seeds: the
    runs with any false VIOLATED (each paper's error family) stay within the binomial limit of
    its family-wise level, and each check's own rate within the limit of its level."""
    fa = false_alarms(load_suite(ROOT / "validation" / "quick.toml"), range(200), jobs=2)
    assert fa.within, format_table(fa)
    for c in fa.checks:
        assert c.errors == 0, c.check_id
        assert c.violated <= binomial_limit(200, c.level), format_table(fa)
