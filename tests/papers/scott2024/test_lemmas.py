"""scott2024 Lemmas C.1-C.5 (theory/lemmas.py, checks/lemmas.py): the forms against the
paper's displays in plain Python, the exact numbers of population D quoted in the errata,
Lemma C.2's figure, one round of Lemmas C.4 and C.5 on population A; every check of the
topic ending with its expected verdict."""

from __future__ import annotations

import numpy as np
import pytest

from pflbounds.checking.registry import get as get_check
from pflbounds.checking.registry import load_papers
from pflbounds.papers.scott2024.checks import lemmas as lm
from pflbounds.papers.scott2024.instances import point_a
from pflbounds.running import run_check
from pflbounds.symbolic.catalog import get
from pflbounds.symbolic.evaluate import evaluate


def test_lemmas_by_hand():
    b1, b2, L1, s1, beta, k, c = 1.0, 3.0, 1.0, 1.0, 0.01, 1, 1
    kw = dict(b1=b1, b2=b2, L1=L1, sigma1_2=s1, beta=beta, k=k, c=c, gammaG2=0.0, G2=0.0,
              sigma2_2=0.0, sigma3_2=0.0)
    printed = 4 * beta**2 * k * s1 / c + 108 * L1**2 * b2**2 * beta**4 * k**4 * (b1**2 + s1)
    assert float(evaluate(get("scott2024.lemmaC5"), "printed", **kw).value) == \
        pytest.approx(printed, rel=1e-12)
    corrected = printed + 4 * beta**2 * k * (b2**2 - 1) * s1 / c
    assert float(evaluate(get("scott2024.lemmaC5"), "corrected", **kw, b=1).value) == \
        pytest.approx(corrected, rel=1e-12)
    c4 = -0.75 * beta * 2 * 25 + 27 * L1**2 * b2**2 * beta**3 * 8 * (b1**2 + s1)
    got = evaluate(get("scott2024.lemmaC4"), "printed", strict=False,
                   **dict(kw, k=2, G2=25.0)).value
    assert float(got) == pytest.approx(c4, rel=1e-12)
    assert float(evaluate(get("scott2024.lemmaC1"), "explicit", b1=2.0, L2=0.5, b2=3.0,
                          L1=1.5, lam_h=0.1, lam_v=0.3).value) == pytest.approx(
        2 * 0.5 + 9 * 1.5 + 0.6)


def test_lemma_c5_on_population_d_misses_b2_squared():
    load_papers()
    c = get_check("scott2024.E_C5_lemmaC5")
    ev = c.simulate(c.grid[0], 1, np.random.SeedSequence(0))
    assert float(ev["mean"][0] / ev["bound_printed"][0]) == pytest.approx(9 / (4 + 1944e-4),
                                                                          rel=1e-5)


@pytest.mark.parametrize("cid", [
    "E_C5_lemmaC5", "E_C1_lemmaC4", "P6_lemmaC4_proof_step", "P7_lemmaC2"])
def test_checks_end_with_their_expected_verdicts(cid):
    load_papers()
    chk = get_check(f"scott2024.{cid}")
    out = run_check(chk, quick=True, base_seed=0, progress=False)
    assert out.verdict == chk.expected, out.detail


def test_lemma_c2_shows_as_a_scatter_of_both_equations():
    """P7's figure: each point's exact left side against its bound, one series per equation;
    (44) is an equality (on y = x), (45) lies below it."""
    load_papers()
    check = get_check("scott2024.P7_lemmaC2")
    outcome = run_check(check, quick=True)
    (fig,) = check.plot(outcome)
    assert fig["kind"] == "scatter"
    eq44, eq45 = fig["series"]
    assert (eq44["label"], eq45["label"]) == ("(44)", "(45)")
    assert len(eq44["x"]) == len(eq45["x"]) == len(outcome.evidence)
    np.testing.assert_allclose(eq44["y"], eq44["x"], rtol=1e-9)
    assert all(y <= x * (1 + 1e-9) for x, y in zip(eq45["x"], eq45["y"], strict=True))


@pytest.mark.slow
def test_p6_step_length_forms_are_ordered():
    out = lm.simulate_p6(point_a(T=2000, T0=20, c=5, k=5, what="C5"), 50,
                         np.random.SeedSequence(0))
    printed, explicit, corrected = out["bound"]
    assert printed == explicit  # b = m: sigma_2 = sigma_3 = 0
    assert corrected > printed  # b2^2 > 1 multiplies the sigma_1^2 term
    assert out["samples"].mean() < printed
