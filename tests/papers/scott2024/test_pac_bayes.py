"""scott2024 Theorem B.1 (theory/pac_bayes.py, checks/pac_bayes.py): the bound and Part I's
Gamma(lambda) against the paper's displays, Gamma's range of lambda and Gamma(lambda*)'s
non-trivial case, the paper's instance relations refused with their reasons; every check of
the topic ending with its expected verdict (the full-size draws of population B: slow)."""

from __future__ import annotations

import math

import pytest

from pflbounds.checking.registry import get as get_check
from pflbounds.checking.registry import load_papers
from pflbounds.running import run_check
from pflbounds.symbolic.catalog import get
from pflbounds.symbolic.evaluate import HypothesisError, InputError, evaluate


def test_theorem_b1_and_gamma():
    n, m, delta, K = 50, 30, 0.1, 12.0
    kw = dict(er_hat=0.2, M=1.0, KLmeta=4.0, KLsum=K, n=n, m=m, delta=delta)
    want = 0.2 + math.sqrt((4 + math.log(4 * math.sqrt(n) / delta)) / (2 * n)) \
        + math.sqrt((K + math.log(8 * m * n / delta) + 1) / (2 * m * n))
    assert float(evaluate(get("scott2024.theoremB1"), "corrected", **kw).value) == \
        pytest.approx(want, rel=1e-12)
    lam = math.sqrt(8 * m * n * K) + 1
    gamma = K / (lam - 1) + lam / (8 * m * n)
    assert gamma == pytest.approx(math.sqrt(K / (2 * m * n)) + 1 / (8 * m * n), rel=1e-12)
    got = float(evaluate(get("scott2024.theoremB1_gamma"), "printed", Kc=K, lam_pb=lam, m=m,
                         n=n).value)
    assert got == pytest.approx(gamma, rel=1e-12)
    with pytest.raises(HypothesisError, match="n >= 8"):
        evaluate(get("scott2024.theoremB1"), "corrected", **dict(kw, n=5))


def test_gamma_needs_lambda_in_its_range_and_gamma_star_the_non_trivial_case():
    g = get("scott2024.theoremB1_gamma")
    m, n, K = 20, 10, 10.0
    # Gamma is the Part I bound for lambda in (1, 4mn) = (1, 800)
    assert float(evaluate(g, "printed", Kc=K, lam_pb=799.0, m=m, n=n).value) == \
        pytest.approx(K / 798 + 799 / 1600, rel=1e-12)
    for lam, cond in ((800.0, "lambda < 4mn"), (1.0, "lambda > 1"), (0.5, "lambda > 1")):
        with pytest.raises(HypothesisError, match=cond):
            evaluate(g, "printed", Kc=K, lam_pb=lam, m=m, n=n)
    gs = get("scott2024.theoremB1_gamma_star")
    # K + 1 < 2mn: the printed sqrt((K + 1)/(2mn)) bounds the exact sqrt(K/(2mn)) + 1/(8mn)
    exact = float(evaluate(gs, "explicit", Kc=K, m=m, n=n).value)
    printed = float(evaluate(gs, "printed", Kc=K, m=m, n=n).value)
    assert exact <= printed
    # K = 1000, m = n = 1: lambda* = 90.4 >= 4mn, and sqrt(1001/2) = 22.37 < 22.49
    assert math.sqrt(1001 / 2) < math.sqrt(1000 / 2) + 1 / 8
    for form in ("explicit", "printed"):
        with pytest.raises(HypothesisError, match=r"lambda\* < 4mn"):
            evaluate(gs, form, Kc=1000.0, m=1, n=1)
    # lambda* < 4mn but K + 1 >= 2mn: only the printed form refuses (K = 399 at mn = 200)
    assert float(evaluate(gs, "explicit", Kc=399.0, m=m, n=n).value) > 0
    with pytest.raises(HypothesisError, match=r"K \+ 1 < 2mn"):
        evaluate(gs, "printed", Kc=399.0, m=m, n=n)


def test_instance_relations_of_the_paper():
    """c <= n (Lemma C.2), er^ <= M (loss in [0, M]), K >= log(8mn) (KL >= 0, delta <= 1)
    and a Spearman correlation in [-1, 1]: declared once, refused with their reason."""
    import sympy as sp

    from pflbounds.symbolic.catalog import instance_relations

    own = {sp.sstr(r.relation) for r in instance_relations("scott2024")
           if r.paper == "scott2024"}
    assert own == {"c <= n", "er_hat <= M", "Kc >= log(8*m*n)", "rho_0 >= -1", "rho_0 <= 1"}
    assert float(evaluate(get("scott2024.lemmaC2_45"), "printed", c=4, n=4, Vsum=2.0,
                          a_max=0.5).value) == pytest.approx(4 / 4 * 2 + 16 * 0.25)
    for rid in ("lemmaC2", "lemmaC2_45"):
        with pytest.raises(InputError, match="c=5 > n=4: the c clients of a round"):
            evaluate(get(f"scott2024.{rid}"), "printed", strict=False, c=5, n=4, Vsum=1.0,
                     a_max=1.0)
    kw = dict(er_hat=0.2, M=1.0, KLmeta=4.0, KLsum=12.0, n=50, m=30, delta=0.1)
    with pytest.raises(InputError, match=r"er_hat=1.5 > M=1: the loss takes values in \[0, M\]"):
        evaluate(get("scott2024.theoremB1"), "printed", **dict(kw, er_hat=1.5))
    assert float(evaluate(get("scott2024.theoremB1"), "printed", **dict(kw, er_hat=1.0,
                                                                      M=1.0)).value) > 1
    # K = sum KL + log(8mn/delta) >= log(8 * 30 * 50) = 9.39
    with pytest.raises(InputError, match=r"K >= log\(8mn\).*Kc=9, m=30, n=50"):
        evaluate(get("scott2024.theoremB1_lambda_star"), "printed", Kc=9.0, m=30, n=50)
    with pytest.raises(InputError, match=r"rho_0=-1.01"):
        evaluate(get("scott2024.fig3"), "printed", rho_0=-1.01)


@pytest.mark.parametrize("cid", [
    "E_P2_gamma", "P10"])
def test_checks_end_with_their_expected_verdicts(cid):
    load_papers()
    chk = get_check(f"scott2024.{cid}")
    out = run_check(chk, quick=True, base_seed=0, progress=False)
    assert out.verdict == chk.expected, out.detail


@pytest.mark.slow
@pytest.mark.parametrize("cid", ["P9_part1", "P9_part2", "P11"])
def test_full_probability_checks(cid):
    load_papers()
    chk = get_check(f"scott2024.{cid}")
    out = run_check(chk, quick=False, base_seed=0, progress=False)
    assert out.verdict == chk.expected, out.detail
