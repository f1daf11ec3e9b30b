"""erickson2025 Proposition 3.4 (theory/dissimilarity.py) and its checks: the catalog's values,
(3) as an equality on the translation family, the bound on empirical ridge clients with W1 by
the transport LP, and the checks' verdicts."""

from __future__ import annotations

import json

import numpy as np
import pytest

from pflbounds.checking.registry import get as get_check
from pflbounds.checking.registry import load_papers
from pflbounds.cli import main
from pflbounds.papers.erickson2025.checks.dissimilarity import (
    ridge_clients,
    simulate_p8,
    simulate_p8_ridge,
)
from pflbounds.problems.transport import lp_plan, w1_exact
from pflbounds.running import run_check
from pflbounds.symbolic.catalog import get
from pflbounds.symbolic.evaluate import evaluate
from pflbounds.symbolic.units import Unit


def _val(rid: str, form: str, **kw: float) -> float:
    return float(evaluate(get(rid), form, **kw).value)


def test_proposition3_4_and_t():
    assert _val("erickson2025.proposition3_4", "printed", L_X=1.5, gamma=0.5,
                W1=0.2) == pytest.approx(1.2, rel=1e-14)
    assert _val("erickson2025.proposition3_4_t", "printed", L_X=1.5,
                gamma=0.5) == pytest.approx(6.0, rel=1e-14)
    r = get("erickson2025.proposition3_4_t")
    assert r.dimension_check("printed")[""] == Unit.parse("x^2/xi")
    assert get("erickson2025.proposition3_4").dimension_check("printed")[""] == Unit.parse("x^2")


def test_cli_eval_json(capsys):
    assert main(["eval", "erickson2025.proposition3_4_t", "L_X=2", "gamma=0.5", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["value"] == pytest.approx(8.0)


def test_p8_equality_of_3_and_looseness_of_2():
    ev = simulate_p8({"n": 4, "d": 2, "gamma": 1.0, "R": 2.0, "a": 0.1}, 1,
                     np.random.SeedSequence(0))
    assert float(ev["residual"]) < 1e-12
    assert 0 < float(ev["tightness_2"]) < 1


def test_lp_w1_of_unequal_samples_lies_between_the_mean_gap_and_the_product_plan():
    rng = np.random.default_rng(0)
    (Xa, ya), (Xb, yb) = ridge_clients(rng, 2, 3, (20, 20), 0.1, 1.0)
    A, B = np.column_stack([Xa, ya])[:11], np.column_stack([Xb, yb])[:17]  # the LP path
    w1 = w1_exact(A, B)
    cost = np.linalg.norm(A[:, None] - B[None], axis=-1)
    product = float(cost.mean())  # the independent coupling
    assert np.linalg.norm(A.mean(0) - B.mean(0)) <= w1 + 1e-12  # x -> <u, x> is 1-Lipschitz
    assert w1 < product
    plan = lp_plan(A, B)
    assert float((plan * cost).sum()) == pytest.approx(w1, rel=1e-9)


def test_p8_ridge_bounds_hold_and_2_is_the_loosest():
    ev = simulate_p8_ridge(dict(n=4, d=2, sizes=[10, 20], lam=0.1, shift=1.0), 1,
                           np.random.SeedSequence(3))
    assert float(ev["residual"]) == 0.0
    assert 1.0 <= float(ev["tightness_eq3"]) < float(ev["tightness_eq2"])
    assert float(ev["tightness_eq2"]) > 10  # L_X is worst case over the data box


@pytest.mark.parametrize("cid", ['P8', 'P8_ridge', 'P9', 'P9_lp', 'P10'])
def test_checks_end_with_their_expected_verdicts(cid):
    load_papers()
    chk = get_check(f"erickson2025.{cid}")
    out = run_check(chk, quick=True, base_seed=0, progress=False)
    assert out.verdict == chk.expected, out.detail


def test_eq3_is_an_equality_on_the_translation_family_and_holds_on_ridge_clients():
    from pflbounds.papers.erickson2025.checks.dissimilarity import simulate_p8_eq3

    tr = simulate_p8_eq3(dict(family="translation", n=5, d=3, gamma=2.0, R=5.0, a=0.5), 1,
                         np.random.SeedSequence(1))
    np.testing.assert_allclose(tr["mean"], tr["bound"], rtol=1e-10)
    ri = simulate_p8_eq3(dict(family="ridge", n=4, d=2, sizes=[10, 20], lam=0.1, shift=1.0),
                         1, np.random.SeedSequence(2))
    assert np.all(ri["mean"] <= ri["bound"] * (1 + 1e-9)) and ri["mean"].size == 6
