"""Bad inputs to erickson2025 and scott2024 through the command line: inputs outside their
domains, points that break an instance relation (s <= n, c <= n, er^ <= M, R^2 <= 1, a
Spearman correlation in [-1, 1], K >= log(8mn), the triangle inequality of Lemma A.2),
side conditions (step-size rules, lambda in (1, 4mn), the non-trivial case of Gamma(lambda*)),
solves without an answer, and bad ids and forms. Each exits 2 with exactly one line on
stderr that names the input and its value (or the id, form or unknown), never a traceback,
a warning or a number on stdout. Runs through :func:`pflbounds.cli.main` with the helpers
of ``test_cli_fuzz``.
"""

from __future__ import annotations

from cli_fuzz_helpers import one_line_problems
from cli_fuzz_helpers import run_cli as _run
from test_cli_fuzz import _with, _without

# ---------------------------------------------------------------------------- erickson2025
PROP34 = ["L_X=1", "W1=0.5", "gamma=2"]
A1 = ["L=2", "n=6", "s=3", "E_th_phi=0.5", "sigma2=0.1"]
A2_4 = ["L=2", "eta=0.25", "f_v=1", "ip=0.1", "a1=0.2", "a2=0.3", "a3=0.05", "delta=0.01"]
THM43 = ["L=2", "n=30", "s=10", "K=50", "Delta0=3", "sigma2=0.4", "delta=0.01"]
FLOOR = ["L=2", "n=30", "s=10", "sigma2=0.4", "delta=0.01"]
ITER = [*FLOOR, "Delta0=3", "epsG=100"]
ADM = ["L=2", "eta=0.1", "n=30", "s=10"]
E = "erickson2025."


def _erickson() -> list[tuple[list[str], list[str]]]:
    c: list[tuple[list[str], list[str]]] = []

    def ev(rid: str, base: list[str], name: str, value: str, *pieces: str,
           form: str | None = None) -> None:
        f = ["--form", form] if form else []
        c.append((["eval", E + rid, *f, *_with(base, name, value)],
                  [f"{name}={value}", *pieces]))

    # domains
    for name, value in (("gamma", "0"), ("gamma", "-1"), ("gamma", "inf"), ("W1", "-0.5"),
                        ("L_X", "0")):
        ev("proposition3_4", PROP34, name, value, "is outside its domain")
    ev("proposition3_4_eq3", ["gamma=2", "gap=0.3"], "gap", "-0.1", "a number >= 0")
    ev("lemmaA1", A1, "s", "2.5", "an integer >= 1")
    ev("lemmaA1", A1, "E_th_phi", "-1", "is outside its domain")
    ev("lemmaA1", A1, "sigma2", "-0.1", "is outside its domain")
    ev("lemmaA2_4", A2_4, "a1", "-0.2", "is outside its domain")
    ev("lemmaA2_4", A2_4, "delta", "-0.01", "is outside its domain")
    ev("lemmaA2_4", A2_4, "eta", "0", "is outside its domain")
    ev("lemmaA2_5", ["eta=0.25", "delta=0.02"], "delta", "-1", "is outside its domain")
    ev("lemmaA2_5", ["eta=0.25", "delta=0.02"], "eta", "-0.25", "is outside its domain")
    ev("theorem4_3", THM43, "K", "0", "is outside its domain", form="printed")
    ev("theorem4_3", THM43, "Delta0", "-3", "is outside its domain", form="printed")
    ev("corollary_inexact_step", ["eta=0.25", "delta=0.02"], "delta", "-0.1",
       "is outside its domain")
    ev("table1_error", ["err_ref=1"], "err_ref", "-1", "a number >= 0")
    ev("table1_r2", ["r2_ref=0.8"], "r2_ref", "inf", "a real number")
    ev("section5_2", ["acc_ref=0.9"], "acc_ref", "1.5", "a number in [0, 1]")
    ev("section5_2", ["acc_ref=0.9"], "acc_ref", "91.3", "a number in [0, 1]")

    # instance relations
    ev("lemmaA1", A1, "s", "7", "> n=6", "a subset of the n clients")
    ev("theorem4_3", THM43, "s", "31", "> n=30", form="printed")
    ev("theorem4_3", [*THM43, "eta=0.1"], "s", "31", "> n=30", form="corrected")
    ev("corollary_floor", FLOOR, "s", "31", "> n=30", form="corrected")
    ev("corollary_iterations", ITER, "n", "5", "s=10 > n=5", form="corrected")
    ev("admissible_s", ADM, "s", "40", "> n=30", form="corrected")
    ev("lemmaA2_4", _with(_with(_with(A2_4, "a1", "0"), "a2", "0"), "delta", "0"), "a3", "1",
       "Lemma A.2 (5)", "left side 1, right side 0")
    ev("table1_r2", ["r2_ref=0.8"], "r2_ref", "1.2", "R^2")
    ev("fig1", ["rho_ref=0.3"], "rho_ref", "1.01", "Spearman")
    ev("fig1", ["rho_ref=0.3"], "rho_ref", "-2", "Spearman")

    # side conditions
    ev("lemmaA1", A1, "s", "1", "condition s >= 2")
    ev("theorem4_3", THM43, "s", "30", "condition s <= n - 1", form="printed")
    ev("theorem4_3", [*THM43, "eta=0.1"], "eta", "0.3", "condition L*eta < 1/2",
       form="explicit")
    ev("theorem4_3_eta38", THM43, "s", "2", "10 s^4 >= 9 n^2 + 9 n s", form="corrected")
    ev("corollary_iterations", ITER, "epsG", "1", "epsG > (8L/3) eps", form="printed")
    ev("admissible_s", ADM, "s", "30", "condition s <= n - 1", form="printed")

    # solve: a bad fixed input, an unreachable target
    c.append((["solve", E + "theorem4_3_eta38", "--form", "corrected", "--for", "K",
               "--target", "10", *_with(_without(THM43, "K"), "s", "31")], ["s=31 > n=30"]))
    c.append((["solve", E + "admissible_s", "--form", "corrected", "--for", "s", "--target",
               "1", *_with(_without(ADM, "s"), "n", "0")], ["n=0 is outside its domain"]))
    c.append((["solve", E + "lemmaA1", "--for", "n", "--target", "1",
               *_with(_without(A1, "n"), "E_th_phi", "-1")], ["E_th_phi=-1"]))
    c.append((["solve", E + "corollary_iterations", "--for", "epsG", "--target", "100",
               "--form", "corrected", *_with(_without(ITER, "epsG"), "s", "31")],
              ["s=31 > n=30"]))
    c.append((["solve", E + "lemmaA1", "--for", "n", "--target", "0.1", *_without(A1, "n")],
              ["target 0.1 is below the floor", "n in [1, 1e+15]"]))

    # ids, forms, words
    c.append((["show", E + "theorem43"], ["unknown result 'erickson2025.theorem43'"]))
    c.append((["show", E + "lemmaA3"], ["unknown result 'erickson2025.lemmaA3'"]))
    c.append((["show", "Erickson2025.theorem4_3"], ["unknown result 'Erickson2025.theorem4_3'"]))
    c.append((["show", "erickson2025"], ["'erickson2025' is a paper"]))
    c.append((["eval", E + "theorem4_3", "--form", "explict", *THM43], ["--form 'explict'"]))
    c.append((["eval", E + "fig1", "rho_ref=0.3", "rho_ref=0.4"], ["rho_ref is given twice"]))
    c.append((["eval", E + "fig1", "rho_ref=nan"], ["unknown name 'nan'"]))
    c.append((["complexity", "--paper", "erickson2025", "L=1"],
              ["no complexity comparison for paper 'erickson2025'"]))
    return c


# ---------------------------------------------------------------------------- scott2024
C2 = ["c=2", "n=4", "Vsum=1"]
C2_45 = [*C2, "a_max=0.5"]
C3 = ["L1=1", "b=4", "b1=1", "b2=3", "beta=0.001", "ell=2", "sigma1_2=1", "sigma2_2=0.5",
      "sigma3_2=0.5"]
C5 = ["G2=1", "L1=1", "b=4", "b1=1", "b2=3", "beta=0.001", "c=2", "gammaG2=0.1", "k=2",
      "sigma1_2=1", "sigma2_2=0.5", "sigma3_2=0.5"]
T31 = ["Delta0=2", "L=9.5", "L1=1.3", "T=4000000", "b=4", "b1=1.1", "b2=3", "c=3",
       "gammaG2=0.4", "k=2", "sigma1_2=1.7", "sigma2_2=0.6", "sigma3_2=0.25"]
T31B = [*T31, "beta=0.0001"]
B1 = ["er_hat=0.2", "M=1", "KLmeta=4", "KLsum=12", "n=50", "m=30", "delta=0.1"]
GAM = ["Kc=10", "lam_pb=50", "m=20", "n=10"]
T32 = ["emp=0.27", "eta_h2=3", "eta_v2=2", "alpha_h=0.1", "alpha_v=0.2", "alpha_theta=0.5",
       "theta2=1.4", "n=20000", "m=200", "delta=0.05"]
KL = ["alpha_h=0.3", "alpha_v=0.7", "eta_h2=2", "eta_v2=0.5"]
S = "scott2024."


def _scott() -> list[tuple[list[str], list[str]]]:
    c: list[tuple[list[str], list[str]]] = []

    def ev(rid: str, base: list[str], name: str, value: str, *pieces: str,
           form: str | None = None) -> None:
        f = ["--form", form] if form else []
        c.append((["eval", S + rid, *f, *_with(base, name, value)],
                  [f"{name}={value}", *pieces]))

    # domains
    ev("lemmaC2", C2, "c", "0", "is outside its domain")
    ev("lemmaC2", C2, "c", "2.5", "an integer >= 1")
    ev("lemmaC2", C2, "Vsum", "-1", "is outside its domain")
    ev("lemmaC2_45", C2_45, "a_max", "-1", "is outside its domain")
    ev("lemmaC1", ["L1=1", "L2=0.5", "L3=0.2", "b1=1", "b2=3"], "L2", "-1", "a number >= 0")
    ev("lemmaC1", ["L1=1", "L2=0.5", "b1=1", "b2=3", "lam_h=0.1", "lam_v=0.3"], "lam_h",
       "-0.1", "is outside its domain", form="explicit")
    ev("lemmaC3", C3, "b", "0", "is outside its domain", form="corrected")
    ev("lemmaC3", C3, "ell", "0", "is outside its domain", form="corrected")
    ev("lemmaC3", C3, "sigma1_2", "-1", "is outside its domain", form="corrected")
    ev("lemmaC4", [*_without(C5, "c"), "ip_f=0.5"], "ip_f", "inf", "a real number",
       form="alg2")
    ev("lemmaC5", C5, "gammaG2", "-1", "is outside its domain", form="corrected")
    ev("lemmaC5", C5, "k", "1.5", "an integer >= 1", form="corrected")
    ev("theorem3_1", T31, "T", "0", "is outside its domain")
    ev("theorem3_1", T31, "Delta0", "-1", "is outside its domain")
    ev("theorem3_1", T31, "b", "0", "is outside its domain")
    ev("theorem3_1_step", ["T=100", "c=1", "k=1"], "T", "-5", "is outside its domain")
    ev("theorem3_1_T_min", ["L=9", "L1=1", "c=1", "k=1"], "L", "0", "is outside its domain",
       form="corrected")
    ev("theorem3_1_T_min", ["L=9", "L1=1", "b2=3", "c=1", "k=1"], "b2", "-3",
       "is outside its domain", form="explicit")
    ev("theoremB1", B1, "delta", "1.5", "a number in [0, 1]")
    ev("theoremB1", B1, "KLmeta", "-1", "is outside its domain")
    ev("theoremB1", B1, "M", "0", "is outside its domain")
    ev("theoremB1", B1, "er_hat", "-0.1", "is outside its domain")
    ev("theoremB1_part1", ["KLsum=12", "M=1", "delta=0.1", "m=30", "n=50"], "m", "0",
       "is outside its domain")
    ev("theoremB1_part2", ["KLmeta=4", "M=1", "delta=0.1", "n=50"], "delta", "-0.1",
       "is outside its domain")
    ev("theoremB1_lambda_star", ["Kc=10", "m=20", "n=10"], "Kc", "0", "is outside its domain")
    ev("kl_gaussian", KL, "alpha_h", "0", "is outside its domain")
    ev("kl_gaussian", KL, "eta_h2", "-1", "is outside its domain")
    ev("theorem3_2", T32, "emp", "1.2", "a number in [0, 1]")
    ev("theorem3_2", T32, "emp", "-0.1", "a number in [0, 1]")
    ev("theorem3_2", [*T32, "G=6"], "G", "0", "is outside its domain", form="corrected")
    ev("theorem3_2", [*T32, "G=6"], "delta", "1.5", "a number in [0, 1]", form="corrected")
    ev("theorem3_2", T32, "theta2", "-1", "is outside its domain")
    ev("theorem3_2", T32, "alpha_theta", "0", "is outside its domain")
    ev("communication", ["c=5", "dtheta=100", "deta_v=10", "l_desc=4"], "c", "0",
       "is outside its domain")
    ev("communication_fedavg", ["c=5", "dtheta=100"], "dtheta", "1.5", "an integer >= 1")
    ev("table1", ["er_ref=0.2"], "er_ref", "1.1", "a number in [0, 1]")
    ev("table8", ["er_ref=0.2"], "er_ref", "-0.2", "a number in [0, 1]")

    # instance relations
    ev("lemmaC2", C2, "c", "5", "> n=4", "subset of the n clients")
    ev("lemmaC2_45", _with(C2_45, "n", "10"), "c", "11", "> n=10")
    ev("theoremB1", B1, "er_hat", "1.5", "> M=1", "the loss takes values in [0, M]")
    ev("theoremB1", _with(B1, "M", "0.5"), "er_hat", "0.6", "> M=0.5")
    ev("theoremB1_gamma", GAM, "Kc", "1", "K >= log(8mn)")
    ev("theoremB1_lambda_star", ["Kc=10", "m=20", "n=10"], "Kc", "5", "K >= log(8mn)",
       form="corrected")
    ev("fig3", ["rho_0=0.2"], "rho_0", "1.5", "Spearman")
    ev("fig3", ["rho_0=0.2"], "rho_0", "-1.5", "Spearman")

    # side conditions
    # the point the b2^2-weighted (e) accepted: L = 1, L1 = 10, b2 = 0.1, beta = 0.01
    brief = T31B
    for name, value in (("L", "1"), ("L1", "10"), ("b2", "0.1"), ("T", "1000"), ("c", "1"),
                        ("k", "1")):
        brief = _with(brief, name, value)
    ev("theorem3_1", brief, "beta", "0.01", "(e) c (27 L1^2 beta k^2", "left side 27.56",
       form="corrected")
    ev("theorem3_1", T31B, "beta", "0.1", "(a) beta <= 1/(8 L k)", form="corrected")
    ev("theorem3_1", T31B, "beta", "0.005", "(b) beta <= 1/(56 L k)", form="explicit")
    ev("theorem3_1", T31, "T", "500000", "(b) beta <= 1/(56 L k)", form="rederived")
    ev("theoremB1", B1, "delta", "0", "condition delta > 0")
    ev("theoremB1", B1, "n", "5", "condition n >= 8", form="corrected")
    ev("theoremB1_part2", ["KLmeta=4", "M=1", "delta=0.1", "n=50"], "n", "7",
       "condition n >= 8", form="corrected")
    ev("theoremB1_gamma", GAM, "lam_pb", "800", "lambda < 4mn")
    ev("theoremB1_gamma", GAM, "lam_pb", "1", "lambda > 1")
    ev("theoremB1_gamma", GAM, "lam_pb", "0.5", "lambda > 1")
    ev("theoremB1_gamma_star", ["Kc=10", "m=1", "n=1"], "Kc", "1000", "lambda* < 4mn")
    ev("theoremB1_gamma_star", ["Kc=10", "m=20", "n=10"], "Kc", "399", "K + 1 < 2mn")
    ev("theoremB1_gamma_star", ["Kc=10", "m=1", "n=1"], "Kc", "1000", "lambda* < 4mn",
       form="explicit")
    ev("theorem3_2", T32, "delta", "0", "condition delta > 0")
    ev("theorem3_2", [*T32, "G=6"], "n", "4", "condition n >= 8", form="corrected")

    # solve
    t32 = _without(T32, "emp")
    c.append((["solve", S + "theorem3_2", "--for", "emp", "--target", "0.5",
               *_with(t32, "delta", "0")], ["delta=0", "condition delta > 0"]))
    c.append((["solve", S + "theorem3_2", "--for", "emp", "--target", "0.05", *t32],
              ["target 0.05 is below the floor", "emp in [0, 1]"]))
    c.append((["solve", S + "theorem3_2", "--for", "delta", "--target", "5",
               *_without(T32, "delta")], ["no smallest delta", "not attained"]))
    c.append((["solve", S + "lemmaC2", "--for", "c", "--target", "1", "n=4", "Vsum=100"],
              ["target 1 is below the floor", "c in [1, 1e+15]"]))
    c.append((["solve", S + "theoremB1_gamma", "--for", "lam_pb", "--target", "0.1",
               *_without(GAM, "lam_pb")], ["target 0.1 is below the floor", "lam_pb in"]))
    c.append((["solve", S + "theorem3_1", "--form", "corrected", "--for", "T", "--target",
               "1", *_with(_without(T31B, "T"), "beta", "1")], ["beta=1", "(a)"]))
    c.append((["solve", S + "theorem3_1", "--form", "rederived", "--for", "T", "--target",
               "1", *_with(_without(T31, "T"), "c", "0")], ["c=0 is outside its domain"]))
    c.append((["solve", S + "theoremB1", "--for", "n", "--target", "0.5",
               *_with(_without(B1, "n"), "er_hat", "2")], ["er_hat=2 > M=1"]))
    c.append((["solve", S + "lemmaC2_45", "--for", "n", "--target", "100",
               *_with(_without(C2_45, "n"), "c", "-2")], ["c=-2 is outside its domain"]))

    # ids, forms, words
    c.append((["show", S + "theorem31"], ["did you mean scott2024.theorem3_1"]))
    c.append((["show", S + "lemmaC6"], ["unknown result 'scott2024.lemmaC6'"]))
    c.append((["show", "Scott2024.theorem3_1"], ["unknown result 'Scott2024.theorem3_1'"]))
    c.append((["show", S + "theorem3_1", "--form", "alg2"], ["--form 'alg2'"]))
    c.append((["show", S + "theorem3_1_T_min", "--form", "printed"],
              ["--form 'printed'", "corrected, explicit"]))
    c.append((["eval", S + "theorem3_1_T_min", "L=9", "L1=1", "c=1", "k=1"],
              ["has no printed form"]))
    c.append((["eval", S + "theoremB1_gamma_star", "--form", "corrected", "Kc=10", "m=20",
               "n=10"], ["--form 'corrected'"]))
    c.append((["eval", S + "kl_gaussian", *KL, "alpha_h=1"], ["alpha_h is given twice"]))
    c.append((["eval", S + "theorem3_2", *T32, "foo=1"], ["unexpected input(s) foo"]))
    c.append((["eval", S + "theorem3_2", *_without(T32, "theta2")], ["needs: theta2"]))
    c.append((["complexity", "--paper", "scott2024", "c=1"],
              ["no complexity comparison for paper 'scott2024'"]))
    return c


def _cases() -> list[tuple[list[str], list[str]]]:
    return _erickson() + _scott()


def test_at_least_70_bad_inputs():
    cases = _cases()
    assert len(cases) >= 70
    assert len({tuple(a) for a, _ in cases}) == len(cases), "a case is listed twice"


def test_every_bad_input_is_one_line_exit_2(capsys):
    failures = []
    for argv, pieces in _cases():
        code, out, err, caught = _run(argv, capsys)
        problems = one_line_problems(code, out, err, caught, pieces[0])
        problems += [f"{p!r} not in the message" for p in pieces[1:] if p not in err]
        if problems:
            failures.append(f"{argv}: {'; '.join(problems)}: {err.strip()[:300]}")
    assert not failures, "\n".join(failures)
