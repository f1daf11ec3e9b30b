"""Error families per paper: each Monte Carlo check's share of its paper's family-wise level is
fixed by the paper's declaration, so a check run alone, in its paper's suite or in a suite of
several papers has the same limits and verdict; per-check levels on request; declarations
that leave a check out are refused."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping
from typing import Any

import numpy as np
import pytest
from scipy.special import stdtrit

from pflbounds.checking import Check, CheckKind, Verdict, mc_block, registry
from pflbounds.running.executor import RunSpec, run_check, run_specs
from pflbounds.running.multiplicity import family_records, paper_family

N = 100


def planted(params: Mapping[str, Any], n: int, ss: np.random.SeedSequence) -> dict:
    """Samples with mean exactly bound + t sd/sqrt(n) (sd 1), whatever the seed: the one-sided
    p-value of 'E <= bound' is p."""
    z = np.linspace(-1.0, 1.0, n)
    z = (z - z.mean()) / z.std(ddof=1)
    t = stdtrit(n - 1.0, 1.0 - params["p"])
    return {"ks": np.array([1.0]), **mc_block((1.0 + t / np.sqrt(n) + z)[:, None]),
            "bound": np.array([1.0])}


def _check(name: str, p: float) -> Check:
    return Check(f"famtest.{name}", f"planted p = {p}", CheckKind.BOUND_HOLDS, Verdict.HOLDS,
                 planted, grid=({"p": p},), engine="mc", replicas=N, block_size=N)


@pytest.fixture
def famtest():
    """Three planted checks registered as the checks of a paper ``famtest`` that declares no
    family."""
    state = registry.snapshot()
    checks = [_check("a", 0.004), _check("b", 0.5), _check("c", 0.5)]
    for c in checks:
        registry.register(c)
    yield {c.id.split(".")[1]: c for c in checks}
    registry.restore(state)


def test_checks_of_a_paper_without_a_family_are_judged_at_their_own_level_anywhere(famtest):
    assert paper_family("famtest") is None and family_records(famtest.values()) == {}
    alone = run_check(famtest["a"], progress=False)
    assert alone.verdict is Verdict.VIOLATED  # p = 0.004 <= 0.01: at its own level
    assert "multiplicity" not in alone.config and "Bonferroni over 1" in alone.detail
    suite = {o.check_id: o for o in run_specs([RunSpec(c) for c in famtest.values()],
                                               progress=False)}
    _same(alone, suite["famtest.a"])  # the other checks of the run change nothing
    assert "multiplicity" not in suite["famtest.a"].config


def test_a_bare_declaration_shares_the_level_equally(comparepaper, monkeypatch):
    import sys

    from pflbounds.checking.family import ErrorFamily

    monkeypatch.setattr(sys.modules["comparepaper.checks"], "ERROR_FAMILY",
                        ErrorFamily(level=0.02))
    fam = paper_family("comparepaper")
    assert fam.level == 0.02 and len(fam.shares) == 6
    assert all(v == pytest.approx(1 / 6) for v in fam.shares.values())
    o = run_check(comparepaper["bound"], progress=False)
    assert o.config["multiplicity"]["check_level"] == pytest.approx(0.02 / 6)
    assert "error family comparepaper: family-wise level 0.02, share 1/6" in o.detail


def test_deterministic_checks_have_no_share(comparepaper):
    exact = Check("comparepaper.exact", "exact", CheckKind.BOUND_HOLDS, Verdict.HOLDS,
                  lambda p, n, ss: {"ks": np.array([1.0]), "mean": np.array([0.5]),
                                    "bound": np.array([1.0])}, grid=({},), engine="exact")
    registry.register(exact)
    assert "comparepaper.exact" not in paper_family("comparepaper").shares
    assert family_records([exact]) == {}


def test_unknown_multiplicity_is_refused(famtest):
    with pytest.raises(ValueError, match="multiplicity must be one of"):
        run_specs([RunSpec(famtest["b"])], multiplicity="holm", progress=False)


@pytest.fixture
def comparepaper(extra_paper):
    extra_paper("comparepaper")
    return {c.id.split(".")[1]: c for c in registry.all_checks("comparepaper")}


def test_a_declared_family_fixes_each_share(comparepaper):
    fam = paper_family("comparepaper")
    assert fam.level == 0.05
    assert fam.shares["comparepaper.row"] == pytest.approx(2 / 6)  # weight 2 of 6
    assert fam.shares["comparepaper.bound"] == pytest.approx(1 / 6)
    assert "comparepaper.same_draws" not in fam.shares
    o = run_check(comparepaper["same_draws"], progress=False)
    assert o.verdict is Verdict.HOLDS
    assert o.config["multiplicity"]["without_comparisons"] == "x - x is 0 in every draw"


def test_a_check_declared_without_comparisons_that_makes_some_is_an_error(comparepaper):
    liar = dataclasses.replace(comparepaper["bound"], id="comparepaper.same_draws")
    registry.register(liar, replace=True)
    o = run_check(liar, progress=False)
    assert o.verdict is Verdict.ERROR
    assert "declared without comparisons in its paper's error family" in o.detail


def test_a_declaration_that_leaves_a_check_out_is_refused(comparepaper):
    registry.register(dataclasses.replace(comparepaper["bound"], id="comparepaper.new"))
    with pytest.raises(ValueError, match=r"leaves out the Monte Carlo checks \['comparepaper"
                                         r"\.new'\]"):
        paper_family("comparepaper")


def test_a_declaration_naming_another_check_is_refused(comparepaper, monkeypatch):
    import sys

    from pflbounds.checking.family import ErrorFamily

    mod = sys.modules["comparepaper.checks"]
    monkeypatch.setattr(mod, "ERROR_FAMILY", ErrorFamily(checks=("comparepaper.better",
                                                                 "comparepaper.nope")))
    with pytest.raises(ValueError, match=r"names \['comparepaper.nope'\], which are not"):
        paper_family("comparepaper")
    with pytest.raises(ValueError, match="needs a reason"):
        ErrorFamily(without_comparisons={"x.y": " "})
    with pytest.raises(ValueError, match="level must lie in"):
        ErrorFamily(level=1.0)


def _same(a, b) -> None:
    """Bitwise the same limits, evidence and verdict."""
    assert (a.verdict, a.detail, a.margin) == (b.verdict, b.detail, b.margin)
    assert a.config.get("multiplicity") == b.config.get("multiplicity")
    assert len(a.evidence) == len(b.evidence)
    for pa, pb in zip(a.evidence, b.evidence, strict=True):
        for key in ("lo", "hi", "mean"):
            if key in pa:
                assert np.asarray(pa[key]).tobytes() == np.asarray(pb[key]).tobytes(), key


MC_EVEN = ("even2022.P12_variance", "even2022.P1_mc", "even2022.E18", "even2022.P12_hkz",
           "even2022.P12_recovery", "even2022.P7", "even2022.P13", "even2022.E20")


def test_limits_do_not_depend_on_what_else_runs(comparepaper, extra_paper):
    """One check alone, within its paper's Monte Carlo checks, and within a run of several
    papers (even2022, the comparison paper and toypaper, which declares no family): the same
    limits and verdicts."""
    extra_paper("toypaper")
    even = [registry.get(c) for c in MC_EVEN]
    mine = [comparepaper[k] for k in ("better", "row", "bound", "close")]
    toy = [registry.get("toypaper.P1"), registry.get("toypaper.whp")]

    def run(checks):
        specs = [RunSpec(c, 300 if c.paper == "even2022" and c.id != "even2022.P13" else None,
                         True) for c in checks]
        return {o.check_id: o for o in run_specs(specs, base_seed=7, progress=False)}

    alone = {c.id: run([c])[c.id] for c in (even[0], even[2], mine[0], mine[1], mine[2])}
    paper_even = run(even)
    paper_mine = run(mine)
    several = run([*toy, *mine, *even])
    for cid, o in alone.items():
        paper = paper_even if cid.startswith("even2022") else paper_mine
        _same(o, paper[cid])
        _same(o, several[cid])
    assert several["even2022.P1_mc"].config["multiplicity"]["checks"] == 13
    assert several["comparepaper.row"].config["multiplicity"]["family_level"] == 0.05


def test_validate_uses_the_paper_family_and_per_check_on_request(tmp_path, capsys,
                                                                 monkeypatch):
    from pflbounds.cli import main

    suite = tmp_path / "two.toml"
    suite.write_text('name = "two"\nseed = 3\ngrid = "quick"\n'
                     '[[checks]]\nid = "even2022.P1_mc"\nreplicas = 200\n'
                     '[[checks]]\nid = "even2022.P12_variance"\nreplicas = 400\n')
    monkeypatch.setenv("PFLBOUNDS_CACHE_DIR", str(tmp_path / "cache"))
    docs = {}
    for flag in ([], ["--per-check"]):
        out = tmp_path / ("per" if flag else "paper")
        assert main(["validate", str(suite), "--out", str(out), "--json", *flag]) == 0
        docs[bool(flag)] = {o["check_id"]: o for o in json.loads(capsys.readouterr().out)
                            ["outcomes"]}
    rec = docs[False]["even2022.P1_mc"]["config"]["multiplicity"]
    assert rec["method"] == "paper" and rec["checks"] == 13 and rec["family_level"] == 0.01
    assert rec["check_level"] == pytest.approx(0.01 / 13)
    assert "error family even2022: family-wise level 0.01, share 1/13" in \
        docs[False]["even2022.P1_mc"]["detail"]
    assert "multiplicity" not in docs[True]["even2022.P1_mc"]["config"]
    assert "Bonferroni over" in docs[True]["even2022.P1_mc"]["detail"]


@pytest.mark.slow
def test_limits_in_the_paper_suite_and_in_the_quick_suite_are_those_of_the_check_alone():
    """even2022.P1_mc and P12_variance alone, in even2022's own suite file and in the quick
    suite of five papers (whose other papers declare no family and share a Holm correction):
    bitwise the same limits and verdicts."""
    from pathlib import Path

    from pflbounds.running.suite import load_suite, run_suite

    root = Path(__file__).resolve().parents[2] / "validation"
    quick = load_suite(root / "quick.toml")
    own = load_suite(root / "even2022.toml")
    own = dataclasses.replace(own, entries=tuple(
        dataclasses.replace(e, quick=True) for e in own.entries))
    entries = {e.check.id: e for e in quick.entries}
    runs = {"own": {o.check_id: o for o in run_suite(own, progress=False)},
            "quick": {o.check_id: o for o in run_suite(quick, progress=False)}}
    for cid in ("even2022.P1_mc", "even2022.P12_variance"):
        e = entries[cid]
        alone = run_check(e.check, replicas=e.replicas, quick=e.quick, base_seed=quick.seed,
                          progress=False)
        _same(alone, runs["quick"][cid])
        alone_own = run_check(e.check, quick=True, base_seed=own.seed, progress=False)
        _same(alone_own, runs["own"][cid])


PAPERS = ("even2022", "hanzely2023", "philippenko2025", "erickson2025", "scott2024")


@pytest.mark.parametrize("paper", PAPERS)
def test_every_paper_declares_every_monte_carlo_check(paper):
    fam = paper_family(paper)
    mc = {c.id for c in registry.all_checks(paper) if not c.deterministic}
    assert fam is not None, f"{paper} declares no ERROR_FAMILY"
    assert 0 < fam.level <= 0.05
    assert set(fam.shares) | set(fam.without_comparisons) == mc
    assert sum(fam.shares.values()) == pytest.approx(1.0)


@pytest.mark.slow
def test_limits_alone_in_the_paper_and_among_all_five_papers_are_the_same():
    """One Monte Carlo check of each paper of the quick suite run alone, among its paper's
    checks of the quick suite, and in the whole quick suite (all five papers): bitwise the
    same limits and verdicts."""
    from pathlib import Path

    from pflbounds.running.suite import load_suite, run_suite

    quick = load_suite(Path(__file__).resolve().parents[2] / "validation" / "quick.toml")
    everything = {o.check_id: o for o in run_suite(quick, progress=False)}
    for paper in PAPERS:
        mine = tuple(e for e in quick.entries if e.check.paper == paper)
        mc = [e for e in mine if not e.check.deterministic]
        assert mc, f"the quick suite runs no Monte Carlo check of {paper}"
        own = {o.check_id: o for o in run_suite(dataclasses.replace(quick, entries=mine),
                                                progress=False)}
        e = mc[0]
        alone = run_check(e.check, replicas=e.replicas, quick=e.quick, base_seed=quick.seed,
                          progress=False)
        assert alone.config["multiplicity"]["family"] == paper
        _same(alone, own[e.check.id])
        _same(alone, everything[e.check.id])
