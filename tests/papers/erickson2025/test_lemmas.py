"""erickson2025 Lemmas A.1 and A.2 (theory/lemmas.py) and their checks: the catalog's values
against the paper's formulas, the instance relations of their inputs, and the checks'
verdicts."""

from __future__ import annotations

import numpy as np
import pytest

from pflbounds.checking.registry import get as get_check
from pflbounds.checking.registry import load_papers
from pflbounds.running import run_check
from pflbounds.symbolic.catalog import get
from pflbounds.symbolic.evaluate import InputError, evaluate


def _val(rid: str, form: str, **kw: float) -> float:
    return float(evaluate(get(rid), form, **kw).value)


def test_lemmas_match_the_paper_formulas():
    v = _val("erickson2025.lemmaA1", "printed", L=2.0, n=6, s=3, E_th_phi=0.5, sigma2=0.1)
    assert v == pytest.approx(2 * 4 / 18 * 0.5 + 4 * 4 / 3 * 0.1, rel=1e-14)
    v = _val("erickson2025.lemmaA2_4", "printed", L=2.0, eta=0.25, f_v=1.0, ip=0.1, a1=0.2,
             a2=0.3, a3=0.05, delta=0.01)
    assert v == pytest.approx(1.0 + 0.1 + (1 - 2) * 0.2 + (1 + 2) * 0.3 - 2 * 0.05 + 0.01)
    assert _val("erickson2025.lemmaA2_5", "printed", eta=0.25, delta=0.02) == pytest.approx(0.01)


def test_lemma_inputs_obey_the_instance_relations():
    """s <= n (H2), and the triangle inequality through Lemma A.2 (5) for the distances of
    Lemma A.2 (4)."""
    # the triangle is tight: theta between u and v on a line, u exact (delta = 0)
    kw = dict(L=2.0, eta=0.25, f_v=1.0, ip=0.0, a1=1.0, a2=1.0, delta=0.0)
    assert _val("erickson2025.lemmaA2_4", "printed", **kw, a3=4.0) == pytest.approx(
        1.0 + (1 - 2) + (1 + 2) - 2 * 4.0)
    with pytest.raises(InputError, match=r"Lemma A.2 \(5\)"):
        _val("erickson2025.lemmaA2_4", "printed", **kw, a3=4.01)
    # an inexact projection adds sqrt(2 eta delta) = 0.1 to the reach
    assert np.isfinite(_val("erickson2025.lemmaA2_4", "printed", **dict(kw, delta=0.02),
                            a3=2.1**2))
    with pytest.raises(InputError, match="s=31 > n=30"):
        _val("erickson2025.lemmaA1", "printed", L=2.0, n=30, s=31, E_th_phi=0.5, sigma2=0.1)


@pytest.mark.parametrize("cid", ['P6', 'P7', 'E_reading_A', 'E_inexact_definition'])
def test_checks_end_with_their_expected_verdicts(cid):
    load_papers()
    chk = get_check(f"erickson2025.{cid}")
    out = run_check(chk, quick=True, base_seed=0, progress=False)
    assert out.verdict == chk.expected, out.detail
