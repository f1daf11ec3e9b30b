"""erickson2025 admissible participation size (theory/participation.py) and its check P12: the
calculator's smallest s against 10 s^4 >= 9 n^2 + 9 n s, the command line, and P12's verdict
and figure."""

from __future__ import annotations

import json

import numpy as np
import pytest

from pflbounds.checking.registry import get as get_check
from pflbounds.checking.registry import load_papers
from pflbounds.cli import main
from pflbounds.reporting.outcome_figures import figures_for, informative
from pflbounds.running import run_check
from pflbounds.symbolic.catalog import get
from pflbounds.symbolic.evaluate import solve


@pytest.mark.parametrize("n_clients, s_min", [(30, 6), (3, 2), (100, 10), (10, 4)])
def test_smallest_admissible_s_solves_10s4_ge_9n2_plus_9ns(n_clients, s_min):
    got = solve(get("erickson2025.admissible_s"), "s", 1.0, "corrected", L=1.0, eta=0.375,
                n=n_clients).value
    brute = min(s for s in range(2, n_clients + 1)
                if 10 * s**4 >= 9 * n_clients**2 + 9 * n_clients * s)
    assert got == brute == s_min
    # the printed condition admits every s >= 2
    assert solve(get("erickson2025.admissible_s"), "s", 1.0, "printed", L=1.0, eta=0.375,
                 n=n_clients).value == 2


def test_cli_solve_json(capsys):
    assert main(["solve", "erickson2025.admissible_s", "--for", "s", "--target", "1",
                 "--form", "corrected", "L=1", "eta=0.375", "n=30", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["value"] == 6


def _series(fig: dict, start: str) -> dict:
    return next(s for s in fig["series"] if s["label"].startswith(start))


def test_p12_ends_with_its_verdict_and_draws_the_admissible_map():
    load_papers()
    chk = get_check("erickson2025.P12")
    out = run_check(chk, quick=True, base_seed=0, progress=False)
    assert out.verdict == chk.expected, out.detail
    figs = chk.plot(out)
    assert figs and all(informative(f) for f in figs)
    assert figures_for(out, chk)[0]["kind"] == "curves"
    fig = figs[0]
    n = np.asarray(_series(fig, "corrected, $\\eta = 3/(8L)$")["x"])
    s = np.asarray(_series(fig, "corrected, $\\eta = 3/(8L)$")["y"])
    assert s[n == 30][0] == 6 and s[n == 100][0] == 10
    assert set(_series(fig, "printed")["y"]) == {2.0}
