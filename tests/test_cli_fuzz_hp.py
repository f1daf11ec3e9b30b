"""Bad inputs to hanzely2023 and philippenko2025 through the command line: points that
describe no instance of a result's hypotheses (mu above a smoothness constant, a block
structure no objective has, a probability outside (0, 1), a target above the initial error,
a condition number below 1, weights that Definition 1 cannot produce, ...), refused by
``eval``, ``solve`` and ``complexity`` alike, and unknown ids or forms for ``show``.

Each case exits 2 with exactly one line on stderr that names the input and its value, with
no traceback, no warning and nothing on stdout (the helper of tests/test_cli_fuzz.py runs
:func:`pflbounds.cli.main` in this process).
"""

from __future__ import annotations

import pytest
from cli_fuzz_helpers import run_cli as _run
from test_cli_fuzz import _with, _without

# hanzely2023: admissible points of each result (every case below breaks one thing)
T1 = ["B=4", "Lb=1", "Lw=1", "M=10", "eps=0.01", "mu=0.1", "sigma2=1", "tau=2", "zeta2=0.1"]
T5 = [*T1[:4], "mu=0.1", "sigma2=1", "tau=2", "zeta2=0.1", "K=100", "eta=0.01", "Dw0=1",
      "Db0=1"]
T7 = ["Delta0=1", "eps=0.01", "Lw=4", "Lb=1", "mu=0.5"]
T6 = ["Delta0=1", "eps=0.01", "Lw=1", "Lcw=4", "Lcb=2", "mu=0.5", "n=10"]
T8 = ["Delta0=1", "eps=0.01", "Lcw=4", "Lcb=2", "mu=0.5", "n=10", "rho=0.1"]
T8P = ["Lcw=4", "Lcb=2", "mu=0.5", "pw=0.5", "rho=0.1"]
T9 = [*T8, "pw=0.5"]
L2 = ["mup=0.2", "Lp=2", "Lcp=4", "lam=1", "M=5"]
L3 = ["Lam=2", "Lcp=4", "Lp=2", "M=5", "amax=0.3", "amin=0.1", "mup=0.2"]
MX2 = ["Lcp=4", "Lp=2", "lam=1", "mup=0.2", "n=10"]
RES = ["mu=0.5", "LwR=1", "LbR=2", "LcwR=4", "LcbR=4", "n=10"]
L9 = ["B=4", "C1=1", "C2=1", "G2avg=2", "Gbar2=1", "M=5", "lam_dis=2", "s1sq=1", "s2dif=1",
      "s2sq=1"]
L10 = ["Gbar2=1", "Ghat2=1.2", "L=2", "Vk=0.1", "etak=0.1"]
L11 = ["Fhat=0.5", "Gbar2=1", "L=2", "Vk=0.1", "etak=0.1", "mu=1"]
L13 = ["C1=1", "C2=1", "L=2", "M=3", "etak=0.1", "lam_dis=1", "mu=1", "tau=2"]
L7 = ["B=4", "Lw=1", "SumW=3", "SumWF=1", "eta=0.01", "sigma2=1", "tau=2", "zeta2=0.1"]
HC = ["mu=0.1", "Lw=1", "Lb=1", "Lcw=2", "Lcb=3", "n=10", "eps=0.01"]
"""hanzely2023 calculator, constants given directly."""

# philippenko2025
PT1 = ["S_eff=1", "T=10", "beta=1", "eps0=1", "eta=0.4", "kappa_w=0.5", "mu=0.5"]
PT2 = ["T=10", "beta=1", "eps0=1", "eta=0.4", "kappa_w=0.5", "mu=0.5", "sigma_suf2=1"]
PC1 = ["C=2", "beta=1", "eps=0.1", "mu=0.5", "sigma_suf2=1"]
PC1C = [*PC1, "eps0=1", "gamma0=3", "kappa_w=1"]
PT3 = ["T=10", "beta=1", "eps0=1", "kappa_w=0.5", "sigma_suf2=1"]
PS2 = ["Asum=1.5", "G=1", "beta=1", "eta=0.1", "sigma_eff2=1"]
PCX = ["mu=1", "beta=2", "eps=0.1", "sigma2=1", "lam=0.5", "N=4", "clusters=2",
       "b_between=1"]
"""philippenko2025 calculator, the clustered description of Appendix A."""


def _ev(rid: str, items: list[str], *form: str) -> list[str]:
    return ["eval", rid, *(["--form", form[0]] if form else []), *items]


def _cases() -> list[tuple[list[str], str]]:
    """(argv, a piece naming the bad input and its value that the error line must contain)."""
    c: list[tuple[list[str], str]] = []
    add = c.append
    h, p = "hanzely2023.", "philippenko2025."

    # --- hanzely2023: mu against the blocks' smoothness (Assumption 1)
    add((_ev(h + "theorem1", _with(T1, "mu", "2")), "Lw=1, mu=2"))
    add((_ev(h + "theorem1", [*_with(T1, "mu", "2"), "Dw0=1", "Db0=1"], "explicit"),
         "Lw=1, mu=2"))
    add((_ev(h + "table1_lsgd", _with(T1, "Lb", "0.05")), "Lb=0.05, mu=0.1"))
    add((_ev(h + "theorem5", _with(T5, "mu", "1.5")), "mu=1.5"))
    add((_ev(h + "theorem5", _with(T5, "mu", "1.5"), "corrected"), "mu=1.5"))
    add((_ev(h + "theorem7", _with(T7, "mu", "2")), "Lb=1, mu=2"))
    add((_ev(h + "theorem7_parameters", _with(_without(T7, "eps"), "mu", "5")[1:]),
         "mu=5"))
    add((_ev(h + "acd_contraction", ["Lw=1", "Lb=2", "mu=1.5"]), "Lw=1, mu=1.5"))
    add((_ev(h + "table1_acd", ["Lw=3", "Lb=0.5", "mu=1"]), "Lb=0.5, mu=1"))
    add((_ev(h + "theorem8", _with(T8, "mu", "3")), "Lcb=2, mu=3"))
    add((_ev(h + "theorem8_parameters", _with(T8P, "mu", "5")), "mu=5"))
    add((_ev(h + "table1_asvrcd", ["Lcw=1", "Lcb=1", "mu=2", "n=5"]), "mu=2"))
    add((_ev(h + "theorem6", _with(T6, "mu", "1.5")), "Lw=1, mu=1.5"))
    add((_ev(h + "unrescaled", ["Lw=1", "Lb=1", "Lcw=1", "Lcb=1", "M=2", "mu=3"]), "mu=3"))
    add((_ev(h + "table2_residual", _without(_with(RES, "mu", "1.5"), "n")), "LwR=1, mu=1.5"))
    add((_ev(h + "table3_residual", _with(RES, "mu", "3"), "corrected"), "mu=3"))
    # ... and a block structure no objective has (L^w = L^beta = 0)
    add((_ev(h + "theorem7", _with(_with(T7, "Lw", "0"), "Lb", "0")), "Lb=0, Lw=0"))
    add((_ev(h + "theorem2", ["B=4", "Dist0=1", "Lb=0", "Lw=0", "M=10", "eps=0.01",
                              "sigma2=1", "tau=2", "zeta2=0.1"]), "Lb=0, Lw=0"))
    add((_ev(h + "lemma5", ["Fgap=1", "Lb=0", "Lw=0", "Vk=1", "zeta2=1"]), "Lb=0, Lw=0"))
    add((_ev(h + "lemma15", ["DF=1", "Lcw=0", "Lcb=0", "pw=0.5"]), "Lcb=0, Lcw=0"))
    # footnote 1: Lcal >= L >= Lcal/n
    add((_ev(h + "theorem6", _with(T6, "Lcw", "0.5")), "Lw=1 > Lcw=0.5"))
    add((_ev(h + "theorem6", _with(T6, "n", "2")), "n=2"))
    add((_ev(h + "unrescaled", ["Lw=1", "Lb=3", "Lcw=1", "Lcb=2", "M=2", "mu=0.5"]),
         "Lb=3 > Lcb=2"))
    add((_ev(h + "table3_residual", [*_with(RES, "LcbR", "1"), "mup=0.5"]),
         "LbR=2 > LcbR=1"))
    # the base losses of Section 2 (Lemma 2's footnote: Lcal' >= L' >= mu')
    add((_ev(h + "lemma2", _with(L2, "Lp", "0.1")), "mup=0.2 > Lp=0.1"))
    add((_ev(h + "lemma2", _with(L2, "Lcp", "1")), "Lp=2 > Lcp=1"))
    add((_ev(h + "table2_fl", ["mup=3", "Lp=2", "Lcp=4"]), "mup=3 > Lp=2"))
    add((_ev(h + "table3_mx2", _with(MX2, "Lcp", "40")), "Lcp=40, Lp=2, n=10"))
    add((_ev(h + "table3_fl", _with(MX2, "n", "1")[:2] + ["mup=0.2", "n=1"], "corrected"),
         "Lcp=4, Lp=2, n=1"))
    # APFL2's mixing weights (Eq. (12), Lemma 3)
    add((_ev(h + "lemma3", _with(L3, "amin", "0.5")), "amin=0.5 > amax=0.3"))
    add((_ev(h + "lemma3", _with(_with(L3, "amax", "1"), "Lam", "3"), "corrected"), "amax=1"))
    add((_ev(h + "table3_apfl2", [*_without(_with(L3, "amin", "0"), "M"), "n=10"]),
         "amin=0"))
    # probabilities of ASVRCD-PFL
    add((_ev(h + "theorem9", _with(T9, "pw", "0"), "corrected"), "pw=0"))
    add((_ev(h + "theorem9", _with(T9, "pw", "1"), "corrected"), "pw=1"))
    add((_ev(h + "theorem8_parameters", _with(T8P, "rho", "0")), "rho=0"))
    add((_ev(h + "lemma15", ["DF=1", "Lcw=1", "Lcb=1", "pw=0"]), "pw=0"))
    # the target against the initial error: log(Delta0/eps) < 0
    add((_ev(h + "theorem7", _with(T7, "eps", "2")), "eps=2 >= Delta0=1"))
    add((_ev(h + "theorem6", _with(T6, "eps", "1"), "appendix"), "eps=1 >= Delta0=1"))
    add((_ev(h + "theorem8", _with(T8, "Delta0", "0.001")), "eps=0.01 >= Delta0=0.001"))
    add((_ev(h + "theorem9", _with(_without(T9, "Lcb"), "eps", "5") + ["Lb=2"]),
         "eps=5 >= Delta0=1"))
    # a condition number, sums of weights, the triangle and Jensen inequalities
    add((_ev(h + "eq54", ["kap=0.5", "K=3", "ystar2=1"]), "kap=0.5"))
    add((_ev(h + "lemma7", _with(L7, "SumW", "0.5")), "SumW=0.5"))
    add((_ev(h + "proposition1_35", ["u2=1", "v2=1", "uv2=5"]), "uv2=5"))
    add((_ev(h + "proposition1_35", ["u2=4", "v2=1", "uv2=0.1"]), "uv2=0.1"))
    add((_ev(h + "proposition1", ["Df=5", "L=2", "dist2=1", "meansq=1", "u2=1", "v2=1",
                                  "xi=1"]), "Df=5"))
    add((_ev(h + "lemma9", _with(L9, "G2avg", "0.5")), "G2avg=0.5"))
    add((_ev(h + "lemma9", _with(L9, "G2avg", "10")), "G2avg=10"))
    add((_ev(h + "lemma10", _with(L10, "Ghat2", "9")), "Ghat2=9"))
    add((_ev(h + "lemma11", _with(L11, "Fhat", "50")), "Fhat=50"))
    add((_ev(h + "lemma13", _with(L13, "etak", "2")), "etak=2"))
    add((_ev(h + "lemma11", _with(L11, "mu", "3")), "mu=3 > L=2"))

    # --- hanzely2023: solve refuses the same points
    add((["solve", h + "theorem7", "--part", "iterations", "--for", "eps", "--target", "10",
          *_without(_with(T7, "mu", "2"), "eps")], "mu=2"))
    add((["solve", h + "theorem1", "--for", "eps", "--target", "100",
          *_without(_with(T1, "Lb", "0.01"), "eps")], "Lb=0.01, mu=0.1"))
    add((["solve", h + "theorem6", "--form", "appendix", "--part", "grad_w", "--for", "Lcw",
          "--target", "10",
          *_without(_with(T6, "mu", "1.5"), "Lcw")], "Lw=1, mu=1.5"))

    # --- hanzely2023: the calculator refuses what eval refuses
    cx = ["complexity", "--paper", "hanzely2023"]
    add(([*cx, *_with(HC, "mu", "2")], "Lw=1, mu=2"))
    add(([*cx, *_with(_with(HC, "Lw", "0"), "Lb", "0")], "Lb=0, Lw=0"))
    add(([*cx, *_with(HC, "eps", "2")], "eps=2 >= Delta0=1"))
    add(([*cx, *HC, "Delta0=0.001"], "eps=0.01 >= Delta0=0.001"))
    add(([*cx, *_with(HC, "Lcb", "30")], "Lcb=30, n=10"))
    add(([*cx, *_with(HC, "Lcw", "0.5")], "Lw=1 > Lcw=0.5"))
    add(([*cx, "--objective", "fl", "mup=2", "Lp=1", "Lcp=4", "n=10", "eps=0.01"],
         "mup=2 > Lp=1"))
    add(([*cx, "--objective", "mx2", "mup=0.2", "Lp=2", "Lcp=1", "lam=1", "M=5", "n=10",
          "eps=0.01"], "Lp=2 > Lcp=1"))
    add(([*cx, "--objective", "apfl2", "alpha=1", "Lp=1", "Lcp=2", "mup=0.5", "Lam=2",
          "M=2", "eps=0.01"], "alpha=1"))
    add(([*cx, "--objective", "apfl2", "amax=0.2", "amin=0.4", "Lp=1", "Lcp=2", "mup=0.5",
          "Lam=2", "M=2", "eps=0.01"], "amin=0.4 > amax=0.2"))
    add(([*cx, "--objective", "residual", *_with(RES, "mu", "1.5"), "eps=0.01"],
         "LwR=1, mu=1.5"))
    add(([*cx, "--objective", "ws2", "mup=0.5", "Lp=1", "Lcp=2", "M=3", "n=10", "eps=0.01",
          "tau=0", "B=1", "sigma2=1", "zeta2=0"], "tau=0"))

    # --- philippenko2025: kappa <= 1, mu <= beta, lambda <= 1, psi_min > 0, eps <= eps0
    add((_ev(p + "theorem1", _with(PT1, "kappa_w", "2")), "kappa_w=2"))
    add((_ev(p + "theorem1", _with(PT1, "mu", "2"), "corrected"), "mu=2 > beta=1"))
    add((_ev(p + "theorem2_constant", _with(PT2, "kappa_w", "1.5")), "kappa_w=1.5"))
    add((_ev(p + "theorem2_floor", ["beta=1", "eta=0.1", "kappa_w=0.5", "mu=3",
                                    "sigma_suf2=1"]), "mu=3 > beta=1"))
    add((_ev(p + "theorem3", _with(PT3, "kappa_w", "2"), "explicit"), "kappa_w=2"))
    add((_ev(p + "theorem3_step", _with(PT3, "kappa_w", "3")), "kappa_w=3"))
    add((_ev(p + "theorem3", ["T=10", "beta=1", "eps0=1", "eta=1.5", "kappa_w=2",
                              "sigma_eff2_avg=1"], "corrected"), "kappa_w=2"))
    add((_ev(p + "corollary1", _with(PC1, "mu", "2")), "mu=2 > beta=1"))
    add((_ev(p + "corollary1", _with(PC1C, "eps", "2"), "corrected"), "eps=2 > eps0=1"))
    add((_ev(p + "corollary1", _with(PC1, "C", "1")), "C=1"))
    add((_ev(p + "corollary1_uniform", [*_without(PC1, "sigma_suf2"), "Nstar=2",
                                        "psi_min=0", "sigma2=1"]), "psi_min=0"))
    add((_ev(p + "corollary1_binary", [*_without(PC1, "sigma_suf2"), "Nstar=2", "lam=1.5",
                                       "sigma2=1"]), "lam=1.5"))
    add((_ev(p + "section4_lower_bound", ["Nstar=2", "beta=1", "eps=0.1", "mu=4",
                                          "sigma2=1"]), "mu=4 > beta=1"))
    add((_ev(p + "section4_sufficient_variance", ["Nstar=2", "lam=3", "sigma2=1"]), "lam=3"))
    add((_ev(p + "remark3_binary", ["lam=2"]), "lam=2"))
    add((_ev(p + "definition3_binary", ["lam=1.2", "r=0.5"]), "lam=1.2"))
    add((_ev(p + "theorem2_decreasing_step", ["C=2", "beta=1", "mu=2", "t=1", "gamma0=10",
                                              "kappa_w=1"], "corrected"), "mu=2 > beta=1"))
    add((_ev(p + "theorem2_decreasing_step", ["C=2", "beta=1", "mu=0.5", "t=1", "gamma0=0",
                                              "kappa_w=1"], "corrected"), "gamma0=0"))
    add((_ev(p + "theorem2_decreasing", [*PT2[:3], "C=2", "kappa_w=1", "mu=1",
                                         "sigma_suf2=1"]), "C=2, beta=1"))
    # Definitions 1-3: the ratio where grad R_i = 0, weights Definition 1 cannot produce
    add((_ev(p + "definition1_ratio", ["D=0", "G=0"]), "G=0"))
    add((_ev(p + "definition1_ratio", ["D=1", "G=0"]), "G=0"))
    add((_ev(p + "definition1", ["phi_r=0.5", "sigma_eff2=8", "sigma_k2=1"]),
         "sigma_eff2=8"))
    add((_ev(p + "s2", _with(PS2, "Asum", "0.5")), "Asum=0.5"))
    add((_ev(p + "remark3_continuous", ["SinvSum=0.5"]), "SinvSum=0.5"))

    # --- philippenko2025: solve and the calculator
    add((["solve", p + "corollary1", "--for", "eps", "--target", "10",
          *_without(_with(PC1, "mu", "2"), "eps")], "mu=2 > beta=1"))
    add((["solve", p + "theorem2_constant", "--for", "T", "--target", "0.5",
          *_without(_with(PT2, "kappa_w", "4"), "T")], "kappa_w=4"))
    px = ["complexity", "--paper", "philippenko2025"]
    add(([*px, *_with(PCX, "mu", "3")], "mu=3 > beta=2"))
    add(([*px, *PCX, "C=1"], "C=1"))
    add(([*px, *PCX, "C=0.5"], "C=0.5"))
    add(([*px, *_with(PCX, "lam", "1.5")], "lam=1.5"))
    add(([*px, *_with(PCX, "lam", "0")], "lam=0"))
    add(([*px, *PCX, "eps0=0.01"], "eps=0.1 > eps0=0.01"))
    add(([*px, *PCX, "eta=5"], "eta=5, mu=1"))
    add(([*px, *_with(PCX, "mu", "-1")], "mu=-1"))
    add(([*px, *PCX, "gamma0=-1", "eps0=1"], "gamma0=-1"))
    add(([*px, *PCX, "gamma0=0", "eps0=1"], "gamma0=[0, 0, 0, 0]"))
    add(([*px, *_with(PCX, "N", "2.5")], "N=2.5"))
    add(([*px, *_with(PCX, "b_between", "-1")], "b_between=-1"))
    add(([*px, *_with(PCX, "sigma2", "-1")], "sigma2 of client 0 is -1"))
    add(([*px, *_with(PCX, "clusters", "9")], "clusters=9, N=4"))

    # --- show: unknown ids and forms (Lemma 5's looser corrected form is gone)
    add((["show", h + "theorem77"], "unknown result 'hanzely2023.theorem77'"))
    add((["show", h + "lemma5", "--form", "corrected"], "--form 'corrected'"))
    add((["show", p + "theorm2_constant"], "did you mean philippenko2025.theorem2_constant"))
    add((["show", p + "theorem2_decreasing", "--form", "shifted"], "--form 'shifted'"))
    add((["show", "hanzely2023"], "'hanzely2023' is a paper"))
    add((["eval", h + "lemma6", "--form", "corrected", "B=4", "Fgap=1", "Lb=0", "Lw=1",
          "M=10", "Vk=0.5", "sigma2=1", "zeta2=0.1"], "--form 'corrected'"))
    return c


CASES = _cases()


def test_at_least_70_bad_inputs():
    assert len(CASES) >= 70
    assert len({tuple(a) for a, _ in CASES}) == len(CASES)  # no case twice


@pytest.mark.parametrize(("argv", "piece"), CASES, ids=[" ".join(a[:2]) for a, _ in CASES])
def test_bad_input_is_one_line_exit_2(argv, piece, capsys):
    code, out, err, caught = _run(argv, capsys)
    lines = err.splitlines()
    assert code == 2, (code, err, out[:200])
    assert len(lines) == 1, err
    assert lines[0].startswith("pflbounds"), err
    assert "Traceback" not in err
    assert out == ""
    assert not caught, [str(w.message) for w in caught]
    assert piece in lines[0], (piece, lines[0])
