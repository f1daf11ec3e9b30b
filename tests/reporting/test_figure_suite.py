"""Every figure the report draws from real check outcomes obeys the rules: labelled axes, a
caption, at least 3 points or a table instead, every text inside the figure, no code math.

The default run builds the figures of a cheap cross-section of the five papers (every figure
kind); the slow test runs the whole quick suite once and checks every figure of it."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
from figure_rules import assert_figure_rules

from pflbounds.checking import registry
from pflbounds.reporting.outcome_figures import figures_for
from pflbounds.running import run_checks

ROOT = Path(__file__).resolve().parents[2]

#: Fast checks (a few seconds in all, quick grids) that cover every figure kind and paper.
CROSS_SECTION = (
    "erickson2025.E_inexact_definition",  # scatter, a constant bound
    "erickson2025.P9_lp",                 # dots with two forms and the ratio panel
    "erickson2025.P2",                    # a check's own curves (ratio to an envelope)
    "erickson2025.P1_printed",            # Monte Carlo curve against its bound
    "even2022.P12_hkz",                   # tail probabilities against delta
    "even2022.P4",                        # one value per grid point, over N_i
    "hanzely2023.E_apfl2_mu",             # constants as dots
    "hanzely2023.P8",                     # constants of many instances as a scatter
    "hanzely2023.E_acd_beta_scale",       # a divergence, capped, in the ratio panel
    "hanzely2023.P9_rescaled",            # a scaling slope with its band
    "philippenko2025.P2",                 # 3600 random points
    "philippenko2025.E4",                 # a histogram of the ratio
    "philippenko2025.E8",                 # named rows of one grid point
    "philippenko2025.P12",                # a lower bound
    "scott2024.E_C4_theorem3_1_main",     # Theorem 3.1 against T
    "scott2024.P7_lemmaC2",               # Lemma C.2 as a scatter
    "scott2024.P10",                      # Theorem 3.2's terms against n
    "scott2024.E_C1_lemmaC4",             # negative values: the difference panel
)


def _figures(outcomes) -> dict[str, list[dict]]:
    return {o.check_id: figures_for(o, registry.find(o.check_id)) for o in outcomes}


@pytest.fixture(scope="module")
def cross_section():
    registry.load_papers()
    checks = [registry.get(c) for c in CROSS_SECTION]
    return _figures(run_checks(checks, quick=True, base_seed=2022, progress=False))


def test_every_figure_of_the_cross_section_obeys_the_rules(cross_section):
    kinds = Counter()
    for cid, figs in cross_section.items():
        assert figs, cid
        for spec in figs:
            assert_figure_rules(spec, cid)
            kinds[spec["kind"]] += 1
    assert set(kinds) >= {"curves", "scatter", "dots", "tail", "scaling"}


def test_the_cross_section_draws_what_its_checks_declare(cross_section):
    first = {cid: figs[0] for cid, figs in cross_section.items()}
    assert first["hanzely2023.E_apfl2_mu"]["kind"] == "dots"
    assert first["hanzely2023.P8"]["kind"] == "scatter"
    assert first["philippenko2025.P2"]["kind"] == "scatter"
    assert first["even2022.P12_hkz"]["kind"] == "tail"
    assert first["scott2024.E_C4_theorem3_1_main"]["kind"] == "curves"
    assert len(first["scott2024.E_C4_theorem3_1_main"]["series"][0]["x"]) >= 10
    assert {s["group"] for s in first["philippenko2025.E8"]["series"]} == {
        "step C/(mu t) from t = 1", "shifted step"}
    assert {s["style"] for s in first["philippenko2025.P12"]["series"]} == {
        "measured", "lower_bound"}


@pytest.mark.slow
def test_every_figure_of_the_quick_suite_obeys_the_rules():
    from pflbounds.running.suite import load_suite, run_suite

    outcomes = run_suite(load_suite(ROOT / "validation" / "quick.toml"), jobs=1,
                         progress=False)
    figures = _figures(outcomes)
    papers = Counter()
    for cid, figs in figures.items():
        for spec in figs:
            assert_figure_rules(spec, cid)
            if spec["kind"] != "table":
                papers[cid.split(".", 1)[0]] += 1
    assert set(papers) == {"even2022", "hanzely2023", "philippenko2025", "erickson2025",
                           "scott2024"}
    scott = {cid for cid, figs in figures.items() if cid.startswith("scott2024.")
             and any(f["kind"] != "table" for f in figs)}
    # Theorem 3.1's convergence, Theorem 3.2 against the measured risk, Lemma C.2
    assert {"scott2024.E_C4_theorem3_1_main", "scott2024.P8_quick",
            "scott2024.P7_lemmaC2"} <= scott
