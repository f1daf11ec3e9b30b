"""hanzely2023 theory: objectives and their constants, results, forms, conditions, errata.

Numbers are recomputed independently here (numpy eigenvalues, closed forms) rather than read
back from the catalog.
"""

from __future__ import annotations

import numpy as np
import pytest
import sympy as sp

from pflbounds.papers.hanzely2023 import generic, lsgd, objectives, table3, theory
from pflbounds.papers.hanzely2023.errata import ERRATA
from pflbounds.symbolic import HypothesisError, Kind, evaluate, get, results
from pflbounds.symbolic.evaluate import numeric
from pflbounds.symbolic.hidden import strip_hidden

P = "hanzely2023."
SECTION5 = ([f"theorem{i}" for i in range(1, 10)]
            + [f"lemma{i}" for i in range(5, 17)] + ["proposition1"])


@pytest.mark.parametrize("key", ["lemma1", "lemma2", "lemma3", "lemma4", *SECTION5])
def test_every_numbered_result_of_the_paper_is_encoded(key):
    r = get(P + key)
    assert r.paper == "hanzely2023" and "printed" in r.forms and r.source


def test_theory_module_lists_every_registered_result():
    assert set(theory.RESULTS) == {r.id for r in results("hanzely2023")}
    assert {f"{P}table2_{k}" for k in ("fl", "full", "mt2", "mx2", "apfl2", "ws2", "residual")} \
        <= set(theory.RESULTS)
    assert {f"{P}table1_{k}" for k in ("lsgd", "acd", "asvrcd")} <= set(theory.RESULTS)


def test_every_erratum_is_attached_to_a_result():
    attached = {e.id for r in results("hanzely2023") for e in r.errata}
    assert attached == {e.id for e in ERRATA.values()}


# ------------------------------------------------------------------- objectives catalogue
BASE = {"mup": 0.3, "Lp": 5.0, "Lcp": 9.0, "lam": 0.8, "Lam": 4.0, "M": 10, "amax": 0.2,
        "amin": 0.1, "mu": 0.01, "LwR": 1.0, "LbR": 2.0, "LcwR": 3.0, "LcbR": 4.0}


def _table2(key: str, form: str = "printed") -> dict[str, float]:
    r = get(f"{P}table2_{key}")
    need = r.inputs(form)
    return evaluate(r, form, **{k: v for k, v in BASE.items() if k in need}).value


def test_table2_printed_rows_as_in_the_paper():
    M, mup, Lp, Lcp, lam, Lam = (BASE[k] for k in ("M", "mup", "Lp", "Lcp", "lam", "Lam"))
    mt2 = _table2("mt2")
    assert mt2["Lw"] == pytest.approx((Lam * Lp + lam) / (2 * M))
    assert mt2["Lcb"] == pytest.approx((Lcp + lam) / (2 * M))
    assert _table2("ws2") == pytest.approx({"mu": mup, "Lw": Lp, "Lb": Lp, "Lcw": Lcp,
                                            "Lcb": Lcp})
    apfl = _table2("apfl2")
    assert apfl["mu"] == pytest.approx(mup * 0.8**2 / M)
    assert apfl["Lb"] == pytest.approx(0.9**2 * Lp / M)
    assert _table2("fl") == pytest.approx({"mu": mup, "Lw": Lp, "Lb": 0, "Lcw": Lcp, "Lcb": 0})


def test_table2_corrections_are_the_errata():
    assert _table2("mt2", "corrected")["Lw"] == pytest.approx(2 * _table2("mt2")["Lw"])
    assert _table2("apfl2", "corrected")["mu"] == pytest.approx(_table2("apfl2")["mu"] / 2)
    ws2 = _table2("ws2", "corrected")
    assert ws2 == pytest.approx({k: v / BASE["M"] for k, v in _table2("ws2").items()})
    assert [e.id for e in get(P + "table2_apfl2").errata] == [P + "erratum3"]


def test_objective_constants_match_the_lemmas():
    for key, lemma in (("mt2", "lemma1"), ("mx2", "lemma2")):
        assert objectives.OBJECTIVES[key].constants == dict(get(P + lemma).form().parts)
    assert objectives.OBJECTIVES["apfl2"].constants == dict(get(P + "lemma3").form(
        "corrected").parts)
    assert objectives.OBJECTIVES["ws2"].constants == dict(get(P + "lemma4").form(
        "corrected").parts)


def test_unrescaled_constants_follow_from_the_change_of_variable():
    mx2, un = objectives.OBJECTIVES["mx2"], objectives.OBJECTIVES["mx2-unscaled"]
    M = sp.Symbol("M", positive=True, integer=True)
    assert sp.simplify(un.constants["Lw"] - M * mx2.constants["Lw"]) == 0
    assert un.constants["mu"] == mx2.constants["mu"] and un.constants["Lb"] == mx2.constants["Lb"]
    # objective (7) = un-rescaled MT2 with 2 lambda: L^w = Lambda L' + 2 lambda
    ext = objectives.OBJECTIVES["mt-extended"].constants
    vals = {s: BASE[s.name] for s in ext["Lw"].free_symbols}
    assert float(ext["Lw"].subs(vals)) == pytest.approx(BASE["Lam"] * BASE["Lp"] + 2 * 0.8)
    assert not objectives.OBJECTIVES["mt-extended"].rescaled


def test_lemma_conditions_are_enforced():
    with pytest.raises(HypothesisError, match="Lemma 1"):
        evaluate(get(P + "lemma1"), mup=0.1, Lp=1, Lcp=1, lam=1.0, Lam=2.0, M=5)  # 2 < 15
    with pytest.raises(HypothesisError, match="Lemma 2"):
        evaluate(get(P + "lemma2"), mup=1.0, Lp=1, Lcp=1, lam=1.0, M=5)
    # Lemma 3: g(alpha) = 3 alpha^2 + (1 - alpha)^2/2; max over {0.1, 0.6} is g(0.6) = 1.16
    with pytest.raises(HypothesisError, match="Lemma 3"):
        evaluate(get(P + "lemma3"), mup=1, Lp=1, Lcp=1, Lam=1.1, M=5, amax=0.6, amin=0.1)
    ok = evaluate(get(P + "lemma3"), "corrected", mup=1, Lp=1, Lcp=1, Lam=1.17, M=5,
                  amax=0.6, amin=0.1).value
    assert ok["mu"] == pytest.approx(0.4**2 / 10)


def _apfl_mu_isotropic(alpha: float, Lam: float, M: int) -> float:
    """lambda_min of the APFL2 Hessian for f'_m = ||x||^2/2, d = 1, built entrywise:
    f_m(w, b_m) = Lam/2 (w/sqrt M)^2 + 1/2 ((1 - a) b_m + a w/sqrt M)^2, F = mean of f_m."""
    H = np.zeros((M + 1, M + 1))
    for m in range(M):
        g = np.zeros(M + 1)
        g[0], g[1 + m] = alpha / np.sqrt(M), 1 - alpha
        H += np.outer(g, g) / M
    H[0, 0] += Lam / M
    return float(np.linalg.eigvalsh(H)[0])


def test_apfl2_counterexample_of_the_digest():
    """Isotropic f'_m, alpha = 0.1, the smallest admissible Lambda: the true M mu/mu' is
    0.424, below the printed 0.81 and above the corrected 0.405."""
    a, M = 0.1, 7
    Lam = 3 * a**2 + (1 - a) ** 2 / 2
    true = _apfl_mu_isotropic(a, Lam, M) * M
    assert true == pytest.approx(0.424, abs=5e-4)
    iso = float(objectives.MU_ISOTROPIC["apfl2"].subs(
        {sp.Symbol("alpha", positive=True): a, objectives.Lam: Lam, objectives.M: M,
         objectives.mup: 1}) * M)
    assert iso == pytest.approx(true, rel=1e-10)
    printed = evaluate(get(P + "lemma3"), mup=1, Lp=1, Lcp=1, Lam=Lam, M=M, amax=a, amin=a)
    corrected = evaluate(get(P + "lemma3"), "corrected", mup=1, Lp=1, Lcp=1, Lam=Lam, M=M,
                         amax=a, amin=a)
    assert printed.value["mu"] * M == pytest.approx(0.81) and true < 0.81
    assert corrected.value["mu"] * M == pytest.approx(0.405) and true >= 0.405


# ------------------------------------------------------------------- LSGD-PFL
LSGD = {"mu": 0.1, "Lw": 1.0, "Lb": 2.0, "tau": 5, "B": 1, "M": 10, "sigma2": 1.0,
        "zeta2": 0.5, "Dw0": 1.0, "Db0": 3.0}


def test_theorem5_printed_and_corrected_phi0():
    r = get(P + "theorem5")
    eta = 0.01
    pr = evaluate(r, eta=eta, K=1, **LSGD).value
    co = evaluate(r, "corrected", eta=eta, K=1, **LSGD).value
    psi0 = 2 / 10 + 8 * 1.0 * eta * np.e * 4 * 5 * (3 * 0.5 + 1.0)
    assert pr == pytest.approx(0.999 * (2 * 1 + 3) / eta + eta * psi0)
    assert co == pytest.approx(0.999 * 2 * (1 + 3) / eta + eta * psi0)


def test_theorem5_step_condition_and_the_tau1_gap():
    r = get(P + "theorem5")
    vals = dict(LSGD, tau=1, Lw=100.0, Lb=1.0)
    evaluate(r, eta=0.2, K=5, **vals)  # printed: 1/(4 L^beta) = 0.25 and no L^w condition
    with pytest.raises(HypothesisError, match="1/\\(4 L\\^w\\)"):
        evaluate(r, "corrected", eta=0.2, K=5, **vals)
    evaluate(r, eta=0.02, K=5, **dict(LSGD, tau=3))
    with pytest.raises(HypothesisError):  # the cap for tau = 3, L^w = 1: 1/(16 sqrt(3e)) = 0.0219
        evaluate(r, eta=0.03, K=5, **dict(LSGD, tau=3))


def test_theorem1_explicit_count_reaches_eps_by_theorem5():
    """The derived K of Theorem 1 with its step makes Theorem 5's corrected bound <= eps."""
    eps = 1e-2
    vals = dict(LSGD)
    K = evaluate(get(P + "theorem1"), "explicit", eps=eps, **vals).value
    eta = float(numeric(lsgd.ETA_EPS, dict(vals, eps=eps)))
    b = evaluate(get(P + "theorem5"), "corrected", eta=eta, K=K, **vals).value
    assert b <= eps * (1 + 1e-9)
    b_before = evaluate(get(P + "theorem5"), "corrected", eta=eta, K=K - 2, **vals).value
    assert b_before > eps / 2  # K is not grossly larger than needed


# ------------------------------------------------------------------- ACD and ASVRCD
def test_acd_parameters_solve_theta_squared_equals_nu_one_minus_theta():
    p = evaluate(get(P + "theorem7_parameters"), mu=0.01, Lw=4.0, Lb=9.0).value
    nu = 0.01 / (2 + 3) ** 2
    assert p["nu"] == pytest.approx(nu)
    assert p["theta"] ** 2 == pytest.approx(nu * (1 - p["theta"]), rel=1e-12)
    assert p["eta"] == pytest.approx(1 / p["theta"]) and p["p_w"] == pytest.approx(0.4)


def test_theorem7_counts_are_pw_and_pbeta_times_iterations():
    v = evaluate(get(P + "theorem7"), mu=0.01, Lw=4.0, Lb=9.0, Delta0=1, eps=1e-6).value
    log = np.log(1e6)
    assert v["communication"] == pytest.approx(np.sqrt(400) * log)
    assert v["grad_beta"] == pytest.approx(np.sqrt(900) * log)
    assert v["iterations"] == pytest.approx(np.sqrt(1300) * log)  # sqrt((L^w + L^beta)/mu)
    assert float(numeric(generic.ACD_ITERATIONS, {"mu": 0.01, "Lw": 4, "Lb": 9, "Delta0": 1,
                                                  "eps": 1e-6})) == pytest.approx(50 * log)


def test_asvrcd_parameters_with_the_theorem8_pw():
    Lcw, Lcb, mu, n = 3.0, 1.0, 0.01, 100
    pw = Lcw / (Lcw + Lcb)
    p = evaluate(get(P + "theorem8_parameters"), Lcw=Lcw, Lcb=Lcb, mu=mu, pw=pw,
                 rho=pw / n).value
    assert p["p_w"] == pytest.approx(0.75)
    assert p["Lcal"] == pytest.approx(2 * (Lcw + Lcb)) and p["eta"] == pytest.approx(1 / 32)
    theta1 = min(0.5, np.sqrt(mu / 32 * max(0.5, 0.5 * n / pw)))
    assert p["theta1"] == pytest.approx(theta1)
    assert p["gamma"] == pytest.approx(1 / max(2 * mu, 4 * theta1 * 32))
    assert p["nu"] == pytest.approx(1 - p["gamma"] * mu)


def test_theorem9_accounting_reduces_to_twice_theorem8_for_rho_pw_over_n():
    Lcw, Lcb, mu, n = 3.0, 1.0, 0.01, 100
    pw = Lcw / (Lcw + Lcb)
    v = evaluate(get(P + "theorem9"), Lcw=Lcw, Lb=Lcb, mu=mu, n=n, pw=pw, rho=pw / n,
                 Delta0=1, eps=np.exp(-1)).value
    assert v["communication"] == pytest.approx(2 * (n + np.sqrt(n * Lcw / mu)))
    c = evaluate(get(P + "theorem9"), "corrected", Lcw=Lcw, Lcb=Lcb, mu=mu, n=n, pw=pw,
                 rho=pw / n, Delta0=1, eps=np.exp(-1)).value
    assert c["communication"] < v["communication"]  # p_w + rho < rho n + p_w
    assert c["grad_w"] == pytest.approx(c["iterations"] * (2 * pw + pw))


def test_theorem6_printed_and_appendix_forms_differ_only_by_the_log_on_n():
    kw = dict(mu=0.01, Lw=1.0, Lcw=4.0, Lcb=2.0, n=50, Delta0=1.0, eps=np.exp(-3))
    pr = evaluate(get(P + "theorem6"), **kw).value
    ap = evaluate(get(P + "theorem6"), "appendix", **kw).value
    assert ap["grad_w"] - pr["grad_w"] == pytest.approx(50 * (3 - 1))
    assert pr["communication"] == ap["communication"] == pytest.approx(10 * 3)


def test_theorem4_corrected_form_adds_eq52():
    kw = dict(L=1.0, mu=1.0, lam_dis=0.5, C1=0.0, C2=0.0, M=4, Delta0=1, K=10, B=1,
              s1sq=0, s2sq=0, s2dif=0, tau=10)
    # nu = 2 L^2 lambda (C1 + 1)/mu^2 = 1; beta = 1.2 passes beta > max{.., 1, 1} but
    # beta^2 e^(-1/beta) = 0.626 < 1 breaks (52)
    evaluate(get(P + "theorem4"), beta0=1.2, **kw)
    with pytest.raises(HypothesisError, match="52"):
        evaluate(get(P + "theorem4"), "corrected", beta0=1.2, **kw)
    v = evaluate(get(P + "theorem4"), "corrected", beta0=3.0, **kw).value
    assert v == pytest.approx((3 * 10 + 1) ** 3 / (10 + 30) ** 3)


def test_lemma15_and_lemma16_constants():
    assert evaluate(get(P + "lemma15"), Lcw=1.0, Lcb=3.0, pw=0.5, DF=1.0).value == 2 * 2 * 6
    assert evaluate(get(P + "lemma16"), Lx=1.0, Ly=3.0).value == 6.0
    assert evaluate(get(P + "lemma16_57"), Lx=1.0, Ly=2.0, gx2=4.0, gy2=4.0).value == 1.5


def test_eq54_nesterov_rate():
    v = evaluate(get(P + "eq54"), kap=9.0, K=2, ystar2=1.0).value
    assert v == pytest.approx((2 / 4) ** 4)


# ------------------------------------------------------------------- Table 3
def test_table3_corrected_is_the_generic_formula_with_the_constants():
    v = evaluate(get(P + "table3_mx2"), "corrected", mup=0.2, Lp=3.0, Lcp=5.0, lam=1.0,
                 n=100).value
    assert v["comm"] == pytest.approx(np.sqrt(3 * 1.0 / 0.2))  # sqrt(L^w/mu) = sqrt(3 lam/mu')
    assert v["grad_beta"] == pytest.approx(np.sqrt(3 * 4.0 / 0.2))
    assert v["grad_w_i"] == pytest.approx(100 + np.sqrt(100 * 3 / 0.2))
    assert "grad_w_i" not in get(P + "table3_mx2").form("printed").parts


def test_table3_rows_without_a_block_cost_nothing_there():
    fl = {c: strip_hidden(e) for c, e in table3.regenerated("fl").items()}
    assert fl["grad_beta"] == 0 and fl["grad_beta_i"] == 0
    full = {c: strip_hidden(e) for c, e in table3.regenerated("full").items()}
    assert full["comm"] == 0 and full["grad_w_i"] == 0


def test_table3_residual_typo_is_recorded():
    pr = get(P + "table3_residual").form("printed").parts["grad_w_i"]
    co = get(P + "table3_residual").form("corrected").parts["grad_w_i"]
    assert "mup" in {s.name for s in pr.free_symbols}
    assert "mup" not in {s.name for s in co.free_symbols}


@pytest.mark.parametrize("rid", ["theorem1", "theorem7", "table3_mt2", "theorem6"])
def test_kinds_and_relations(rid):
    r = get(P + rid)
    assert r.relation == (">=" if r.kind is Kind.LOWER_BOUND else "=")
