"""erickson2025 theory: the catalog's values against an independent computation from the
paper's formulas (digest §5), the dimension errata, and the calculator's answers."""

from __future__ import annotations

import json

import numpy as np
import pytest

from pflbounds.cli import main
from pflbounds.symbolic.catalog import get
from pflbounds.symbolic.evaluate import evaluate, solve
from pflbounds.symbolic.units import DimensionError, Unit


def _val(rid: str, form: str, **kw: float) -> float:
    return float(evaluate(get(rid), form, **kw).value)


BASE = dict(L=2.0, n=30, s=10, K=50, Delta0=3.0, sigma2=0.4, delta=0.01)


def test_theorem4_3_forms_match_the_paper_formulas():
    L, n, s, K, D0, sig, dl = (BASE[k] for k in ("L", "n", "s", "K", "Delta0", "sigma2",
                                                  "delta"))
    eps = 4 * sig * (s + 1) / s + 2 * dl
    assert _val("erickson2025.theorem4_3_eta38", "printed", **BASE) == pytest.approx(
        8 * L / 3 * (D0 / K + eps), rel=1e-13)
    assert _val("erickson2025.theorem4_3_eta38", "explicit", **BASE) == pytest.approx(
        64 * L / 3 * (D0 / K + eps), rel=1e-13)
    eta = 3 / (8 * L)
    eps_c = 4 * eta * sig * (s + 1) / s + 2 * dl
    corr = _val("erickson2025.theorem4_3_eta38", "corrected", **BASE)
    assert corr == pytest.approx(64 * L / 3 * (D0 / K + eps_c), rel=1e-13)
    # the general-eta forms reduce to the eta = 3/(8L) ones
    gen = {**BASE, "eta": eta}
    assert _val("erickson2025.theorem4_3", "explicit", **gen) == pytest.approx(
        64 * L / 3 * (D0 / K + eps), rel=1e-13)
    assert _val("erickson2025.theorem4_3", "corrected", **gen) == pytest.approx(corr, rel=1e-13)
    # 2/(eta (1 - 2 eta L)) is 16L at eta = 1/(4L)
    e4 = 1 / (4 * L)
    assert _val("erickson2025.theorem4_3", "corrected", **{**BASE, "eta": e4, "sigma2": 0.0,
                                                           "delta": 0.0}) == pytest.approx(
        16 * L * D0 / K, rel=1e-13)


def test_corollaries_match_digest_5_6():
    L, s, sig, dl = BASE["L"], BASE["s"], BASE["sigma2"], BASE["delta"]
    kw = {k: BASE[k] for k in ("L", "n", "s", "sigma2", "delta")}
    assert _val("erickson2025.corollary_floor", "printed", **kw) == pytest.approx(
        32 * L * (s + 1) / (3 * s) * sig + 16 * L / 3 * dl, rel=1e-13)
    assert _val("erickson2025.corollary_floor", "explicit", **kw) == pytest.approx(
        256 * L * (s + 1) / (3 * s) * sig + 128 * L / 3 * dl, rel=1e-13)
    assert _val("erickson2025.corollary_floor", "corrected", **kw) == pytest.approx(
        32 * (s + 1) / s * sig + 128 * L / 3 * dl, rel=1e-13)
    assert _val("erickson2025.corollary_inexact_step", "printed", eta=0.5,
                delta=0.09) == pytest.approx(0.3, rel=1e-13)
    # K for a target: the closed form and solve on the theorem agree (ceil)
    target = 20.0
    floor = _val("erickson2025.corollary_floor", "corrected", **kw)
    k_closed = 64 * L / 3 * BASE["Delta0"] / (target - floor)
    assert _val("erickson2025.corollary_iterations", "corrected", epsG=target,
                Delta0=BASE["Delta0"], **kw) == pytest.approx(k_closed, rel=1e-12)
    vals = {k: v for k, v in BASE.items() if k != "K"}
    k_solved = solve(get("erickson2025.theorem4_3_eta38"), "K", target, "corrected",
                     **vals).value
    assert k_solved == np.ceil(k_closed)


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


def test_corrected_theorem_refuses_s_below_the_admissible_range():
    from pflbounds.symbolic.evaluate import HypothesisError

    with pytest.raises(HypothesisError, match="10 s\\^4 >= 9 n\\^2"):
        evaluate(get("erickson2025.theorem4_3_eta38"), "corrected", **{**BASE, "s": 5})


def test_proposition3_4_and_t():
    assert _val("erickson2025.proposition3_4", "printed", L_X=1.5, gamma=0.5,
                W1=0.2) == pytest.approx(1.2, rel=1e-14)
    assert _val("erickson2025.proposition3_4_t", "printed", L_X=1.5,
                gamma=0.5) == pytest.approx(6.0, rel=1e-14)
    r = get("erickson2025.proposition3_4_t")
    assert r.dimension_check("printed")[""] == Unit.parse("x^2/xi")
    assert get("erickson2025.proposition3_4").dimension_check("printed")[""] == Unit.parse("x^2")


def test_lemmas_match_the_paper_formulas():
    v = _val("erickson2025.lemmaA1", "printed", L=2.0, n=6, s=3, E_th_phi=0.5, sigma2=0.1)
    assert v == pytest.approx(2 * 4 / 18 * 0.5 + 4 * 4 / 3 * 0.1, rel=1e-14)
    v = _val("erickson2025.lemmaA2_4", "printed", L=2.0, eta=0.25, f_v=1.0, ip=0.1, a1=0.2,
             a2=0.3, a3=0.05, delta=0.01)
    assert v == pytest.approx(1.0 + 0.1 + (1 - 2) * 0.2 + (1 + 2) * 0.3 - 2 * 0.05 + 0.01)
    assert _val("erickson2025.lemmaA2_5", "printed", eta=0.25, delta=0.02) == pytest.approx(0.01)


def test_dimension_check_flags_the_printed_epsilon():
    for rid in ("erickson2025.theorem4_3", "erickson2025.theorem4_3_eta38"):
        r = get(rid)
        with pytest.raises(DimensionError, match=r"\[f\] and \[f\]\^2\*\[x\]\^-2"):
            r.dimension_check("printed")
        with pytest.raises(DimensionError):
            r.dimension_check("explicit")
        assert r.dimension_check("corrected")[""] == Unit.parse("f^2/x^2")
    assert get("erickson2025.lemmaA2_5").dimension_check("printed")[""] == Unit.parse("x^2")


def test_every_erratum_with_a_check_names_an_erickson_check_id():
    from pflbounds.papers.erickson2025.errata import ERRATA

    assert len(ERRATA) == 11
    for e in ERRATA.values():
        assert e.check_id is None or e.check_id.startswith("erickson2025.")


def test_cli_eval_and_solve_json(capsys):
    def run(*args: str) -> dict:
        assert main([*args, "--json"]) == 0
        return json.loads(capsys.readouterr().out)

    got = run("solve", "erickson2025.admissible_s", "--for", "s", "--target", "1",
              "--form", "corrected", "L=1", "eta=0.375", "n=30")
    assert got["value"] == 6
    got = run("eval", "erickson2025.proposition3_4_t", "L_X=2", "gamma=0.5")
    assert got["value"] == pytest.approx(8.0)


def test_instance_relations_of_the_paper():
    """s <= n (H2), R^2 <= 1, a Spearman correlation in [-1, 1], and the triangle inequality
    through Lemma A.2 (5) for the distances of Lemma A.2 (4)."""
    import sympy as sp

    from pflbounds.symbolic.catalog import instance_relations
    from pflbounds.symbolic.evaluate import InputError

    own = {sp.sstr(r.relation) for r in instance_relations("erickson2025")
           if r.paper == "erickson2025"}
    assert own == {"s <= n", "r2_ref <= 1", "rho_ref >= -1", "rho_ref <= 1",
                   "sqrt(a3) <= sqrt(a1) + sqrt(a2) + sqrt(2)*sqrt(delta)*sqrt(eta)"}
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
    # the corrected Theorem 4.3 allows every s up to n, s = n included
    assert np.isfinite(_val("erickson2025.theorem4_3_eta38", "corrected", **dict(BASE, s=30)))
    for rid, name, bad in (("table1_r2", "r2_ref", 1.001), ("fig1", "rho_ref", -1.2),
                           ("fig1", "rho_ref", 1.5)):
        with pytest.raises(InputError, match=f"{name}={bad:g}"):
            _val(f"erickson2025.{rid}", "printed", **{name: bad})
    assert _val("erickson2025.table1_r2", "printed", r2_ref=-0.3) == -0.3  # R^2 may be < 0
